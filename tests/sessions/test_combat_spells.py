"""Spells in a fight (issue 14 §5, RULES §15), through the services."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from characters.models import Character
from sessions.combat import fights as combat
from sessions.combat import spells as cs
from sessions.combat.steps import StaleTurn
from sessions.models import Combatant, Encounter, Roll, TableEvent, Visibility
from tests.dice import Faces
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def conteur(campaign, storyteller, as_member):
    return as_member(campaign, storyteller)


@pytest.fixture
def fight(conteur, storyteller, aelis, brann):
    """Aelis (Combativité 3) acts, then a hidden Ombre, then Brann; then Aelis twice more."""
    Character.objects.filter(pk=aelis.pk).update(combativeness=3)
    encounter = combat.encounter_open(campaign=conteur, by=storyteller, name="Crypte")
    combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.party_joining(conteur, [aelis.pk])
        + combat.quick_joining("Ombre", 3, 1, True)
        + combat.party_joining(conteur, [brann.pk]),
    )
    for name, value in (("Aelis", 14), ("Ombre", 10), ("Brann", 8)):
        Combatant.objects.filter(name=name).update(
            initiative=value, finesse_points=2, combativeness=3 if name == "Aelis" else 1
        )
    encounter.order = combat.round_order(list(encounter.combatants.order_by("pk")))
    encounter.status, encounter.round, encounter.turn = "running", 1, 1
    encounter.save()
    return encounter


def named(name) -> Combatant:
    return Combatant.objects.get(name=name)


def cast(campaign, by, encounter, *, key="s1", faces=(), **inputs):
    encounter.refresh_from_db()
    inputs.setdefault("characteristic", "power")
    inputs.setdefault("skills", ("sorcellerie",))
    return cs.spell_cast(
        campaign=campaign,
        by=by,
        encounter_id=encounter.pk,
        turn=inputs.pop("turn", encounter.turn),
        request=cs.SpellRequest(**inputs),
        idempotency_key=key,
        rng=Faces(*faces, then=5),
    )


def test_healing_difficulty_and_complexity_read_from_the_sheet(conteur, fight, brann):
    """RULES §15: "Healing spell: difficulty = wounds to heal; complexity by scars against the
    gauge maximum: 1 no scar; 2 at least one; 3 ≥ 1/10; 4 ≥ 1/5; 5 ≥ 1/4; 6 ≥ 1/2; 7 ≥ 3/4;
    +1 each if the gauge is at 0, Résilience is at 0, or the gauge is in péril"."""
    from characters.sheet import gauges

    maximum = gauges(brann)["vitality"].maximum
    scars = -(-maximum // 5)  # at least a fifth of the maximum → 4
    Character.objects.filter(pk=brann.pk).update(
        vitality_current=0, vitality_scars=scars, resilience_points=0
    )
    healing = cs.healing_of(conteur, named("Brann"), "vitality")
    assert healing.difficulty == maximum  # every point is a wound to heal
    assert healing.scar_complexity == 4
    assert healing.complexity == 4 + 1 + 1  # the gauge at 0, Résilience at 0
    assert healing.reasons[1:] == ["+1 constitution à 0", "+1 Résilience à 0"]
    Character.objects.filter(pk=brann.pk).update(
        vitality_current=maximum, vitality_scars=0, resilience_points=2
    )
    untouched = cs.healing_of(conteur, named("Brann"), "vitality")
    assert (untouched.difficulty, untouched.complexity) == (0, 1)


def test_a_healing_spell_is_rolled_with_its_computed_numbers_and_takes_the_turn(
    campaign, player, conteur, fight, aelis, brann, as_member
):
    """RULES §15: the healing check's difficulty and complexity come from the target; the
    incantation "takes a whole turn" (Reading: the rest of the caster's round)."""
    Character.objects.filter(pk=brann.pk).update(vitality_current=10, vitality_scars=1)
    mine = as_member(campaign, player)
    before = Roll.objects.count()
    result, created = cast(
        mine, player, fight, kind="healing", target=named("Brann").pk, gauge="vitality",
        spell_points=3, focus=1, words=3, faces=(8, 2, 4, 1),
    )  # fmt: skip
    assert created and result["healing"]["complexity"] == 2  # one scar, nothing at 0
    roll = Roll.objects.get(pk=result["rolls"][0]["id"])
    assert Roll.objects.count() == before + 1
    assert roll.character_id == aelis.pk and roll.inputs["complexity"] == 2
    assert roll.target == result["healing"]["difficulty"] == result["healing"]["wounds"]
    assert roll.inputs["boon"] == 1  # the focus: one surpuissance die
    assert result["incantation"]["combativeness_spent"] == 2  # focus + words
    assert result["total_points"] == 6 and result["actions_given_up"] == 2
    encounter = Encounter.objects.get()
    # Aelis's two later actions left the order; the hand passed to the hidden Ombre.
    assert [s["combatant"] for s in encounter.order].count(named("Aelis").pk) == 1
    assert encounter.order[encounter.position]["combatant"] == named("Ombre").pk
    line = TableEvent.objects.filter(payload__spell__key="s1").get()
    assert line.visibility == Visibility.PUBLIC and line.payload["encounter"] == encounter.pk
    assert "difficulté" in line.summary and "complexité 2" in line.summary
    assert "reste du tour d'Aelis (2 actions)" in line.summary
    again, created = cast(mine, player, fight, kind="healing", target=named("Brann").pk)
    assert not created and again == result  # a retried cast answers the same one
    assert Roll.objects.count() == before + 1


def test_the_log_line_says_what_the_incantation_spent_and_nothing_it_did_not(
    campaign, player, fight, as_member
):
    """A spell of no points cast with one focus die says so, without « 0 point de sort »."""
    mine = as_member(campaign, player)
    result, _ = cast(mine, player, fight, kind="area", targets=1, focus=1)
    line = TableEvent.objects.filter(payload__spell__key="s1").get().summary
    assert "Incantation : concentration +1 dé; 1 point de Combativité dépensé." in line
    assert "point de sort" not in line and "points de sort" not in line


def test_the_combativeness_spent_is_what_the_caster_has_left_this_round(
    campaign, player, fight, brann, as_member
):
    """RULES §15: "Spending Combativité adds: focus (+1 die, keep the best; stackable)…";
    §1: Combativité = actions per turn. Aelis has two actions left after this one."""
    mine = as_member(campaign, player)
    with pytest.raises(ValidationError) as refused:
        cast(mine, player, fight, spell_points=2, focus=2, gestures=2)
    assert "il n'en reste que 2 ce tour" in " ".join(refused.value.messages)
    with pytest.raises(ValidationError) as refused:
        cast(mine, player, fight, spell_points=2, gestures=3)
    assert "Les gestes apportent entre 0 et 2 points de sort." in refused.value.messages
    assert not Roll.objects.exists()
    assert Encounter.objects.get().turn == 1  # nothing happened


def test_an_area_spell_makes_one_check_per_target_or_group(conteur, storyteller, fight):
    """RULES §15: "Area spell: one check per character or group affected"."""
    result, _ = cast(
        conteur, storyteller, fight, kind="area", targets=3, name="Boule de feu",
        difficulty=9, complexity=1, spell_points=4, overcharge=True,
    )  # fmt: skip
    assert result["checks"] == 3 and len(result["rolls"]) == 3
    assert Roll.objects.filter(label__startswith="Sort de zone « Boule de feu »").count() == 3
    assert result["incantation"]["cost_multiplier"] == 2 and result["total_points"] == 8
    line = TableEvent.objects.get(payload__spell__key="s1")
    assert "3 jets, un par cible ou groupe" in line.summary
    assert "surcharge (coût ×2)" in line.summary
    with pytest.raises(ValidationError):
        cs.checks_of(cs.SpellRequest(characteristic="power", kind="area", targets=0))


def test_only_the_acting_combatants_player_or_the_conteur_casts(
    campaign, other_player, storyteller, conteur, fight, as_member
):
    theirs = as_member(campaign, other_player)
    with pytest.raises(PermissionDenied):
        cast(theirs, other_player, fight)
    with pytest.raises(StaleTurn):
        cast(conteur, storyteller, fight, turn=0)
    Encounter.objects.filter(pk=fight.pk).update(pending_attack={"id": "x"})
    with pytest.raises(ValidationError):
        cast(conteur, storyteller, fight)


def test_a_hidden_npcs_spell_stays_hidden(conteur, storyteller, fight):
    cast(conteur, storyteller, fight, key="first")  # Aelis, cast by the Conteur
    result, _ = cast(
        conteur, storyteller, fight, key="ombre", name="Ténèbres", characteristic_value=3
    )
    assert result["caster_name"] == "Ombre" and result["visibility"] == Visibility.HIDDEN
    assert TableEvent.objects.get(payload__spell__key="ombre").visibility == Visibility.HIDDEN
    assert Roll.objects.get(pk=result["rolls"][0]["id"]).visibility == Visibility.HIDDEN


def test_the_preview_computes_without_writing(campaign, player, fight, brann, as_member):
    Character.objects.filter(pk=brann.pk).update(vitality_current=3, vitality_scars=0)
    preview = cs.spell_preview(
        campaign=as_member(campaign, player),
        encounter=Encounter.objects.get(),
        request=cs.SpellRequest(
            characteristic="power", kind="healing", target=named("Brann").pk, spell_points=2,
            focus=3,
        ),
    )  # fmt: skip
    assert preview.actions_left == 2 and preview.healing.complexity == 1
    assert preview.errors and "il n'en reste que 2" in preview.errors[0]
    assert preview.as_dict()["healing"]["difficulty"] == preview.healing.wounds
    assert not Roll.objects.exists() and not TableEvent.objects.filter(payload__has_key="spell")
