"""Spells in a fight (issue 14 §5, issue 39 items 20, 21, 24; RULES §15), through the services:
the incantation begins at the caster's slot and resolves at its first slot of the next round."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaigns.models import SpellEntry
from characters.models import Character, CharacterChange, CharacterSkill
from characters.sheet import gauges
from sessions.combat import attacks as combat_attacks
from sessions.combat import fights as combat
from sessions.combat import spell_casts
from sessions.combat import spells as cs
from sessions.combat.steps import StaleTurn
from sessions.combat.strikes import AttackRequest, DefenceRequest
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


def sorcerer(character, expertises=()):
    """Aelis, a sorcerer whose healing succeeds: Sorcellerie 10, Pouvoir 8."""
    Character.objects.filter(pk=character.pk).update(power=8)
    CharacterSkill.objects.update_or_create(
        character=character, key="sorcellerie",
        defaults={"level": 10, "expertises": list(expertises)},
    )  # fmt: skip


def named(name) -> Combatant:
    return Combatant.objects.get(name=name)


def cast(campaign, by, encounter, *, key="s1", faces=(), **inputs):
    encounter.refresh_from_db()
    inputs.setdefault("characteristic", "power")
    inputs.setdefault("skills", ("sorcellerie",))
    return spell_casts.spell_cast(
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


def resolve(campaign, by, *, faces=()):
    encounter = Encounter.objects.get()
    return spell_casts.spell_resolve(
        campaign=campaign,
        by=by,
        encounter_id=encounter.pk,
        turn=encounter.turn,
        rng=Faces(*faces, then=5),
    )


def acting() -> Combatant:
    encounter = Encounter.objects.get()
    return Combatant.objects.get(pk=encounter.order[encounter.position]["combatant"])


def to_next_round(conteur, storyteller):
    """Everyone else ends its action until the caster's first slot of the next round."""
    start = Encounter.objects.get().round
    while True:
        encounter = Encounter.objects.get()
        if encounter.round > start:
            return encounter
        combat.turn_next(
            campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=encounter.turn
        )


def test_a_healing_spell_begins_pays_and_takes_the_rest_of_the_round(
    campaign, player, conteur, fight, aelis, brann, as_member
):
    """RULES §15: the healing check's numbers come from the target; Reading (incantation): the
    spell is begun at the caster's slot, its remaining slots this round are given up."""
    Character.objects.filter(pk=brann.pk).update(vitality_current=10, vitality_scars=1)
    mine = as_member(campaign, player)
    before = Roll.objects.count()
    result, created = cast(
        mine, player, fight, kind="healing", target=named("Brann").pk, gauge="vitality",
        spell_points=3, focus=1, words=3,
    )  # fmt: skip
    assert created and result["state"] == "begun"
    assert result["healing"]["complexity"] == 2  # one scar, nothing at 0
    assert Roll.objects.count() == before  # nothing rolled yet: it resolves next round
    assert result["incantation"]["combativeness_spent"] == 2  # focus + words
    assert result["total_points"] == 6 and result["actions_given_up"] == 2
    encounter = Encounter.objects.get()
    assert [s["combatant"] for s in encounter.order].count(named("Aelis").pk) == 1
    assert encounter.order[encounter.position]["combatant"] == named("Ombre").pk
    line = TableEvent.objects.filter(payload__spell__key="s1").get()
    assert line.visibility == Visibility.PUBLIC and line.payload["encounter"] == encounter.pk
    assert "complexité 2" in line.summary and "reste du tour d'Aelis (2 actions)" in line.summary
    assert "première action du tour suivant" in line.summary
    again, created = cast(mine, player, fight, kind="healing", target=named("Brann").pk)
    assert not created and again == result  # a retried cast answers the same one


def test_item_20_a_healing_spell_heals_and_stabilises_through_the_care_services(
    campaign, player, storyteller, conteur, fight, aelis, brann, as_member
):
    """RULES §15 Reading (healing): on success the target's gauge regains the wounds the
    difficulty was computed for and is stabilised (the same service as care)."""
    Character.objects.filter(pk=brann.pk).update(
        vitality_current=0, vitality_scars=1, vitality_peril=True
    )
    maximum = gauges(Character.objects.get(pk=brann.pk))["vitality"].maximum
    sorcerer(aelis)
    mine = as_member(campaign, player)
    cast(mine, player, fight, kind="healing", target=named("Brann").pk, wounds=12)
    to_next_round(conteur, storyteller)
    assert acting().name == "Aelis"
    version = Character.objects.get(pk=brann.pk).version
    result, created = resolve(mine, player, faces=(9,))
    assert created and result["state"] == "resolved"
    roll = Roll.objects.get(pk=result["rolls"][0]["id"])
    assert roll.target >= 12 and roll.outcome in ("success", "critical_success")
    healed = Character.objects.get(pk=brann.pk)
    assert healed.vitality_current == 12 < maximum  # the 12 wounds chosen, not all of them
    assert not healed.vitality_peril and healed.vitality_stabilised
    assert healed.version > version  # written through the sheet's versioned path
    assert healed.changes.filter(field="vitality_current").exists()
    assert result["healed_points"] == 12
    assert acting().name != "Aelis"  # the resolution was Aelis's action


def test_item_20_a_failed_healing_heals_nothing(
    campaign, player, storyteller, conteur, fight, brann, as_member
):
    Character.objects.filter(pk=brann.pk).update(vitality_current=3)
    mine = as_member(campaign, player)
    cast(mine, player, fight, kind="healing", target=named("Brann").pk)
    to_next_round(conteur, storyteller)
    result, _ = resolve(mine, player, faces=(1, 1, 1))
    assert Character.objects.get(pk=brann.pk).vitality_current == 3
    assert result["healed_points"] == 0 and "rien n'est soigné" in result["summary"]


def test_item_20_an_npc_is_healed_on_its_stat_block(conteur, storyteller, fight, aelis):
    """RULES §15 Reading (healing): NPCs can be healed on their stat block."""
    sorcerer(aelis)
    ombre = named("Ombre")
    ombre.profile = {"gauges": {"vitality": {"maximum": 20, "current": 4, "peril": True}}}
    ombre.save()
    cast(conteur, storyteller, fight, kind="healing", target=ombre.pk)
    to_next_round(conteur, storyteller)
    resolve(conteur, storyteller, faces=(9,))
    vitality = named("Ombre").profile["gauges"]["vitality"]
    assert vitality["current"] == 20 and vitality["stabilised"] and not vitality["peril"]


def test_item_24_the_spell_costs_energy_twice_when_overcharged(
    campaign, player, fight, aelis, as_member
):
    """RULES §15 Reading (cost): a spell costs Énergie points (its entry's, or typed at the
    cast); overcharge pays that cost twice — through the sheet's versioned path."""
    Character.objects.filter(pk=aelis.pk).update(energy_current=10)
    version = Character.objects.get(pk=aelis.pk).version
    mine = as_member(campaign, player)
    result, _ = cast(mine, player, fight, spell_points=2, energy_cost=3, overcharge=True)
    caster = Character.objects.get(pk=aelis.pk)
    assert result["energy_paid"] == 6 and caster.energy_current == 4
    assert caster.version > version and caster.changes.filter(field="energy_current").exists()
    assert "6 points d'Énergie payés" in TableEvent.objects.get(payload__spell__key="s1").summary


def test_item_24_a_caster_short_of_energy_cannot_begin(campaign, player, fight, aelis, as_member):
    Character.objects.filter(pk=aelis.pk).update(energy_current=2)
    with pytest.raises(ValidationError) as refused:
        cast(as_member(campaign, player), player, fight, energy_cost=3)
    assert "Énergie" in " ".join(refused.value.messages)
    assert Character.objects.get(pk=aelis.pk).energy_current == 2
    assert Encounter.objects.get().turn == 1 and not named("Aelis").incantation


def test_item_24_the_spell_resolves_only_at_the_casters_first_slot_of_the_next_round(
    campaign, player, storyteller, conteur, fight, as_member
):
    """RULES §15 Reading (incantation): begun at the caster's slot, it resolves at the caster's
    first slot of the next round; the caster takes no other action meanwhile."""
    mine = as_member(campaign, player)
    cast(mine, player, fight, name="Éclair", difficulty=5)
    assert not Roll.objects.exists()
    to_next_round(conteur, storyteller)
    assert acting().name == "Aelis"
    encounter = Encounter.objects.get()
    with pytest.raises(ValidationError) as refused:
        combat_attacks.attack_declare(
            campaign=mine, by=player, encounter_id=encounter.pk, turn=encounter.turn,
            request=AttackRequest(characteristic="strength", target=named("Brann").pk),
            idempotency_key="a1",
        )  # fmt: skip
    assert "incante" in " ".join(refused.value.messages)
    with pytest.raises(ValidationError):
        cast(mine, player, fight, key="s2")  # no second spell meanwhile
    result, _ = resolve(mine, player)
    assert result["state"] == "resolved" and len(result["rolls"]) == 1
    assert "Le sort « Éclair » d'Aelis se résout" in result["summary"]
    assert not named("Aelis").incantation


def test_item_24_a_caster_who_defends_loses_the_spell(
    campaign, player, storyteller, conteur, fight, as_member
):
    """RULES §15 Reading (incantation): a caster who defends loses the spell."""
    mine = as_member(campaign, player)
    cast(mine, player, fight, name="Éclair")
    Combatant.objects.filter(name="Ombre").update(hidden=False)
    encounter = Encounter.objects.get()  # the Ombre acts and attacks Aelis
    attack, _ = combat_attacks.attack_declare(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=encounter.turn,
        request=AttackRequest(
            characteristic="strength", target=named("Aelis").pk, damage=1,
            characteristic_value=3, skill_level=2,
        ),
        idempotency_key="a1", rng=Faces(9, then=5),
    )  # fmt: skip
    assert attack["result"] is None
    combat_attacks.attack_defend(
        campaign=mine, by=player, encounter_id=encounter.pk, attack_id=attack["id"],
        request=DefenceRequest(defence="dodge"), rng=Faces(then=5),
    )  # fmt: skip
    assert not named("Aelis").incantation
    assert TableEvent.objects.filter(summary__contains="perd son incantation").exists()


def test_item_24_a_caster_knocked_out_loses_the_spell(
    campaign, player, storyteller, conteur, fight, as_member
):
    """RULES §15 Reading (incantation): a caster knocked out loses the spell."""
    mine = as_member(campaign, player)
    cast(mine, player, fight, name="Éclair")
    Combatant.objects.filter(name="Aelis").update(status="unconscious", unconscious_turns=2)
    encounter = to_next_round(conteur, storyteller)
    Combatant.objects.filter(name="Aelis").update(status="active", unconscious_turns=0)
    encounter.order = combat.round_order(list(encounter.combatants.order_by("pk")))
    encounter.position, encounter.round = 0, encounter.round + 1  # its slot has gone by
    encounter.save()
    result, _ = resolve(mine, player)
    assert result["state"] == "lost" and "perdu" in result["summary"]
    assert not Roll.objects.exists() and not named("Aelis").incantation


def test_item_24_a_held_caster_loses_the_spell(
    campaign, player, storyteller, conteur, fight, as_member
):
    mine = as_member(campaign, player)
    cast(mine, player, fight, name="Éclair")
    to_next_round(conteur, storyteller)
    Combatant.objects.filter(name="Aelis").update(held_by=named("Ombre"))
    result, _ = resolve(mine, player)
    assert result["state"] == "lost" and "tenu" in result["summary"]


def test_item_22_the_expertise_die_is_rolled_on_a_spell(
    campaign, player, storyteller, conteur, fight, aelis, as_member
):
    """RULES §2: an expert adds 1d10 to the result, without criticals (item 22, spells)."""
    mine = as_member(campaign, player)
    with pytest.raises(ValidationError) as refused:  # no expertise: refused as the spell begins
        cast(mine, player, fight, expertise=True)
    assert "expertise" in " ".join(refused.value.messages)
    sorcerer(aelis, expertises=["Soins"])
    cast(mine, player, fight, expertise=True)
    to_next_round(conteur, storyteller)
    result, _ = resolve(mine, player)
    roll = Roll.objects.get(pk=result["rolls"][0]["id"])
    assert roll.inputs["expertise"] is True


def test_item_21_an_area_spell_names_its_targets_one_check_each(conteur, storyteller, fight):
    """RULES §15 Reading (area): an area spell names its targets (combatants); one check each."""
    targets = [named("Brann").pk, named("Ombre").pk]
    result, _ = cast(
        conteur, storyteller, fight, kind="area", area_targets=tuple(targets),
        name="Boule de feu", difficulty=9, complexity=1, spell_points=4, overcharge=True,
    )  # fmt: skip
    assert result["checks"] == 2 and result["area_targets"] == targets
    assert result["visibility"] == Visibility.HIDDEN  # a hidden NPC is named
    to_next_round(conteur, storyteller)
    result, _ = resolve(conteur, storyteller)
    labels = list(Roll.objects.order_by("pk").values_list("label", flat=True))
    assert labels == [
        "Sort de zone « Boule de feu » sur Brann",
        "Sort de zone « Boule de feu » sur Ombre",
    ]


def test_the_log_line_says_what_the_incantation_spent_and_nothing_it_did_not(
    campaign, player, fight, as_member
):
    """A spell of no points cast with one focus die says so, without « 0 point de sort »."""
    mine = as_member(campaign, player)
    cast(mine, player, fight, kind="area", targets=1, focus=1)
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
    assert result["checks"] == 3
    line = TableEvent.objects.get(payload__spell__key="s1")
    to_next_round(conteur, storyteller)
    result, _ = resolve(conteur, storyteller)
    assert len(result["rolls"]) == 3
    assert Roll.objects.filter(label__startswith="Sort de zone « Boule de feu »").count() == 3
    assert result["incantation"]["cost_multiplier"] == 2 and result["total_points"] == 8
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
    to_next_round(conteur, storyteller)
    resolve(conteur, storyteller)  # Aelis's, then the hand passes to the Ombre
    assert acting().name == "Ombre"
    result, _ = resolve(conteur, storyteller)
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


def test_item_24_the_cost_comes_from_the_compendium_entry_unless_typed(
    campaign, player, fight, aelis, as_member
):
    """RULES §15 Reading (cost): "a spell costs Énergie points given by its compendium entry
    (or typed at the cast); overcharge pays that cost twice"."""
    entry = SpellEntry.objects.create(
        campaign=campaign, name="Trait de feu", spell_points=2, energy_cost=3
    )
    Character.objects.filter(pk=aelis.pk).update(energy_current=20)
    mine = as_member(campaign, player)
    result, _ = cast(mine, player, fight, spell=entry.pk, overcharge=True)
    assert result["name"] == "Trait de feu" and result["spell_points"] == 2
    assert result["energy_paid"] == 6  # the entry's 3, twice
    assert Character.objects.get(pk=aelis.pk).energy_current == 14
    preview = cs.spell_preview(
        campaign=mine,
        encounter=Encounter.objects.get(),
        request=cs.SpellRequest(characteristic="power", spell=entry.pk, energy_cost=1),
    )
    assert preview.energy_paid == 1  # typed at the cast: that one


# --- issue 39 item 21: an area spell's rolls resolve as attacks (RULES §15 Reading "area") ---

AELIS_CORPS = 2  # Aelis's Corps column score: a Vitalité blow's damage bonus (§13)
BRANN_CORPS = 3  # Brann's (Vigueur 5): his résistance (§8 Reading: "resists with its column score")


def answer(campaign, by, defence="none"):
    pending = Encounter.objects.get().pending_attack
    return combat_attacks.attack_defend(
        campaign=campaign,
        by=by,
        encounter_id=Encounter.objects.get().pk,
        attack_id=pending["id"],
        request=DefenceRequest(defence=defence),
    )[0]


def fireball(conteur, storyteller, fight, *targets, difficulty=9, **more):
    return cast(
        conteur, storyteller, fight, kind="area", area_targets=tuple(named(t).pk for t in targets),
        name="Boule de feu", difficulty=difficulty, complexity=1, damage=4, **more,
    )  # fmt: skip


def test_item_21_each_target_answers_its_roll_and_takes_the_spells_damage(
    campaign, conteur, storyteller, other_player, fight, aelis, brann, as_member
):
    """RULES §15 Reading (area): "each roll resolves against its target as an attack does
    (defence, damage, criticals)"; §13: the damage is the base plus the attacker's column score."""
    sorcerer(aelis)
    fireball(conteur, storyteller, fight, "Brann", "Ombre")
    to_next_round(conteur, storyteller)
    resolve(conteur, storyteller)
    waiting = Encounter.objects.get().pending_attack
    assert (waiting["attacker"], waiting["target"]) == (named("Aelis").pk, named("Brann").pk)
    assert Roll.objects.get(pk=waiting["roll"]).label == "Sort de zone « Boule de feu » sur Brann"

    before = Character.objects.get(pk=brann.pk).vitality_current
    theirs = as_member(campaign, other_player)  # Brann's player answers Brann's roll
    blow = answer(theirs, other_player)
    assert blow["damage"] == 4 + AELIS_CORPS - BRANN_CORPS
    assert Character.objects.get(pk=brann.pk).vitality_current == before - blow["damage"]
    written = CharacterChange.objects.filter(character=brann, field="vitality_current").first()
    assert written.note == "Sort « Boule de feu » d'Aelis"  # Brann's sheet history

    waiting = Encounter.objects.get().pending_attack
    assert waiting["target"] == named("Ombre").pk  # the next target answers its own roll
    ombre = named("Ombre").profile["gauges"]["vitality"]["current"]
    answer(conteur, storyteller)
    assert named("Ombre").profile["gauges"]["vitality"]["current"] == max(
        ombre - 4 - AELIS_CORPS, 0
    )
    encounter = Encounter.objects.get()
    assert encounter.pending_attack == {}
    combat.turn_next(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=encounter.turn
    )
    assert Encounter.objects.get().turn > encounter.turn


def test_a_target_that_defends_takes_nothing_and_spends_its_finesse(
    campaign, conteur, storyteller, other_player, fight, aelis, brann, as_member
):
    """RULES §13: a defence is "a check against the attack's total" for one Finesse point; a
    successful one avoids the blow. Brann's Esquive (all 10s, then 9) beats the spell's roll."""
    sorcerer(aelis)
    fireball(conteur, storyteller, fight, "Brann")
    to_next_round(conteur, storyteller)
    resolve(conteur, storyteller)
    before = Character.objects.get(pk=brann.pk).vitality_current
    finesse = named("Brann").finesse_points
    theirs = as_member(campaign, other_player)
    pending = Encounter.objects.get().pending_attack
    blow = combat_attacks.attack_defend(
        campaign=theirs,
        by=other_player,
        encounter_id=Encounter.objects.get().pk,
        attack_id=pending["id"],
        request=DefenceRequest(defence="dodge"),
        rng=Faces(10, 10, 10, 9, then=9),
    )[0]
    assert blow["defended"] and blow["damage"] == 0
    assert Character.objects.get(pk=brann.pk).vitality_current == before
    assert named("Brann").finesse_points == finesse - 1


def test_a_missed_roll_lands_at_once_and_the_hand_passes(conteur, storyteller, fight, brann):
    """RULES §13 Reading: "A failed attack misses": a roll that fails its difficulty asks no
    answer; when every roll misses, the hand passes as after any spell."""
    fireball(conteur, storyteller, fight, "Brann", "Ombre", difficulty=90)
    to_next_round(conteur, storyteller)
    before = Character.objects.get(pk=brann.pk).vitality_current
    resolve(conteur, storyteller)
    encounter = Encounter.objects.get()
    assert encounter.pending_attack == {}
    assert Character.objects.get(pk=brann.pk).vitality_current == before
    acting = encounter.order[encounter.position]["combatant"]
    assert acting != named("Aelis").pk
    assert "rate son attaque" in encounter.last_attack["summary"]


def test_a_player_is_asked_to_answer_a_hidden_casters_roll_without_its_name(
    campaign, conteur, storyteller, player, fight, aelis, as_member
):
    """Issue 39 §4: a hidden NPC's blow is told to the players as « une attaque »; an area
    spell's roll is such a blow (Reading §15, area)."""
    encounter = Encounter.objects.get()
    ombre = named("Ombre")
    encounter.order = [s for s in encounter.order if s["combatant"] == ombre.pk] + [
        s for s in encounter.order if s["combatant"] != ombre.pk
    ]
    encounter.position = 0
    encounter.save()
    cast(
        conteur, storyteller, fight, kind="area", area_targets=(named("Aelis").pk,),
        name="Ténèbres", difficulty=1, damage=2, characteristic_value=6, skill_level=4,
    )  # fmt: skip
    to_next_round(conteur, storyteller)
    while Encounter.objects.get().order[Encounter.objects.get().position]["combatant"] != ombre.pk:
        encounter = Encounter.objects.get()
        combat.turn_next(
            campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=encounter.turn
        )
    resolve(conteur, storyteller)
    assert Encounter.objects.get().pending_attack["target"] == named("Aelis").pk
    public = TableEvent.objects.filter(visibility=Visibility.PUBLIC).order_by("pk")
    assert public.last().summary == "Une attaque vise Aelis. À Aelis de choisir sa défense."
    assert not any("Ombre" in event.summary for event in public)
    before = Character.objects.get(pk=aelis.pk).vitality_current
    mine = as_member(campaign, player)
    blow = answer(mine, player)
    assert blow["damage"] > 0
    assert Character.objects.get(pk=aelis.pk).vitality_current == before - blow["damage"]


def test_an_area_spells_damage_is_checked_when_it_is_cast(conteur, storyteller, fight):
    """Nothing is paid nor rolled for a spell refused: a blow's gauge must exist, and the
    caster does not strike itself."""
    with pytest.raises(ValidationError) as refused:
        fireball(conteur, storyteller, fight, "Brann", gauge="luck")
    assert "Cette constitution n'existe pas." in refused.value.messages
    with pytest.raises(ValidationError) as refused:
        fireball(conteur, storyteller, fight, "Brann", "Aelis")
    assert "Le lanceur ne se vise pas lui-même." in refused.value.messages
    assert not Roll.objects.exists() and Encounter.objects.get().turn == 1


def riposte_opened_by_the_ombre(conteur, storyteller, fight, aelis):
    """Aelis's « Boule de feu » on the Ombre, then Brann; the Ombre parries with a critical
    (10, 10, 10, then 9: far above the spell's total) — §8: "a successful defensive critical
    gives a possible riposte"."""
    sorcerer(aelis)
    fireball(conteur, storyteller, fight, "Ombre", "Brann")
    to_next_round(conteur, storyteller)
    resolve(conteur, storyteller)
    encounter = Encounter.objects.get()
    blow = combat_attacks.attack_defend(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        attack_id=encounter.pending_attack["id"],
        request=DefenceRequest(defence="parry"),
        rng=Faces(10, 10, 10, 9, then=9),
    )[0]
    assert blow["defended"] and blow["riposte_for"] == named("Ombre").pk
    return Encounter.objects.get()


def test_a_riposte_against_an_area_spell_comes_before_its_next_blow(
    conteur, storyteller, fight, aelis
):
    """RULES §8: the riposte is open at once; Reading §15 (area): each roll is an attack, so
    the spell's next blow (Brann's) waits until the riposte is answered."""
    encounter = riposte_opened_by_the_ombre(conteur, storyteller, fight, aelis)
    assert encounter.pending_attack == {}  # Brann's blow waits behind the riposte
    riposte, _ = combat_attacks.attack_declare(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        turn=encounter.turn,
        request=AttackRequest(
            target=named("Aelis").pk, characteristic="agility", characteristic_value=3,
            skills=("melee",), skill_level=1, damage=2, riposte=True,
        ),
        idempotency_key="riposte",
        rng=Faces(6, then=6),
    )  # fmt: skip
    assert riposte["attacker"] == named("Ombre").pk
    combat_attacks.attack_defend(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        attack_id=riposte["id"],
        request=DefenceRequest(defence="none"),
    )
    waiting = Encounter.objects.get().pending_attack
    assert (waiting["attacker"], waiting["target"]) == (named("Aelis").pk, named("Brann").pk)


def test_passing_the_hand_gives_the_riposte_up_and_the_spells_next_blow_waits(
    conteur, storyteller, fight, aelis
):
    encounter = riposte_opened_by_the_ombre(conteur, storyteller, fight, aelis)
    acting = encounter.order[encounter.position]
    combat.turn_next(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, turn=encounter.turn
    )
    encounter = Encounter.objects.get()
    assert encounter.pending_attack["target"] == named("Brann").pk
    assert encounter.last_attack["riposte_for"] is None
    assert encounter.order[encounter.position] == acting  # the hand stays with the caster


def test_the_riposte_panel_says_the_spells_blows_wait(
    conteur, storyteller, fight, aelis, storyteller_client
):
    riposte_opened_by_the_ombre(conteur, storyteller, fight, aelis)
    page = storyteller_client.get(f"/campaigns/{conteur.pk}/table/").content.decode()
    assert "Ombre peut riposter contre Aelis" in page
    assert "Les autres coups du sort de zone attendent cette riposte" in page


def test_a_target_fallen_before_the_spell_resolves_is_passed_over(
    conteur, storyteller, fight, aelis
):
    """The spell's blows reach only those still in the fight: Brann, dead meanwhile, gets
    none; the Ombre's waits first."""
    sorcerer(aelis)
    fireball(conteur, storyteller, fight, "Brann", "Ombre")
    to_next_round(conteur, storyteller)
    Combatant.objects.filter(name="Brann").update(status="dead")
    resolve(conteur, storyteller)
    assert Encounter.objects.get().pending_attack["target"] == named("Ombre").pk
