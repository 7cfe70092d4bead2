"""§4 — rests: ranks, points, scars, Épuisement, Résilience refill."""

from rules.gauges import Gauge
from rules.rest import (
    is_full_rest,
    points_restored,
    rest,
    rest_gauge,
    rest_rank,
    shift_rank,
)


def test_points_per_rank():
    # Rapide = Puissance + Harmonie; Normale = Puissance; Difficile = Harmonie; 1; 0.
    assert [
        points_restored(r, might=9, harmony=5)
        for r in ("quick", "normal", "hard", "very_hard", "impossible")
    ] == [14, 9, 5, 1, 0]


def test_exhaustion_removes_one_per_point_never_below_zero():
    assert points_restored("normal", might=9, harmony=5, exhaustion=2) == 7
    assert points_restored("very_hard", might=9, harmony=5, exhaustion=2) == 0


def test_rank_readings():
    assert rest_rank() == "normal"
    assert rest_rank(slept_badly=True, ate_badly=True) == "very_hard"
    assert rest_rank(whole_day_of_rest=True) == "quick"
    assert shift_rank("impossible", 1) == "impossible"
    assert is_full_rest("normal") and is_full_rest("quick") and not is_full_rest("hard")


def test_restores_up_to_maximum_minus_scars_then_harder_with_scars():
    gauge = Gauge(maximum=40, current=20, scars=10)
    after = rest_gauge(gauge, "normal", might=8, harmony=3)
    assert (after.current, after.scars) == (28, 10)  # 8 points, still below 30
    near = rest_gauge(Gauge(maximum=40, current=28, scars=10), "normal", might=8, harmony=3)
    # 2 points reach 30; past it, at Difficile (Harmonie 3): 3 more, each removing a scar.
    assert (near.current, near.scars) == (33, 7)
    past = rest_gauge(Gauge(maximum=40, current=30, scars=10), "normal", might=8, harmony=3)
    assert (past.current, past.scars) == (33, 7)


def test_rest_refills_resilience_only_without_scars_or_wounds_and_rib_cage_is_harder():
    healthy = {g: Gauge(30, 30) for g in ("vitality", "energy", "confidence")}
    assert rest(healthy, "normal", might=6, harmony=4).resilience_refilled
    hurt = {**healthy, "vitality": Gauge(30, 10)}
    result = rest(hurt, "normal", might=6, harmony=4, harder_gauges=("vitality", "energy"))
    assert not result.resilience_refilled
    assert result.gauges["vitality"].current == 14  # Difficile: Harmonie 4
