"""A fight's step, as every combat service takes it (§13): the table's lock then the
encounter's, the caller's right to act, the combatants, and the step's log lines.

Every combat module builds on these, so this one imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.policy import is_storyteller
from sessions import writes
from sessions.models import Combatant, Encounter, EncounterStatus, TableEventKind, Visibility


class StaleTurn(ValidationError):
    """The turn moved since the page (or client) read it: 409, nothing changed."""

    http_status = 409

    def __init__(self, turn: int):
        super().__init__(
            {
                "turn": [
                    _(
                        "Le tour a déjà avancé (étape %(turn)d) : quelqu'un a agi avant vous. "
                        "Rechargez le suivi du combat."
                    )
                    % {"turn": turn}
                ]
            }
        )


class FightConflict(ValidationError):
    """The fight's state forbids the step (ended, not started, an attack awaiting its
    defence): 409 with the real cause, nothing changed."""

    http_status = 409

    def __init__(self, message: str):
        super().__init__({"encounter": [message]})


def require_storyteller(campaign: Campaign) -> None:
    if not is_storyteller(campaign):
        raise PermissionDenied(_("Seul le Conteur mène le combat."))


def encounter_lock(campaign: Campaign, encounter_id: int) -> Encounter:
    """The campaign's encounter, locked after the table (the log's ids follow commit order)."""
    writes.lock_pool(campaign)
    encounter = (
        Encounter.objects.select_for_update().filter(pk=encounter_id, campaign=campaign).first()
    )
    if encounter is None:
        raise Http404(_("Rencontre introuvable."))
    return encounter


def encounter_combatants(encounter: Encounter) -> list[Combatant]:
    return list(encounter.combatants.select_related("character").order_by("pk"))


@dataclass
class Lines:
    """A step's log lines: those every member sees, and those about hidden NPCs."""

    public: list[str]
    hidden: list[str]

    def add(self, combatant: Combatant | None, text: str) -> None:
        (self.hidden if combatant is not None and combatant.hidden else self.public).append(text)


def step_log(encounter: Encounter, by, lines: Lines, **extra) -> None:
    """Log a step's lines; `extra` joins the payload (a blow's figures, a closing summary)."""
    payload = {"encounter": encounter.pk, "round": encounter.round, "turn": encounter.turn}
    payload.update(extra)
    for texts, visibility in ((lines.public, Visibility.PUBLIC), (lines.hidden, Visibility.HIDDEN)):
        if texts:
            writes.log_event(
                campaign_id=encounter.campaign_id,
                kind=TableEventKind.COMBAT,
                summary=" ".join(texts),
                by=by,
                visibility=visibility,
                payload=payload,
            )


def encounter_running(campaign: Campaign, by, encounter_id: int, turn: int) -> Encounter:
    """Lock the fight, check the caller read its current step and may end the current
    action: the Conteur, or the player of the character acting now."""
    encounter = encounter_lock(campaign, encounter_id)
    if encounter.status == EncounterStatus.ENDED:
        raise FightConflict(_("Ce combat est terminé : il n'y a plus d'action à finir."))
    if encounter.status != EncounterStatus.RUNNING or not encounter.order:
        raise FightConflict(_("Lancez d'abord l'initiative."))
    if turn != encounter.turn:
        raise StaleTurn(encounter.turn)
    if encounter.pending_attack:
        raise FightConflict(_("Une attaque attend sa défense : résolvez-la d'abord."))
    if not is_storyteller(campaign):
        acting = encounter.order[encounter.position]["combatant"]
        owner = (
            Combatant.objects.filter(pk=acting)
            .values_list("character__owner_id", flat=True)
            .first()
        )
        if owner != by.pk:
            raise PermissionDenied(
                _("Seuls le Conteur et le joueur dont c'est le tour peuvent finir ce tour.")
            )
    return encounter
