"""Issue 39 item 25 — RULES §8 Product: « the Conteur can give or remove Épuisement from the
table and the fight (logged), as any other state change »; Épuisement 6 kills at once."""

import pytest
from rest_framework.test import APIClient

from campaigns.models import Campaign
from characters.models import Character
from sessions.combat import fights as combat
from sessions.models import Combatant, TableEvent
from tests.dice import Faces
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def url(campaign, character) -> str:
    return f"/api/campaigns/{campaign.pk}/characters/{character.pk}/exhaustion/"


def test_item_25_the_conteur_gives_and_removes_exhaustion_through_the_api(
    campaign, storyteller, player, aelis
):
    assert api(player).post(url(campaign, aelis), {"change": 1}, format="json").status_code == 403
    given = api(storyteller).post(url(campaign, aelis), {"change": 1}, format="json")
    assert given.status_code == 201, given.json()
    assert "Aelis : Épuisement 1" in given.json()["summary"]
    aelis.refresh_from_db()
    assert aelis.exhaustion == 1
    assert (
        api(storyteller).post(url(campaign, aelis), {"change": -1}, format="json").status_code
        == 201
    )
    refused = api(storyteller).post(url(campaign, aelis), {"change": -1}, format="json")
    assert refused.status_code == 400 and "aucun Épuisement" in str(refused.json())
    assert (
        api(storyteller).post(url(campaign, aelis), {"change": 3}, format="json").status_code == 400
    )
    log = api(player).get(f"/api/campaigns/{campaign.pk}/log/").json()["results"]
    assert sum("Épuisement" in e["summary"] for e in log) == 2


def test_item_25_the_table_page_buttons_give_exhaustion(client, campaign, storyteller, aelis):
    client.force_login(storyteller)
    table = f"/campaigns/{campaign.pk}/table/"
    page = client.get(table).content.decode()
    assert 'data-exhaustion="1"' in page
    done = client.post(table + f"characters/{aelis.pk}/exhaustion/", {"change": "1"})
    assert done.status_code == 302 and done["Location"].endswith(table)
    aelis.refresh_from_db()
    assert aelis.exhaustion == 1
    panel = client.post(
        table + f"characters/{aelis.pk}/exhaustion/", {"change": "-1"}, HTTP_HX_REQUEST="true"
    )
    assert panel.status_code == 200 and 'id="morale-panel"' in panel.content.decode()
    aelis.refresh_from_db()
    assert aelis.exhaustion == 0


def test_item_25_exhaustion_six_in_a_fight_kills_at_once(
    client, campaign, storyteller, as_member, aelis, brann
):
    conteur = as_member(campaign, storyteller)
    encounter = combat.encounter_open(campaign=conteur, by=storyteller, name="Col")
    combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.party_joining(conteur, [aelis.pk, brann.pk]),
    )
    combat.initiative_roll(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, rng=Faces(then=5)
    )
    Character.objects.filter(pk=aelis.pk).update(exhaustion=5)
    client.force_login(storyteller)
    screen = f"/campaigns/{campaign.pk}/table/combat/{encounter.pk}/screen/"
    assert 'data-exhaustion="1"' in client.get(screen).content.decode()
    done = client.post(
        f"/campaigns/{campaign.pk}/table/characters/{aelis.pk}/exhaustion/",
        {"change": "1", "encounter": str(encounter.pk)},
    )
    assert done.status_code == 302 and done["Location"].endswith(screen)
    assert Combatant.objects.get(name="Aelis").status == "dead"
    assert TableEvent.objects.filter(summary__contains="Aelis meurt").exists()


def test_item_25_a_character_of_another_campaign_is_not_found(campaign, storyteller, outsider):
    elsewhere = Character.objects.create(
        campaign=Campaign.objects.create(name="Une autre table"), owner=outsider, name="Ysolde"
    )
    answer = api(storyteller).post(url(campaign, elsewhere), {"change": 1}, format="json")
    assert answer.status_code == 404
    elsewhere.refresh_from_db()
    assert elsewhere.exhaustion == 0
