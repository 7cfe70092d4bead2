"""§1 — a row's point pool follows its score down.

RULES.md §1: « Row scores give spendable points (a pool per row, current ≤ score). » The pool's
maximum is the row's score, so lowering a characteristic that lowers the score brings a fuller
pool down to the new score (`rules.sheet.pools_within_scores`); it never raises a pool."""

from rules.sheet import Characteristics, PoolLowered, pools_within_scores, row_score

FULL = {"impact": 7, "resilience": 2, "finesse": 2}
STRONG = Characteristics(strength=8, power=7, intellect=6)  # Impact (8 + 7 + 6) // 3 = 7


def test_a_full_pool_comes_down_to_the_new_row_score():
    weaker = Characteristics(strength=5, power=7, intellect=6)  # Impact 18 // 3 = 6
    assert row_score(weaker, "impact") == 6
    pools, lowered = pools_within_scores(weaker, FULL)
    assert pools == {"impact": 6, "resilience": 2, "finesse": 2}
    assert lowered == (PoolLowered("impact", 7, 6),)
    assert lowered[0].message == (
        "Points d'Impact ramenés de 7 à 6 (le score d'Impact est maintenant 6)."
    )


def test_a_pool_below_the_new_score_and_a_raised_score_change_nothing():
    assert pools_within_scores(STRONG, {**FULL, "impact": 3}) == (
        {"impact": 3, "resilience": 2, "finesse": 2},
        (),
    )
    stronger = Characteristics(strength=9, power=7, intellect=6, vigor=5)
    assert pools_within_scores(stronger, FULL) == (FULL, ())


def test_only_the_pools_asked_for_are_looked_at():
    weaker = Characteristics(strength=5, power=7, intellect=6, agility=1)  # Finesse 5 // 3 = 1
    pools, lowered = pools_within_scores(weaker, {"finesse": 2})
    assert pools == {"finesse": 1}
    assert [item.message for item in lowered] == [
        "Points de Finesse ramenés de 2 à 1 (le score de Finesse est maintenant 1)."
    ]
