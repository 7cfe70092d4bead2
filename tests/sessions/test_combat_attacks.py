"""Attacks, defences and damage in a fight (issue 14 §4), and the turn's own effects (§3),
through the services."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from characters.models import Character, CharacterChange
from sessions.combat import attacks as ca
from sessions.combat import fights as combat
from sessions.combat import offers
from sessions.models import Combatant, Encounter, Injury, StatBlock, TableEvent, Visibility
from tests.dice import Faces
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def conteur(campaign, storyteller, as_member):
    return as_member(campaign, storyteller)


@pytest.fixture
def brigand(campaign):
    return StatBlock.objects.create(
        campaign=campaign, name="Brigand", agility=4, perception=3, wisdom=2, vigor=2, armour=6
    )


@pytest.fixture
def fight(conteur, storyteller, aelis, brann, brigand):
    """Aelis (11), Brigand 1 (8), Brann (5); initiative done, Aelis acts."""
    encounter = combat.encounter_open(campaign=conteur, by=storyteller, name="Embuscade")
    combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.party_joining(conteur, [aelis.pk])
        + combat.block_joining(conteur, brigand.pk, 1, hidden=False)
        + combat.party_joining(conteur, [brann.pk]),
    )
    combat.initiative_roll(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, rng=Faces(9, 5, 3)
    )
    encounter.refresh_from_db()
    assert [s["combatant"] for s in encounter.order] == [
        c.pk for c in sorted(encounter.combatants.all(), key=lambda c: -c.initiative)
    ]
    return encounter


def named(name) -> Combatant:
    return Combatant.objects.get(name=name)


def swing(campaign, by, encounter, target, *, faces, **inputs):
    encounter.refresh_from_db()
    request = ca.AttackRequest(
        target=named(target).pk,
        characteristic=inputs.pop("characteristic", "strength"),
        skills=inputs.pop("skills", ("melee",)),
        **inputs,
    )
    pending, created = ca.attack_declare(
        campaign=campaign,
        by=by,
        encounter_id=encounter.pk,
        turn=encounter.turn,
        request=request,
        idempotency_key=f"k{encounter.turn}",
        rng=Faces(*faces),
    )
    assert created
    return pending


def another_action(encounter):
    """Let the acting combatant attack again, as in a later action (one attack per action)."""
    Encounter.objects.filter(pk=encounter.pk).update(last_attack={})


def defend(campaign, by, encounter, pending, defence, *, faces=(), **inputs):
    result, created = ca.attack_defend(
        campaign=campaign,
        by=by,
        encounter_id=encounter.pk,
        attack_id=pending["id"],
        request=ca.DefenceRequest(defence=defence, **inputs),
        rng=Faces(*faces),
    )
    return result


def test_every_one_starts_with_its_finesse_points(fight):
    """RULES §1: "Finesse points pay secondary actions such as defences and are all regained
    each combat turn"."""
    assert all(c.finesse_points == c.finesse for c in fight.combatants.all())


def test_an_attack_parried(conteur, storyteller, fight):
    """RULES §13: Parade (Bagarre or Mêlée; Agilité), paid with a Finesse point."""
    # Aelis: Force 4, Mêlée 3 → 4 dice, keep the highest: 7 + 4 = 11.
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    assert pending["total"] == 11 and pending["outcome"] == "success"
    offered = {
        o.key: o
        for o in offers.defences_offered(conteur, Encounter.objects.get(), named("Brigand 1"))
    }
    assert offered["block"].characteristic == 6  # the armour beats Vigueur 2
    assert offered["parry"].characteristic == 4 and 0 < offered["parry"].success < 1
    result = defend(conteur, storyteller, fight, pending, "parry", faces=(9,))  # 9 + 4 = 13
    assert result["defended"] and result["damage"] == 0
    brigand = named("Brigand 1")
    assert brigand.finesse_points == brigand.finesse - 1
    assert brigand.profile["gauges"]["vitality"]["current"] == 15
    assert "évite le coup" in result["summary"]
    again = defend(conteur, storyteller, fight, pending, "parry", faces=(1,))
    assert again == result  # a retried defence answers the same blow


def test_a_blow_blocked_with_armour_and_one_that_breaks_through(conteur, storyteller, fight):
    """RULES §13: Blocage uses "the armour's value"; it "risks serious wounds since the full
    blow is taken" (Reading: a failed Blocage's damage are all scars)."""
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    result = defend(conteur, storyteller, fight, pending, "block", faces=(5,))  # 5 + 6 = 11
    assert result["defended"] and result["damage"] == 0
    another_action(fight)
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    result = defend(conteur, storyteller, fight, pending, "block", faces=(2,))  # 8 < 11
    # 5 + Aelis's Corps bonus floor((4 + 2 + 2) / 3) = 2 (RULES §1) → 7, all serious.
    vitality = named("Brigand 1").profile["gauges"]["vitality"]
    assert result["damage"] == 7 and vitality["current"] == 8 and vitality["scars"] == 7


def test_annulation_and_resistance(conteur, storyteller, fight, brigand):
    """RULES §8: "an annulation cancels all damage if the attack roll is below it, else does
    nothing; a résistance subtracts its value from damage"."""
    npc = named("Brigand 1")
    npc.profile = {**npc.profile, "annulation": 12, "resistance": 2}
    npc.save()
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    assert defend(conteur, storyteller, fight, pending, "none")["damage"] == 0  # 11 < 12
    another_action(fight)
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(9, 5, 3, 2), damage=5)
    assert defend(conteur, storyteller, fight, pending, "none")["damage"] == 7 - 2  # 13 ≥ 12


def test_a_non_lethal_blow(conteur, storyteller, fight):
    """RULES §8: "non-lethal attacks give no scars and no damage bonus"."""
    pending = swing(
        conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5, nonlethal=True
    )
    result = defend(conteur, storyteller, fight, pending, "block", faces=(2,))
    vitality = named("Brigand 1").profile["gauges"]["vitality"]
    assert result["damage"] == 5 and vitality["scars"] == 0 and vitality["current"] == 10


def test_a_non_lethal_blow_on_someone_in_agony_only_takes_resilience(
    conteur, storyteller, fight, brann
):
    """RULES §8: "against a character in Agonie: −1 Résilience point, all of them on a critical
    success"."""
    Character.objects.filter(pk=brann.pk).update(agony=1, resilience_points=2)
    _to_brann(conteur, storyteller, fight)
    pending = swing(
        conteur,
        storyteller,
        fight,
        "Brann",
        faces=(6,),
        damage=9,
        nonlethal=True,
        characteristic_value=3,
        skill_level=0,
        characteristic="agility",
        skills=("melee",),
    )
    vitality_before = Character.objects.get(pk=brann.pk).vitality_current
    defend(conteur, storyteller, fight, pending, "none")
    brann.refresh_from_db()
    assert brann.resilience_points == 1 and brann.vitality_current == vitality_before


def _to_brann(conteur, storyteller, fight):
    """End Aelis's action: the Brigand acts."""
    fight.refresh_from_db()
    combat.turn_next(campaign=conteur, by=storyteller, encounter_id=fight.pk, turn=fight.turn)


def test_a_critical_on_a_characters_sheet_with_aggravation(
    conteur, storyteller, fight, player, aelis
):
    """RULES §5: "whoever suffers a critical — the target of an offensive critical success —
    takes a level of Aggravation (§8)"; the damage go through the sheet's versioned service."""
    _to_brann(conteur, storyteller, fight)
    version = Character.objects.get(pk=aelis.pk).version
    # The Brigand (Agilité 4 given by the Conteur, no skill): 10, then 4 → 14 + 4 = 18.
    pending = swing(
        conteur,
        storyteller,
        fight,
        "Aelis",
        faces=(10, 4),
        damage=6,
        characteristic="agility",
        skills=("melee",),
        characteristic_value=4,
        skill_level=0,
    )
    assert pending["outcome"] == "critical_success" and pending["exploded"]
    # The table's d10 for the Aggravation: 3 on Fragilité 0 → Fragilisation (+1 Fragilité).
    result = defend(conteur, storyteller, fight, pending, "none", faces=(3,))
    aelis.refresh_from_db()
    # 6 + the Brigand's Corps floor((2 + 2 + 4) / 3) = 2, less Aelis's Corps résistance 2.
    assert result["damage"] == 6 and aelis.vitality_current == 15 - 6
    assert aelis.aggravation == 1 and aelis.fragility == 1
    assert aelis.version > version
    assert CharacterChange.objects.filter(character=aelis, field="vitality_current").exists()
    assert result["aggravation"] == {"attacker": 0, "defender": 1}


def test_a_player_may_not_defend_for_someone_elses_character(
    campaign, conteur, storyteller, fight, other_player, player, as_member
):
    _to_brann(conteur, storyteller, fight)
    pending = swing(
        conteur,
        storyteller,
        fight,
        "Aelis",
        faces=(6,),
        damage=3,
        characteristic="agility",
        characteristic_value=3,
        skill_level=0,
    )
    with pytest.raises(PermissionDenied, match="joueur d'Aelis|joueur de Aelis"):
        defend(as_member(campaign, other_player), other_player, fight, pending, "dodge", faces=(5,))
    result = defend(as_member(campaign, player), player, fight, pending, "dodge", faces=(5,))
    assert result["defence"] == "dodge"


def test_a_player_attacks_only_on_their_own_turn(
    campaign, conteur, storyteller, fight, other_player, as_member
):
    fight.refresh_from_db()
    with pytest.raises(PermissionDenied):
        ca.attack_declare(
            campaign=as_member(campaign, other_player),
            by=other_player,
            encounter_id=fight.pk,
            turn=fight.turn,
            request=ca.AttackRequest(target=named("Brigand 1").pk, characteristic="strength"),
            idempotency_key="x",
        )


def test_one_blow_at_a_time_and_a_retry_answers_the_same(conteur, storyteller, fight):
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    fight.refresh_from_db()
    again, created = ca.attack_declare(
        campaign=conteur,
        by=storyteller,
        encounter_id=fight.pk,
        turn=fight.turn - 1,
        request=ca.AttackRequest(target=named("Brigand 1").pk, characteristic="strength"),
        idempotency_key=pending["key"],
    )
    assert not created and again["id"] == pending["id"]
    with pytest.raises(ValidationError, match="attend déjà"):
        swing(conteur, storyteller, fight, "Brann", faces=(5, 5, 5, 5))
    with pytest.raises(ValidationError, match="attend sa défense"):
        combat.turn_next(campaign=conteur, by=storyteller, encounter_id=fight.pk, turn=fight.turn)
    defend(conteur, storyteller, fight, pending, "none")
    with pytest.raises(ValidationError, match="déjà attaqué pendant cette action"):
        swing(conteur, storyteller, fight, "Brann", faces=(5, 5, 5, 5))


def test_reactive_confrontation(conteur, storyteller, fight):
    """RULES §13: "neither defends; the winner deals full damage, the loser half if still
    conscious"."""
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    reply = ca.Strike(
        characteristic="agility", characteristic_value=4, skill_level=0, damage=6, skills=()
    )
    result = defend(conteur, storyteller, fight, pending, "reactive", faces=(3,), reply=reply)
    # Aelis 11 beats 3 + 4 = 7: 7 damage to the Brigand; its answer 6 + Corps 2 − Aelis's
    # résistance 2 = 6, halved: 3.
    assert result["damage"] == 7 and result["reply_damage"] == 3
    assert Character.objects.get(name="Aelis").vitality_current == 15 - 3


def test_between_two_player_characters_only_the_attackers_criticals_count(
    campaign, conteur, storyteller, fight, player, as_member
):
    """RULES §5: "only the attacker's modifiers (criticals) apply; the defender is immune to his
    own criticals"."""
    pending = swing(conteur, storyteller, fight, "Brann", faces=(7, 5, 3, 2), damage=2)
    result = defend(conteur, storyteller, fight, pending, "dodge", faces=(1, 4))
    assert result["aggravation"] == {"attacker": 0, "defender": 0}
    assert Character.objects.get(name="Brann").aggravation == 0


def test_a_defensive_critical_gives_a_riposte(conteur, storyteller, fight):
    """RULES §8: "a successful defensive critical gives a possible riposte"."""
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    result = defend(conteur, storyteller, fight, pending, "parry", faces=(10, 2))
    assert result["riposte_for"] == named("Brigand 1").pk
    riposte = swing(
        conteur,
        storyteller,
        fight,
        "Aelis",
        faces=(6,),
        damage=1,
        riposte=True,
        characteristic="agility",
        characteristic_value=4,
        skill_level=0,
    )
    assert riposte["attacker"] == named("Brigand 1").pk


def test_hidden_npcs_attacks_are_logged_for_the_conteur_only(conteur, storyteller, fight):
    Combatant.objects.filter(name="Brigand 1").update(hidden=True)
    before = TableEvent.objects.order_by("-pk").first().pk
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    defend(conteur, storyteller, fight, pending, "parry", faces=(9,))
    lines = TableEvent.objects.filter(pk__gt=before, summary__contains="Brigand 1")
    assert len(lines) >= 3  # the attack roll, the attack, the defence (its roll and its blow)
    assert all(e.visibility == Visibility.HIDDEN for e in lines)


def test_a_critical_at_zero_vitality_knocks_out_and_the_turns_wake_up(
    conteur, storyteller, fight, aelis
):
    """RULES §8: "at 0 Vitalité the victim also falls unconscious for max(Aggravation, Agonie)
    turns"; Agonie: "+1 per full turn at 0 not stabilised"."""
    Character.objects.filter(pk=aelis.pk).update(vitality_current=3)
    _to_brann(conteur, storyteller, fight)
    pending = swing(
        conteur,
        storyteller,
        fight,
        "Aelis",
        faces=(10, 4),
        damage=6,
        characteristic="agility",
        characteristic_value=4,
        skill_level=0,
    )
    result = defend(conteur, storyteller, fight, pending, "none", faces=(8,))
    aelis.refresh_from_db()
    assert aelis.vitality_current == 0 and aelis.agony == 1 and aelis.aggravation == 1
    one = named("Aelis")
    assert one.status == "unconscious" and one.unconscious_turns == 1
    assert "inconscient" in result["summary"]
    assert not Injury.objects.exists()  # Fragilité 0, face 8: Protection


def test_the_new_turn_gives_finesse_back_and_rolls_peril(conteur, storyteller, fight, aelis):
    """RULES §1 (Finesse points regained each turn) and §8: "at each turn start, for each gauge
    in péril, a check with characteristic = Résilience score … difficulty = that gauge's scars;
    on failure the gauge gains as many scars as the margin of failure"."""
    Character.objects.filter(pk=aelis.pk).update(
        vitality_current=0, vitality_peril=True, vitality_scars=9, agony=1
    )
    Combatant.objects.update(finesse_points=0)
    for _n in range(3):
        fight.refresh_from_db()
        combat.turn_next(
            campaign=conteur, by=storyteller, encounter_id=fight.pk, turn=fight.turn, rng=Faces(3)
        )
    fight.refresh_from_db()
    assert fight.round == 2
    assert all(c.finesse_points == c.finesse for c in fight.combatants.all())
    aelis.refresh_from_db()
    # Résilience floor((2 + 2 + 2) / 3) = 2: 3 + 2 = 5 against 9 + Agonie 1 → 5 more scars.
    assert aelis.vitality_scars == 14
    assert named("Aelis").profile["zero_since"] == 1  # fell before: Agonie from the next turn


def test_a_forced_regeneration_costs_the_action_and_leaves_serious_wounds(
    campaign, conteur, storyteller, fight, aelis, player, as_member
):
    """RULES §13: "forcing one costs an action and adds as many serious wounds as it
    regenerated"."""
    from sessions.combat.regeneration import regeneration_force

    Character.objects.filter(pk=aelis.pk).update(vitality_current=10, vitality_regeneration=3)
    brigand = named("Brigand 1")
    brigand.profile["regeneration"] = {"vitality": 4}
    brigand.save(update_fields=["profile"])
    fight.refresh_from_db()
    regeneration_force(
        campaign=as_member(campaign, player),
        by=player,
        encounter_id=fight.pk,
        turn=fight.turn,
        gauge="vitality",
        points=3,
    )
    aelis.refresh_from_db()
    assert (aelis.vitality_current, aelis.vitality_scars) == (13, 3)
    fight.refresh_from_db()
    assert named("Brigand 1").pk == fight.order[fight.position]["combatant"]  # the action ended
    regeneration_force(
        campaign=conteur, by=storyteller, encounter_id=fight.pk, turn=fight.turn,
        gauge="vitality", points=4,
    )  # fmt: skip
    vitality = named("Brigand 1").profile["gauges"]["vitality"]
    assert (vitality["current"], vitality["scars"]) == (15, 0)  # already full: nothing regenerated


def test_a_failed_attack_misses_at_once_and_a_critical_failure_costs_its_roller(
    conteur, storyteller, fight, aelis
):
    """Reading (§5, §13): a failed attack misses (no defence asked); RULES §5: "the roller of a
    critical failure takes a level of Aggravation (§8)"."""
    # Aelis: 4 dice all 1 → kept 1, one subtracting chain of 3: 1 − 3 + 4 = 2, critical failure.
    attack = swing(conteur, storyteller, fight, "Brigand 1", faces=(1, 1, 1, 1, 3, 7), damage=5)
    assert attack["outcome"] == "critical_failure" and attack["result"]["damage"] == 0
    fight.refresh_from_db()
    assert fight.pending_attack == {} and fight.last_attack["id"] == attack["id"]
    aelis.refresh_from_db()
    assert aelis.aggravation == 1  # the table's d10 7 on Fragilité 0: Protection
    assert "rate son attaque" in fight.last_attack["summary"]
