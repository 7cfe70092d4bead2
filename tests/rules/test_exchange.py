"""One exchange against the book: each case quotes the RULES.md sentence it holds (§5, §8, §13)."""

from dataclasses import replace

import pytest

from rules import exchange as ex
from rules.check import CRITICAL_FAILURE, CRITICAL_SUCCESS, FAILURE, SUCCESS
from rules.errors import RuleError
from rules.gauges import Gauge


def fighter(**kw) -> ex.Fighter:
    gauges = {g: Gauge(maximum=15, current=15) for g in ("vitality", "energy", "confidence")}
    gauges.update(kw.pop("gauges", {}))
    values = {
        "gauges": gauges,
        "bonus": {"vitality": 2, "energy": 2, "confidence": 2},
        "resistance": {"vitality": 0, "energy": 0, "confidence": 0},
    }
    return ex.Fighter(**{**values, **kw})


def throw(total=12, outcome=SUCCESS, succeeded=None, exploded=False) -> ex.Throw:
    if succeeded is None:
        succeeded = outcome in (SUCCESS, CRITICAL_SUCCESS)
    return ex.Throw(total=total, outcome=outcome, succeeded=succeeded, exploded=exploded)


def exchange(**kw) -> ex.Exchange:
    values = {
        "attacker": fighter(),
        "defender": fighter(),
        "attack": throw(),
        "weapon": ex.Weapon(damage=5),
    }
    return ex.Exchange(**{**values, **kw})


HIT, MISS = throw(12), throw(8, FAILURE)

# (rule quoted, exchange, damage taken by the defender, its scars)
BLOWS = [
    (
        "§13 a successful Parade stops the whole blow",
        exchange(answer=ex.PARRY, defence=throw(13)),
        0,
        0,
    ),
    (
        "§13 a successful Blocage stops the whole blow",
        exchange(answer=ex.BLOCK, defence=throw(12)),
        0,
        0,
    ),
    (
        "§13 a successful Esquive against an explosion halves it (rounded down): (5 + 2) // 2",
        exchange(attack=throw(22, exploded=True), answer=ex.DODGE, defence=throw(23)),
        3,
        0,
    ),
    (
        "§13 scars from a blow: Blocage failed, the whole blow (after résistance) is scars",
        exchange(answer=ex.BLOCK, defence=throw(9, FAILURE)),
        7,
        7,
    ),
    (
        "§13 scars from a blow: no defence, wounds only",
        exchange(answer=ex.NO_DEFENCE),
        7,
        0,
    ),
    (
        "§13 scars from a blow: a failed Esquive, wounds only",
        exchange(answer=ex.DODGE, defence=throw(9, FAILURE)),
        7,
        0,
    ),
    (
        "§13 scars from a blow: a failed Parade, wounds only",
        exchange(answer=ex.PARRY, defence=throw(9, FAILURE)),
        7,
        0,
    ),
    (
        "§8 non-lethal attacks give no scars and no damage bonus",
        exchange(
            weapon=ex.Weapon(damage=5, nonlethal=True), answer=ex.BLOCK, defence=throw(3, FAILURE)
        ),
        5,
        0,
    ),
    (
        "§8 an annulation cancels all damage if the attack roll is below it",
        exchange(defender=fighter(annulation=13)),
        0,
        0,
    ),
    (
        "§8 an annulation does nothing otherwise",
        exchange(defender=fighter(annulation=12)),
        7,
        0,
    ),
    (
        "§8 a résistance subtracts its value from damage",
        exchange(defender=fighter(resistance={"vitality": 3})),
        4,
        0,
    ),
    (
        "§13 a failed attack misses: no defence, no damage",
        exchange(attack=MISS, answer=ex.BLOCK, defence=throw(3, FAILURE)),
        0,
        0,
    ),
]


@pytest.mark.parametrize(("rule", "case", "damage", "scars"), BLOWS, ids=[b[0] for b in BLOWS])
def test_a_blow(rule, case, damage, scars):
    outcome = ex.resolve(case)
    assert (outcome.defender.damage, outcome.defender.hit.scars if damage else 0) == (
        damage,
        scars,
    )


def test_non_lethal_against_agony_takes_resilience_points():
    """§8: "against a character in Agonie: −1 Résilience point, all of them on a critical
    success"."""
    nonlethal = ex.Weapon(damage=5, nonlethal=True)
    hurt = fighter(agony=1, resilience_points=3)
    one = ex.resolve(exchange(defender=hurt, weapon=nonlethal))
    assert one.defender.resilience_points == 2 and one.defender.damage == 0
    crit = ex.resolve(
        exchange(
            defender=hurt,
            weapon=nonlethal,
            attack=throw(20, CRITICAL_SUCCESS),
            aggravation_dice=(8,),
        ),
    )
    assert crit.defender.resilience_points == 0


# --- reactive confrontation ---------------------------------------------------------------------


def confrontation(attack_total, reply_total, **kw) -> ex.Exchange:
    return exchange(
        attack=throw(attack_total),
        answer=ex.REACTIVE,
        reply=throw(reply_total),
        reply_weapon=kw.pop("reply_weapon", ex.Weapon(damage=6)),
        **kw,
    )


def test_confrontation_the_winner_full_the_loser_half():
    """§13: "the winner deals full damage, the loser half if still conscious"."""
    outcome = ex.resolve(confrontation(14, 9))
    assert outcome.attacker_won
    assert outcome.defender.damage == 7 and outcome.attacker.damage == 8 // 2


def test_confrontation_a_tie_goes_to_the_attacker():
    """Reading §13 (confrontation): "A tie goes to the attacker"."""
    assert ex.resolve(confrontation(11, 11)).attacker_won


def test_confrontation_a_loser_killed_by_the_winners_blow_deals_nothing():
    """Reading §13: "a loser dead or unconscious from the winner's blow deals nothing"."""
    dying = fighter(gauges={"vitality": Gauge(maximum=6, current=6)})
    outcome = ex.resolve(confrontation(14, 9, defender=dying))
    assert outcome.defender.dead and outcome.attacker.damage == 0


def test_confrontation_judged_on_the_gauge_it_was_hit_on():
    """Reading §13: "each side is judged on the hit it took, on the gauge it was hit on": the
    attacker struck Vitalité but loses and takes 8 on its Énergie of 8 maximum: unconscious."""
    weak = fighter(gauges={"energy": Gauge(maximum=8, current=8)})
    reply = ex.Weapon(damage=6, gauge="energy")
    outcome = ex.resolve(confrontation(9, 14, attacker=weak, reply_weapon=reply))
    assert not outcome.attacker_won
    assert outcome.attacker.unconscious and not outcome.attacker.dead
    assert outcome.defender.damage == 0  # unconscious from the winner's blow: nothing back


# --- criticals, states --------------------------------------------------------------------------

CRIT = throw(20, CRITICAL_SUCCESS)
FUMBLE = throw(1, CRITICAL_FAILURE, succeeded=False)


def test_an_offensive_critical_adds_aggravation_and_the_table_effect():
    """§5: "whoever suffers a critical takes a level of Aggravation"; §8 table, Fragilité 0,
    d10 1–5: Fragilisation: +1 Fragilité."""
    outcome = ex.resolve(exchange(attack=CRIT, aggravation_dice=(3,)))
    (critical,) = outcome.defender.criticals
    assert critical.aggravation == 1 and critical.effect.fragility == 1
    assert outcome.defender.aggravation == 1 and outcome.defender.fragility == 1


def test_resilience_pays_one_point_per_aggravation_level():
    """§8: "The victim may spend 1 Résilience point per Aggravation level to avoid the effect"."""
    victim = fighter(aggravation=1, resilience_points=3)
    outcome = ex.resolve(exchange(defender=victim, attack=CRIT, defender_choice=ex.RESILIENCE))
    assert outcome.defender.resilience_points == 1 and outcome.defender.fragility == 0


def test_too_few_resilience_points_refuses_the_exchange():
    with pytest.raises(RuleError):
        ex.resolve(exchange(attack=CRIT, defender_choice=ex.RESILIENCE))


def test_the_attacker_may_pay_its_own_fumble_with_resilience():
    """Reading §8 (criticals in a fight): "whoever suffers a critical — the attacker's own
    fumble, or the opponent's critical success — chooses Résilience or the table"."""
    outcome = ex.resolve(
        exchange(
            attacker=fighter(resilience_points=2), attack=FUMBLE, attacker_choice=ex.RESILIENCE
        )
    )
    assert outcome.missed and outcome.attacker.resilience_points == 1
    assert outcome.attacker.criticals[0].avoided


def test_the_attacker_may_pay_a_replys_critical_with_resilience():
    case = replace(
        confrontation(14, 9, attacker=fighter(resilience_points=1)),
        reply=throw(20, CRITICAL_SUCCESS),
        attacker_choice=ex.RESILIENCE,
    )
    assert ex.resolve(case).attacker.criticals[0].avoided


def test_a_critical_at_zero_vitality_knocks_out_for_max_aggravation_agony():
    """§8: "At 0 Vitalité the victim also falls unconscious for max(Aggravation, Agonie)
    turns"; Reading: rounds."""
    low = fighter(gauges={"vitality": Gauge(maximum=15, current=3)}, aggravation=2)
    outcome = ex.resolve(exchange(defender=low, attack=CRIT, aggravation_dice=(8,)))
    assert outcome.defender.gauges["vitality"].current == 0
    assert outcome.defender.knocked_out == 3 and outcome.defender.unconscious


def test_no_knock_out_after_a_critical_avoided_with_resilience():
    """Reading §8: "Knock-out at 0 Vitalité follows only an offensive critical whose effect was
    suffered (no Résilience spent)"."""
    low = fighter(gauges={"vitality": Gauge(maximum=15, current=3)}, resilience_points=1)
    outcome = ex.resolve(exchange(defender=low, attack=CRIT, defender_choice=ex.RESILIENCE))
    assert outcome.defender.knocked_out == 0 and not outcome.defender.unconscious


def test_an_attack_fumbled_at_zero_vitality_knocks_its_roller_out():
    """§8: "At 0 Vitalité the victim also falls unconscious for max(Aggravation, Agonie)
    turns"; Reading: the attack's own fumble is an offensive critical, its roller the victim."""
    down = fighter(gauges={"vitality": Gauge(maximum=15, current=0)}, agony=2)
    outcome = ex.resolve(exchange(attacker=down, attack=FUMBLE, aggravation_dice=(8,)))
    assert outcome.attacker.knocked_out == 2 and outcome.attacker.unconscious


def test_no_knock_out_after_a_fumbled_defence():
    """Reading §8: only an **offensive** critical knocks out; a defence is not offensive."""
    down = fighter(gauges={"vitality": Gauge(maximum=15, current=0)}, agony=1)
    outcome = ex.resolve(
        exchange(defender=down, answer=ex.DODGE, defence=FUMBLE, aggravation_dice=(8,))
    )
    assert outcome.defender.aggravation == 1 and outcome.defender.knocked_out == 0


def test_fragility_six_from_ones_own_fumble_kills_at_once():
    """§8: "Fragilité 6 = death"; Reading: "Fragilité or Épuisement reaching 6 kills at once";
    the table's row 4 gives +1 Fragilité on every result."""
    frail = fighter(fragility=5 - 1 + 1)  # row 5: death, every result
    outcome = ex.resolve(exchange(attacker=frail, attack=FUMBLE, aggravation_dice=(4,)))
    assert outcome.attacker.dead and outcome.attacker.fragility == 6


def test_exhaustion_six_is_death():
    outcome = ex.resolve(exchange(defender=fighter(exhaustion=6)))
    assert outcome.defender.dead


@pytest.mark.parametrize(
    ("gauge", "state"),
    [("vitality", "dead"), ("energy", "unconscious"), ("confidence", "discouraged")],
)
def test_one_hit_of_the_gauges_maximum(gauge, state):
    """§8: "one hit dealing ≥ maximum Vitalité" is death, the same with Énergie unconsciousness,
    with Confiance Découragement; Reading: judged after résistance, before ephemeral points."""
    shielded = fighter(gauges={gauge: Gauge(maximum=7, current=7, ephemeral=10)})
    outcome = ex.resolve(exchange(defender=shielded, weapon=ex.Weapon(damage=5, gauge=gauge)))
    assert getattr(outcome.defender, state)
    assert outcome.defender.gauges[gauge].current == 7  # the ephemeral points took it


def test_scars_to_the_maximum_are_death():
    """§8: "Vitalité scars ≥ maximum with no ephemeral Vitalité and not stabilised"."""
    scarred = fighter(gauges={"vitality": Gauge(maximum=15, current=10, scars=10)})
    outcome = ex.resolve(exchange(defender=scarred, answer=ex.BLOCK, defence=throw(3, FAILURE)))
    assert outcome.defender.dead


# --- who may answer, riposte, player against player --------------------------------------------


def test_an_unconscious_target_gets_no_defence():
    """Reading §13 (who may defend): "the blow resolves as 'no defence'"."""
    out = fighter(can_answer=False)
    outcome = ex.resolve(
        exchange(defender=out, answer=ex.REACTIVE, reply=throw(30), reply_weapon=ex.Weapon(9))
    )
    assert outcome.answer == ex.NO_DEFENCE and outcome.attacker.damage == 0
    assert outcome.defender.damage == 7


RIPOSTES = [
    ("§8 a successful defensive critical gives a riposte", throw(20, CRITICAL_SUCCESS), True),
    (
        "Reading §13: only a defence that succeeded (a kept 10 short of the total)",
        throw(10, CRITICAL_SUCCESS, succeeded=False),
        False,
    ),
    ("a plain success gives none", throw(13), False),
]


@pytest.mark.parametrize(("rule", "defence", "riposte"), RIPOSTES, ids=[r[0] for r in RIPOSTES])
def test_riposte(rule, defence, riposte):
    assert ex.resolve(exchange(answer=ex.PARRY, defence=defence)).riposte is riposte


def test_player_against_player():
    """Reading §13: "its own criticals have no effect. No riposte between players"."""
    players = {"attacker": fighter(player=True), "defender": fighter(player=True)}
    fumbled = ex.resolve(exchange(**players, answer=ex.DODGE, defence=FUMBLE))
    assert fumbled.defender.criticals == ()
    parried = ex.resolve(exchange(**players, answer=ex.PARRY, defence=throw(20, CRITICAL_SUCCESS)))
    assert not parried.riposte
    hit = ex.resolve(exchange(**players, attack=CRIT, aggravation_dice=(8,)))
    assert len(hit.defender.criticals) == 1


def test_the_dice_the_table_needs():
    assert ex.dice_needed(exchange(attack=CRIT, answer=ex.PARRY, defence=FUMBLE)) == 2
    assert ex.dice_needed(exchange(attack=CRIT, defender_choice=ex.RESILIENCE)) == 0


def test_a_confrontation_is_answered_in_the_attacks_manner():
    """Reading §13: a non-lethal attack is answered non-lethally (§8: "no damage bonus")."""
    case = confrontation(9, 14, weapon=ex.Weapon(damage=5, nonlethal=True))
    assert ex.resolve(case).attacker.damage == 6  # the reply's 6, no Corps bonus
