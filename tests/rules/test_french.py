"""French wording: elision before a vowel, and percentages with a decimal comma that never show
exact non-zero odds as zero."""

import pytest

from rules.french import de, elide, le, percent, que


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Adresse", "d'Adresse"),
        ("Aelis", "d'Aelis"),
        ("Oskar", "d'Oskar"),
        ("oskar", "d'oskar"),
        ("Écoute", "d'Écoute"),
        ("Île des Brumes", "d'Île des Brumes"),
        ("Yseult", "d'Yseult"),
        ("Urbain", "d'Urbain"),
        ("Œil-de-Lynx", "d'Œil-de-Lynx"),
        ("Force", "de Force"),
        ("Brann", "de Brann"),
        ("", "de "),
        ("12 Loups", "de 12 Loups"),
    ],
)
def test_de_elides_before_a_vowel(word, expected):
    assert de(word) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Histoire", "d'Histoire"),
        ("Harmonie", "d'Harmonie"),
        ("Hélène", "d'Hélène"),
        ("histoire ancienne", "d'histoire ancienne"),
        ("Haches", "de Haches"),
        ("Haute Magie", "de Haute Magie"),
        ("Handicap", "de Handicap"),
        ("héros", "de héros"),
    ],
)
def test_de_elides_before_a_mute_h_only(word, expected):
    assert de(word) == expected


def test_que_le_and_any_article_elide_alike():
    assert que("Oskar") == "qu'Oskar" and que("Brann") == "que Brann"
    assert le("Hydre") == "l'Hydre" and le("Troll") == "le Troll" and le("Héros") == "le Héros"
    assert elide("la", "Épée") == "l'Épée" and elide("De", "Aelis") == "D'Aelis"
    assert elide("Que", "Brann") == "Que Brann"


@pytest.mark.parametrize(
    ("probability", "shown"),
    [(0.36, "36,0 %"), (1.0, "100,0 %"), (0.0, "0,0 %"), (0.0004, "< 0,1 %"), (0.0005, "0,1 %")],
)
def test_percent_is_french_and_never_hides_a_chance(probability, shown):
    assert percent(probability) == shown


def test_no_probability_shows_nothing():
    assert percent(None) == ""
