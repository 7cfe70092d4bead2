"""Issue 16 §6: lowering a characteristic of a new character, whose point pools are full (§1),
lowers the pool of its row with it, in the same write, and says so — on the page (with and
without HTMX) and in the API — instead of refusing with a message about the pool."""

import html

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from characters.creation import character_create
from characters.models import CharacterChange

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
LOWERED = "Points d'Impact ramenés de 5 à 4 (le score d'Impact est maintenant 4)."


@pytest.fixture
def new_character(campaign, player, creation_data):
    """Force 8, Pouvoir 4, Intellect 4: Impact (8 + 4 + 4) // 3 = 5, its pool full at 5."""
    character = character_create(campaign=campaign, owner=player, by=player, data=creation_data)
    assert (character.strength, character.impact_points) == (8, 5)
    return character


def strength_url(character):
    return reverse("characters:field", args=[character.pk, "strength"])


def test_lowering_force_on_the_page_lowers_the_full_impact_pool_and_says_so(
    client, player, new_character
):
    client.force_login(player)
    version = new_character.version
    response = client.post(strength_url(new_character), {"value": 5, "version": version}, **HX)
    body = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert "ne peut dépasser" not in body
    assert LOWERED in body
    new_character.refresh_from_db()
    assert (new_character.strength, new_character.impact_points) == (5, 4)
    assert new_character.version == version + 1  # one write for both
    changes = CharacterChange.objects.filter(character=new_character, version=version + 1)
    assert dict(changes.values_list("field", "new_value")) == {"strength": 5, "impact_points": 4}
    # The pools section, sent out of band, shows the lowered pool.
    assert 'id="sec-pools"' in body and 'id="pool-impact-max">4<' in body


def test_without_htmx_the_saved_message_names_what_was_lowered(client, player, new_character):
    client.force_login(player)
    response = client.post(
        strength_url(new_character), {"value": 5, "version": new_character.version}, follow=True
    )
    messages = [str(m) for m in response.context["messages"]]
    assert messages == [f"Force enregistré. {LOWERED}"]


def test_a_pool_under_the_new_score_is_left_alone_and_nothing_is_said(
    client, player, new_character
):
    new_character.impact_points = 2
    new_character.save()
    client.force_login(player)
    response = client.post(
        strength_url(new_character), {"value": 5, "version": new_character.version}, **HX
    )
    assert "ramenés" not in html.unescape(response.content.decode())
    new_character.refresh_from_db()
    assert (new_character.strength, new_character.impact_points) == (5, 2)


def test_the_api_lowers_the_pool_too_but_refuses_a_pool_asked_above_the_new_score(
    player, new_character
):
    api = APIClient()
    api.force_authenticate(player)
    url = f"/api/characters/{new_character.pk}/"
    asked = {"strength": 5, "impact_points": 5, "version": new_character.version}
    response = api.patch(url, asked, format="json")
    assert response.status_code == 400
    assert "Le nombre de points d'Impact ne peut dépasser 4." in str(response.json())
    response = api.patch(url, {"strength": 5, "version": new_character.version}, format="json")
    assert response.status_code == 200, response.json()
    assert (response.json()["strength"], response.json()["impact_points"]) == (5, 4)
