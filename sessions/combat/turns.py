"""What each new combat turn does by itself (§1, §8): the Agonie of a full turn at 0 Vitalité,
the end of a knock-out, the Finesse points regained, the Péril checks.

`round_ends` runs inside `sessions.combat.fights.turn_next` when a round ends (the table's lock and the
fight's are held); a character's tracks are written on its sheet (version, history), an NPC's
on its Combatant row.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules import combat as rules_combat
from rules import reference
from rules import states as rules_states
from rules.check import RandomSource, roll_check
from sessions import writes
from sessions.combat.harm import Fighter, fighter_of, npc_gauges, store_npc_gauges
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
        _regenerate(combatant, lines)
        _agony_of_the_turn(fighter, encounter.round, lines, by)
        _wake_up(combatant, lines)
        combatant.finesse_points = rules_combat.finesse_points_for_turn(combatant.finesse)
        _peril(fighter, lines, by, rng)
    Combatant.objects.bulk_update(present, UPDATED)


def _regenerate(combatant: Combatant, lines: Lines) -> None:
    """An NPC's regenerations at the end of the turn (§13, `rules.combat.turn_regeneration`);
    a character's come from an ability the sheet does not hold: forced by hand."""
    regeneration = combatant.profile.get("regeneration") or {}
    if combatant.character_id is not None or not regeneration:
        return
    gauges = npc_gauges(combatant)
    healed = []
    for name, points in regeneration.items():
        after = rules_combat.turn_regeneration(gauges[name], points)
        if after.current != gauges[name].current:
            healed.append(f"+{after.current - gauges[name].current} {reference.LABELS[name]}")
            gauges[name] = after
    if healed:
        store_npc_gauges(combatant, gauges)
        lines.add(
            combatant,
            _("%(name)s régénère : %(points)s.")
            % {"name": combatant.name, "points": ", ".join(healed)},
        )


def _agony_of_the_turn(fighter: Fighter, round_: int, lines: Lines, by) -> None:
    """+1 Agonie per full turn at 0 Vitalité not stabilised (§8; which turns are full:
    `rules.states.full_turn_at_zero`; `zero_since` is the turn it fell in)."""
    combatant = fighter.combatant
    vitality = fighter.gauges()["vitality"]
    at_zero = vitality.current == 0 and not vitality.stabilised
    since = combatant.profile.get("zero_since")
    if not at_zero:
        if since is not None:
            combatant.profile = {k: v for k, v in combatant.profile.items() if k != "zero_since"}
        return
    if since is None:
        combatant.profile = {**combatant.profile, "zero_since": round_}
        return
    if not rules_states.full_turn_at_zero(since, round_):
        return
    agony = rules_states.agony_after_turn(fighter.agony, vitality)
    if fighter.character is not None:
        writes.sheet_write(fighter.character, {"agony": agony}, by)
    else:
        combatant.agony = agony
    lines.add(
        combatant,
        _("%(name)s passe un tour entier à 0 de Vitalité : Agonie %(n)d.")
        % {"name": combatant.name, "n": agony},
    )


def _wake_up(combatant: Combatant, lines: Lines) -> None:
    """A knock-out lasts max(Aggravation, Agonie) turns (§8): one less each turn."""
    if combatant.status != CombatantStatus.UNCONSCIOUS or not combatant.unconscious_turns:
        return
    combatant.unconscious_turns -= 1
    if combatant.unconscious_turns == 0:
        combatant.status = CombatantStatus.ACTIVE
        lines.add(combatant, _("%(name)s reprend connaissance.") % {"name": combatant.name})


def _peril(fighter: Fighter, lines: Lines, by, rng: RandomSource | None) -> None:
    """At each turn start, a Résilience check against the scars of every gauge in péril; a
    failure adds as many scars as its margin (§8)."""
    gauges = fighter.gauges()
    resilience = fighter.value("resilience")
    changed = {}
    for name, gauge in gauges.items():
        if not gauge.peril:
            continue
        breakdown = roll_check(rules_states.peril_check(gauge, resilience), rng)
        after = rules_states.apply_peril(gauge, breakdown)
        label = reference.LABELS[name]
        if after.scars != gauge.scars:
            changed[name] = after
            text = ngettext(
                "Péril (%(gauge)s) : %(name)s fait %(total)d contre %(target)d, raté : "
                "%(n)d cicatrice de plus.",
                "Péril (%(gauge)s) : %(name)s fait %(total)d contre %(target)d, raté : "
                "%(n)d cicatrices de plus.",
                after.scars - gauge.scars,
            )
        else:
            text = _("Péril (%(gauge)s) : %(name)s fait %(total)d contre %(target)d, réussi.")
        lines.add(
            fighter.combatant,
            text
            % {
                "gauge": label,
                "name": fighter.name,
                "total": breakdown.total,
                "target": breakdown.target,
                "n": after.scars - gauge.scars,
            },
        )
    if not changed:
        return
    if fighter.character is not None:
        scars = {f"{name}_scars": gauge.scars for name, gauge in changed.items()}
        writes.sheet_write(fighter.character, scars, by)
    else:
        store_npc_gauges(fighter.combatant, {**gauges, **changed})
