"""§4's rest shifts and the rib cage, and §1's Impact points regained on an objective."""

import pytest

from rules import reference as ref
from rules.errors import RuleError
from rules.gauges import Gauge
from rules.rest import injury_harder_gauges, rest, rest_rank
from rules.sheet import impact_points_on_objective


@pytest.mark.parametrize(
    ("circumstances", "rank"),
    [
        ({}, "normal"),
        ({"slept_badly": True}, "hard"),
        ({"ate_badly": True}, "hard"),
        ({"slept_badly": True, "ate_badly": True}, "very_hard"),
        ({"whole_day_of_rest": True}, "quick"),
        ({"slept_badly": True, "whole_day_of_rest": True}, "normal"),
        ({"base": "very_hard", "slept_badly": True, "ate_badly": True}, "impossible"),
        ({"base": "quick", "whole_day_of_rest": True}, "quick"),
    ],
)
def test_bad_sleep_and_bad_food_one_rank_harder_a_day_of_rest_one_easier(circumstances, rank):
    """§4: « Default rank Normale. Sleeping or eating badly makes restoration harder, a whole day
    of rest easier (Reading: one rank each) » — clamped to the table's ends."""
    assert rest_rank(**circumstances) == rank


def test_an_unknown_base_rank_is_refused_in_french():
    with pytest.raises(RuleError) as error:
        rest_rank(base="forever")
    assert "n'existe pas" in str(error.value.violations[0].message)


def test_the_rib_cage_makes_vitality_and_energy_one_rank_harder():
    """§8 row 4: « 1–2 Rib cage: a lung lost or the chest crushed, Vitalité and Énergie
    restoration one rank harder »; §4: « A rib-cage injury … makes Vitalité and Énergie
    restoration one rank harder »."""
    assert injury_harder_gauges(["rib_cage"]) == ("vitality", "energy")
    assert injury_harder_gauges(["eye", "arm_tendons", "unknown"]) == ()
    assert injury_harder_gauges([]) == ()
    gauges = {g: Gauge(maximum=30, current=1) for g in ref.GAUGES}
    after = rest(
        gauges, "normal", might=6, harmony=4, harder_gauges=injury_harder_gauges(["rib_cage"])
    )
    assert {g: after.gauges[g].current for g in ref.GAUGES} == {
        "vitality": 1 + 4,  # Difficile = Harmonie
        "energy": 1 + 4,
        "confidence": 1 + 6,  # Normale = Puissance
    }


@pytest.mark.parametrize(("points", "score", "after"), [(0, 4, 4), (1, 4, 4), (4, 4, 4), (0, 0, 0)])
def test_impact_points_all_come_back_on_an_objective(points, score, after):
    """§1: « Impact points … are all regained when an important objective is reached or a new
    one appears (the Conteur triggers it) »; a pool holds current ≤ score."""
    assert impact_points_on_objective(points, score) == after


def test_impact_points_are_never_negative():
    with pytest.raises(RuleError):
        impact_points_on_objective(-1, 4)
