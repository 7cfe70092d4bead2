"""A forced regeneration (§13): the acting combatant restores points to a gauge it regenerates
(at most that regeneration's points, `rules.rounds.forced_regeneration_points`) at the price of
as many serious wounds, and its action ends (`fights.turn_next`)."""

from __future__ import annotations

from dataclasses import replace as dataclass_replace

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from characters import condition as sheet_condition
from rules import combat as rules_combat
from rules import gauges as rules_gauges
from rules import reference
from rules import rounds as rules_rounds
from rules.errors import RuleError
from sessions import writes
from sessions.combat import incanting
from sessions.combat.fights import turn_next
from sessions.combat.harm import Fighter, fighter_of, npc_gauges, store_npc_gauges
from sessions.combat.holds import refuse_if_held
from sessions.combat.steps import Lines, encounter_combatants, encounter_running, step_log
from sessions.errors import violation
from sessions.models import Combatant

POINTS_MAX = 10_000


def _forceable(fighter: Fighter, gauge: str, points: int) -> int:
    """The points the combatant may force on that gauge: its own regeneration's at most."""
    if fighter.character is not None:
        regeneration = getattr(fighter.character, f"{gauge}_regeneration")
    else:
        regeneration = (fighter.combatant.profile.get("regeneration") or {}).get(gauge, 0)
    try:
        return rules_rounds.forced_regeneration_points(points, regeneration)
    except RuleError as error:
        first = error.violations[0]
        raise violation(first.field, first.message) from error


@transaction.atomic
def regeneration_force(
    *, campaign, by, encounter_id: int, turn: int, gauge: str, points: int
) -> None:
    """The acting combatant forces a regeneration (§13): it restores `points` to a gauge, adds as
    many serious wounds (`rules.combat.forced_regeneration`) and costs the action, which ends."""
    encounter = encounter_running(campaign, by, encounter_id, turn)
    if gauge not in reference.GAUGES:
        raise violation("gauge", _("Cette constitution n'existe pas."))
    if not 1 <= points <= POINTS_MAX:
        raise violation("points", _("Indiquez les points régénérés (au moins 1)."))
    acting = Combatant.objects.get(pk=encounter.order[encounter.position]["combatant"])
    if acting.held_by_id is not None:
        by_pk = {c.pk: c for c in encounter_combatants(encounter)}
        refuse_if_held(by_pk[acting.pk], by_pk, "regeneration")
    incanting.refuse_if_incanting(acting, encounter)
    fighter = fighter_of(campaign, acting, lock=True)
    points = _forceable(fighter, gauge, points)
    before = fighter.gauges()[gauge]
    if fighter.character is not None:
        sheet_condition.character_heal(
            character=fighter.character.pk, gauge=gauge, points=points, by=by
        )
        fighter.character.refresh_from_db()
        regenerated = fighter.gauges()[gauge].current - before.current
        scars = rules_combat.forced_regeneration(regenerated)
        column = f"{gauge}_scars"
        writes.sheet_write(
            fighter.character, {column: getattr(fighter.character, column) + scars}, by
        )
    else:
        gauges = npc_gauges(acting)
        healed = rules_gauges.heal(before, points)
        regenerated = healed.current - before.current
        scars = rules_combat.forced_regeneration(regenerated)
        gauges[gauge] = dataclass_replace(healed, scars=healed.scars + scars)
        store_npc_gauges(acting, gauges)
        acting.save(update_fields=["profile"])
    lines = Lines([], [])
    lines.add(
        acting,
        ngettext(
            "%(name)s force une régénération : +%(n)d en %(gauge)s, et autant de blessure grave.",
            "%(name)s force une régénération : +%(n)d en %(gauge)s, et autant de blessures graves.",
            regenerated,
        )
        % {"name": acting.name, "n": regenerated, "gauge": reference.LABELS[gauge]},
    )
    step_log(encounter, by, lines)
    turn_next(campaign=campaign, by=by, encounter_id=encounter.pk, turn=encounter.turn)
