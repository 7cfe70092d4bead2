"""A player is told when their character's turn comes in a fight (issue 14 §2), and when an attack
waits for their character's defence (issue 39 §4), by the in-app
notifications the badge counts live: one per step of the fight, and only the newest unread."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.live import notify
from campaigns.models import Notification
from sessions.models import Combatant, Encounter

KIND = "combat_turn"


def turn_notify(encounter: Encounter, combatant: Combatant, number: int, by) -> None:
    """Tell the player whose character acts now, unless that player gave the hand themselves.
    The step's number (`encounter.turn`) in the key keeps a retried step from telling twice; the
    player's older unread turn notices of this fight are marked read (they are past)."""
    character = combatant.character
    if character is None or character.owner_id is None or character.owner_id == by.pk:
        return
    prefix = f"{KIND}:{encounter.pk}:"
    Notification.objects.filter(
        user_id=character.owner_id, key__startswith=prefix, read_at__isnull=True
    ).update(read_at=timezone.now())
    text = _("À %(name)s d'agir (tour %(round)d).") % {
        "name": slot_name(character.name, number),
        "round": encounter.round,
    }
    notify(
        [
            Notification(
                user_id=character.owner_id,
                campaign_id=encounter.campaign_id,
                kind=KIND,
                key=f"{prefix}{encounter.turn}",
                text=text,
                link=reverse("sessions:table", args=[encounter.campaign_id]) + "#combat-tracker",
            )
        ]
    )


DEFENCE_KIND = "combat_defence"


def defence_notify(encounter: Encounter, target: Combatant, by, *, masked: bool, attacker) -> None:
    """Tell the target's player at once that an attack waits for their defence, naming the
    fight (and the attacker, unless it is a hidden NPC: « une attaque »). The attack's step in
    the key keeps a retried attack from telling twice."""
    character = target.character
    if character is None or character.owner_id is None or character.owner_id == by.pk:
        return
    names = {"name": character.name, "fight": encounter.name}
    if masked:
        text = _("Une attaque vise %(name)s dans « %(fight)s » : choisissez sa défense.") % names
    else:
        text = _("%(attacker)s attaque %(name)s dans « %(fight)s » : choisissez sa défense.") % {
            **names,
            "attacker": attacker.name,
        }
    notify(
        [
            Notification(
                user_id=character.owner_id,
                campaign_id=encounter.campaign_id,
                kind=DEFENCE_KIND,
                key=f"{DEFENCE_KIND}:{encounter.pk}:{encounter.turn}",
                text=text,
                link=reverse("sessions:table", args=[encounter.campaign_id]) + "#combat-tracker",
            )
        ]
    )


def slot_name(name: str, number: int) -> str:
    """A combatant's name in the initiative order, with its action's number past the first."""
    if number == 1:
        return name
    return _("%(name)s (%(number)dᵉ action)") % {"name": name, "number": number}
