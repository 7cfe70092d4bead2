"""What each new round does by itself (§1, §8, §13): `rules.rounds.round_end` for every
combatant still there, stored and logged.

`round_ends` runs inside `sessions.combat.fights.turn_next` when a round ends (the table's lock and
the fight's are held); a character's tracks are written on its sheet (version, history), an NPC's
on its Combatant row. Two markers live in `profile`: `zero_since` (the round at whose end the
combatant was first seen at 0 Vitalité; 0 when it began the fight there) and `out_counted` (its
knock-out already saw a round's end, so the next one counts).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules import reference
from rules import rounds as rules_rounds
from rules import states as rules_states
from rules.check import RandomSource
from sessions import writes
from sessions.combat.harm import Fighter, fighter_of, store_npc_gauges
from sessions.combat.rollers import roller_alterations
from sessions.combat.steps import Lines
from sessions.models import Combatant, CombatantStatus

UPDATED = ["finesse_points", "agony", "unconscious_turns", "status", "profile"]


def round_ends(
    campaign, by, encounter, combatants: list[Combatant], lines: Lines, rng: RandomSource | None
) -> None:
    """Close round `encounter.round` and open the next for every combatant still there."""
    present = [
        c for c in combatants if c.status not in (CombatantStatus.LEFT, CombatantStatus.DEAD)
    ]
    for combatant in present:
        fighter = fighter_of(campaign, combatant, lock=True)
        end = rules_rounds.round_end(_round_fighter(fighter, encounter.round), rng)
        _store(fighter, end, by)
        _log(fighter, end, lines)
    Combatant.objects.bulk_update(present, UPDATED)


def round_one_starts(
    campaign, by, fighting: list[Combatant], lines: Lines, rng: RandomSource | None
) -> None:
    """The fight's first round starts (§8 Reading "at each turn start"): the Péril checks of
    those already in péril (`rules.rounds.round_start_perils`); the caller saves the rows."""
    for combatant in fighting:
        fighter = fighter_of(campaign, combatant, lock=True)
        if not any(g.peril and not g.stabilised for g in fighter.gauges().values()):
            continue
        start = _round_fighter(fighter, 0)
        gauges, perils = rules_rounds.round_start_perils(start, rng)
        _store_gauges(fighter, gauges, {}, by)
        for peril in perils:
            lines.add(combatant, _peril_text(fighter.name, peril))
        fragility, exhaustion = start.fragility, start.exhaustion
        if rules_states.outlook(gauges, fragility, exhaustion).dead:
            combatant.status = CombatantStatus.DEAD
            lines.add(combatant, _("%(name)s est mort.") % {"name": fighter.name})


def _regeneration(fighter: Fighter) -> dict[str, int]:
    """A character's per-gauge regeneration on its sheet, an NPC's from its stat block (§13)."""
    if fighter.character is not None:
        return {g: getattr(fighter.character, f"{g}_regeneration") for g in reference.GAUGES}
    return dict(fighter.combatant.profile.get("regeneration") or {})


def _round_fighter(fighter: Fighter, round_: int) -> rules_rounds.RoundFighter:
    combatant, character = fighter.combatant, fighter.character
    knocked_out = combatant.status == CombatantStatus.UNCONSCIOUS and combatant.unconscious_turns
    dice = roller_alterations(combatant, character)
    return rules_rounds.RoundFighter(
        gauges=fighter.gauges(),
        finesse=combatant.finesse,
        resilience=fighter.value("resilience"),
        round=round_,
        agony=fighter.agony,
        zero_since=combatant.profile.get("zero_since"),
        regeneration=_regeneration(fighter),
        knocked_out=combatant.unconscious_turns if knocked_out else 0,
        knocked_out_fresh=not combatant.profile.get("out_counted"),
        boon=dice.boon,
        bane=dice.bane,
        agony_counts=dice.agony == fighter.agony,
        fragility=character.fragility if character else combatant.profile.get("fragility", 0),
        exhaustion=character.exhaustion if character else 0,
    )


def _store(fighter: Fighter, end: rules_rounds.RoundEnd, by) -> None:
    combatant = fighter.combatant
    markers = {k: v for k, v in combatant.profile.items() if k not in ("zero_since", "out_counted")}
    if end.zero_since is not None:
        markers["zero_since"] = end.zero_since
    if end.knocked_out:
        markers["out_counted"] = True
    combatant.profile = markers
    combatant.finesse_points = end.finesse_points
    if combatant.status == CombatantStatus.UNCONSCIOUS and combatant.unconscious_turns:
        combatant.unconscious_turns = end.knocked_out
        if end.wakes:
            combatant.status = CombatantStatus.ACTIVE
    if end.outlook.dead:
        combatant.status = CombatantStatus.DEAD
    _store_gauges(fighter, end.gauges, {"agony": end.agony}, by)


def _store_gauges(fighter: Fighter, gauges, tracks: dict[str, int], by) -> None:
    """The gauges (and tracks, e.g. Agonie) on the sheet (versioned, history) or the NPC's row."""
    before = fighter.gauges()
    changed = {n: g for n, g in gauges.items() if g != before[n]}
    if fighter.character is None:
        for name, value in tracks.items():
            setattr(fighter.combatant, name, value)
        store_npc_gauges(fighter.combatant, {**before, **changed})
        return
    values = dict(tracks)
    for name, gauge in changed.items():
        values |= {f"{name}_current": gauge.current, f"{name}_scars": gauge.scars}
    writes.sheet_write(fighter.character, values, by)


def _log(fighter: Fighter, end: rules_rounds.RoundEnd, lines: Lines) -> None:
    combatant, name = fighter.combatant, fighter.name
    if end.agony_gained:
        text = _("%(name)s passe un tour entier à 0 de Vitalité : Agonie %(n)d.")
        lines.add(combatant, text % {"name": name, "n": end.agony})
    if end.regenerated:
        points = ", ".join(f"+{n} {reference.LABELS[g]}" for g, n in end.regenerated.items() if n)
        lines.add(
            combatant, _("%(name)s régénère : %(points)s.") % {"name": name, "points": points}
        )
    if end.wakes:
        lines.add(combatant, _("%(name)s reprend connaissance.") % {"name": name})
    for peril in end.perils:
        lines.add(combatant, _peril_text(name, peril))
    if end.outlook.dead:
        lines.add(combatant, _("%(name)s est mort.") % {"name": name})


def _peril_text(name: str, peril: rules_rounds.PerilRoll) -> str:
    values = {
        "gauge": reference.LABELS[peril.gauge],
        "name": name,
        "total": peril.breakdown.total,
        "target": peril.breakdown.target,
        "n": peril.scars_added,
    }
    if not peril.scars_added:
        return _("Péril (%(gauge)s) : %(name)s fait %(total)d contre %(target)d, réussi.") % values
    return (
        ngettext(
            "Péril (%(gauge)s) : %(name)s fait %(total)d contre %(target)d, raté : "
            "%(n)d cicatrice de plus.",
            "Péril (%(gauge)s) : %(name)s fait %(total)d contre %(target)d, raté : "
            "%(n)d cicatrices de plus.",
            peril.scars_added,
        )
        % values
    )
