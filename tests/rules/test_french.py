"""French wording: elision before a vowel, and percentages with a decimal comma that never show
exact non-zero odds as zero."""

import pytest

from rules.french import de, percent


@pytest.mark.parametrize(
    ("word", "expected"),
    [("Adresse", "d'Adresse"), ("Aelis", "d'Aelis"), ("Force", "de Force"), ("Brann", "de Brann")],
)
def test_de_elides_before_a_vowel(word, expected):
    assert de(word) == expected


@pytest.mark.parametrize(
    ("probability", "shown"),
    [(0.36, "36,0 %"), (1.0, "100,0 %"), (0.0, "0,0 %"), (0.0004, "< 0,1 %"), (0.0005, "0,1 %")],
)
def test_percent_is_french_and_never_hides_a_chance(probability, shown):
    assert percent(probability) == shown


def test_no_probability_shows_nothing():
    assert percent(None) == ""
