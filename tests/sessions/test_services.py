"""Rolls, payment, idempotency, the Moral and consequences, through the table's services."""

import random

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaigns.models import Arc
from characters.models import Character, CharacterChange
from rules import sheet as rules_sheet
from rules.check import Check, roll_check
from sessions import checks, consequences, morale, services
from sessions.checks import RollRequest
from sessions.models import Injury, MoralePool, Roll, TableEvent, Visibility
from sessions.selectors import events_for_user, morale_panel, used_in_arc
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key, set_pool

pytestmark = pytest.mark.django_db


class Dice:
    """A scripted random source: returns the given faces in order."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def roll(campaign, user, character, as_member, rng=None, idempotency_key=None, **declared):
    declared.setdefault("characteristic", "strength")
    declared.setdefault("skills", ("melee",))
    return services.roll_create(
        campaign=as_member(campaign, user),
        by=user,
        request=RollRequest(**declared),
        character_id=character.pk if character else None,
        idempotency_key=idempotency_key or key(),
        rng=rng,
    )


def test_a_seeded_roll_gives_the_engines_breakdown(campaign, player, aelis, as_member):
    first = roll(campaign, player, aelis, as_member, random.Random(7), complexity=1, difficulty=9)
    again = roll(campaign, player, aelis, as_member, random.Random(7), complexity=1, difficulty=9)
    expected = roll_check(
        Check(skill=3, complexity=1, characteristic=4, difficulty=9), random.Random(7)
    )
    assert first.breakdown == again.breakdown == expected.to_dict()
    assert (first.total, first.target, first.outcome) == (
        expected.total,
        expected.target,
        expected.outcome,
    )
    assert first.character == aelis and first.rolled_by == player
    assert first.inputs["check"]["skill"] == 3


def test_several_skills_use_the_lowest(campaign, player, aelis, as_member):
    done = roll(campaign, player, aelis, as_member, random.Random(1), skills=("melee", "sport"))
    assert done.inputs["skill_level"] == 1


def test_the_sheet_adds_its_own_dice_and_agony_with_their_cause(campaign, aelis):
    aelis.exhaustion = 2
    aelis.agony = 1
    aelis.special_state = "comedown"
    prepared = checks.check_prepare(
        request=RollRequest(characteristic="strength", skills=("melee",), difficulty=8),
        character=aelis,
    )
    assert prepared.check.bane == 3  # Épuisement 2 + Descente
    assert prepared.check.target == 9  # Agonie raises the difficulty
    labels = {c.label for c in prepared.causes}
    assert {"Épuisement 2", "Descente", "Agonie 1"} <= labels


def test_a_special_state_gives_a_boon_die_and_ignores_agony(campaign, aelis):
    aelis.agony = 2
    aelis.special_state = "fury"
    prepared = checks.check_prepare(
        request=RollRequest(characteristic="strength", skills=("melee",), difficulty=8),
        character=aelis,
    )
    assert prepared.check.boon == 1 and prepared.check.target == 8


def test_hope_can_replace_a_characteristic_by_might(campaign, aelis):
    prepared = checks.check_prepare(
        request=RollRequest(characteristic="strength", substitute=True), character=aelis
    )
    assert prepared.substituted_by == "might"
    secondary = checks.check_prepare(
        request=RollRequest(characteristic="finesse", substitute=True), character=aelis
    )
    assert secondary.substituted_by == "harmony"


def test_impact_and_group_hope_are_paid_with_the_roll(campaign, player, aelis, brann, as_member):
    set_pool(campaign, hope=2)
    done = roll(
        campaign, player, aelis, as_member, random.Random(3), impact=1, hope=1, hope_source="group"
    )
    aelis.refresh_from_db()
    assert aelis.impact_points == 1
    assert MoralePool.objects.get(campaign=campaign).hope == 1
    assert done.inputs["check"]["boon"] == 1 and done.inputs["check"]["hope"] == 1
    assert CharacterChange.objects.filter(character=aelis, field="impact_points").exists()
    kinds = list(TableEvent.objects.order_by("id").values_list("kind", flat=True))
    assert kinds == ["roll", "morale"]


def test_a_roll_that_cannot_be_paid_changes_nothing(campaign, player, aelis, brann, as_member):
    set_pool(campaign, hope=0)
    with pytest.raises(ValidationError) as error:
        roll(campaign, player, aelis, as_member, impact=2, hope=1, hope_source="group")
    assert "aucun point d'espoir" in str(error.value)
    aelis.refresh_from_db()
    assert aelis.impact_points == 2 and aelis.version == 1
    assert not Roll.objects.exists() and not TableEvent.objects.exists()
    with pytest.raises(ValidationError):
        roll(campaign, player, aelis, as_member, impact=3)
    aelis.refresh_from_db()
    assert aelis.impact_points == 2


def test_personal_hope_cancels_a_critical_failure(campaign, player, aelis, brann, as_member):
    aelis.personal_hope = 1
    aelis.save()
    done = roll(
        campaign,
        player,
        aelis,
        as_member,
        Dice(1, 1, 1, 1),
        skills=(),
        cancel_critical_failure=True,
    )
    aelis.refresh_from_db()
    assert aelis.personal_hope == 0
    assert done.outcome != "critical_failure"
    assert done.breakdown["critical_failure_cancelled"] is True


def test_the_same_idempotency_key_stores_one_roll(campaign, player, aelis, as_member):
    first = roll(campaign, player, aelis, as_member, idempotency_key="k-1", impact=1)
    second = roll(campaign, player, aelis, as_member, idempotency_key="k-1", impact=1)
    assert first.pk == second.pk and first.created and not second.created
    aelis.refresh_from_db()
    assert aelis.impact_points == 1
    assert Roll.objects.count() == 1 and TableEvent.objects.count() == 1


def test_a_request_fingerprint_is_the_one_rolls_were_stored_with():
    # Computed when rolls were first stored with it (the `asdict` of the request): a replay of a
    # roll stored then must still be recognized, not refused as another request (422).
    from sessions.rolls import request_digest

    asked = RollRequest(
        characteristic="strength",
        skills=("melee", "athletics"),
        complexity=2,
        difficulty=9,
        hope=1,
        injuries=(4, 7),
        label="Coup",
    )
    digest = request_digest(
        request=asked, character_id=12, visibility="secret", play_session_id=None
    )
    assert digest == "462b7ad64b8b8e3dd7d2408b9fb59df4226bc87c4ee75b63a39900214164b672"


def test_a_player_rolls_only_for_their_own_character(campaign, other_player, aelis, as_member):
    with pytest.raises(PermissionDenied):
        roll(campaign, other_player, aelis, as_member)


def test_a_player_cannot_hide_a_roll_from_the_storyteller(campaign, player, aelis, as_member):
    with pytest.raises(ValidationError):
        services.roll_create(
            campaign=as_member(campaign, player),
            by=player,
            request=RollRequest(characteristic="strength"),
            character_id=aelis.pk,
            idempotency_key=key(),
            visibility=Visibility.HIDDEN,
        )


def test_the_storyteller_rolls_for_a_nameless_npc(campaign, storyteller, as_member):
    done = roll(
        campaign,
        storyteller,
        None,
        as_member,
        random.Random(2),
        skills=(),
        characteristic_value=5,
        skill_level=4,
        label="Garde",
    )
    assert done.character is None and done.inputs["check"]["skill"] == 4


def test_secret_and_hidden_rolls_are_seen_only_by_whom_they_concern(
    campaign, storyteller, player, other_player, aelis, as_member
):
    def secret(user, character, visibility):
        services.roll_create(
            campaign=as_member(campaign, user),
            by=user,
            request=RollRequest(characteristic="strength", skill_level=1, characteristic_value=2),
            character_id=character.pk if character else None,
            idempotency_key=key(),
            visibility=visibility,
        )

    secret(player, aelis, Visibility.STORYTELLER)
    secret(storyteller, None, Visibility.STORYTELLER)  # the Conteur's secret: hidden

    def seen(user):
        return len(events_for_user(campaign=as_member(campaign, user), user=user))

    assert (seen(storyteller), seen(player), seen(other_player)) == (2, 1, 0)
    assert Roll.objects.filter(visibility=Visibility.HIDDEN).count() == 1


# --- the Moral -----------------------------------------------------------------------------


def move(campaign, user, as_member, action, **kw):
    return services.morale_change(campaign=as_member(campaign, user), by=user, action=action, **kw)


def test_gains_follow_the_overflow_rules(campaign, storyteller, aelis, brann, as_member):
    for _ in range(2):
        move(campaign, storyteller, as_member, morale.GAIN_DESPAIR)
    change = move(campaign, storyteller, as_member, morale.GAIN_HOPE)  # full: a despair goes
    assert (change.state.hope, change.state.despair) == (0, 1)
    for _ in range(3):  # H 1 (room), then D 0 (full), then H 2
        move(campaign, storyteller, as_member, morale.GAIN_HOPE)
    panel = morale_panel(campaign=campaign, user=storyteller)
    assert (panel.hope, panel.despair, panel.galvanized) == (2, 0, True)
    # Galvanisé: a character may take the point as personal hope.
    move(campaign, storyteller, as_member, morale.GAIN_HOPE, taker_id=aelis.pk)
    aelis.refresh_from_db()
    assert aelis.personal_hope == 1


def test_tormented_group_gives_fragility_when_nobody_can_take_despair(
    campaign, storyteller, aelis, brann, as_member
):
    set_pool(campaign, despair=2)
    Character.objects.update(personal_despair=2)  # both at their cap (Exaltation 3 → 2)
    change = move(campaign, storyteller, as_member, morale.GAIN_DESPAIR)
    assert sorted(change.fragility) == sorted([aelis.pk, brann.pk])
    assert set(Character.objects.values_list("fragility", flat=True)) == {1}


def test_a_player_spends_for_their_character_only(
    campaign, player, other_player, aelis, brann, as_member
):
    set_pool(campaign, hope=1)
    with pytest.raises(PermissionDenied):
        move(campaign, other_player, as_member, morale.SPEND_HOPE, character_id=aelis.pk)
    with pytest.raises(PermissionDenied):
        move(campaign, player, as_member, morale.GAIN_HOPE)
    move(campaign, player, as_member, morale.SPEND_HOPE, character_id=aelis.pk)
    assert MoralePool.objects.get().hope == 0
    with pytest.raises(ValidationError):
        move(campaign, player, as_member, morale.SPEND_HOPE, character_id=aelis.pk)
    assert TableEvent.objects.count() == 1


def test_exploits_need_unanimity_and_spend_everything(
    campaign, storyteller, aelis, brann, as_member
):
    set_pool(campaign, despair=2)
    with pytest.raises(ValidationError):
        move(campaign, storyteller, as_member, morale.DESPAIR_EXPLOIT, agreeing=[aelis.pk])
    change = move(
        campaign,
        storyteller,
        as_member,
        morale.DESPAIR_EXPLOIT,
        agreeing=[aelis.pk, brann.pk],
        rng=Dice(8, 3),
    )
    assert (change.exploit.degree, change.exploit.fragility) == (8, 3)
    assert MoralePool.objects.get().despair == 0


def test_states_are_entered_by_the_rules(campaign, storyteller, player, aelis, brann, as_member):
    with pytest.raises(ValidationError):  # Flamboyance needs a Galvanised group
        move(campaign, player, as_member, morale.STATE_ENTER, character_id=aelis.pk, state="blaze")
    move(campaign, player, as_member, morale.STATE_ENTER, character_id=aelis.pk, state="serenity")
    aelis.refresh_from_db()
    assert aelis.special_state == "serenity"
    move(campaign, storyteller, as_member, morale.STATE_END, character_id=aelis.pk)
    aelis.refresh_from_db()
    assert aelis.special_state == "comedown"


def test_the_end_of_acharnement_makes_scars_equal_wounds_but_stable_stays_stable(
    campaign, storyteller, aelis, brann, as_member
):
    """Source: « Effet de fin : Gain d'un point de Fragilité, et le personnage entre en état de
    Descente. Les cicatrices du personnage égalisent ses blessures, mais son état reste stable si
    il l'était déjà. » RULES.md §7: "End: +1 Fragilité, enter Descente; scars become equal to
    wounds, but a stable state stays stable"."""
    maximum = rules_sheet.gauge_maximum(aelis.premice_vitality, aelis.exaltation)
    energy_max = rules_sheet.gauge_maximum(aelis.premice_energy, aelis.exaltation)
    confidence_max = rules_sheet.gauge_maximum(aelis.premice_confidence, aelis.exaltation)
    Character.objects.filter(pk=aelis.pk).update(
        confidence_current=confidence_max,
        special_state="fury",
        vitality_current=maximum - 10,  # 10 wounds, 2 of them scars
        vitality_scars=2,
        energy_current=energy_max - 5,  # 5 wounds, 1 scar, but stable: it stays so
        energy_scars=1,
        energy_stabilised=True,
    )
    version = Character.objects.get(pk=aelis.pk).version
    change = move(campaign, storyteller, as_member, morale.STATE_END, character_id=aelis.pk)
    aelis.refresh_from_db()
    assert (aelis.special_state, aelis.fragility) == ("comedown", 1)
    assert aelis.vitality_scars == 10  # scars equal wounds
    assert (aelis.energy_scars, aelis.energy_stabilised) == (1, True)
    assert aelis.confidence_scars == 0  # no wound, no scar
    # Written through the sheet's path: one new version, each value in the history.
    assert aelis.version == version + 1
    scar = CharacterChange.objects.get(character=aelis, field="vitality_scars")
    assert (scar.old_value, scar.new_value, scar.version) == (2, 10, aelis.version)
    assert not CharacterChange.objects.filter(character=aelis, field="energy_scars").exists()
    assert change.event.summary == (
        "Fin d'Acharnement pour Aelis : Descente, +1 Fragilité, cicatrices égales aux "
        "blessures : Vitalité 2 → 10 (Énergie stable, inchangée)."
    )


def test_the_end_of_flamboyance_leaves_scars_alone(campaign, storyteller, aelis, brann, as_member):
    """RULES.md §7: "Flamboyance: … End: +1 Fragilité, enter Descente" — no word of scars."""
    Character.objects.filter(pk=aelis.pk).update(special_state="blaze", vitality_current=5)
    change = move(campaign, storyteller, as_member, morale.STATE_END, character_id=aelis.pk)
    aelis.refresh_from_db()
    assert (aelis.special_state, aelis.fragility, aelis.vitality_scars) == ("comedown", 1, 0)
    assert "cicatrices" not in change.event.summary


# --- consequences --------------------------------------------------------------------------


def test_a_critical_failure_rolls_on_the_aggravation_table(
    campaign, storyteller, player, aelis, as_member
):
    failed = roll(campaign, player, aelis, as_member, Dice(1, 1, 1, 1, 5), skills=())
    assert failed.outcome == "critical_failure"
    assert consequences.consequences_available(failed) == ["critical", "fate"]
    event = services.consequence_apply(
        campaign=as_member(campaign, storyteller),
        by=storyteller,
        roll_id=failed.pk,
        kind="critical",
        face=3,
    )
    aelis.refresh_from_db()
    assert (aelis.aggravation, aelis.fragility) == (1, 1)  # Fragilité 0, d10 3: Fragilisation
    assert "Fragilisation" in event.summary
    with pytest.raises(ValidationError):  # once per roll
        services.consequence_apply(
            campaign=as_member(campaign, storyteller),
            by=storyteller,
            roll_id=failed.pk,
            kind="critical",
        )
    services.consequence_apply(
        campaign=as_member(campaign, storyteller), by=storyteller, roll_id=failed.pk, kind="fate"
    )
    assert MoralePool.objects.get().fate == 1


def test_resilience_avoids_the_critical_or_is_refused(
    campaign, storyteller, player, aelis, as_member
):
    aelis.aggravation = 2
    aelis.save()
    failed = roll(campaign, player, aelis, as_member, Dice(1, 1, 1, 1), skills=())
    with pytest.raises(ValidationError):  # Aggravation 3 costs 3, she has 2
        services.consequence_apply(
            campaign=as_member(campaign, storyteller),
            by=storyteller,
            roll_id=failed.pk,
            kind="critical",
            mode="resilience",
        )
    aelis.refresh_from_db()
    assert (aelis.aggravation, aelis.resilience_points) == (2, 2)


def test_players_do_not_apply_consequences(campaign, player, aelis, as_member):
    done = roll(campaign, player, aelis, as_member, Dice(10, 4), skills=())
    with pytest.raises(PermissionDenied):
        services.consequence_apply(
            campaign=as_member(campaign, player), by=player, roll_id=done.pk, kind="fortune"
        )


def test_fortune_for_a_critical_success(campaign, storyteller, player, aelis, as_member):
    done = roll(campaign, player, aelis, as_member, Dice(10, 4), skills=())
    assert done.outcome == "critical_success"
    services.consequence_apply(
        campaign=as_member(campaign, storyteller), by=storyteller, roll_id=done.pk, kind="fortune"
    )
    aelis.refresh_from_db()
    assert aelis.fortune == 1


def test_used_in_arc_lists_what_each_character_rolled(campaign, player, aelis, as_member):
    arc = Arc.objects.create(campaign=campaign, title="Le phare")
    roll(campaign, player, aelis, as_member, characteristic="strength", skills=("melee",))
    roll(campaign, player, aelis, as_member, characteristic="finesse", skills=("sport", "melee"))
    used = used_in_arc(arc=arc)[aelis.pk]
    assert used.characteristics == {"strength", "finesse"}
    assert used.skills == {"melee", "sport"}


# --- injuries (§8) --------------------------------------------------------------------------


def critical_on_table(campaign, storyteller, player, character, as_member, face):
    failed = roll(campaign, player, character, as_member, Dice(1, 1, 1, 1), skills=())
    services.consequence_apply(
        campaign=as_member(campaign, storyteller),
        by=storyteller,
        roll_id=failed.pk,
        kind="critical",
        face=face,
    )
    return Injury.objects.filter(character=character).last()


def test_a_broken_bone_hinders_the_rolls_that_declare_it_until_healed(
    campaign, storyteller, player, other_player, aelis, brann, as_member
):
    aelis.fragility = 2
    aelis.save()
    injury = critical_on_table(campaign, storyteller, player, aelis, as_member, face=8)
    assert injury.effect == "broken_bones" and injury.healed_at is None
    hindered = roll(campaign, player, aelis, as_member, injuries=(injury.pk,))
    assert hindered.inputs["check"]["bane"] == 1
    assert "Blessure : Os de bras ou de jambe fracturés" in str(hindered.inputs["causes"])
    with pytest.raises(ValidationError):  # not Brann's injury
        roll(campaign, other_player, brann, as_member, injuries=(injury.pk,))
    services.injury_heal(
        campaign=as_member(campaign, storyteller), by=storyteller, injury_id=injury.pk
    )
    with pytest.raises(ValidationError):  # healed
        roll(campaign, player, aelis, as_member, injuries=(injury.pk,))


def test_a_stomach_wound_holds_its_agony_until_healed(
    campaign, storyteller, player, aelis, as_member
):
    aelis.fragility = 3
    aelis.save()
    injury = critical_on_table(campaign, storyteller, player, aelis, as_member, face=1)
    aelis.refresh_from_db()
    assert (injury.effect, aelis.agony, aelis.agony_locked, aelis.fragility) == (
        "stomach",
        1,
        True,
        4,
    )
    services.injury_heal(
        campaign=as_member(campaign, storyteller), by=storyteller, injury_id=injury.pk
    )
    aelis.refresh_from_db()
    assert not aelis.agony_locked
    with pytest.raises(PermissionDenied):
        services.injury_heal(campaign=as_member(campaign, player), by=player, injury_id=injury.pk)
