"""§11 — ellipse classes, actions, training durations, ellipse XP, thresholds, advance()."""

import pytest

from rules.ellipse import (
    Training,
    advance,
    allowed_actions,
    can_learn,
    classify,
    ellipse_xp,
    threshold_reductions,
    training_days,
)
from rules.errors import RuleError


def test_classify_reading():
    assert [classify(d) for d in (1, 13, 14, 89, 90, 400)] == [
        "minor",
        "minor",
        "medium",
        "medium",
        "major",
        "major",
    ]
    with pytest.raises(RuleError):
        classify(0)


def test_training_durations_from_the_source():
    # 1 month / 3 weeks / 2 weeks; 4 / 3 / 2 months; 1 year / 9 months / 6 months.
    table = {
        "characteristic": (30, 21, 14),
        "skill": (120, 90, 60),
        "specialty": (30, 21, 14),
        "forgotten_domain": (365, 270, 180),
    }
    for kind, days in table.items():
        assert tuple(training_days(kind, t) for t in ("alone", "trainer", "educational")) == days
    assert training_days("combativeness") is None and training_days("ability") is None


def test_actions_and_learning():
    assert "rest_exhaustion" in allowed_actions("minor")
    assert "gain_class" not in allowed_actions("medium")
    assert {"gain_class", "learn_branch", "learn_other_class_ability"} <= set(
        allowed_actions("major")
    )
    assert can_learn("gain_class", "major", has_trainer=True) == (True, [])
    allowed, reasons = can_learn("gain_class", "medium", has_trainer=False)
    assert not allowed and len(reasons) == 2


def test_ellipse_xp():
    # 1 XP per week × trainer multiplier, + surcharge at most 1 per week.
    assert ellipse_xp(4) == 4
    assert ellipse_xp(4, "expert") == 16
    assert ellipse_xp(4, "peak", surcharge_weeks=6) == 24


def test_threshold_reductions():
    assert threshold_reductions("major", 9) == 4
    assert threshold_reductions("medium", 9) == 3
    assert threshold_reductions("medium", 2) == 0
    assert threshold_reductions("minor", 8) == 0


def test_advance_runs_one_training_at_a_time_in_queue_order():
    queue = [
        Training("t1", "ana", "characteristic", "strength", trainer="educational"),  # 14 days
        Training("t2", "ana", "specialty", "melee", trainer="trainer"),  # 21 days
        Training("t3", "bo", "skill", "tir", trainer="educational", days_done=50),  # 10 left
        Training("t4", "ana", "combativeness"),
    ]
    first = advance(queue, days=20)
    assert [(c.training.key, c.day) for c in first.completed] == [("t3", 10), ("t1", 14)]
    running = {t.key: t.days_done for t in first.trainings}
    assert running == {"t2": 6, "t4": 0}
    second = advance(first.trainings, days=15, ellipse_ends=True)
    assert [(c.training.key, c.day) for c in second.completed] == [("t2", 15), ("t4", 15)]
    assert second.trainings == ()
    with pytest.raises(RuleError):
        advance(queue, days=-1)
