"""At the table: a roll asks for an ability's widened critical ranges (RULES.md §5), and a
character in Apaisement uses hope and despair effects without paying a point (§7), on the page and
in the API, through the same service.

§5: « Some abilities widen the critical range: the faces that count as critical are a parameter of
the check (default {10} and {1}); explosions stay on natural 10s and 1s. »
§7: « Apaisement: the character is Calme. Extra: may use hope or despair effects, each use adds the
opposite point to the Moral; not while the Moral is full, and it may not spend Moral points. »
"""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from rules.check import Check, critical_faces
from rules.odds import check_odds
from sessions.models import MoralePool, Roll, TableEvent
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key, set_pool
from tests.sessions.test_views import HX, roll_data

pytestmark = pytest.mark.django_db


class Dice:
    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def rolls_url(campaign):
    return reverse("sessions_api:roll-list", args=[campaign.pk])


def test_the_api_takes_the_widened_ranges_and_keeps_them_with_the_roll(player, campaign, aelis):
    wide = api(player).post(
        rolls_url(campaign),
        {"character": aelis.pk, "characteristic": "strength", "difficulty": 30,
         "critical_success_from": 9, "critical_failure_to": 2},
        format="json",
    )  # fmt: skip
    assert wide.status_code == 201, wide.json()
    roll = Roll.objects.get(pk=wide.json()["id"])
    assert roll.inputs["critical_success_from"] == 9 and roll.inputs["critical_failure_to"] == 2
    kept = roll.breakdown["kept"]
    if kept >= 9:
        assert roll.outcome == "critical_success"
    elif kept <= 2:
        assert roll.outcome == "critical_failure"


def test_the_widened_range_decides_the_outcome(player, campaign, aelis, as_member):
    from sessions import services
    from sessions.checks import RollRequest

    def roll(rng, **asked):
        return services.roll_create(
            campaign=as_member(campaign, player),
            by=player,
            request=RollRequest(characteristic="strength", difficulty=30, **asked),
            character_id=aelis.pk,
            idempotency_key=key(),
            rng=rng,
        )

    assert roll(Dice(9)).outcome == "failure"  # 9 + 4 = 13 < 30, no critical by default
    assert roll(Dice(9), critical_success_from=9).outcome == "critical_success"
    assert roll(Dice(2)).outcome == "failure"
    assert roll(Dice(2), critical_failure_to=2).outcome == "critical_failure"


def test_ranges_that_meet_are_refused_and_nothing_is_stored(player, campaign, aelis):
    response = api(player).post(
        rolls_url(campaign),
        {"character": aelis.pk, "characteristic": "strength", "critical_success_from": 5,
         "critical_failure_to": 5},
        format="json",
    )  # fmt: skip
    assert response.status_code == 400
    assert "réussite critique" in str(response.json())
    assert not Roll.objects.exists()


def test_the_odds_preview_follows_the_widened_ranges(client, player, aelis, campaign):
    client.force_login(player)
    odds = reverse("sessions:odds", args=[campaign.pk])
    data = roll_data(aelis, difficulty=9, critical_success_from=9, critical_failure_to=2)
    body = client.get(odds, data, **HX).content.decode()
    success, failure = critical_faces(9, 2)
    expected = check_odds(
        Check(skill=3, complexity=1, characteristic=4, difficulty=9,
              critical_success_faces=success, critical_failure_faces=failure)
    )  # fmt: skip
    assert f"{100 * expected.critical_success:.1f}".replace(".", ",") in body
    assert f"{100 * expected.critical_failure:.1f}".replace(".", ",") in body


def test_the_form_asks_for_the_ranges_and_the_row_tells_them(client, player, aelis, campaign):
    client.force_login(player)
    page = client.get(reverse("sessions:table", args=[campaign.pk])).content.decode()
    assert "Plages critiques élargies" in page and "Réussite critique dès le" in page
    response = client.post(
        reverse("sessions:roll", args=[campaign.pk]),
        roll_data(aelis, critical_success_from=9),
        **HX,
    )
    assert response.status_code == 200
    row = response.content.decode()
    assert "réussite critique dès le 9, échec critique jusqu'au 1" in row


def test_a_form_range_out_of_the_die_is_refused_in_french(client, player, aelis, campaign):
    client.force_login(player)
    response = client.post(
        reverse("sessions:roll", args=[campaign.pk]),
        roll_data(aelis, critical_success_from=1),
        **HX,
    )
    assert "supérieure ou égale à 2" in response.content.decode()
    assert not Roll.objects.exists()


# --- Apaisement -------------------------------------------------------------------------------


def serene(character):
    character.special_state = "serenity"
    character.save(update_fields=["special_state"])


def test_in_apaisement_a_hope_effect_costs_nothing_and_the_moral_gains_a_despair(
    player, campaign, aelis, brann
):
    serene(aelis)
    set_pool(campaign)
    response = api(player).post(
        rolls_url(campaign),
        {"character": aelis.pk, "characteristic": "strength", "hope": 1,
         "hope_source": "serenity", "idempotency_key": key()},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.json()
    pool = MoralePool.objects.get(campaign=campaign)
    assert (pool.hope, pool.despair) == (0, 1)
    roll = Roll.objects.get()
    assert roll.inputs["check"]["hope"] == 1 and roll.inputs["hope_by_serenity"] == 1
    aelis.refresh_from_db()
    assert (aelis.personal_hope, aelis.personal_despair) == (0, 0)
    logged = TableEvent.objects.filter(kind="morale").latest("pk").summary
    assert "use d'un effet d'espoir" in logged


def test_in_apaisement_a_despair_effect_adds_a_hope(player, campaign, aelis, brann):
    serene(aelis)
    set_pool(campaign)
    response = api(player).post(
        rolls_url(campaign),
        {"character": aelis.pk, "characteristic": "strength", "narrow_success": True,
         "despair_source": "serenity", "idempotency_key": key()},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.json()
    pool = MoralePool.objects.get(campaign=campaign)
    assert (pool.hope, pool.despair) == (1, 0)


def test_not_while_the_moral_is_full(player, campaign, aelis, brann):
    serene(aelis)
    set_pool(campaign, hope=1, despair=1)
    response = api(player).post(
        rolls_url(campaign),
        {"character": aelis.pk, "characteristic": "strength", "hope": 1,
         "hope_source": "serenity", "idempotency_key": key()},
        format="json",
    )  # fmt: skip
    assert response.status_code == 400
    assert "Le Moral est plein" in str(response.json())
    assert not Roll.objects.exists()
    pool = MoralePool.objects.get(campaign=campaign)
    assert (pool.hope, pool.despair) == (1, 1)


def test_in_apaisement_the_groups_hope_is_not_spent(client, player, campaign, aelis, brann):
    serene(aelis)
    set_pool(campaign, hope=1)
    client.force_login(player)
    response = client.post(
        reverse("sessions:roll", args=[campaign.pk]),
        roll_data(aelis, hope=1, hope_source="group"),
        **HX,
    )
    assert "est en Apaisement" in response.content.decode()
    assert MoralePool.objects.get(campaign=campaign).hope == 1
    assert not Roll.objects.exists()


def test_the_form_offers_apaisement_as_a_source_and_the_row_says_what_it_paid(
    client, player, campaign, aelis, brann
):
    serene(aelis)
    set_pool(campaign)
    client.force_login(player)
    page = client.get(reverse("sessions:table", args=[campaign.pk])).content.decode()
    assert "l&#x27;Apaisement (le Moral gagne le point opposé)" in page
    row = client.post(
        reverse("sessions:roll", args=[campaign.pk]),
        roll_data(aelis, hope=1, hope_source="serenity"),
        **HX,
    ).content.decode()
    assert "le Moral gagne un désespoir par effet" in row
    assert MoralePool.objects.get(campaign=campaign).despair == 1
