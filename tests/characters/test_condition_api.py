"""Damage, rest, heal and stabilise through the API (issue 12 §11): the pages' services, with the
version check, rights and answers of every other sheet write."""

import html
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from characters.models import CharacterChange, CharacterSkill
from common.api_schema import tag_version
from rules import reference
from rules import sheet as rules_sheet
from sessions.models import Injury

pytestmark = pytest.mark.django_db

SCARS_OVER_DAMAGE = "Les blessures graves ne peuvent dépasser les dégâts infligés."


@pytest.fixture
def api():
    return APIClient()


def url(character, action):
    return f"/api/characters/{character.pk}/{action}/"


def scores():
    """Puissance and Harmonie of the fixture's sheet (every characteristic at its default)."""
    return rules_sheet.sheet_scores(rules_sheet.Characteristics())


def unchanged(character) -> bool:
    character.refresh_from_db()
    return character.version == 1 and not CharacterChange.objects.exists()


# --- each operation does what the rules say -------------------------------------------------


def test_damage_takes_ephemeral_points_first_and_records_its_scars(api, player, character):
    """§3: ephemeral points absorb damage first; scars are the serious part of the hit."""
    character.vitality_ephemeral = 2
    character.save()
    api.force_authenticate(player)
    body = {"gauge": "vitality", "amount": 7, "scars": 1, "version": 1}
    response = api.post(url(character, "damage"), body, format="json")
    assert response.status_code == 200, response.json()
    data = response.json()
    assert data["notes"] == ["Vitalité : 15 → 10, éphémère 2 → 0, cicatrices 0 → 1."]
    sheet = data["character"]
    assert (sheet["vitality_current"], sheet["vitality_ephemeral"], sheet["vitality_scars"]) == (
        10,
        0,
        1,
    )
    assert (sheet["version"], tag_version(response["ETag"])) == (2, 2)
    character.refresh_from_db()
    assert (character.vitality_current, character.vitality_scars, character.version) == (10, 1, 2)
    rows = set(CharacterChange.objects.values_list("field", "action", "version", "by__username"))
    assert rows == {
        ("vitality_current", "damage", 2, "aelis"),
        ("vitality_ephemeral", "damage", 2, "aelis"),
        ("vitality_scars", "damage", 2, "aelis"),
    }


def test_vitality_at_zero_gives_agony_and_peril_then_stabilise_ends_the_peril(
    api, player, character
):
    """§8: reaching 0 Vitalité gives 1 Agonie and péril until stabilised; §3: care stabilises."""
    api.force_authenticate(player)
    response = api.post(
        url(character, "damage"), {"gauge": "vitality", "amount": 15, "version": 1}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert "Vitalité en péril jusqu'à stabilisation." in response.json()["notes"]
    sheet = response.json()["character"]
    assert (sheet["vitality_current"], sheet["vitality_peril"], sheet["agony"]) == (0, True, 1)
    response = api.post(
        url(character, "stabilise"), {"gauge": "vitality"}, format="json", HTTP_IF_MATCH='"2"'
    )
    assert response.status_code == 200, response.json()
    assert response.json()["notes"] == ["Vitalité stabilisée."]
    assert tag_version(response["ETag"]) == 3
    character.refresh_from_db()
    assert (character.vitality_stabilised, character.vitality_peril, character.version) == (
        True,
        False,
        3,
    )
    assert CharacterChange.objects.filter(action="stabilise", version=3).exists()


def test_a_quick_rest_restores_might_plus_harmony_and_a_rib_cage_makes_it_harder(
    api, player, character
):
    """§4: Rapide = Puissance + Harmonie per gauge; « A rib-cage injury (Aggravation table) makes
    Vitalité and Énergie restoration one rank harder » (Rapide → Normale = Puissance): the
    character's recorded, unhealed injury, not a field of the body."""
    character.vitality_current = character.energy_current = 1
    character.save()
    might, harmony = scores().might, scores().harmony
    api.force_authenticate(player)
    response = api.post(url(character, "rest"), {"rank": "quick", "version": 1}, format="json")
    assert response.status_code == 200, response.json()
    vitality = min(15, 1 + might + harmony)
    assert response.json()["notes"] == [
        f"Repos Rapide : Vitalité 1 → {vitality}, Énergie 1 → {vitality}, Confiance 15 → 15."
    ]
    assert response.json()["character"]["version"] == 2
    assert CharacterChange.objects.filter(action="rest", field="energy_current").exists()

    type(character).objects.filter(pk=character.pk).update(vitality_current=1, energy_current=1)
    Injury.objects.create(
        campaign=character.campaign, character=character, row=4, effect="rib_cage"
    )
    body = {"rank": "quick", "version": 2}
    response = api.post(url(character, "rest"), body, format="json")
    assert response.status_code == 200, response.json()
    sheet = response.json()["character"]
    assert (sheet["vitality_current"], sheet["energy_current"]) == (1 + might, 1 + might)
    assert sheet["confidence_current"] == 15
    assert response.json()["notes"][1] == (
        "Cage thoracique : Vitalité et Énergie restaurées un cran plus dur."
    )
    assert tag_version(response["ETag"]) == 3


def test_a_healed_rib_cage_no_longer_slows_the_rest(api, player, character):
    character.vitality_current = 1
    character.save()
    Injury.objects.create(
        campaign=character.campaign,
        character=character,
        row=4,
        effect="rib_cage",
        healed_at=timezone.now(),
    )
    api.force_authenticate(player)
    response = api.post(url(character, "rest"), {"rank": "quick", "version": 1}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["character"]["vitality_current"] == min(
        15, 1 + scores().might + scores().harmony
    )
    assert len(response.json()["notes"]) == 1


@pytest.mark.parametrize(
    ("body", "rank", "points"),
    [
        ({}, "Normale", "might"),
        ({"slept_badly": True}, "Difficile (mal dormi)", "harmony"),
        ({"slept_badly": True, "ate_badly": True}, "Très difficile (mal dormi, mal mangé)", "one"),
        ({"whole_day_of_rest": True}, "Rapide (journée entière de repos)", "both"),
        (
            {"rank": "hard", "whole_day_of_rest": True},
            "Normale (journée entière de repos)",
            "might",
        ),
    ],
)
def test_bad_sleep_bad_food_and_a_day_of_rest_shift_the_rank(
    api, player, character, body, rank, points
):
    """§4: « Default rank Normale. Sleeping or eating badly makes restoration harder, a whole day
    of rest easier (Reading: one rank each) »: the API computes the rank from the circumstances."""
    character.vitality_current = 1
    character.save()
    might, harmony = scores().might, scores().harmony
    gained = {"might": might, "harmony": harmony, "one": 1, "both": might + harmony}[points]
    api.force_authenticate(player)
    response = api.post(url(character, "rest"), {**body, "version": 1}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["notes"][0].startswith(f"Repos {rank} : Vitalité 1 → {1 + gained},")
    assert response.json()["character"]["vitality_current"] == 1 + gained


def test_heal_restores_points_never_above_the_maximum(api, storyteller, character):
    character.energy_current = 5
    character.save()
    api.force_authenticate(storyteller)  # the Conteur writes every sheet of the campaign
    body = {"gauge": "energy", "points": 40, "version": 1}
    response = api.post(url(character, "heal"), body, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["notes"] == ["Énergie : 5 → 15."]
    assert response.json()["character"]["energy_current"] == 15
    change = CharacterChange.objects.get()
    assert (change.field, change.old_value, change.new_value, change.action) == (
        "energy_current",
        5,
        15,
        "heal",
    )
    assert change.by == storyteller


# --- refusals: bad bodies, versions, rights -------------------------------------------------


@pytest.mark.parametrize(
    ("action", "body", "field", "message"),
    [
        ("damage", {"gauge": "mana", "amount": 1}, "gauge", "n'est pas un choix valide"),
        ("damage", {"gauge": "vitality", "amount": 0}, "amount", "supérieure ou égale à"),
        (
            "damage",
            {"gauge": "vitality", "amount": 10_001},
            "amount",
            "inférieure ou égale à 10000",
        ),
        ("damage", {"gauge": "vitality", "amount": "deux"}, "amount", "entier valide"),
        ("damage", {"gauge": "vitality", "amount": 2, "scars": 3}, "scars", SCARS_OVER_DAMAGE),
        ("damage", {"gauge": "vitality", "amount": 2, "scars": -1}, "scars", "supérieur"),
        ("damage", {"amount": 2}, "gauge", "Ce champ est obligatoire."),
        ("rest", {"rank": "forever"}, "rank", "n'est pas un choix valide"),
        ("rest", {"rank": "normal", "slept_badly": "peut-être"}, "slept_badly", "booléen valide"),
        ("rest", {"ate_badly": 1}, "ate_badly", "booléen valide"),
        ("rest", {"whole_day_of_rest": None}, "whole_day_of_rest", "ne peut être nul"),
        ("heal", {"gauge": "energy", "points": 0}, "points", "supérieure ou égale à"),
        ("heal", {"gauge": "energy"}, "points", "Ce champ est obligatoire."),
        ("stabilise", {}, "gauge", "Ce champ est obligatoire."),
        ("stabilise", {"gauge": ["vitality"]}, "gauge", "n'est pas un choix valide"),
    ],
)
def test_a_bad_body_is_a_french_400_and_changes_nothing(
    api, player, character, action, body, field, message
):
    api.force_authenticate(player)
    response = api.post(url(character, action), {**body, "version": 1}, format="json")
    assert response.status_code == 400, response.json()
    data = response.json()
    assert message in " ".join(data["errors"][field]), data
    assert data["detail"].startswith(f"Champ « {field} » :"), data
    assert unchanged(character)


@pytest.mark.parametrize("body", [[1, 2], "texte", 3])
def test_a_body_that_is_no_object_is_refused(api, player, character, body):
    api.force_authenticate(player)
    response = api.post(url(character, "damage"), body, format="json", HTTP_IF_MATCH='"1"')
    assert response.status_code == 400
    assert response.json()["detail"]
    assert unchanged(character)


ACTIONS = {
    "damage": {"gauge": "vitality", "amount": 3},
    "rest": {"rank": "hard"},
    "heal": {"gauge": "vitality", "points": 2},
    "stabilise": {"gauge": "vitality"},
}


@pytest.mark.parametrize("action", ACTIONS)
def test_a_stale_version_conflicts_as_for_patch_409_or_412(
    api, player, storyteller, character, action
):
    """Someone else changed Vitalité since version 1: 409 with a version field, 412 with
    If-Match, both carrying the current sheet, the field and who changed it."""
    character.vitality_current = 10  # room to heal and to rest
    character.vitality_peril = True  # something to stabilise
    character.save()
    api.force_authenticate(storyteller)
    response = api.patch(
        f"/api/characters/{character.pk}/", {"vitality_current": 8, "version": 1}, format="json"
    )
    assert response.status_code == 200
    api.force_authenticate(player)
    response = api.post(url(character, action), {**ACTIONS[action], "version": 1}, format="json")
    assert response.status_code == 409, response.json()
    data = response.json()
    assert (data["field"], data["current_value"], data["changed_by"]) == (
        "vitality_current",
        8,
        "conteur",
    )
    assert (data["version"], data["character"]["version"]) == (2, 2)
    assert "Modifié entre-temps par conteur" in data["detail"]
    response = api.post(url(character, action), ACTIONS[action], format="json", HTTP_IF_MATCH='"1"')
    assert response.status_code == 412
    assert response.json()["current_value"] == 8
    character.refresh_from_db()
    assert (character.version, character.vitality_current) == (2, 8)
    assert not CharacterChange.objects.exclude(action="edit").exists()


def test_a_stale_version_on_another_gauge_goes_through(api, player, storyteller, character):
    """As for PATCH: writes of different fields from the same version both succeed."""
    api.force_authenticate(storyteller)
    api.patch(f"/api/characters/{character.pk}/", {"karma": 2, "version": 1}, format="json")
    api.force_authenticate(player)
    response = api.post(
        url(character, "damage"), {"gauge": "energy", "amount": 4, "version": 1}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["character"]["version"] == 3


def test_a_version_from_the_future_is_refused(api, player, character):
    api.force_authenticate(player)
    response = api.post(url(character, "heal"), {**ACTIONS["heal"], "version": 9}, format="json")
    assert response.status_code == 400
    assert "Version inconnue" in response.json()["detail"]
    assert unchanged(character)


@pytest.mark.parametrize("action", ACTIONS)
def test_without_a_version_it_is_428(api, player, character, action):
    api.force_authenticate(player)
    response = api.post(url(character, action), ACTIONS[action], format="json")
    assert response.status_code == 428
    assert "version" in response.json()["detail"]
    assert unchanged(character)


@pytest.mark.parametrize("action", ACTIONS)
def test_another_player_gets_403_an_outsider_404_anonymous_401(
    api, other_player, outsider, character, action
):
    body = {**ACTIONS[action], "version": 1}
    assert api.post(url(character, action), body, format="json").status_code == 401
    api.force_authenticate(other_player)
    response = api.post(url(character, action), body, format="json")
    assert response.status_code == 403
    assert "Seuls le joueur du personnage et le Conteur" in response.json()["detail"]
    api.force_authenticate(outsider)
    assert api.post(url(character, action), body, format="json").status_code == 404
    # Access comes before the body: an outsider learns nothing from a bad one either.
    assert api.post(url(character, action), {"gauge": "mana"}, format="json").status_code == 404
    assert unchanged(character)


# --- one validation path: the page and the API refuse alike ---------------------------------


def page_errors(response) -> list[str]:
    found = re.findall(r'<li class="message error">(.*?)</li>', response.content.decode())
    return [html.unescape(message) for message in found]


@pytest.mark.parametrize(
    ("action", "body", "field"),
    [
        ("damage", {"gauge": "vitality", "amount": 2, "scars": 3}, "scars"),
        ("damage", {"gauge": "mana", "amount": 2}, "gauge"),
        ("damage", {"gauge": "vitality", "amount": 0}, "amount"),
        ("damage", {"gauge": "vitality", "amount": 10_001}, "amount"),
        ("heal", {"gauge": "energy", "points": 10_001}, "points"),
        ("rest", {"rank": "forever"}, "rank"),
        ("stabilise", {"gauge": "mana"}, "gauge"),
    ],
)
def test_the_page_and_the_api_refuse_the_same_input(
    api, client, player, character, action, body, field
):
    """The forms and the serializers share their choices and bounds, and both call the service
    that enforces the rest (scars within the damage): the same input is refused by both, with
    the service's own sentence where the service refused it."""
    client.force_login(player)
    form = {f"{action}-{name}": value for name, value in body.items()}  # the page's prefix
    page = client.post(
        reverse(f"characters:{action}", args=[character.pk]), form, HTTP_HX_REQUEST="true"
    )
    assert page.status_code == 200
    api.force_authenticate(player)
    response = api.post(url(character, action), {**body, "version": 1}, format="json")
    assert response.status_code == 400
    refused = response.json()["errors"][field]
    if field == "scars":
        assert page_errors(page) == refused == [SCARS_OVER_DAMAGE]
    else:
        assert page_errors(page) == ["Vérifiez les valeurs saisies pour cette action."]
    assert unchanged(character)


def test_the_page_and_the_api_accept_the_same_input_alike(api, client, player, make_character):
    """The same damage by the page and by the API leaves two sheets alike, with alike history."""
    by_page, by_api = make_character(name="Page"), make_character(name="Api")
    body = {"gauge": "confidence", "amount": 15, "scars": 2}
    client.force_login(player)
    client.post(
        reverse("characters:damage", args=[by_page.pk]),
        {f"damage-{name}": value for name, value in body.items()},  # the page's prefix
    )
    api.force_authenticate(player)
    response = api.post(url(by_api, "damage"), {**body, "version": 1}, format="json")
    assert response.status_code == 200
    by_page.refresh_from_db()
    by_api.refresh_from_db()
    for gauge in reference.GAUGES:
        for attr in ("current", "scars", "peril"):
            column = f"{gauge}_{attr}"
            assert getattr(by_page, column) == getattr(by_api, column), column
    history = {
        pk: set(CharacterChange.objects.filter(character_id=pk).values_list("field", "new_value"))
        for pk in (by_page.pk, by_api.pk)
    }
    assert history[by_page.pk] == history[by_api.pk] != set()


# --- queries --------------------------------------------------------------------------------


@pytest.mark.parametrize("action", ACTIONS)
def test_an_action_costs_the_same_queries_on_a_big_sheet(
    api, player, make_character, django_assert_max_num_queries, action
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    small, big = make_character(name="Petit"), make_character(name="Grand")
    for character in (small, big):
        character.vitality_current, character.vitality_peril = 10, True
        character.save()
    CharacterSkill.objects.create(character=small, key="melee", level=1)
    CharacterSkill.objects.bulk_create(
        CharacterSkill(character=big, key=s.key, level=1) for s in reference.SKILLS[:20]
    )
    CharacterChange.objects.bulk_create(
        CharacterChange(character=big, version=1, field="karma", by=player) for _ in range(50)
    )
    api.force_authenticate(player)
    body = {**ACTIONS[action], "version": 1}
    with CaptureQueriesContext(connection) as queries:
        assert api.post(url(small, action), body, format="json").status_code == 200
    with django_assert_max_num_queries(len(queries)):
        assert api.post(url(big, action), body, format="json").status_code == 200
