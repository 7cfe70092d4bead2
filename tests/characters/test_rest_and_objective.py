"""Issue 13 §7 on the sheet: a rest's circumstances give its rank (§4), a recorded rib-cage
injury slows it (§8), and the Conteur's « Objectif atteint » gives the Impact points back (§1) —
one service each, called by the page and the API, versioned like every sheet write."""

import html
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from characters import condition
from characters.models import CharacterChange
from rules import sheet as rules_sheet
from sessions.models import Injury

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def scores():
    return rules_sheet.sheet_scores(rules_sheet.Characteristics())


def messages_of(response) -> list[str]:
    found = re.findall(r'<li class="message[^"]*">(.*?)</li>', response.content.decode())
    return [html.unescape(m) for m in found]


def rib_cage(character, **fields):
    return Injury.objects.create(
        campaign=character.campaign, character=character, row=4, effect="rib_cage", **fields
    )


# --- services --------------------------------------------------------------------------------


def test_rest_service_computes_the_rank_from_bad_sleep_and_bad_food(character, player):
    """§4: sleeping and eating badly each make the rest one rank harder (Normale → Très
    difficile = 1 point per gauge)."""
    character.vitality_current = character.energy_current = 1
    character.save()
    notes = condition.character_rest(
        character=character, slept_badly=True, ate_badly=True, by=player
    )
    character.refresh_from_db()
    assert (character.vitality_current, character.energy_current) == (2, 2)
    assert notes[0].startswith("Repos Très difficile (mal dormi, mal mangé) : Vitalité 1 → 2")
    assert character.version == 2


def test_rest_service_reads_the_unhealed_rib_cage_from_the_record(character, player):
    """§4/§8: « Vitalité and Énergie restoration one rank harder »; Confiance is not touched."""
    character.vitality_current = character.energy_current = character.confidence_current = 1
    character.save()
    rib_cage(character)
    rib_cage(character, healed_at=timezone.now())  # a healed one changes nothing more
    notes = condition.character_rest(character=character, by=player)
    character.refresh_from_db()
    might, harmony = scores().might, scores().harmony
    assert character.vitality_current == character.energy_current == 1 + harmony
    assert character.confidence_current == 1 + might
    assert notes[1] == "Cage thoracique : Vitalité et Énergie restaurées un cran plus dur."


def test_rest_service_refuses_an_unknown_rank_and_changes_nothing(character, player):
    with pytest.raises(ValidationError) as error:
        condition.character_rest(character=character, rank="forever", by=player)
    assert "n'existe pas" in " ".join(error.value.messages)
    character.refresh_from_db()
    assert character.version == 1 and not CharacterChange.objects.exists()


def test_objective_service_gives_every_impact_point_back(character, storyteller):
    """§1: Impact points « are all regained when an important objective is reached »."""
    score = scores().rows["impact"]
    character.impact_points = 0
    character.save()
    notes = condition.character_objective_reached(character=character, by=storyteller)
    character.refresh_from_db()
    assert character.impact_points == score
    assert notes == [f"Objectif atteint : +{score} points d'Impact (0 → {score})."]
    change = CharacterChange.objects.get()
    assert (change.field, change.old_value, change.new_value) == ("impact_points", 0, score)
    assert character.version == 2


def test_objective_service_with_a_full_pool_changes_nothing(character, storyteller):
    character.impact_points = scores().rows["impact"]
    character.save()
    notes = condition.character_objective_reached(character=character, by=storyteller)
    assert notes == ["Objectif atteint : les points d'Impact sont déjà au complet."]
    character.refresh_from_db()
    assert character.version == 1 and not CharacterChange.objects.exists()


# --- pages -----------------------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, HX], ids=["plain", "htmx"])
def test_rest_page_takes_the_circumstances_not_a_rib_cage_box(client, player, character, headers):
    character.vitality_current = 1
    character.save()
    client.force_login(player)
    page = client.get(reverse("characters:sheet", args=[character.pk])).content.decode()
    assert 'name="rest-slept_badly"' in page and 'name="rest-whole_day_of_rest"' in page
    assert "rib_cage" not in page
    response = client.post(
        reverse("characters:rest", args=[character.pk]),
        {"rest-rank": "normal", "rest-slept_badly": "on"},
        follow=not headers,
        **headers,
    )
    assert response.status_code == 200
    character.refresh_from_db()
    assert character.vitality_current == 1 + scores().harmony  # Difficile
    assert any(m.startswith("Repos Difficile (mal dormi)") for m in messages_of(response))


def test_rest_page_refuses_a_bad_rank_in_french(client, player, character):
    client.force_login(player)
    response = client.post(
        reverse("characters:rest", args=[character.pk]), {"rest-rank": "forever"}, **HX
    )
    assert messages_of(response) == ["Vérifiez les valeurs saisies pour cette action."]
    character.refresh_from_db()
    assert character.version == 1


@pytest.mark.parametrize("headers", [{}, HX], ids=["plain", "htmx"])
def test_the_conteur_sees_and_presses_objectif_atteint(client, storyteller, character, headers):
    score = scores().rows["impact"]
    assert score > 1
    character.impact_points = 0
    character.save()
    client.force_login(storyteller)
    page = client.get(reverse("characters:sheet", args=[character.pk])).content.decode()
    assert f"Objectif atteint : +{score} points d'Impact" in page
    response = client.post(
        reverse("characters:objective", args=[character.pk]), follow=not headers, **headers
    )
    assert response.status_code == 200
    character.refresh_from_db()
    assert character.impact_points == score
    assert f"Objectif atteint : +{score} points d'Impact (0 → {score})." in messages_of(response)
    page = client.get(reverse("characters:sheet", args=[character.pk])).content.decode()
    assert "Points d'Impact au complet." in page  # the cached page moved with the version


def test_a_player_neither_sees_nor_may_press_objectif_atteint(client, player, character):
    character.impact_points = 0
    character.save()
    client.force_login(player)
    page = client.get(reverse("characters:sheet", args=[character.pk])).content.decode()
    assert "Objectif atteint" not in page
    response = client.post(reverse("characters:objective", args=[character.pk]))
    assert response.status_code == 403
    character.refresh_from_db()
    assert character.impact_points == 0


@pytest.mark.parametrize("action", ["rest", "objective"])
def test_non_members_get_404(client, outsider, character, action):
    client.force_login(outsider)
    response = client.post(reverse(f"characters:{action}", args=[character.pk]))
    assert response.status_code == 404
    character.refresh_from_db()
    assert character.version == 1


# --- API -------------------------------------------------------------------------------------


@pytest.fixture
def api():
    return APIClient()


def api_url(character, action):
    return f"/api/characters/{character.pk}/{action}/"


def test_api_objective_gives_the_points_back_and_bumps_the_version(api, storyteller, character):
    score = scores().rows["impact"]
    character.impact_points = 0
    character.save()
    api.force_authenticate(storyteller)
    response = api.post(api_url(character, "objective"), {"version": 1}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["notes"] == [f"Objectif atteint : +{score} points d'Impact (0 → {score})."]
    assert body["character"]["impact_points"] == score
    assert body["character"]["version"] == 2
    detail = api.get(f"/api/characters/{character.pk}/")
    assert detail.json()["impact_points"] == score  # the cached detail moved with the version


def test_api_objective_is_the_conteurs(api, player, outsider, character):
    api.force_authenticate(player)
    assert (
        api.post(api_url(character, "objective"), {"version": 1}, format="json").status_code == 403
    )
    api.force_authenticate(outsider)
    assert (
        api.post(api_url(character, "objective"), {"version": 1}, format="json").status_code == 404
    )
    character.refresh_from_db()
    assert character.version == 1


@pytest.mark.parametrize("body", [{"version": 0}, {"version": -3}, {"version": "un"}])
def test_api_objective_refuses_a_bad_version_in_french(api, storyteller, character, body):
    api.force_authenticate(storyteller)
    response = api.post(api_url(character, "objective"), body, format="json")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("Champ « version » :")
    character.refresh_from_db()
    assert character.version == 1


def test_api_objective_without_a_version_is_428(api, storyteller, character):
    api.force_authenticate(storyteller)
    assert api.post(api_url(character, "objective"), {}, format="json").status_code == 428


def test_api_objective_with_a_stale_version_conflicts(api, storyteller, character):
    api.force_authenticate(storyteller)
    api.patch(f"/api/characters/{character.pk}/", {"impact_points": 1, "version": 1}, format="json")
    response = api.post(api_url(character, "objective"), {"version": 1}, format="json")
    assert response.status_code == 409
    assert response.json()["field"] == "impact_points"


@pytest.mark.parametrize("action", ["rest", "objective"])
def test_api_non_members_get_404(api, outsider, character, action):
    api.force_authenticate(outsider)
    response = api.post(api_url(character, action), {"version": 1}, format="json")
    assert response.status_code == 404
