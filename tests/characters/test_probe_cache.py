"""The sheet's probe kept in the cache (characters/probe_cache.py): a read served from the caches
runs no query, and every kind of write that changes what the probe says is seen by the next
read — the sheet's row (a save, the bulk update of many sheets, a deletion), the campaign, the
membership and the user."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from campaigns import services as campaign_services
from campaigns.models import Membership
from characters import probe_cache, services
from characters.models import Character

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


def read(client, character):
    return client.get(reverse("characters:sheet", args=[character.pk]))


def shown_version(client, character) -> int:
    response = read(client, character)
    assert response.status_code == 200
    return int(re.search(r'data-version="(\d+)"', response.content.decode())[1])


def test_a_read_from_the_caches_runs_no_query(client, player, character, django_assert_num_queries):
    client.force_login(player)
    assert shown_version(client, character) == 1
    with django_assert_num_queries(0):  # session, user, probe and page: all from the cache
        assert shown_version(client, character) == 1


def test_a_write_through_the_services_is_read_at_once(client, player, character):
    client.force_login(player)
    assert shown_version(client, character) == 1
    services.character_update_field(
        character=character.pk, field="lineage", value="Maison Vey", version=1, by=player
    )
    assert shown_version(client, character) == 2


def test_the_bulk_update_of_many_sheets_is_read_at_once(client, player, character):
    client.force_login(player)
    assert shown_version(client, character) == 1
    locked = list(services.characters_lock(Character.objects.filter(pk=character.pk)).values())
    locked[0].karma = 2
    services.characters_record_changes(
        locked,
        changes={character.pk: {"karma": (0, 2)}},
        by=player,
        action="test",
        update_fields={"karma"},
    )
    assert shown_version(client, character) == 2


def test_a_deleted_sheet_is_a_404_at_once(client, player, character):
    client.force_login(player)
    assert shown_version(client, character) == 1
    Character.objects.get(pk=character.pk).delete()
    assert read(client, character).status_code == 404


def test_a_role_given_or_taken_is_read_at_once(client, player, other_player, character):
    client.force_login(other_player)
    edit = reverse("characters:field", args=[character.pk, "lineage"])
    assert edit not in read(client, character).content.decode()
    membership = Membership.objects.get(campaign=character.campaign, user=other_player)
    campaign_services.storyteller_hand_over(campaign=character.campaign, to=membership)
    assert edit in read(client, character).content.decode()
    Membership.objects.get(pk=membership.pk).delete()
    assert read(client, character).status_code == 404


def test_a_campaign_or_user_renamed_is_read_at_once(client, player, character):
    client.force_login(player)
    assert "aelis" in read(client, character).content.decode()
    campaign_services.campaign_update(campaign=character.campaign, name="La Marche grise")
    assert "La Marche grise" in read(client, character).content.decode()
    player.username = "aelis-vey"
    player.save(update_fields=["username"])
    assert "aelis-vey" in read(client, character).content.decode()


def test_a_kept_probe_of_an_older_counter_is_not_served(client, player, character):
    """What a read kept under the counters it read before its query is refused once they move,
    even if it was kept after the move (a read that raced a write)."""
    client.force_login(player)
    assert shown_version(client, character) == 1
    entry = probe_cache.entry_key(character.pk, player.pk)
    counters, row = cache.get(entry)
    Character.objects.filter(pk=character.pk).update(version=2)
    probe_cache.sheet_moved(character.pk)
    cache.set(entry, (counters, row))  # the racing read's row, kept late
    assert shown_version(client, character) == 2


def test_no_code_writes_a_sheet_row_without_moving_its_counter():
    """A queryset `update()` of Character rows sends no signal: the app writes sheets by saving
    them, or by the one bulk update that moves the counters itself."""
    bulk = re.compile(r"Character\.objects\b[^\n]*\.(update|bulk_update)\(")
    found = []
    for app in ("altherion", "campaigns", "characters", "common", "progression", "sessions"):
        for path in (Path(settings.BASE_DIR) / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if bulk.search(line):
                    found.append(f"{path.relative_to(settings.BASE_DIR)}:{number}")
    assert found == ["characters/services.py:" + str(_bulk_update_line())]


def _bulk_update_line() -> int:
    lines = (Path(settings.BASE_DIR) / "characters/services.py").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if "Character.objects.bulk_update(" in line)


def test_an_api_read_from_the_caches_runs_no_query(player, character, django_assert_num_queries):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    api = APIClient(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=player).key}")
    url = f"/api/characters/{character.pk}/"
    assert api.get(url).json()["version"] == 1
    with django_assert_num_queries(0):  # token, user, probe and body: all from the cache
        assert api.get(url).json()["version"] == 1
    services.character_update_field(
        character=character.pk, field="karma", value=3, version=1, by=player
    )
    assert api.get(url).json()["version"] == 2


def test_without_a_cache_every_process_shares_the_probe_is_read_each_time(
    client, player, character, settings
):
    """Several workers, each with its own memory: a write served by one moves no counter the
    others read, so none keeps a probe (settings.CACHE_SHARED)."""
    settings.CACHE_SHARED = False
    client.force_login(player)
    assert shown_version(client, character) == 1
    Character.objects.filter(pk=character.pk).update(version=2)  # as another worker's write
    assert shown_version(client, character) == 2
