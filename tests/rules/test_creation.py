"""§9 — creation budget (75 points) and validation with French errors per field."""

import pytest

from rules.creation import Draft, evaluate

COSTS = {"characteristic": 1, "skill": 2, "expertise": 1, "combativeness": 5}


def test_source_costs_per_line():
    # Characteristic +1 = 1; skill +1 = 2; expertise = 1; Combativité = 5; founding class = 3;
    # founding ability = 1; acquired species ability = 1; asset = its cost; flaw refunds.
    draft = Draft(
        characteristics={"strength": 5},
        skills={"melee": 3},
        expertises=("Lames légères",),
        combativeness=2,
        founding_classes=("Guerrier",),
        founding_abilities=("Coup puissant",),
        species_abilities=("Vision nocturne",),
        assets={"Riche": 4},
        flaws={"Borgne": 3},
        languages={"occidental": 3},
    )
    report = evaluate(draft)
    points = {line.label: line.points for line in report.lines}
    assert points == {
        "Force +3": 3,
        "Mêlée 3": 6,
        "Occidental 3": 6,  # Reading §2: a language level costs like a skill level
        "1 expertise": 1,
        "Combativité +1": 5,
        "Classe fondatrice : Guerrier": 3,
        "Aptitude fondatrice : Coup puissant": 1,
        "Aptitude d'espèce : Vision nocturne": 1,
        "Atout : Riche": 4,
        "Handicap : Borgne": -3,
    }
    assert report.total == 27
    assert report.remaining == 75 - 27
    assert report.valid


def test_species_bonus_is_free_and_favourite_bonus_raises_the_maximum():
    draft = Draft(
        characteristics={"strength": 10, "agility": 1},
        species_bonuses={"strength": 1, "agility": -1},
        favourite_bonuses={"strength": 1},
    )
    report = evaluate(draft)
    assert report.lines[0].points == 7  # 10 − (2 + 1)
    errors = {e.field: e.message for e in report.errors}
    assert errors == {"strength": "Force ne peut dépasser 9 (8 + 1 de bonus d'espèce)."}


def test_characteristic_without_bonus_caps_at_8_and_cannot_be_sold():
    report = evaluate(Draft(characteristics={"will": 9, "wisdom": 1}))
    errors = {e.field: e.message for e in report.errors}
    assert errors["will"] == "Volonté ne peut dépasser 8."
    assert "valeur de départ (2)" in errors["wisdom"]


def test_over_budget_and_other_errors_are_listed_not_raised():
    draft = Draft(
        skills={"melee": 10, "tir": 10, "sport": 10, "vol": 1},
        languages={"primordial": 2, "vrai_primordial": 3, "elfique": 1},
        combativeness=6,
        premices={"vitality": 30, "energy": 10, "confidence": 10},
        budget=50,
    )
    report = evaluate(draft)
    fields = {e.field for e in report.errors}
    assert fields == {
        "skills.vol",
        "languages.vrai_primordial",
        "languages.elfique",
        "combativeness",
        "premices",
        "budget",
    }
    budget = next(e for e in report.errors if e.field == "budget")
    # Skills 60, Primordial 2 × 2, Vrai Primordial 3 × 4 (its own purchase base, §2) = 76.
    assert budget.message == "Le budget de création est dépassé de 26 points (76 dépensés sur 50)."
    for error in report.errors:
        assert error.message[0].isupper() and error.message.endswith(".")


def test_report_is_serialisable():
    data = evaluate(Draft(characteristics={"power": 4})).to_dict()
    assert data["total"] == 2 and data["remaining"] == 73 and data["valid"] is True


def test_the_tir_skill_lists_the_authors_six_expertises():
    """The author's notes: « Tir … Expertises : Arcs, Pistolets, Fusil d'Assaut, Sniper, Fusil à
    pompe, Arbalète »."""
    from rules import reference

    tir = next(skill for skill in reference.SKILLS if skill.key == "tir")
    assert "Fusil à pompe" in tir.expertises and len(tir.expertises) == 6


@pytest.mark.parametrize(
    ("field", "entries"), [("assets", {"Riche": -3}), ("flaws", {"Borgne": -2})]
)
def test_a_negative_asset_cost_or_flaw_refund_is_refused(field, entries):
    """RULES.md §9: "asset (atout) = its cost; flaw (handicap) refunds its value" — never a gain
    from buying an asset or a debt from taking a flaw."""
    report = evaluate(Draft(**{field: entries}))
    assert field in {error.field for error in report.errors}


def test_points_left_are_said_per_budget_and_nothing_when_all_is_spent():
    from rules.creation import CreationReport, unspent

    assert unspent(CreationReport((), 75, 75, ())) == ()
    assert unspent(CreationReport((), 76, 75, ())) == ()
    assert unspent(CreationReport((), 74, 75, ())) == (
        "Il reste 1 point de création à dépenser (74 sur 75) : "
        "une fois le personnage créé, il ne servira plus.",
    )
    assert unspent(CreationReport((), 0, 80, ()))[0].startswith(
        "Il reste 80 points de création à dépenser (0 sur 80)"
    )
