"""A field edit through the API: answered from the row the write locked and saved, not read
again — a fixed, small number of statements, and the very answer and ETag a fresh read of the
sheet gives.

The count is every statement Django runs for the request, BEGIN and COMMIT included, as in
production (`transaction=True`: no test transaction around it). The client is authenticated
without a statement (`force_authenticate`).
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from characters.models import Character, CharacterChange

pytestmark = pytest.mark.usefixtures("empty_cache")

# The access check (the character, the viewer's membership), BEGIN, the locked row (with campaign,
# species, owner and last author), UPDATE, the history row, the skills, the languages, the
# compendium entries (one UNION), COMMIT.
PATCH_STATEMENTS = 10


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def patch(client, character, body):
    return client.patch(f"/api/characters/{character.pk}/", body, format="json")


def fresh(client, character):
    """The sheet read afresh: the cache emptied first, so nothing the write kept answers."""
    from django.core.cache import cache

    cache.clear()
    return client.get(f"/api/characters/{character.pk}/")


@pytest.mark.django_db(transaction=True)
def test_a_field_edit_takes_its_few_statements_and_reads_the_sheets_row_once(player, character):
    client = api(player)
    assert patch(client, character, {"karma": 1, "version": 1}).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        saved = patch(client, character, {"karma": 2, "version": 2})
    assert saved.status_code == 200, saved.json()
    statements = [q["sql"] for q in queries.captured_queries]
    assert len(statements) == PATCH_STATEMENTS, "\n".join(statements)
    reads = [q for q in statements if q.startswith("SELECT") and 'FROM "characters_character"' in q]
    assert len(reads) == 2  # the access check and the lock: the answer reads no row of it again
    assert not [q for q in statements if q.split()[0] in {"SAVEPOINT", "RELEASE"}]
    assert saved.json()["karma"] == 2 and saved.json()["version"] == 3
    assert CharacterChange.objects.filter(character=character, field="karma").count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        {"karma": 3},
        {"species": "new"},
        {"private_notes": "Un secret", "lineage": "Maison Vey"},
        {"strength": 2},  # lowers the Impact pool too (§1)
        {"name": "Aelis"},  # the value it has: nothing written
    ],
    ids=["karma", "species", "two-fields", "pools-lowered", "unchanged"],
)
@pytest.mark.parametrize("editor", ["player", "storyteller"])
def test_a_field_edits_answer_is_what_a_fresh_read_shows(
    request, editor, character, species, compendium, body
):
    character.strength, character.impact_points = 8, 4  # Impact (8 + 2 + 2) // 3, full
    character.save()
    character.classes.set([compendium["class"]])
    if body.get("species") == "new":
        body = {"species": species.pk}
    client = api(request.getfixturevalue(editor))
    saved = patch(client, character, {**body, "version": 1})
    assert saved.status_code == 200, saved.json()
    shown = fresh(client, character)
    assert saved.json() == shown.json()
    assert saved["ETag"] == shown["ETag"]
    assert saved.json()["version"] == Character.objects.get(pk=character.pk).version
    if "strength" in body:
        assert saved.json()["impact_points"] == 2


@pytest.mark.django_db(transaction=True)
def test_a_write_that_fails_after_saving_keeps_nothing(monkeypatch, player, character):
    """Without the service's savepoint the API's transaction still rolls back whole: the row
    saved and its history written, then the answer fails — neither is kept."""

    def broken(*args, **kwargs):
        raise RuntimeError("the answer failed after the write")

    monkeypatch.setattr("characters.selectors.character_sheet_after_write", broken)
    client = api(player)
    with pytest.raises(RuntimeError):
        patch(client, character, {"karma": 2, "version": 1})
    character.refresh_from_db()
    assert (character.karma, character.version) == (0, 1)
    assert not CharacterChange.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_every_sheet_write_of_the_api_runs_without_a_savepoint(player, character):
    client = api(player)
    base = f"/api/characters/{character.pk}"
    writes = [
        ("post", f"{base}/skills/", {"key": "tir", "level": 2}),
        ("delete", f"{base}/skills/tir/", {}),
        ("post", f"{base}/languages/", {"key": "central", "level": 3}),
        ("put", f"{base}/entries/classes/", {"ids": []}),
        ("post", f"{base}/damage/", {"gauge": "vitality", "amount": 2}),
        ("post", f"{base}/heal/", {"gauge": "vitality", "points": 1}),
        ("post", f"{base}/stabilise/", {"gauge": "vitality"}),
        ("post", f"{base}/rest/", {}),
    ]
    for method, url, body in writes:
        version = Character.objects.get(pk=character.pk).version
        with CaptureQueriesContext(connection) as queries:
            answer = getattr(client, method)(url, {**body, "version": version}, format="json")
        assert answer.status_code == 200, (url, answer.json())
        statements = [q["sql"] for q in queries.captured_queries]
        assert savepoints(statements) == [], url


def savepoints(statements: list[str]) -> list[str]:
    """The savepoints made, but those of Django's own around a check constraint's query (a new
    skill or language row's `full_clean`)."""
    return [
        statement
        for statement, following in zip(statements, statements[1:], strict=False)
        if statement.startswith("SAVEPOINT") and not following.startswith('SELECT 1 AS "_check"')
    ]
