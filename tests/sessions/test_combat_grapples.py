"""Grapples in a fight (issue 14 §4: Étreinte, Mise au sol, Projection as states on the
combatant), through the services. RULES §13: "Étreinte — the target can neither attack, move
nor defend; it frees itself with Force or Agilité. Mise au sol — the target is put down or
unbalanced; damage, if any, from Force. Projection — forced movement; base damage from Force,
less damage the farther the target is thrown.\""""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from characters.models import CharacterSkill
from sessions.combat import attacks as ca
from sessions.combat import fights as combat
from sessions.combat import grapples as cg
from sessions.combat import offers
from sessions.combat import selectors as cs
from sessions.models import Combatant, Encounter, Roll, StatBlock, TableEvent, Visibility
from tests.dice import Faces
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def conteur(campaign, storyteller, as_member):
    return as_member(campaign, storyteller)


@pytest.fixture
def brigand(campaign):
    return StatBlock.objects.create(
        campaign=campaign, name="Brigand", agility=4, perception=3, wisdom=2, strength=3, vigor=2
    )


def open_fight(conteur, storyteller, aelis, brann, brigand, *, hidden=False):
    """Aelis (Force 4) acts, then Brigand 1, then Brann."""
    encounter = combat.encounter_open(campaign=conteur, by=storyteller, name="Rixe")
    combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.party_joining(conteur, [aelis.pk])
        + combat.block_joining(conteur, brigand.pk, 1, hidden=hidden)
        + combat.party_joining(conteur, [brann.pk]),
    )
    combat.initiative_roll(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, rng=Faces(9, 5, 3)
    )
    encounter.refresh_from_db()
    return encounter


@pytest.fixture
def fight(conteur, storyteller, aelis, brann, brigand):
    return open_fight(conteur, storyteller, aelis, brann, brigand)


def named(name) -> Combatant:
    return Combatant.objects.get(name=name)


def grapple(campaign, by, encounter, target, kind, *, faces, key=None, **inputs):
    encounter.refresh_from_db()
    request = ca.AttackRequest(
        target=named(target).pk,
        characteristic=inputs.pop("characteristic", "strength"),
        grapple=kind,
        **inputs,
    )
    pending, _ = ca.attack_declare(
        campaign=campaign,
        by=by,
        encounter_id=encounter.pk,
        turn=encounter.turn,
        request=request,
        idempotency_key=key or f"g{encounter.turn}",
        rng=Faces(*faces),
    )
    return pending


def answer(campaign, by, encounter, pending, defence="none", *, faces=()):
    result, _ = ca.attack_defend(
        campaign=campaign,
        by=by,
        encounter_id=encounter.pk,
        attack_id=pending["id"],
        request=ca.DefenceRequest(defence=defence),
        rng=Faces(*faces),
    )
    return result


def next_turn(campaign, by, encounter):
    encounter.refresh_from_db()
    combat.turn_next(campaign=campaign, by=by, encounter_id=encounter.pk, turn=encounter.turn)
    encounter.refresh_from_db()


def another_action(encounter):
    Encounter.objects.filter(pk=encounter.pk).update(last_attack={})


def last_line() -> TableEvent:
    return TableEvent.objects.filter(kind="combat").order_by("-pk").first()


def test_an_etreinte_holds_the_target_without_damage(conteur, storyteller, fight):
    """§13: Étreinte — the target can neither attack nor defend; no damage (Reading)."""
    pending = grapple(conteur, storyteller, fight, "Brigand 1", "embrace", faces=(7,))
    assert pending["total"] == 11 and pending["grapple"] == "embrace"
    roll = Roll.objects.get(pk=pending["roll"])
    assert roll.skills == ["bagarre"] and roll.label == "Étreinte sur Brigand 1"
    result = answer(conteur, storyteller, fight, pending)
    brigand = named("Brigand 1")
    assert result["damage"] == 0 and result["grapple"] == "held"
    assert brigand.held_by == named("Aelis") and brigand.hold["total"] == 11
    assert brigand.profile["gauges"]["vitality"]["current"] == 15
    assert "Aelis tient Brigand 1 dans son étreinte" in last_line().summary


def test_a_held_target_cannot_defend_nor_attack_and_frees_itself(conteur, storyteller, fight):
    """§13: "the target can neither attack, move nor defend; it frees itself with Force or
    Agilité" (Reading: against the grapple's total; the attempt takes the action)."""
    answer(conteur, storyteller, fight, grapple(conteur, storyteller, fight, "Brigand 1", "embrace", faces=(7,)))  # fmt: skip
    another_action(fight)
    fight.refresh_from_db()
    pending, _ = ca.attack_declare(
        campaign=conteur,
        by=storyteller,
        encounter_id=fight.pk,
        turn=fight.turn,
        request=ca.AttackRequest(target=named("Brigand 1").pk, characteristic="strength"),
        idempotency_key="second",
        rng=Faces(6, 5, 3, 2),
    )
    offered = offers.defences_offered(conteur, Encounter.objects.get(), named("Brigand 1"))
    assert not any(o.available for o in offered)
    assert all("Dans l'étreinte d'Aelis" in o.note for o in offered)
    with pytest.raises(ValidationError, match="aucune défense possible"):
        answer(conteur, storyteller, fight, pending, "parry", faces=(9,))
    with pytest.raises(ValidationError, match="aucune défense possible"):
        answer(conteur, storyteller, fight, pending, "reactive", faces=(9,))
    assert answer(conteur, storyteller, fight, pending, "none")["damage"] > 0

    next_turn(conteur, storyteller, fight)  # the Brigand's action
    tracker = cs.tracker_for_user(campaign=conteur, user=storyteller, encounter=fight)
    assert tracker.holder == named("Aelis") and not tracker.may_attack
    assert [key for key, _, _ in tracker.escape_odds] == ["strength", "agility"]
    with pytest.raises(ValidationError, match="seule une tentative pour se libérer"):
        ca.attack_declare(
            campaign=conteur,
            by=storyteller,
            encounter_id=fight.pk,
            turn=fight.turn,
            request=ca.AttackRequest(target=named("Aelis").pk, characteristic="strength"),
            idempotency_key="refused",
            rng=Faces(9),
        )
    # Agilité 4 (its stat block) + 7 = 11: a tie with the grapple's 11 frees (§5).
    attempt, created = cg.grapple_escape(
        campaign=conteur,
        by=storyteller,
        encounter_id=fight.pk,
        turn=fight.turn,
        characteristic="agility",
        idempotency_key="free",
        rng=Faces(7),
    )
    assert created and attempt["freed"] and attempt["total"] == 11
    assert named("Brigand 1").held_by is None
    fight.refresh_from_db()
    assert fight.order[fight.position]["combatant"] == named("Brann").pk  # the action ended
    again, created = cg.grapple_escape(
        campaign=conteur,
        by=storyteller,
        encounter_id=fight.pk,
        turn=fight.turn - 1,
        characteristic="agility",
        idempotency_key="free",
    )
    assert not created and again == attempt
    lines = [e.summary for e in TableEvent.objects.filter(kind="combat")]
    assert any("Brigand 1 se libère de l'étreinte d'Aelis (11 contre 11)." in t for t in lines)


def test_a_failed_escape_keeps_the_hold_and_ends_the_action(conteur, storyteller, fight):
    answer(conteur, storyteller, fight, grapple(conteur, storyteller, fight, "Brigand 1", "embrace", faces=(9,)))  # fmt: skip
    next_turn(conteur, storyteller, fight)
    attempt, _ = cg.grapple_escape(
        campaign=conteur,
        by=storyteller,
        encounter_id=fight.pk,
        turn=fight.turn,
        characteristic="strength",
        idempotency_key="try",
        rng=Faces(2),
    )
    assert not attempt["freed"] and named("Brigand 1").held_by == named("Aelis")
    assert "ne parvient pas à se libérer" in attempt["summary"]


def test_only_a_held_combatant_frees_itself_with_force_or_agilite(conteur, storyteller, fight):
    with pytest.raises(ValidationError, match="n'est dans aucune étreinte"):
        cg.grapple_escape(
            campaign=conteur,
            by=storyteller,
            encounter_id=fight.pk,
            turn=fight.turn,
            characteristic="strength",
        )
    with pytest.raises(ValidationError, match="Force ou l'Agilité"):
        grapple(
            conteur, storyteller, fight, "Brigand 1", "embrace", faces=(7,), characteristic="vigor"
        )


def test_a_mise_au_sol_deals_force_and_leaves_the_target_down(
    conteur, storyteller, fight, other_player, as_member, campaign
):
    """§13: "Mise au sol — the target is put down or unbalanced; damage, if any, from Force"
    (Reading: Force 4 + the Corps bonus 2, on Vitalité)."""
    pending = grapple(conteur, storyteller, fight, "Brigand 1", "takedown", faces=(7,))
    assert pending["damage"] == 4 and pending["gauge"] == "vitality"
    result = answer(conteur, storyteller, fight, pending)
    brigand = named("Brigand 1")
    assert result["damage"] == 6 and result["grapple"] == "prone" and brigand.prone
    assert brigand.profile["gauges"]["vitality"]["current"] == 9
    assert "Aelis met Brigand 1 à terre." in last_line().summary
    tracker = cs.tracker_for_user(
        campaign=as_member(campaign, other_player), user=other_player, encounter=fight
    )
    assert next(c for c in tracker.combatants if c.name == "Brigand 1").grapple_badges == [
        "à terre"
    ]
    with pytest.raises(PermissionDenied):
        cg.grapple_stand_up(
            campaign=as_member(campaign, other_player),
            by=other_player,
            encounter_id=fight.pk,
            combatant_id=brigand.pk,
        )
    cg.grapple_stand_up(
        campaign=conteur, by=storyteller, encounter_id=fight.pk, combatant_id=brigand.pk
    )
    assert not named("Brigand 1").prone and last_line().summary == "Brigand 1 se relève."


def test_a_projection_deals_less_the_farther_and_frees_from_a_hold(conteur, storyteller, fight):
    """§13: "Projection — base damage from Force, less damage the farther the target is
    thrown" (Reading: Force 4 − 2 for 3 m, + the Corps bonus 2)."""
    Combatant.objects.filter(name="Brigand 1").update(held_by=named("Brann"), hold={"total": 5})
    pending = grapple(conteur, storyteller, fight, "Brigand 1", "throw", faces=(7,), distance=3)
    assert pending["damage"] == 2
    result = answer(conteur, storyteller, fight, pending)
    assert result["damage"] == 4 and result["grapple"] == "thrown"
    assert named("Brigand 1").held_by is None
    assert "Aelis projette Brigand 1 à 3 m." in last_line().summary
    with pytest.raises(ValidationError, match="distance de la projection"):
        another_action(fight)
        grapple(conteur, storyteller, fight, "Brigand 1", "throw", faces=(7,), distance=0)


def test_a_defended_grapple_leaves_no_state(conteur, storyteller, fight):
    pending = grapple(conteur, storyteller, fight, "Brigand 1", "embrace", faces=(5,))
    result = answer(conteur, storyteller, fight, pending, "dodge", faces=(9,))  # 9 + 4 ≥ 9
    assert result["defended"] and result["grapple"] == ""
    assert named("Brigand 1").held_by is None


def test_a_big_target_is_harder_and_prises_gives_the_expertise(conteur, storyteller, fight, aelis):
    """§13: "hard against big or heavy targets"; §2: Bagarre's expertise « Prises »."""
    CharacterSkill.objects.create(character=aelis, key="bagarre", level=2, expertises=["Prises"])
    pending = grapple(conteur, storyteller, fight, "Brigand 1", "embrace", faces=(3, 8), heavy=True)
    roll = Roll.objects.get(pk=pending["roll"])
    # Bagarre 2 − complexity 2: one die, and the expertise die.
    assert roll.breakdown["advantage"] == 0 and roll.breakdown["expertise_die"] == 8


def test_the_holder_lets_go_and_a_hold_ends_when_the_holder_is_out(
    conteur, storyteller, fight, player, other_player, as_member, campaign
):
    """Reading (§13): the holder may let go; the hold ends when the holder leaves the fight."""
    answer(conteur, storyteller, fight, grapple(conteur, storyteller, fight, "Brigand 1", "embrace", faces=(7,)))  # fmt: skip
    brigand = named("Brigand 1")
    with pytest.raises(PermissionDenied):
        cg.grapple_release(
            campaign=as_member(campaign, other_player),
            by=other_player,
            encounter_id=fight.pk,
            combatant_id=brigand.pk,
        )
    cg.grapple_release(
        campaign=as_member(campaign, player),
        by=player,
        encounter_id=fight.pk,
        combatant_id=brigand.pk,
    )
    assert named("Brigand 1").held_by is None and last_line().summary == "Aelis relâche Brigand 1."

    another_action(fight)
    answer(conteur, storyteller, fight, grapple(conteur, storyteller, fight, "Brigand 1", "embrace", faces=(7,), key="again"))  # fmt: skip
    combat.combatant_set_status(
        campaign=conteur,
        by=storyteller,
        encounter_id=fight.pk,
        combatant_id=named("Aelis").pk,
        status="defeated",
    )
    # The hold ends with the holder's fall, in the same line of the log.
    assert named("Brigand 1").held_by is None
    assert last_line().summary == "Aelis est vaincu. L'étreinte d'Aelis sur Brigand 1 prend fin."
    next_turn(conteur, storyteller, fight)
    assert fight.order[fight.position]["combatant"] == named("Brigand 1").pk
    tracker = cs.tracker_for_user(campaign=conteur, user=storyteller, encounter=fight)
    assert tracker.holder is None and tracker.may_attack  # Aelis holds no one any more


def test_a_held_combatant_neither_casts_nor_forces_a_regeneration(conteur, storyteller, fight):
    """§13: Étreinte — the target « can neither attack, move nor defend »; Reading
    (`rules.combat.held_can_act`): of its actions only freeing itself is left."""
    from sessions.combat import regeneration as combat_regeneration
    from sessions.combat import spell_casts
    from sessions.combat import spells as combat_spells

    answer(conteur, storyteller, fight, grapple(conteur, storyteller, fight, "Brigand 1", "embrace", faces=(7,)))  # fmt: skip
    next_turn(conteur, storyteller, fight)  # Brigand 1 acts, held
    with pytest.raises(ValidationError, match="seule une tentative pour se libérer"):
        spell_casts.spell_cast(
            campaign=conteur,
            by=storyteller,
            encounter_id=fight.pk,
            turn=fight.turn,
            request=combat_spells.SpellRequest(
                kind="plain", characteristic="power", characteristic_value=3
            ),
        )
    with pytest.raises(ValidationError, match="seule une tentative pour se libérer"):
        combat_regeneration.regeneration_force(
            campaign=conteur,
            by=storyteller,
            encounter_id=fight.pk,
            turn=fight.turn,
            gauge="vitality",
            points=2,
        )


def test_a_hidden_npc_grapples_in_hidden_lines_and_is_not_named(
    conteur, storyteller, aelis, brann, brigand, player, as_member, campaign
):
    """The fight's visibility rules: a hidden NPC's grapple is the Conteur's only."""
    fight = open_fight(conteur, storyteller, aelis, brann, brigand, hidden=True)
    next_turn(conteur, storyteller, fight)  # the Brigand acts
    pending = grapple(
        conteur, storyteller, fight, "Aelis", "embrace", faces=(9,), characteristic="agility"
    )
    assert pending["visibility"] == Visibility.HIDDEN
    answer(conteur, storyteller, fight, pending)
    assert named("Aelis").held_by == named("Brigand 1")
    public, hidden = TableEvent.objects.filter(kind="combat").order_by("-pk")[:2]
    assert hidden.visibility == Visibility.HIDDEN and "Brigand" in hidden.summary
    # Her players read what happened to her, not who did it (issue 39 §4).
    assert public.summary == "Une étreinte retient Aelis."
    seen = cs.tracker_for_user(campaign=as_member(campaign, player), user=player, encounter=fight)
    aelis_row = next(c for c in seen.combatants if c.name == "Aelis")
    assert aelis_row.grapple_badges == ["dans une étreinte"] and aelis_row.holder_shown is None
    shown = cs.tracker_for_user(campaign=conteur, user=storyteller, encounter=fight)
    assert next(c for c in shown.combatants if c.name == "Aelis").grapple_badges == [
        "dans l'étreinte de Brigand 1"
    ]
