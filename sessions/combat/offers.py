"""The defences a pending attack offers its target (§13), each with its exact odds (§5)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from campaigns.models import Campaign
from rules import combat as rules_combat
from rules import reference
from rules.odds import check_odds
from sessions.checks import skill_label
from sessions.combat.attacks import attack_of
from sessions.combat.harm import fighter_of
from sessions.combat.holds import held_note
from sessions.combat.steps import encounter_combatants
from sessions.models import Combatant, CombatantStatus, Encounter


@dataclass(frozen=True)
class Offered:
    """A defence the target may choose, with its characteristic and its exact odds."""

    key: str
    label: str
    characteristic: int
    skill: str
    skill_level: int
    available: bool
    note: str
    success: float | None = None  # the chance to reach the attack's total
    source: str = ""  # what gives the characteristic: "vigor", "armour", "strength"…

    @property
    def source_label(self) -> str:
        return _("Armure") if self.source == "armour" else reference.LABELS.get(self.source, "")

    @property
    def skill_label(self) -> str:
        return skill_label(self.skill)


def defences_offered(
    campaign: Campaign, encounter: Encounter, target: Combatant, by_pk: dict | None = None
) -> list[Offered]:
    """The defences the pending attack allows its target (§13), with their odds (§5 Product);
    none for a target held in an Étreinte. `by_pk`: the fight's combatants, if already read."""

    pending = encounter.pending_attack
    fighter = fighter_of(campaign, target)
    if by_pk is None:
        by_pk = {c.pk: c for c in encounter_combatants(encounter)}
    held = held_note(target, by_pk) or out_note(target)
    offered = []
    for option in fighter.defences(attack_of(pending)):
        skill, level = fighter.best_skill(option)
        paid = rules_combat.can_pay_defence(target.finesse_points)
        available = option.available and paid and not held
        note = held or option.note or ("" if paid else _("Plus de points de Finesse."))
        check = rules_combat.defence_check(option, pending["total"], skill=level)
        odds = check_odds(check).success if available else None
        offered.append(
            Offered(
                key=option.key,
                label=option.label,
                characteristic=option.characteristic,
                skill=skill,
                skill_level=level,
                available=available,
                note=note,
                success=float(odds) if odds is not None else None,
                source=option.source,
            )
        )
    return offered


def out_note(target: Combatant) -> str:
    """Why an unconscious or dead target has no defence (Reading §13, who may defend)."""
    if target.status == CombatantStatus.ACTIVE:
        return ""
    return _("%(name)s est hors de combat : le coup porte sans défense.") % {"name": target.name}
