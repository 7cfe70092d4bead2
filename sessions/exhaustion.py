"""The Conteur gives or removes Épuisement (§8 Product), at the table and in a fight, logged like
any other state change; reaching 6 kills at once (§8), a combatant too."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.policy import is_storyteller
from characters.models import Character
from rules import states as rules_states
from sessions import writes
from sessions.errors import violation
from sessions.models import Combatant, CombatantStatus, EncounterStatus, TableEvent, TableEventKind

CHANGES = (1, -1)


@transaction.atomic
def exhaustion_change(*, campaign: Campaign, by, character_id: int, change: int) -> TableEvent:
    """Give (+1) or remove (−1) one Épuisement point on a character's sheet (the Conteur)."""
    if not is_storyteller(campaign):
        raise PermissionDenied(_("Seul le Conteur donne ou retire de l'Épuisement."))
    if change not in CHANGES:
        raise violation("change", _("Donnez (+1) ou retirez (−1) un point d'Épuisement."))
    writes.lock_pool(campaign)
    if not Character.objects.filter(campaign=campaign, pk=character_id).exists():
        raise Http404(_("Personnage introuvable."))
    character = writes.lock_character(campaign, character_id, "character")
    before = rules_states.Condition(fragility=character.fragility, exhaustion=character.exhaustion)
    after = rules_states.add_exhaustion(before, change)
    if after.exhaustion == before.exhaustion:
        limit = _("n'a aucun Épuisement") if change < 0 else _("est déjà à 6 d'Épuisement")
        raise violation(
            "change", _("%(name)s %(limit)s.") % {"name": character.name, "limit": limit}
        )
    writes.sheet_write(character, {"exhaustion": after.exhaustion}, by)
    fatal = rules_states.is_fatal(after.fragility, after.exhaustion)
    if fatal:
        _dies_in_fight(campaign, character.pk)
    values = {"name": character.name, "n": after.exhaustion}
    if fatal:
        summary = _("%(name)s : Épuisement %(n)d, le Conteur l'a donné. %(name)s meurt.") % values
    elif change > 0:
        summary = _("%(name)s : Épuisement %(n)d (le Conteur en donne 1).") % values
    else:
        summary = _("%(name)s : Épuisement %(n)d (le Conteur en retire 1).") % values
    return writes.log_event(
        campaign_id=campaign.pk,
        kind=TableEventKind.CONSEQUENCE,
        summary=summary,
        by=by,
        character=character,
        payload={"exhaustion": after.exhaustion, "change": change},
    )


def _dies_in_fight(campaign: Campaign, character_id: int) -> None:
    """Épuisement 6 kills at once, in or out of a fight (§8 Reading): its combatant is dead."""
    Combatant.objects.filter(
        encounter__campaign=campaign,
        character_id=character_id,
        encounter__status=EncounterStatus.RUNNING,
    ).exclude(status=CombatantStatus.LEFT).update(status=CombatantStatus.DEAD)
