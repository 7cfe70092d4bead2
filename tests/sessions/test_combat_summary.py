"""Issue 14 §7: « the encounter closes with a summary (damage dealt and taken, criticals,
defeated) and its rolls count as "used" for the arc's XP eligibility like any roll »."""

import pytest

from campaigns.models import Arc
from sessions.combat import fights as combat
from sessions.models import Combatant, CombatantStatus, TableEvent, Visibility
from sessions.selectors import used_in_arc
from tests.sessions import test_combat_attacks as attacks
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_combat_attacks import _to_brann, defend, named, swing

pytestmark = pytest.mark.django_db
conteur, brigand, fight = attacks.conteur, attacks.brigand, attacks.fight  # the same fixtures


def end(conteur, storyteller, fight):
    combat.encounter_end(campaign=conteur, by=storyteller, encounter_id=fight.pk)
    return TableEvent.objects.filter(summary__contains="Bilan du combat").order_by("pk")


def test_the_summary_counts_damage_dealt_and_taken_criticals_and_who_is_down(
    conteur, storyteller, fight
):
    # Aelis hits Brigand 1 through a failed Blocage: 5 + her Corps bonus 2 = 7.
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    assert defend(conteur, storyteller, fight, pending, "block", faces=(2,))["damage"] == 7
    # The Brigand answers with a critical on Aelis: 6 damage and one Aggravation.
    _to_brann(conteur, storyteller, fight)
    pending = swing(
        conteur, storyteller, fight, "Aelis", faces=(10, 4), damage=6,
        characteristic="agility", skills=("melee",), characteristic_value=4, skill_level=0,
    )  # fmt: skip
    assert defend(conteur, storyteller, fight, pending, "none", faces=(3,))["damage"] == 6
    npc = named("Brigand 1")
    npc.status = CombatantStatus.DEFEATED
    npc.save(update_fields=["status"])
    (line,) = end(conteur, storyteller, fight)
    assert line.visibility == Visibility.PUBLIC
    assert line.summary == (
        "Fin du combat « Embuscade ». Bilan du combat « Embuscade » : "
        "Aelis inflige 7 et reçoit 6, 1 critique subi ; Brigand 1 inflige 6 et reçoit 7 ; "
        "Brann inflige 0 et reçoit 0. Hors de combat : Brigand 1."
    )
    rows = {row["name"]: row for row in line.payload["summary"]}
    assert rows["Aelis"] == {
        "combatant": named("Aelis").pk, "name": "Aelis", "dealt": 7, "taken": 6, "criticals": 1,
        "down": False,
    }  # fmt: skip


def test_a_hidden_npc_stays_out_of_the_players_summary(conteur, storyteller, fight):
    Combatant.objects.filter(name="Brigand 1").update(hidden=True)
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    defend(conteur, storyteller, fight, pending, "block", faces=(2,))
    public, hidden = end(conteur, storyteller, fight)
    assert public.visibility == Visibility.PUBLIC and "Brigand" not in public.summary
    # Aelis's own blow counts for her players (issue 39 §4: the truth they may see).
    assert "Aelis inflige 7 et reçoit 0" in public.summary
    assert hidden.visibility == Visibility.HIDDEN
    assert (
        "Conteur : Bilan" in hidden.summary and "Brigand 1 inflige 0 et reçoit 7" in hidden.summary
    )


def test_a_fight_without_a_blow_says_so(conteur, storyteller, fight):
    (line,) = end(conteur, storyteller, fight)
    assert "Aelis inflige 0 et reçoit 0" in line.summary


def test_the_fights_rolls_count_for_the_arc_like_any_roll(conteur, storyteller, fight, aelis):
    arc = Arc.objects.create(campaign=fight.campaign, title="La route")
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    defend(conteur, storyteller, fight, pending, "none")
    used = used_in_arc(arc=arc)[aelis.pk]
    assert "strength" in used.characteristics and "melee" in used.skills
