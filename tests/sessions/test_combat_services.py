"""Combat at the table (issue 14): encounters, initiative and turns, through the services."""

import random

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from sessions.combat import fights as combat
from sessions.combat import selectors as cs
from sessions.models import (
    Combatant,
    CombatantStatus,
    Encounter,
    StatBlock,
    TableEvent,
    TableEventKind,
    Visibility,
)
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def conteur(campaign, storyteller, as_member):
    return as_member(campaign, storyteller)


@pytest.fixture
def brigand(campaign):
    return StatBlock.objects.create(
        campaign=campaign,
        name="Brigand",
        agility=4,
        perception=3,
        wisdom=2,
        combativeness=2,
        hidden=True,  # a new block is visible unless hidden (issue 39 §4)
    )


@pytest.fixture
def encounter(conteur, storyteller):
    return combat.encounter_open(campaign=conteur, by=storyteller, name="Embuscade")


def quick(conteur, storyteller, encounter, name, *, combativeness=1, hidden=False, finesse=2):
    added, _ = combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.quick_joining(name, finesse, combativeness, hidden),
    )
    return added[0]


def set_initiatives(encounter, values: dict[str, int]) -> None:
    """Start round 1 with chosen initiative totals (the dice are tested by the engine)."""
    for c in encounter.combatants.all():
        c.initiative = values[c.name]
        c.save()
    combatants = list(encounter.combatants.order_by("pk"))
    encounter.order = combat.round_order(combatants)
    encounter.status, encounter.round, encounter.position, encounter.turn = "running", 1, 0, 1
    encounter.save()


def acting(encounter) -> str:
    encounter.refresh_from_db()
    slot = encounter.order[encounter.position]
    return Combatant.objects.get(pk=slot["combatant"]).name


def names_in_order(encounter) -> list[tuple[str, int]]:
    encounter.refresh_from_db()
    by_pk = {c.pk: c.name for c in encounter.combatants.all()}
    return [(by_pk[s["combatant"]], s["pass"]) for s in encounter.order]


def test_finesse_of_a_block_is_the_sheets_row_score(brigand):
    """RULES §1: "a column or row score = floor(mean of its three characteristics)"."""
    assert combat.block_finesse(brigand) == (4 + 3 + 2) // 3


def test_several_copies_of_a_block_are_numbered(conteur, storyteller, encounter, brigand):
    added, created = combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.block_joining(conteur, brigand.pk, 4),
        idempotency_key="k1",
    )
    assert created and [c.name for c in added] == [f"Brigand {n}" for n in range(1, 5)]
    assert all(c.finesse == 3 and c.combativeness == 2 and c.hidden for c in added)
    again, created = combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.block_joining(conteur, brigand.pk, 4),
        idempotency_key="k1",
    )
    assert not created and len(again) == 4 and encounter.combatants.count() == 4
    more, _ = combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.block_joining(conteur, brigand.pk, 1, hidden=False),
    )
    assert more[0].name == "Brigand 5" and not more[0].hidden


def test_turn_order_with_combativite_extra_actions_and_tie_break(conteur, storyteller, encounter):
    """RULES §13: "every character acts once, then those with Combativité ≥ 2 act again, then
    ≥ 3, and so on until all actions are spent"; ties keep the given order (who joined first)."""
    for name, n in (("Aelis", 1), ("Brigand", 3), ("Corbeau", 2), ("Dame", 1)):
        quick(conteur, storyteller, encounter, name, combativeness=n)
    set_initiatives(encounter, {"Aelis": 12, "Brigand": 9, "Corbeau": 15, "Dame": 12})
    assert names_in_order(encounter) == [
        ("Corbeau", 1),
        ("Aelis", 1),  # tie with Dame at 12: Aelis joined first
        ("Dame", 1),
        ("Brigand", 1),
        ("Corbeau", 2),
        ("Brigand", 2),
        ("Brigand", 3),
    ]


def test_initiative_rolls_finesse_checks_once(conteur, storyteller, encounter, aelis, brann):
    combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.party_joining(conteur, [aelis.pk, brann.pk]),
    )
    combat.initiative_roll(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, rng=random.Random(7)
    )
    rolled = list(encounter.combatants.all())
    assert all(c.initiative == c.initiative_breakdown["total"] for c in rolled)
    # RULES §5: initiative is "a check with skill 0, complexity 0, characteristic = Finesse".
    for c in rolled:
        b = c.initiative_breakdown
        assert b["advantage"] == 0 and len(b["dice"]) == 1  # one d10 (a = 0)
        assert b["total"] == b["die_result"] + c.finesse
    assert len(names_in_order(encounter)) == 2
    with pytest.raises(ValidationError, match="déjà lancée"):
        combat.initiative_roll(campaign=conteur, by=storyteller, encounter_id=encounter.pk)


def test_next_turn_skips_the_defeated_and_a_round_change_leaves_them_out(
    conteur, storyteller, encounter
):
    for name in ("Aelis", "Brigand 1", "Brigand 2"):
        quick(conteur, storyteller, encounter, name)
    set_initiatives(encounter, {"Aelis": 14, "Brigand 1": 10, "Brigand 2": 6})
    b1 = encounter.combatants.get(name="Brigand 1")
    combat.combatant_set_status(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        combatant_id=b1.pk,
        status=CombatantStatus.DEFEATED,
    )
    combat.turn_next(campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=1)
    assert acting(encounter) == "Brigand 2"
    combat.turn_next(campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=2)
    encounter.refresh_from_db()
    assert encounter.round == 2 and acting(encounter) == "Aelis"
    assert names_in_order(encounter) == [("Aelis", 1), ("Brigand 2", 1)]


def test_a_double_click_does_not_skip_two_turns(conteur, storyteller, encounter):
    for name in ("Aelis", "Brann", "Corbeau"):
        quick(conteur, storyteller, encounter, name)
    set_initiatives(encounter, {"Aelis": 14, "Brann": 10, "Corbeau": 6})
    combat.turn_next(campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=1)
    with pytest.raises(ValidationError, match="déjà avancé") as refused:
        combat.turn_next(campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=1)
    assert refused.value.http_status == 409
    assert acting(encounter) == "Brann"


def test_delay_swaps_with_the_next_in_the_fight(conteur, storyteller, encounter):
    for name in ("Aelis", "Brann", "Corbeau"):
        quick(conteur, storyteller, encounter, name)
    set_initiatives(encounter, {"Aelis": 14, "Brann": 10, "Corbeau": 6})
    combat.turn_delay(campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=1)
    assert acting(encounter) == "Brann"
    assert [n for n, _ in names_in_order(encounter)] == ["Brann", "Aelis", "Corbeau"]


def test_a_player_ends_only_their_own_characters_turn(
    campaign, conteur, storyteller, player, other_player, as_member, encounter, aelis, brann
):
    combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.party_joining(conteur, [aelis.pk, brann.pk]),
    )
    set_initiatives(encounter, {"Aelis": 14, "Brann": 10})
    with pytest.raises(PermissionDenied):
        combat.turn_next(
            campaign=as_member(campaign, other_player),
            by=other_player,
            encounter_id=encounter.pk,
            turn=1,
        )
    combat.turn_next(
        campaign=as_member(campaign, player), by=player, encounter_id=encounter.pk, turn=1
    )
    assert acting(encounter) == "Brann"
    with pytest.raises(PermissionDenied):
        combat.initiative_roll(
            campaign=as_member(campaign, player), by=player, encounter_id=encounter.pk
        )


def test_hidden_npcs_are_logged_for_the_conteur_only(
    campaign, conteur, storyteller, player, as_member, encounter
):
    quick(conteur, storyteller, encounter, "Aelis")
    ombre = quick(conteur, storyteller, encounter, "Ombre", hidden=True)
    combat.initiative_roll(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, rng=random.Random(3)
    )
    events = TableEvent.objects.filter(kind=TableEventKind.COMBAT)
    public = " ".join(e.summary for e in events.filter(visibility=Visibility.PUBLIC))
    hidden = " ".join(e.summary for e in events.filter(visibility=Visibility.HIDDEN))
    assert "Aelis" in public and "Ombre" not in public
    assert "Ombre" in hidden

    from sessions import selectors

    seen = selectors.events_for_user(campaign=as_member(campaign, player), user=player)
    assert not any("Ombre" in e.summary for e in seen)
    everything = selectors.events_for_user(campaign=conteur, user=storyteller)
    assert any("Ombre" in e.summary for e in everything)
    tracker = cs.tracker_for_user(
        campaign=as_member(campaign, player), user=player, encounter=encounter
    )
    assert [c.name for c in tracker.combatants] == ["Aelis"]

    combat.combatant_reveal(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, combatant_id=ombre.pk
    )
    seen = selectors.events_for_user(campaign=as_member(campaign, player), user=player)
    assert "Ombre entre en scène" in seen[0].summary


def test_joining_mid_fight_acts_from_the_next_round(conteur, storyteller, encounter):
    quick(conteur, storyteller, encounter, "Aelis")
    set_initiatives(encounter, {"Aelis": 10})
    late = quick(conteur, storyteller, encounter, "Renfort")
    late.refresh_from_db()
    assert late.initiative is not None
    assert names_in_order(encounter) == [("Aelis", 1)]
    combat.turn_next(campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=1)
    assert {n for n, _ in names_in_order(encounter)} == {"Aelis", "Renfort"}


def test_one_open_fight_per_campaign_and_removal(conteur, storyteller, encounter):
    with pytest.raises(ValidationError, match="déjà ouvert"):
        combat.encounter_open(campaign=conteur, by=storyteller, name="Encore")
    gone = quick(conteur, storyteller, encounter, "Erreur")
    combat.combatant_set_status(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        combatant_id=gone.pk,
        status=CombatantStatus.LEFT,
    )
    assert not Combatant.objects.filter(pk=gone.pk).exists()  # before initiative: removed
    combat.encounter_end(campaign=conteur, by=storyteller, encounter_id=encounter.pk)
    assert combat.encounter_open(campaign=conteur, by=storyteller, name="Encore")
    assert Encounter.objects.count() == 2
