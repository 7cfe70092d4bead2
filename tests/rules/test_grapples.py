"""Grapples (RULES.md §13): Étreinte, Mise au sol, Projection, and the readings they need.

RULES §13: "Grapples (bare hands; Reading: rolled with Force or Agilité, as the player
describes; hard against big or heavy targets): Étreinte — the target can neither attack, move
nor defend; it frees itself with Force or Agilité. Mise au sol — the target is put down or
unbalanced; damage, if any, from Force. Projection — forced movement; base damage from Force,
less damage the farther the target is thrown."
"""

from rules import combat
from rules.odds import check_odds


def test_grapples_are_rolled_with_force_or_agilite():
    """§13: "rolled with Force or Agilité, as the player describes"."""
    assert combat.GRAPPLE_CHARACTERISTICS == ("strength", "agility")
    assert set(combat.GRAPPLES) == {combat.EMBRACE, combat.TAKEDOWN, combat.THROW}
    assert [label for label, _ in combat.GRAPPLES.values()] == [
        "Étreinte",
        "Mise au sol",
        "Projection",
    ]


def test_a_grapple_uses_bagarre_and_its_expertise_prises():
    """§2: Bagarre's expertises include « Prises » and « Projection »; §13: bare hands."""
    assert combat.GRAPPLE_SKILL == "bagarre"
    assert combat.grapple_expertises(combat.EMBRACE) == ("Prises",)
    assert combat.grapple_expertises(combat.TAKEDOWN) == ("Prises",)
    assert set(combat.grapple_expertises(combat.THROW)) == {"Prises", "Projection"}


def test_a_big_or_heavy_target_is_harder():
    """§13: "hard against big or heavy targets": two more complexity."""
    assert combat.grapple_complexity(1, heavy=False) == 1
    assert combat.grapple_complexity(1, heavy=True) == 3


def test_etreinte_deals_no_damage_mise_au_sol_deals_force():
    """§13: Étreinte holds; "Mise au sol — damage, if any, from Force"."""
    assert combat.grapple_damage(combat.EMBRACE, strength=5) == 0
    assert combat.grapple_harmless(combat.EMBRACE)
    assert combat.grapple_damage(combat.TAKEDOWN, strength=5) == 5
    assert not combat.grapple_harmless(combat.TAKEDOWN)


def test_projection_deals_less_the_farther_the_target_is_thrown():
    """§13: "Projection — base damage from Force, less damage the farther the target is
    thrown"."""
    thrown = [combat.grapple_damage(combat.THROW, strength=4, distance=m) for m in (1, 2, 4, 9)]
    assert thrown == [4, 3, 1, 0]  # never below 0
    assert not combat.grapple_harmless(combat.THROW)


def test_a_grapple_lands_unless_the_target_stops_it():
    """§13: the target defends as against any attack; a reactive confrontation lost by the
    attacker keeps the target free."""
    assert combat.grapple_lands(defended=False)
    assert not combat.grapple_lands(defended=True)
    assert not combat.grapple_lands(defended=False, attacker_won=False)


def test_what_each_grapple_leaves_on_the_target():
    """§13: Étreinte holds; Mise au sol puts down; Projection is forced movement."""
    assert combat.grapple_state(combat.EMBRACE) == {"held": True, "prone": False, "freed": False}
    assert combat.grapple_state(combat.TAKEDOWN) == {"held": False, "prone": True, "freed": False}
    assert combat.grapple_state(combat.THROW) == {"held": False, "prone": False, "freed": True}


def test_a_held_target_can_neither_attack_nor_defend():
    """§13: "Étreinte — the target can neither attack, move nor defend; it frees itself"."""
    assert not combat.held_can_act("attack")
    assert not combat.held_can_act("defend")
    assert combat.held_can_act("escape")


def test_freeing_oneself_is_force_or_agilite_against_the_grapple():
    """§13: "it frees itself with Force or Agilité"; a tie frees (§5)."""
    check = combat.escape_check(4, 9, skill=1)
    assert (check.characteristic, check.difficulty, check.skill) == (4, 9, 1)
    assert (
        check_odds(combat.escape_check(3, 4)).success
        > check_odds(combat.escape_check(3, 8)).success
    )


def test_a_hold_ends_when_either_leaves_the_fight():
    """§13: the hold is the holder's doing: it lasts while both still fight."""
    assert combat.hold_lasts(holder_fighting=True, held_fighting=True)
    assert not combat.hold_lasts(holder_fighting=False, held_fighting=True)
    assert not combat.hold_lasts(holder_fighting=True, held_fighting=False)
