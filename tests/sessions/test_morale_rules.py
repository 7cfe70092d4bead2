"""Issue 13 §9 at the table: the Moral point per hope/despair option, the Impact and Résilience
payments, the Acharnement option and the Aggravation row are the engine's, with its French."""

import random

import pytest
from django.core.exceptions import ValidationError

from sessions import services
from sessions.checks import RollRequest
from sessions.models import Injury, MoralePool
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key, set_pool

pytestmark = pytest.mark.django_db


class Dice:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def roll(campaign, user, character, as_member, rng=None, **declared):
    declared.setdefault("characteristic", "strength")
    declared.setdefault("skills", ("melee",))
    return services.roll_create(
        campaign=as_member(campaign, user),
        by=user,
        request=RollRequest(**declared),
        character_id=character.pk,
        idempotency_key=key(),
        rng=rng,
    )


def test_each_hope_option_costs_one_point_of_the_group(campaign, player, aelis, as_member):
    # §5: "Hope: +1 to the result; or cancel a critical failure …; or use Puissance …".
    set_pool(campaign, hope=3)
    roll(
        campaign,
        player,
        aelis,
        as_member,
        random.Random(3),
        hope=1,
        cancel_critical_failure=True,
        substitute=True,
        hope_source="group",
    )
    assert MoralePool.objects.get(campaign=campaign).hope == 0


def test_impact_beyond_the_points_is_refused_in_the_engine_words(
    campaign, player, aelis, as_member
):
    # §1: "Impact points buy a surpuissance die each".
    with pytest.raises(ValidationError) as refused:
        roll(campaign, player, aelis, as_member, impact=3)
    assert refused.value.message_dict == {"impact": ["Aelis n'a que 2 points d'Impact."]}


def test_resilience_too_few_to_avoid_a_critical_is_refused_in_the_engine_words(
    campaign, storyteller, player, aelis, as_member
):
    # §1: "Résilience points cancel a critical's effect (one point per Aggravation level)".
    aelis.aggravation = 2
    aelis.save()
    failed = roll(campaign, player, aelis, as_member, Dice(1, 1, 1, 1), skills=())
    with pytest.raises(ValidationError) as refused:
        services.consequence_apply(
            campaign=as_member(campaign, storyteller),
            by=storyteller,
            roll_id=failed.pk,
            kind="critical",
            mode="resilience",
        )
    assert refused.value.message_dict == {
        "mode": ["Aelis n'a que 2 points de Résilience ; il en faut 3 (Aggravation 3)."]
    }


def test_the_acharnement_option_rolls_in_acharnement(campaign, player, aelis, as_member):
    # §5 "Despair: enter Acharnement"; Reading: the roll itself is made in it (+1 surpuissance).
    set_pool(campaign, despair=1)
    done = roll(
        campaign, player, aelis, as_member, random.Random(3), fury=True, despair_source="group"
    )
    aelis.refresh_from_db()
    assert aelis.special_state == "fury" and done.inputs["check"]["boon"] == 1


def test_the_injury_row_is_the_fragility_up_to_the_death_row(
    campaign, storyteller, player, aelis, as_member
):
    # §8: the Aggravation table's rows are Fragilité 0..5, "5 (death, every result)".
    aelis.fragility = 4
    aelis.save()
    failed = roll(campaign, player, aelis, as_member, Dice(1, 1, 1, 1), skills=())
    services.consequence_apply(
        campaign=as_member(campaign, storyteller),
        by=storyteller,
        roll_id=failed.pk,
        kind="critical",
        mode="table",
        face=4,  # eye lost: a lasting injury on row 4
    )
    assert Injury.objects.get(character=aelis).row == 4
