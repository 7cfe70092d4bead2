"""One spell, start to end (§15): from frozen inputs — the caster's Énergie and actions left, the
spell's kind, points and cost, the incantation's spends, the healed gauge — to what must be
rolled (`spell_plan`), then, from the rolls' results, to what the spell does (`spell_outcome`).

The application rolls each check as a table roll (the sheet's dice, Agonie, expertise) between
the two calls, stores the outcome through the sheets' versioned path, and decides nothing."""

from __future__ import annotations

from dataclasses import dataclass

from rules import gauges as rules_gauges
from rules import magic
from rules import reference as rules_reference
from rules.errors import RuleError, RuleViolation, raise_if
from rules.french import plural
from rules.gauges import Gauge

PLAIN, HEALING, AREA = "plain", "healing", "area"
KINDS = (PLAIN, HEALING, AREA)


@dataclass(frozen=True)
class SpellInput:
    """A spell as cast: its kind and numbers, what the caster has, what it targets."""

    kind: str = PLAIN
    spell_points: int = 0
    energy_cost: int = 0  # the compendium's, or typed at the cast
    caster_energy: int = 0  # the caster's current Énergie
    actions_left: int = 0  # the caster's slots still to come this round
    focus: int = 0
    gestures: int = 0
    words: int = 0
    components: int = 0
    overcharge: bool = False
    complexity: int = 0  # a plain or area spell's (the Conteur's call)
    difficulty: int = 0
    healed: Gauge | None = None  # healing: the target's gauge
    healed_resilience_points: int = 0  # healing: the target's Résilience points
    wounds: int | None = None  # healing: fewer wounds than the gauge has, if the caster chooses
    targets: int = 1  # area: the combatants or groups named


@dataclass(frozen=True)
class HealingFigures:
    """A healing spell's numbers (§15): the wounds it heals are its difficulty."""

    wounds: int
    difficulty: int
    complexity: int
    scar_complexity: int
    aggravations: tuple[str, ...]


@dataclass(frozen=True)
class SpellCheck:
    """One check to roll: its complexity, difficulty and the focus's boon dice."""

    complexity: int
    difficulty: int
    boon_dice: int


@dataclass(frozen=True)
class SpellPlan:
    """What the cast costs and what must be rolled when it resolves."""

    incantation: magic.Incantation
    energy_paid: int
    actions_given_up: int
    checks: tuple[SpellCheck, ...]
    healing: HealingFigures | None = None


@dataclass(frozen=True)
class SpellOutcome:
    """What the spell did: each check's success, and a healing's effect on its gauge."""

    successes: tuple[bool, ...]
    healed_points: int = 0
    stabilised: bool = False
    healed: Gauge | None = None  # the gauge after the healing (unchanged on a failure)


def energy_cost(cost: int, incantation: magic.Incantation) -> int:
    """The Énergie a spell costs (§15): its cost, paid twice when overcharged.

    Reading (§15, cost): the cost is the compendium entry's or typed at the cast; overcharge pays
    that cost twice. It is paid when the incantation begins, and a spell lost before it resolves
    is not refunded; a caster without enough Énergie cannot begin it."""
    if cost < 0:
        raise RuleError.single("energy_cost", "Le coût en Énergie ne peut pas être négatif.")
    return cost * incantation.cost_multiplier


def healing_figures(gauge: Gauge, *, resilience_points: int, wounds: int | None) -> HealingFigures:
    """The healing's difficulty (the wounds it heals) and complexity (§15).

    Reading (§15, healing): the caster may heal fewer wounds than the gauge has, which lowers
    the difficulty; the complexity stays that of the gauge's state. The numbers are those of the
    gauge when the spell resolves: wounds chosen at the cast beyond the gauge's wounds by then
    are not counted."""
    if wounds is not None and wounds < 0:
        raise RuleError.single("wounds", "Le nombre de blessures à soigner est négatif.")
    chosen = gauge.wounds if wounds is None else min(wounds, gauge.wounds)
    return HealingFigures(
        wounds=chosen,
        difficulty=chosen,
        complexity=magic.healing_complexity(gauge, resilience_points=resilience_points),
        scar_complexity=magic.healing_scar_complexity(gauge),
        aggravations=magic.healing_aggravations(gauge, resilience_points),
    )


def spell_checks(
    spell: SpellInput, *, boon_dice: int
) -> tuple[tuple[SpellCheck, ...], HealingFigures | None]:
    """The checks a spell rolls (§15): one, or one per target of an area spell; a healing's
    complexity and difficulty read from its gauge, another spell's given by the Conteur."""
    if spell.kind not in KINDS:
        raise RuleError.single("kind", "Type de sort inconnu.")
    healing = None
    if spell.kind == HEALING:
        if spell.healed is None:
            raise RuleError.single("target", "Un sort de guérison soigne une cible.")
        healing = healing_figures(
            spell.healed, resilience_points=spell.healed_resilience_points, wounds=spell.wounds
        )
    count = magic.area_checks(spell.targets) if spell.kind == AREA else 1
    if count < 1:
        raise RuleError.single("targets", "Un sort de zone nomme au moins une cible.")
    complexity = healing.complexity if healing else spell.complexity
    difficulty = healing.difficulty if healing else spell.difficulty
    check = SpellCheck(complexity=complexity, difficulty=difficulty, boon_dice=boon_dice)
    return (check,) * count, healing


def spell_plan(spell: SpellInput) -> SpellPlan:
    """Check a spell as it begins and return its cost and the checks it would roll now (§15).
    Every rule broken is refused, in French: spends beyond the spell's points or the actions
    left this round, a cost beyond the caster's Énergie, a healing without a target."""
    incantation = magic.incantation(
        spell.spell_points,
        focus=spell.focus,
        gestures=spell.gestures,
        words=spell.words,
        components=spell.components,
        overcharge=spell.overcharge,
    )
    given_up = magic.incantation_actions(incantation, actions_left=spell.actions_left)
    paid = energy_cost(spell.energy_cost, incantation)
    found: list[RuleViolation] = []
    if paid > spell.caster_energy:
        found.append(
            RuleViolation(
                "energy_cost",
                f"Le sort coûte {paid} {plural(paid, 'point', 'points')} d'Énergie et le lanceur "
                f"n'en a que {spell.caster_energy}.",
            )
        )
    raise_if(found)
    checks, healing = spell_checks(spell, boon_dice=incantation.boon_dice)
    return SpellPlan(
        incantation=incantation,
        energy_paid=paid,
        actions_given_up=given_up,
        checks=checks,
        healing=healing,
    )


def spell_outcome(
    healed: Gauge | None, healing: HealingFigures | None, successes: tuple[bool, ...]
) -> SpellOutcome:
    """What the spell does once its checks are rolled (§15). A healing spell that succeeds
    restores the wounds its difficulty was computed for and stabilises the gauge (the same care
    as outside a fight); a failed one changes nothing. An area spell's checks each resolve
    against their target as an attack (the exchange); a plain spell's effect is the Conteur's."""
    if healing is None or healed is None or not successes or not successes[0]:
        return SpellOutcome(successes=tuple(successes), healed=healed)
    after = rules_gauges.stabilise(rules_gauges.heal(healed, healing.wounds))
    return SpellOutcome(
        successes=tuple(successes),
        healed_points=after.current - healed.current,
        stabilised=True,
        healed=after,
    )


# --- an area spell's blows ----------------------------------------------------------------------


@dataclass(frozen=True)
class AreaBlow:
    """What each roll of an area spell carries to its target: the blow's damage and gauge, and
    how it may be answered (as a ranged, seen attack)."""

    damage: int
    gauge: str = "vitality"
    nonlethal: bool = False
    ranged: bool = True
    hidden: bool = False


def area_blow(*, damage: int, gauge: str, nonlethal: bool = False) -> AreaBlow:
    """Reading (§15, area): each roll of an area spell resolves against its target as an attack
    does — the target answers it (a defence, a reactive confrontation or none), then the
    exchange deals the spell's damage plus the caster's column bonus, and its criticals follow.
    The spell comes from a distance and is seen: its target has the defences of a ranged
    attack. Its base damage and gauge are the caster's call (the compendium gives none)."""
    found: list[RuleViolation] = []
    if damage < 0:
        found.append(RuleViolation("damage", "Les dégâts d'un sort ne sont pas négatifs."))
    if gauge not in rules_reference.GAUGES:
        found.append(RuleViolation("gauge", "Cette constitution n'existe pas."))
    raise_if(found)
    return AreaBlow(damage=damage, gauge=gauge, nonlethal=nonlethal)


# --- the incantation between its two slots -------------------------------------------------------

WAITING, DUE = "waiting", "due"
LOST_OUT, LOST_HELD, LOST_LATE = "lost_out", "lost_held", "lost_late"


def incantation_state(*, began_round: int, round_: int, fighting: bool, held: bool) -> str:
    """Where a begun spell stands (§15).

    Reading (§15, incantation): the spell is begun at the caster's slot and resolves at the
    caster's first slot of the next round; a caster knocked out (or out of the fight) or held
    loses it, and so does one whose slot of the next round went by without it. Returns
    `waiting` (the round it began), `due` (the next round) or why it is lost."""
    if not fighting:
        return LOST_OUT
    if held:
        return LOST_HELD
    if round_ <= began_round:
        return WAITING
    return DUE if round_ == began_round + 1 else LOST_LATE


def answer_loses_incantation(answer: str, *, no_defence: str) -> bool:
    """Reading (§15, incantation): "a caster who defends loses the spell" — any answer to a blow
    but none (a Blocage, an Esquive, a Parade, or a reactive confrontation, which is an action)
    ends the incantation."""
    return answer != no_defence
