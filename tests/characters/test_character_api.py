"""The character API: same services, same checks as the pages; conflicts as 409 or 412."""

from contextlib import contextmanager

import pytest
from django.db import OperationalError, connection, transaction
from rest_framework.test import APIClient

from characters.models import Character, CharacterChange, CharacterSkill
from common.api_schema import tag_version
from rules import reference
from rules import sheet as rules_sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def detail(character):
    return f"/api/characters/{character.pk}/"


def test_detail_has_derived_values_and_an_etag(api, player, character):
    api.force_authenticate(player)
    response = api.get(detail(character))
    assert response.status_code == 200
    assert tag_version(response["ETag"]) == 1
    data = response.json()
    scores = rules_sheet.sheet_scores(rules_sheet.Characteristics())
    assert data["derived"]["might"] == scores.might
    assert data["derived"]["columns"] == scores.columns
    assert data["derived"]["gauge_maxima"] == {"vitality": 15, "energy": 15, "confidence": 15}
    assert [s["key"] for s in data["skills"]] == ["melee", "sport"]
    assert data["languages"][0]["level_meaning"] == reference.LANGUAGE_LEVELS[5]
    assert "private_notes" in data


def test_members_read_outsiders_get_404(api, other_player, outsider, character):
    api.force_authenticate(other_player)
    data = api.get(detail(character)).json()
    assert "private_notes" not in data
    assert (
        api.patch(detail(character), {"karma": 1, "version": 1}, format="json").status_code == 403
    )
    api.force_authenticate(outsider)
    assert api.get(detail(character)).status_code == 404
    assert api.get(f"/api/characters/{character.pk}/export/").status_code == 404
    assert api.get("/api/characters/").json() == []


def test_anonymous_gets_401(api, character):
    assert api.get(detail(character)).status_code == 401


def test_patch_with_version_saves_and_returns_the_new_derived_values(api, player, character):
    api.force_authenticate(player)
    response = api.patch(detail(character), {"strength": 8, "version": 1}, format="json")
    assert response.status_code == 200, response.json()
    data = response.json()
    scores = rules_sheet.sheet_scores(rules_sheet.Characteristics(strength=8))
    assert (data["strength"], data["version"], data["derived"]["might"]) == (8, 2, scores.might)
    assert tag_version(response["ETag"]) == 2


def test_patch_without_a_version_is_428(api, player, character):
    api.force_authenticate(player)
    assert api.patch(detail(character), {"karma": 1}, format="json").status_code == 428


def test_stale_version_on_the_same_field_is_409_with_the_current_state(
    api, player, storyteller, character
):
    api.force_authenticate(storyteller)
    api.patch(detail(character), {"strength": 4, "version": 1}, format="json")
    api.force_authenticate(player)
    response = api.patch(detail(character), {"strength": 6, "version": 1}, format="json")
    assert response.status_code == 409
    data = response.json()
    assert (data["field"], data["current_value"], data["changed_by"]) == ("strength", 4, "conteur")
    assert data["character"]["strength"] == 4 and data["character"]["version"] == 2
    assert "Modifié entre-temps par conteur" in data["detail"]
    # A different field from the same stale version succeeds.
    response = api.patch(detail(character), {"karma": 3, "version": 1}, format="json")
    assert response.status_code == 200


def test_if_match_stale_is_412(api, player, storyteller, character):
    api.force_authenticate(storyteller)
    api.patch(detail(character), {"fortune": 2}, format="json", HTTP_IF_MATCH='"1"')
    api.force_authenticate(player)
    response = api.patch(detail(character), {"fortune": 1}, format="json", HTTP_IF_MATCH='"1"')
    assert response.status_code == 412
    assert response.json()["current_value"] == 2


def test_rules_errors_are_400_in_french(api, player, character):
    api.force_authenticate(player)
    response = api.patch(detail(character), {"personal_hope": 4, "version": 1}, format="json")
    assert response.status_code == 400
    assert "L'espoir personnel ne peut dépasser 1." in str(response.json())
    response = api.patch(detail(character), {"fortune": 6, "version": 1}, format="json")
    assert response.status_code == 400


def test_skills_and_languages_sub_resources(api, player, character):
    api.force_authenticate(player)
    url = f"/api/characters/{character.pk}/skills/"
    response = api.post(
        url, {"key": "tir", "level": 2, "expertises": ["Arcs"], "version": 1}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert {"key": "tir", "level": 2}.items() <= next(
        s for s in response.json()["skills"] if s["key"] == "tir"
    ).items()
    response = api.put(f"{url}melee/", {"level": 4}, format="json", HTTP_IF_MATCH='"2"')
    assert response.status_code == 200
    response = api.delete(f"{url}sport/", {"version": 3}, format="json")
    assert response.status_code == 200
    assert [s["key"] for s in api.get(url).json()] == ["melee", "tir"]
    url = f"/api/characters/{character.pk}/languages/"
    response = api.post(url, {"key": "central", "level": 3, "version": 4}, format="json")
    assert response.status_code == 200
    response = api.post(url, {"key": "vrai_primordial", "level": 2, "version": 5}, format="json")
    assert response.status_code == 400
    assert "Vrai Primordial" in str(response.json())


def test_entries_sub_resource(api, player, character, compendium):
    api.force_authenticate(player)
    url = f"/api/characters/{character.pk}/entries/assets/"
    response = api.put(url, {"ids": [compendium["asset"].pk], "version": 1}, format="json")
    assert response.status_code == 200
    assert api.get(url).json() == [{"id": compendium["asset"].pk, "name": "Riche"}]
    response = api.put(url, {"ids": [999999], "version": 2}, format="json")
    assert response.status_code == 400


def test_create_at_75_points_and_refusals(api, player, campaign, creation_data):
    api.force_authenticate(player)
    response = api.post(
        "/api/characters/", {**creation_data, "campaign": campaign.pk}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["owner"] == "aelis"
    assert response.json()["warnings"] == []  # every point spent

    over = {**creation_data, "campaign": campaign.pk, "name": "Trop"}
    over["characteristics"] = {**creation_data["characteristics"], "wisdom": 5}
    response = api.post("/api/characters/", over, format="json")
    assert response.status_code == 400
    assert "dépassé de 1 point" in str(response.json())

    capped = {**creation_data, "campaign": campaign.pk, "name": "Fort"}
    capped["characteristics"] = {**creation_data["characteristics"], "strength": 9, "vigor": 5}
    response = api.post("/api/characters/", capped, format="json")
    assert response.status_code == 400
    assert "Force ne peut dépasser 8." in str(response.json())
    assert Character.objects.count() == 1


def test_create_with_a_flaw_refund_through_the_api(
    api, player, campaign, creation_data, compendium
):
    api.force_authenticate(player)
    data = {**creation_data, "campaign": campaign.pk, "flaws": [compendium["flaw"].pk]}
    data["characteristics"] = {**creation_data["characteristics"], "wisdom": 6}
    response = api.post("/api/characters/", data, format="json")
    assert response.status_code == 201, response.json()


def test_create_with_points_left_is_accepted_and_says_so(api, player, campaign, creation_data):
    """The API cannot ask as the wizard does: it creates the sheet and its answer says what was
    left unspent, per budget."""
    api.force_authenticate(player)
    data = {**creation_data, "campaign": campaign.pk}
    data["characteristics"] = {**creation_data["characteristics"], "strength": 6}
    response = api.post("/api/characters/", data, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["strength"] == 6
    assert response.json()["warnings"] == [
        "Il reste 2 points de création à dépenser (73 sur 75) : "
        "une fois le personnage créé, ils ne serviront plus."
    ]
    detail = api.get(f"/api/characters/{response.json()['id']}/").json()
    assert "warnings" not in detail  # said once, with the creation


def test_outsider_cannot_create_in_a_campaign(api, outsider, campaign, creation_data):
    api.force_authenticate(outsider)
    response = api.post(
        "/api/characters/", {**creation_data, "campaign": campaign.pk}, format="json"
    )
    assert response.status_code == 404


def test_export_then_import_loses_nothing(api, player, storyteller, campaign, creation_data):
    api.force_authenticate(player)
    created = api.post(
        "/api/characters/", {**creation_data, "campaign": campaign.pk}, format="json"
    )
    pk = created.json()["id"]
    api.patch(
        f"/api/characters/{pk}/",
        {"private_notes": "Secret", "vitality_scars": 3, "karma": -2, "version": 1},
        format="json",
    )
    exported = api.get(f"/api/characters/{pk}/export/").json()
    response = api.post(f"/api/campaigns/{campaign.pk}/characters/import/", exported, format="json")
    assert response.status_code == 201, response.json()
    again = api.get(f"/api/characters/{response.json()['id']}/export/").json()
    assert again == exported
    assert CharacterChange.objects.filter(action="import").count() == 1


def test_import_refuses_bad_data_and_saves_nothing(api, player, campaign):
    api.force_authenticate(player)
    url = f"/api/campaigns/{campaign.pk}/characters/import/"
    assert api.post(url, {"name": "X"}, format="json").status_code == 400
    bad = {"format": "altherion.character/1", "name": "X", "fortune": 9}
    assert api.post(url, bad, format="json").status_code == 400
    assert not Character.objects.exists()


def test_history_endpoint(api, player, character):
    api.force_authenticate(player)
    api.patch(detail(character), {"karma": 5, "version": 1}, format="json")
    rows = api.get(f"/api/characters/{character.pk}/history/").json()
    assert rows[0]["field"] == "karma" and rows[0]["old_value"] == 0 and rows[0]["by"] == "aelis"


def test_detail_queries_do_not_grow(api, player, make_character, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    small, big = make_character(name="Petit"), make_character(name="Grand")
    CharacterSkill.objects.create(character=small, key="melee", level=1)
    CharacterSkill.objects.bulk_create(
        CharacterSkill(character=big, key=s.key, level=1) for s in reference.SKILLS[:20]
    )
    CharacterChange.objects.bulk_create(
        CharacterChange(character=big, version=1, field="karma", by=player) for _ in range(50)
    )
    api.force_authenticate(player)
    with CaptureQueriesContext(connection) as queries:
        assert api.get(detail(small)).status_code == 200
    with django_assert_max_num_queries(len(queries)):
        assert api.get(detail(big)).status_code == 200


@pytest.mark.parametrize("blank", ["", "   "])
def test_a_patch_cannot_blank_the_name_creation_requires(api, player, character, blank):
    """Issue 12 §4: every field keeps its creation rules on update — a sheet has a name."""
    api.force_authenticate(player)
    response = api.patch(detail(character), {"name": blank, "version": 1}, format="json")
    assert response.status_code == 400
    assert "name" in response.json()["errors"]
    character.refresh_from_db()
    assert (character.name, character.version) == ("Aelis", 1)


def test_the_same_change_sent_again_after_a_lost_answer_is_200_not_412(
    api, player, storyteller, character
):
    """Issue 12 §8: a client that retries its very own change (its answer was lost) gets 200 and
    the sheet as it is; nothing is written twice. Another person's change still conflicts."""
    api.force_authenticate(player)
    first = api.patch(detail(character), {"fortune": 2}, format="json", HTTP_IF_MATCH='"1"')
    again = api.patch(detail(character), {"fortune": 2}, format="json", HTTP_IF_MATCH='"1"')
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json()["version"] == 2 and tag_version(again["ETag"]) == 2
    assert CharacterChange.objects.filter(character=character, field="fortune").count() == 1
    other = api.patch(detail(character), {"fortune": 1}, format="json", HTTP_IF_MATCH='"1"')
    assert other.status_code == 412  # a different value on the old version: a real conflict
    api.force_authenticate(storyteller)
    theirs = api.patch(detail(character), {"fortune": 2}, format="json", HTTP_IF_MATCH='"1"')
    assert theirs.status_code == 412  # the same value, but someone else's change


# --- issue 12 §8: a write that committed is never answered with an error ---------------------


@contextmanager
def database_gone_after_the_first_commit():
    """From the commit of the first transaction that writes, every query fails as if the
    database had just restarted: an answer still to be read after the commit would fail."""
    state = {"armed": False, "gone": False}

    def execute(run, sql, params, many, context):
        if state["gone"]:
            raise OperationalError("server closed the connection unexpectedly")
        writes = sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
        if writes and not state["armed"] and connection.in_atomic_block:
            state["armed"] = True
            transaction.on_commit(lambda: state.update(gone=True))
        return run(sql, params, many, context)

    with connection.execute_wrapper(execute):
        yield state


SHEET_WRITES = [
    ("patch", "characters/{pk}/", {"strength": 8}, lambda d: d["strength"] == 8),
    ("post", "characters/{pk}/skills/", {"key": "tir", "level": 2}, lambda d: d["version"] == 2),
    ("delete", "characters/{pk}/skills/sport/", {}, lambda d: len(d["skills"]) == 1),
    ("put", "characters/{pk}/languages/central/", {"level": 3}, lambda d: len(d["languages"]) == 2),
    (
        "put",
        "characters/{pk}/entries/assets/",
        "asset",
        lambda d: d["assets"][0]["name"] == "Riche",
    ),
    (
        "post",
        "characters/{pk}/damage/",
        {"gauge": "vitality", "amount": 7},
        lambda d: d["character"]["vitality_current"] == 8,
    ),
    (
        "post",
        "characters/{pk}/rest/",
        {"rank": "quick"},
        lambda d: d["character"]["energy_current"] > 5,
    ),
    (
        "post",
        "characters/{pk}/heal/",
        {"gauge": "energy", "points": 3},
        lambda d: d["character"]["energy_current"] == 8,
    ),
    (
        "post",
        "characters/{pk}/stabilise/",
        {"gauge": "confidence"},
        lambda d: d["notes"] == ["Confiance stabilisée."],
    ),
    ("post", "characters/", "creation", lambda d: d["name"] == "Aelis" and d["version"] == 1),
    ("post", "campaigns/{campaign}/characters/import/", "export", lambda d: d["version"] == 1),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("method", "path", "body", "answered"),
    SHEET_WRITES,
    ids=[f"{method} {path}" for method, path, *_ in SHEET_WRITES],
)
def test_a_committed_write_is_answered_200_even_if_the_database_goes_away_after_the_commit(
    player, campaign, character, compendium, creation_data, method, path, body, answered
):
    """Issue 12 §8: a PATCH whose change committed was answered 500 (the database restarted
    between the commit and the answer's read). Every sheet write reads and serializes its
    answer inside its transaction: after the commit, nothing can fail."""
    type(character).objects.filter(pk=character.pk).update(energy_current=5, confidence_peril=True)
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(player)
    if body == "export":
        body = api.get(f"/api/characters/{character.pk}/export/").json()
    elif body == "creation":
        body = {**creation_data, "campaign": campaign.pk}
    elif body == "asset":
        body = {"ids": [compendium["asset"].pk]}
    url = "/api/" + path.format(pk=character.pk, campaign=campaign.pk)
    with database_gone_after_the_first_commit() as state:
        response = getattr(api, method)(url, body, format="json", HTTP_IF_MATCH='"1"')
    assert state["gone"], "the write never committed"
    assert response.status_code in (200, 201), response.content
    assert answered(response.json()), response.json()
    created = response.status_code == 201
    saved = type(character).objects.get(pk=response.json().get("id", character.pk))
    assert tag_version(response["ETag"]) == saved.version and saved.version == (1 if created else 2)


@pytest.mark.parametrize("header", ["", "   ", "2", '"+1"', '"1", "2"', 'W/"x"'])
def test_an_if_match_that_is_no_version_tag_is_400_even_with_a_version_field(
    api, player, character, header
):
    """The schema documents If-Match as `"<version>"`: a header sent blank or otherwise is
    refused, not read as absent (the body's `version` does not rescue it)."""
    api.force_authenticate(player)
    response = api.patch(
        detail(character), {"karma": 1, "version": 1}, format="json", HTTP_IF_MATCH=header
    )
    assert response.status_code == 400
    assert response.json()["errors"]["If-Match"] == [
        'En-tête If-Match invalide : attendu l\'ETag de la fiche ou "<version>".'
    ]
    character.refresh_from_db()
    assert character.version == 1
