"""Issue 39 §2–§3: one exchange by the book, through the combat services (each test is named
after the item it settles and quotes RULES.md)."""

import pytest
from django.core.exceptions import ValidationError

from characters import sheet as character_sheet
from characters.models import Character
from sessions import consequences, services
from sessions.checks import RollRequest
from sessions.combat import attacks as ca
from sessions.combat import fights as combat
from sessions.combat import offers
from sessions.models import Combatant, Encounter, Roll, StatBlock
from tests.dice import Faces
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_combat_attacks import _to_brann, defend, named, swing

pytestmark = pytest.mark.django_db


@pytest.fixture
def conteur(campaign, storyteller, as_member):
    return as_member(campaign, storyteller)


@pytest.fixture
def fight(conteur, storyteller, aelis, brann):
    """Aelis (11), Brigand 1 (8, armour 6), Brann (5); initiative done, Aelis acts."""
    brigand = StatBlock.objects.create(
        campaign=conteur, name="Brigand", agility=4, perception=3, wisdom=2, vigor=2, armour=6
    )
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
    return encounter


BRIGAND_STRIKE = {
    "characteristic": "agility",
    "characteristic_value": 4,
    "skill_level": 0,
    "skills": ("melee",),
}


def npc_gauge(name, gauge="vitality", **values):
    npc = named(name)
    gauges = npc.profile["gauges"]
    gauges[gauge] = {**gauges[gauge], **values}
    npc.profile = {**npc.profile, "gauges": gauges}
    npc.save()


def test_item_2_a_confrontation_loser_killed_by_the_blow_hits_back_for_nothing(
    conteur, storyteller, fight, aelis
):
    """Reading §13 (confrontation): "a loser dead or unconscious from the winner's blow deals
    nothing"."""
    npc_gauge("Brigand 1", maximum=7, current=7)
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    reply = ca.Strike(characteristic="agility", characteristic_value=4, skill_level=0, damage=6)
    result = defend(conteur, storyteller, fight, pending, "reactive", faces=(3,), reply=reply)
    # Aelis 11 beats 3 + 4 = 7 and deals 5 + Corps 2 = 7, the Brigand's whole Vitalité: dead.
    assert result["damage"] == 7 and result["reply_damage"] == 0
    assert named("Brigand 1").status == "dead"
    assert Character.objects.get(pk=aelis.pk).vitality_current == 15


def test_item_2_the_attacker_is_judged_on_the_gauge_it_was_hit_on(
    conteur, storyteller, fight, aelis
):
    """Reading §13 (confrontation): "each side is judged on the hit it took, on the gauge it was
    hit on": Aelis strikes Vitalité, loses, and takes a whole Énergie in one hit: unconscious
    (§8), so she deals nothing back."""
    energy = character_sheet.gauges(Character.objects.get(pk=aelis.pk))["energy"].maximum
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    reply = ca.Strike(
        characteristic="agility",
        characteristic_value=4,
        skill_level=0,
        damage=energy + 5,
        gauge="energy",
    )
    result = defend(conteur, storyteller, fight, pending, "reactive", faces=(9,), reply=reply)
    assert result["reply_damage"] >= energy and result["damage"] == 0
    assert named("Aelis").status == "unconscious"


def test_item_3_between_players_the_defender_rolls_with_no_alteration_of_its_own(
    campaign, conteur, storyteller, fight, brann, other_player, as_member
):
    """Reading §13 (player against player): "the defender rolls characteristic + skill against
    the attack's total with no alteration of its own"."""
    Character.objects.filter(pk=brann.pk).update(exhaustion=2, agony=2)
    pending = swing(conteur, storyteller, fight, "Brann", faces=(7, 5, 3, 2), damage=2)
    theirs = as_member(campaign, other_player)  # Brann's player rolls it
    result = defend(theirs, other_player, fight, pending, "dodge", faces=(6, 9, 9))
    roll = Roll.objects.get(pk=result["defence_roll"])
    assert roll.character_id == brann.pk
    assert len(roll.breakdown["dice"]) == 1 and roll.breakdown["agony"] == 0
    assert roll.breakdown["kept"] == 6


def test_item_4_the_attacker_may_spend_resilience_on_its_own_fumble(
    conteur, storyteller, fight, aelis
):
    """Reading §8 (criticals in a fight): "whoever suffers a critical — the attacker's own
    fumble … — chooses Résilience or the table"."""
    Character.objects.filter(pk=aelis.pk).update(resilience_points=2)
    attack = swing(
        conteur,
        storyteller,
        fight,
        "Brigand 1",
        faces=(1, 1, 1, 1, 3),
        damage=5,
        critical=consequences.RESILIENCE,
    )
    assert attack["outcome"] == "critical_failure"
    aelis.refresh_from_db()
    assert (aelis.aggravation, aelis.resilience_points, aelis.fragility) == (1, 1, 0)
    assert "Résilience pour l'éviter" in attack["result"]["summary"]


def test_item_5_a_combat_critical_is_applied_once_and_no_longer_offered(
    conteur, storyteller, fight, aelis
):
    """Reading §8: "A critical is applied once: the roll records it, and the table log no longer
    offers it"."""
    _to_brann(conteur, storyteller, fight)
    pending = swing(conteur, storyteller, fight, "Aelis", faces=(10, 4), damage=2, **BRIGAND_STRIKE)
    defend(conteur, storyteller, fight, pending, "none", faces=(8,))
    roll = Roll.objects.get(pk=pending["roll"])
    assert consequences.CRITICAL not in consequences.consequences_available(roll)
    with pytest.raises(ValidationError):
        services.consequence_apply(
            campaign=conteur, by=storyteller, roll_id=roll.pk, kind="critical", victim_id=aelis.pk
        )
    assert Character.objects.get(pk=aelis.pk).aggravation == 1


def test_item_6_an_unconscious_target_gets_no_defence_and_no_reply(conteur, storyteller, fight):
    """Reading §13 (who may defend): "an unconscious … combatant gets no defence and no reply:
    the blow resolves as 'no defence'"."""
    Combatant.objects.filter(name="Brigand 1").update(status="unconscious")
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    offered = offers.defences_offered(conteur, Encounter.objects.get(), named("Brigand 1"))
    assert not any(o.available for o in offered)
    reply = ca.Strike(characteristic="agility", characteristic_value=4, skill_level=0, damage=9)
    result = defend(conteur, storyteller, fight, pending, "reactive", faces=(10, 9), reply=reply)
    assert result["defence"] == "none" and result["reply_damage"] == 0 and result["damage"] == 7
    brigand_now = named("Brigand 1")
    assert brigand_now.finesse_points == brigand_now.finesse


def test_item_10_decouragement_from_one_big_confiance_hit_is_kept(
    conteur, storyteller, fight, aelis
):
    """Reading §8 (Découragement by one hit): "damage ≥ maximum Confiance in one attack makes the
    character discouraged … until its next rest; it is stored on the sheet"."""
    _to_brann(conteur, storyteller, fight)
    maximum = character_sheet.gauges(Character.objects.get(pk=aelis.pk))["confidence"].maximum
    pending = swing(
        conteur,
        storyteller,
        fight,
        "Aelis",
        faces=(6,),
        damage=maximum + 5,
        gauge="confidence",
        **BRIGAND_STRIKE,
    )
    result = defend(conteur, storyteller, fight, pending, "none")
    aelis.refresh_from_db()
    assert aelis.discouraged and "découragé" in result["summary"]


def test_item_11_a_character_killed_by_its_own_fumble_is_dead(conteur, storyteller, fight, aelis):
    """§8: "Fragilité 6 = death"; the table's row 5 is "death, every result"."""
    Character.objects.filter(pk=aelis.pk).update(fragility=5)
    attack = swing(conteur, storyteller, fight, "Brigand 1", faces=(1, 1, 1, 1, 3, 6), damage=5)
    assert attack["outcome"] == "critical_failure"
    assert Character.objects.get(pk=aelis.pk).fragility == 6
    assert named("Aelis").status == "dead"


def test_item_11_an_attack_fumbled_at_zero_vitality_knocks_out(conteur, storyteller, fight, aelis):
    """§8: "At 0 Vitalité the victim also falls unconscious for max(Aggravation, Agonie)
    turns"; Reading §8: the attack's own fumble is an offensive critical, suffered by its roller
    (the table's d10, 8: Protection, so no Résilience was spent)."""
    Character.objects.filter(pk=aelis.pk).update(vitality_current=0, agony=2)
    swing(conteur, storyteller, fight, "Brigand 1", faces=(1, 1, 1, 1, 3, 8), damage=5)
    aelis_now = named("Aelis")
    assert aelis_now.status == "unconscious" and aelis_now.unconscious_turns == 2


def test_item_12_no_riposte_after_failed_defence_with_a_ten(conteur, storyteller, fight):
    """Reading §13: "A riposte follows only a defence that **succeeded** with a critical"."""
    # Aelis: 10 and a chain of 9 → 19 + 4 = 23. The Brigand blocks 10 + 1 + armour 6 = 17.
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(10, 5, 3, 2, 9), damage=5)
    result = defend(conteur, storyteller, fight, pending, "block", faces=(10, 1, 8))
    assert not result["defended"] and result["riposte_for"] is None
    assert "riposter" not in result["summary"]


def test_item_15_no_knock_out_after_a_critical_avoided_with_resilience(conteur, storyteller, fight):
    """Reading §8: knock-out "follows only an offensive critical whose effect was suffered (no
    Résilience spent)"."""
    npc_gauge("Brigand 1", current=3)
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(10, 5, 3, 2, 4), damage=5)
    result = defend(conteur, storyteller, fight, pending, "none", critical=consequences.RESILIENCE)
    brigand_now = named("Brigand 1")
    assert brigand_now.profile["gauges"]["vitality"]["current"] == 0
    assert brigand_now.status == "active" and brigand_now.aggravation == 1
    assert "inconscient" not in result["summary"]


def test_item_15_no_knock_out_after_ones_own_fumbled_defence(conteur, storyteller, fight):
    """Reading §8: knock-out at 0 Vitalité "follows only an **offensive** critical"."""
    npc_gauge("Brigand 1", current=0)
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    # The Brigand dodges: one die, a 1, its subtracting chain 3; the table's d10: 8.
    result = defend(conteur, storyteller, fight, pending, "dodge", faces=(1, 3, 8))
    brigand_now = named("Brigand 1")
    assert result["aggravation"]["defender"] == 1 and brigand_now.aggravation == 1
    assert brigand_now.status == "active"


def test_item_16_an_npc_may_choose_resilience_against_a_critical(conteur, storyteller, fight):
    """§8: "The victim may spend 1 Résilience point per Aggravation level to avoid the effect";
    Reading: an NPC holds its Résilience score's points (the Brigand: floor((2 + 2 + 2) / 3))."""
    assert named("Brigand 1").profile["resilience_points"] == 2
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(10, 5, 3, 2, 4), damage=5)
    result = defend(
        conteur,
        storyteller,
        fight,
        pending,
        "block",
        faces=(3,),
        critical=consequences.RESILIENCE,
    )
    brigand_now = named("Brigand 1")
    assert brigand_now.profile["resilience_points"] == 1 and brigand_now.aggravation == 1
    assert result["defence"] == "block" and brigand_now.finesse_points == brigand_now.finesse - 1


def test_item_17_fragility_six_at_the_table_is_death_in_the_fight(
    conteur, storyteller, fight, brann
):
    """Reading §8: "Fragilité or Épuisement reaching 6 kills at once, in or out of a fight"."""
    Character.objects.filter(pk=brann.pk).update(fragility=5)
    roll = services.roll_create(
        campaign=conteur,
        by=storyteller,
        request=RollRequest(characteristic="strength"),
        character_id=brann.pk,
        idempotency_key="fumble",
        rng=Faces(1, 3),
    )
    assert roll.outcome == "critical_failure"
    services.consequence_apply(
        campaign=conteur, by=storyteller, roll_id=roll.pk, kind="critical", face=5
    )
    assert Character.objects.get(pk=brann.pk).fragility == 6
    assert named("Brann").status == "dead"


def test_item_17_exhaustion_six_set_on_the_sheet_is_death_in_the_fight(
    conteur, storyteller, fight, brann
):
    """Reading §8: "Fragilité or Épuisement reaching 6 kills at once" — here from a sheet edit,
    the sheets' own service (the same path as the sheet page and the API)."""
    from characters.services import character_update

    character_update(
        character=brann.pk, changes={"exhaustion": 6}, version=None, by=storyteller,
        storyteller=True,
    )  # fmt: skip
    assert named("Brann").status == "dead"


def test_item_18_a_characters_armour_and_shield_give_its_blocage(
    conteur, storyteller, fight, aelis
):
    """Reading §13 (armour and shields): "Blocage uses the best of Vigueur, armour and Force with
    a shield"."""
    _to_brann(conteur, storyteller, fight)
    pending = swing(conteur, storyteller, fight, "Aelis", faces=(6,), damage=2, **BRIGAND_STRIKE)

    def block():
        offered = offers.defences_offered(conteur, Encounter.objects.get(), named("Aelis"))
        return next(o for o in offered if o.key == "block")

    assert (block().source, block().characteristic) == ("vigor", 2)
    Character.objects.filter(pk=aelis.pk).update(armour=0, shield=True)
    assert (block().source, block().characteristic) == ("strength", 4)
    Character.objects.filter(pk=aelis.pk).update(armour=5)
    assert (block().source, block().characteristic) == ("armour", 5)
    result = defend(conteur, storyteller, fight, pending, "block", faces=(5,))
    assert Roll.objects.get(pk=result["defence_roll"]).total == 5 + 5  # the armour's value
    assert result["defended"]  # 10 ≥ the Brigand's 6 + 4


def test_item_9_an_npcs_agony_counts_on_its_defence(conteur, storyteller, fight):
    """RULES §8 Reading (Agonie in a fight): « NPCs' Agonie counts on their rolls too »; §5:
    success iff total ≥ difficulty + Agonie points."""
    Combatant.objects.filter(pk=named("Brigand 1").pk).update(agony=2)
    # Aelis: 6 + Force 4 = 10. The brigand's Parade: 6 + Agilité 4 = 10, a tie the defender
    # would win (§13), but not against 10 + Agonie 2.
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(6, 5, 3, 2), damage=5)
    result = defend(conteur, storyteller, fight, pending, "parry", faces=(6,))
    roll = Roll.objects.get(pk=result["defence_roll"])
    assert roll.inputs["check"]["agony"] == 2 and roll.total == 10
    assert not result["defended"]


def test_item_22_the_expertise_die_on_a_defence(conteur, storyteller, fight):
    """RULES §13 Product: every combat roll is built like a table roll: its expertise die (§5:
    "total = result + characteristic + expertise d10")."""
    pending = swing(conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2), damage=5)
    result = defend(conteur, storyteller, fight, pending, "parry", faces=(2, 6), expertise=True)
    roll = Roll.objects.get(pk=result["defence_roll"])
    assert roll.breakdown["expertise_die"] == 6 and roll.total == 2 + 4 + 6
    assert result["defended"]


def test_item_23_impact_spent_on_an_attack(conteur, storyteller, fight, aelis):
    """RULES §5: "Sources of surpuissance dice: Impact points"; §13 Product: combat rolls carry
    Impact and hope/despair spends."""
    Character.objects.filter(pk=aelis.pk).update(impact_points=2)
    pending = swing(
        conteur, storyteller, fight, "Brigand 1", faces=(7, 5, 3, 2, 1), damage=5, impact=1
    )
    roll = Roll.objects.get(pk=pending["roll"])
    assert len(roll.breakdown["dice"]) == 5
    assert Character.objects.get(pk=aelis.pk).impact_points == 1


def test_item_23_hope_spent_on_a_defence(conteur, storyteller, fight, aelis):
    """RULES §5: "Hope: +1 to the result", declared before the roll; §13 Product: a defence
    carries hope spends as every table roll."""
    Character.objects.filter(pk=aelis.pk).update(personal_hope=1)
    _to_brann(conteur, storyteller, fight)
    pending = swing(conteur, storyteller, fight, "Aelis", faces=(6,), damage=2, **BRIGAND_STRIKE)
    result = defend(conteur, storyteller, fight, pending, "dodge", faces=(7,), hope=1)
    roll = Roll.objects.get(pk=result["defence_roll"])
    aelis.refresh_from_db()
    assert roll.total == 7 + aelis.agility + 1 and aelis.personal_hope == 0
