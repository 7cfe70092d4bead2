"""The API's sheet detail is kept in the cache under the versions it shows and never stale: after
every kind of write the next GET shows it; `If-None-Match` → 304 while nothing shown has changed;
a repeated read reads no row of the sheet; the ETag still works in If-Match."""

import pytest
from rest_framework.test import APIClient

from campaigns import services as campaign_services
from campaigns.models import Arc, Membership, Role
from characters import services
from common.api_schema import tag_version
from progression import awards, experience
from tests.progression.helpers import GROUP

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


@pytest.fixture
def api():
    return APIClient()


def detail(api, character, **headers):
    return api.get(f"/api/characters/{character.pk}/", **headers)


def test_a_repeated_read_is_served_from_the_cache(
    api, player, character, django_assert_max_num_queries
):
    api.force_authenticate(player)
    first = detail(api, character)
    with django_assert_max_num_queries(2):  # the character, the viewer's membership
        again = detail(api, character)
    assert again.json() == first.json() and again.json()["name"] == "Aelis"
    assert again["ETag"] == first["ETag"]


def test_if_none_match_is_304_until_the_sheet_changes(api, player, character):
    api.force_authenticate(player)
    etag = detail(api, character)["ETag"]
    unchanged = detail(api, character, HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged["ETag"] == etag and not unchanged.content
    assert detail(api, character, HTTP_IF_NONE_MATCH=f"W/{etag}").status_code == 304
    services.character_update_field(
        character=character.pk, field="lineage", value="Maison Vey", version=1, by=player
    )
    changed = detail(api, character, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.json()["lineage"] == "Maison Vey"
    assert tag_version(changed["ETag"]) == 2


def test_the_etag_read_is_the_if_match_of_a_write(api, player, character):
    api.force_authenticate(player)
    etag = detail(api, character)["ETag"]
    saved = api.patch(
        f"/api/characters/{character.pk}/", {"karma": 2}, format="json", HTTP_IF_MATCH=etag
    )
    assert saved.status_code == 200 and saved.json()["karma"] == 2
    stale = api.patch(
        f"/api/characters/{character.pk}/", {"karma": 3}, format="json", HTTP_IF_MATCH=etag
    )
    assert stale.status_code == 412 and stale.json()["current_value"] == 2


def test_field_skill_and_xp_writes_show_on_the_next_read(
    api, player, storyteller, character, django_capture_on_commit_callbacks
):
    api.force_authenticate(player)
    assert detail(api, character).json()["version"] == 1
    services.character_skill_set(character=character.pk, key="melee", level=4, version=1, by=player)
    skills = {row["key"]: row["level"] for row in detail(api, character).json()["skills"]}
    assert skills["melee"] == 4

    arc = Arc.objects.create(campaign=character.campaign, title="Arc", length_unit="weeks")
    ticks = {"bounty": ["took_part"], "used": ["strength", "vigor"], "opposition_level": 5}
    checklist = {"group": GROUP, "characters": {str(character.pk): ticks}}
    with django_capture_on_commit_callbacks(execute=True):
        awards.arc_award_confirm(arc=arc, checklist=checklist, by=storyteller)
    assert detail(api, character).json()["strength"] == 2
    experience.xp_spend(
        character=character.pk,
        kind="characteristic",
        target="strength",
        mode="on_receipt",
        key="k",
        by=player,
    )
    spent = detail(api, character).json()
    assert (spent["strength"], spent["version"]) == (3, 3)


def test_a_compendium_rename_is_a_new_representation(api, player, character, species):
    character.species = species
    character.save()
    api.force_authenticate(player)
    first = detail(api, character)
    assert first.json()["species"]["name"] == "Elfe"
    species.name = "Haut-Elfe"
    campaign_services.entry_save(entry=species)
    renamed = detail(api, character, HTTP_IF_NONE_MATCH=first["ETag"])
    assert renamed.status_code == 200 and renamed.json()["species"]["name"] == "Haut-Elfe"
    assert tag_version(renamed["ETag"]) == tag_version(first["ETag"])  # same sheet version


def test_private_notes_follow_the_viewers_rights(api, player, other_player, character):
    character.private_notes = "Un secret"
    character.save()
    api.force_authenticate(player)
    assert detail(api, character).json()["private_notes"] == "Un secret"
    api.force_authenticate(other_player)
    reader = detail(api, character)
    assert "private_notes" not in reader.json()
    membership = Membership.objects.get(campaign=character.campaign, user=other_player)
    campaign_services.storyteller_hand_over(campaign=character.campaign, to=membership)
    assert detail(api, character).json()["private_notes"] == "Un secret"  # now the Conteur


def test_a_removed_member_gets_404_not_the_cached_sheet(api, player, character):
    api.force_authenticate(player)
    assert detail(api, character).status_code == 200
    campaign_services.membership_remove(
        membership=Membership.objects.get(campaign=character.campaign, user=player)
    )
    assert detail(api, character).status_code == 404
    assert Membership.objects.filter(user=player, role=Role.PLAYER).count() == 0


def test_a_write_shows_on_every_members_next_read(api, player, other_player, character):
    character.private_notes = "Un secret"
    character.save()
    api.force_authenticate(player)
    reader = APIClient()
    reader.force_authenticate(other_player)
    etag = detail(api, character)["ETag"]
    detail(reader, character)
    saved = api.patch(
        f"/api/characters/{character.pk}/", {"karma": 4}, format="json", HTTP_IF_MATCH=etag
    )
    assert saved.status_code == 200
    for client, private in ((api, True), (reader, False)):
        shown = detail(client, character)
        assert shown.json()["karma"] == 4 and shown.json()["version"] == saved.json()["version"]
        assert ("private_notes" in shown.json()) is private
    assert detail(api, character).json() == saved.json()


def test_a_field_edit_through_the_api_costs_a_fixed_number_of_statements(
    api, player, character, django_assert_max_num_queries
):
    api.force_authenticate(player)
    # The access check (character, membership), BEGIN, the locked row, UPDATE, the history row,
    # the skills, the languages, the entries and COMMIT: no savepoint, no second read of the row
    # (tests/characters/test_lean_patch.py counts them exactly).
    with django_assert_max_num_queries(10):
        saved = api.patch(
            f"/api/characters/{character.pk}/", {"karma": 2, "version": 1}, format="json"
        )
    assert saved.status_code == 200 and saved.json()["version"] == 2
