"""§1, §3, §6, §12 — scores, Puissance, Harmonie, gauge maxima, personal caps, speeds."""

import pytest

from rules.errors import RuleError
from rules.sheet import (
    Characteristics,
    Premices,
    column_score,
    gauge_maxima,
    gauge_maximum,
    harmony,
    might,
    personal_point_cap,
    row_score,
    speeds,
)

# Characteristics laid out on the grid (Reading §1: source order).
HERO = Characteristics(
    strength=7, vigor=5, agility=6, power=2, charisma=3, perception=4, intellect=3, will=4, wisdom=2
)


def test_scores_are_floor_of_the_mean():
    assert column_score(HERO, "body") == 6  # (7 + 5 + 6) / 3
    assert column_score(HERO, "soul") == 3  # 9 / 3
    assert column_score(HERO, "mind") == 3  # 9 / 3
    assert row_score(HERO, "impact") == 4  # (7 + 2 + 3) / 3
    assert row_score(HERO, "resilience") == 4  # 12 / 3
    assert row_score(HERO, "finesse") == 4  # (6 + 4 + 2) / 3
    assert column_score(Characteristics(strength=3, vigor=3, agility=4), "body") == 3  # 10 / 3


def test_might_and_harmony():
    # Puissance = highest column + highest row; Harmonie = lowest column + lowest row.
    assert might(HERO) == 6 + 4
    assert harmony(HERO) == 3 + 4


def test_gauge_maxima_reproduce_the_source_table():
    table = [45, 90, 150, 210, 285, 360, 450, 555, 720]
    for exaltation, total in enumerate(table, start=1):
        for premices in (Premices(15, 15, 15), Premices(20, 15, 10), Premices(1, 1, 43)):
            assert sum(gauge_maxima(premices, exaltation).values()) == total


def test_gauge_maximum_formula():
    # Exaltation 4: prémice × 4 + 30 / 3
    assert gauge_maximum(20, 4) == 90


def test_premices_must_sum_to_45():
    with pytest.raises(RuleError) as caught:
        Premices(20, 20, 10)
    assert caught.value.violations[0].message == (
        "Les trois prémices doivent totaliser 45 (actuellement 50)."
    )
    with pytest.raises(RuleError):
        Premices(0, 20, 25)


def test_personal_caps_round_up():
    assert [personal_point_cap(e) for e in range(1, 10)] == [1, 1, 2, 2, 3, 3, 4, 4, 5]


def test_speeds():
    s = speeds(agility=4, vigor=3)
    assert (s.travel_kmh, s.travel_hours) == (4, 3)
    assert (s.run_kmh, s.run_minutes) == (8, 3)
    assert (s.sprint_kmh, s.sprint_seconds) == (12, 15)
    assert (s.combat_move_m, s.combat_run_m) == (8, 16)


def _play_sheet(**changes):
    from rules.sheet import Characteristics, PlaySheet

    values = dict(
        characteristics=Characteristics(),
        premices={"vitality": 15, "energy": 15, "confidence": 15},
        exaltation=1,
        gauges_current={"vitality": 15, "energy": 15, "confidence": 15},
        pools={"impact": 2, "resilience": 2, "finesse": 2},
        personal_hope=1,
        personal_despair=0,
        languages={"primordial": 3, "vrai_primordial": 3},
    )
    values.update(changes)
    return PlaySheet(**values)


def test_a_sheet_within_every_bound_plays():
    from rules.sheet import play_violations

    assert play_violations(_play_sheet()) == []


def test_play_violations_name_each_field_in_french():
    from rules.sheet import play_violations

    # Exaltation 1: maxima 15 each (§3 table: 45 in all), personal cap 1 (§6), rows score 2.
    sheet = _play_sheet(
        gauges_current={"vitality": 16, "energy": 15, "confidence": 15},
        pools={"impact": 3, "resilience": 2, "finesse": 2},
        personal_despair=2,
        languages={"primordial": 2, "vrai_primordial": 3},
    )
    fields = {v.field: v.message for v in play_violations(sheet)}
    assert fields == {
        "vitality_current": "Vitalité ne peut dépasser 15.",
        "impact_points": "Le nombre de points d'Impact ne peut dépasser 2.",
        "personal_despair": "Le désespoir personnel ne peut dépasser 1.",
        "languages.vrai_primordial": (
            "Le Vrai Primordial (3) ne peut dépasser le niveau de Primordial (2)."
        ),
    }


def test_favourite_bonus_is_the_species_modifier():
    from rules.creation import species_bonuses

    bonuses, favourites = species_bonuses({"strength": 2, "wisdom": -1}, ["strength", "agility"])
    assert bonuses == {"strength": 2, "wisdom": -1}
    assert favourites == {"strength": 2, "agility": 0}
