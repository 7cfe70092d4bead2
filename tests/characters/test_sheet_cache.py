"""The sheet page's body is kept in the fragment cache under what it shows and never stale: after
every kind of write, the next read shows it; a repeated read reads no row of the sheet;
`If-None-Match` → 304."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from campaigns import services as campaign_services
from campaigns.models import Arc, Membership, Role
from characters import services
from progression import advances, awards, ellipses, experience, trainings
from progression.models import Advance
from tests.progression.helpers import GROUP

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


def sheet(client, character, **headers):
    return client.get(reverse("characters:sheet", args=[character.pk]), **headers)


def body(client, character) -> str:
    response = sheet(client, character)
    assert response.status_code == 200
    return response.content.decode()


def test_a_repeated_read_takes_its_body_from_the_cache(
    client, player, character, django_assert_max_num_queries, settings
):
    client.force_login(player)
    first = body(client, character)  # sets the CSRF cookie: an editor's body is kept per cookie
    first = body(client, character)
    with django_assert_max_num_queries(3):  # the signed-in user, the character, the membership
        again = body(client, character)
    assert unmasked(again) == unmasked(first) and "Aelis" in again


def unmasked(page: str) -> str:
    """The page without its CSRF tokens (masked afresh for every response)."""
    return re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]+"', r"\1-", page)


def test_a_saved_message_shows_once_then_the_kept_page_again(client, player, character):
    client.force_login(player)
    kept = body(client, character)  # the page is kept, cut where its token goes
    field = reverse("characters:field", args=[character.pk, "lineage"])
    saved = client.post(field, {"value": "Maison Vey", "version": 1}, follow=True)
    page = saved.content.decode()
    assert "Lignée enregistré" in page and "Maison Vey" in page and "__sheet_csrf" not in page
    again = body(client, character)
    assert "enregistré" not in again and "Maison Vey" in again
    assert unmasked(body(client, character)) == unmasked(again) != unmasked(kept)


def test_field_and_skill_edits_show_on_the_next_read(client, player, character):
    client.force_login(player)
    assert 'data-version="1"' in body(client, character)
    services.character_update_field(
        character=character.pk, field="lineage", value="Maison Vey", version=1, by=player
    )
    page = body(client, character)
    assert "Maison Vey" in page and 'data-version="2"' in page
    services.character_skill_set(character=character.pk, key="melee", level=4, version=2, by=player)
    row = character.skills.get(key="melee").pk
    assert re.search(rf'id="skill-level-{row}"[^>]*value="4"', body(client, character))


def test_an_xp_spend_and_a_training_completion_show_on_the_next_read(
    client, player, character, storyteller, django_capture_on_commit_callbacks
):
    client.force_login(player)
    arc = Arc.objects.create(campaign=character.campaign, title="Arc", length_unit="weeks")
    ticks = {"bounty": ["took_part"], "used": ["strength", "vigor"], "opposition_level": 5}
    checklist = {"group": GROUP, "characters": {str(character.pk): ticks}}
    with django_capture_on_commit_callbacks(execute=True):
        awards.arc_award_confirm(arc=arc, checklist=checklist, by=storyteller)
    body(client, character)
    experience.xp_spend(
        character=character.pk,
        kind="characteristic",
        target="strength",
        mode="on_receipt",
        key="k",
        by=player,
    )
    character.refresh_from_db()
    assert character.strength == 3
    assert 'data-version="2"' in body(client, character)

    ellipse = ellipses.ellipse_open(campaign=character.campaign, length_days=30)
    trainings.training_queue(
        character=character, ellipse=ellipse, kind="characteristic", target="vigor", by=player
    )
    advance = Advance.objects.create(ellipse=ellipse, key="close", closes=True)
    advances.advance_run(advance_id=advance.pk)
    character.refresh_from_db()
    assert character.vigor == 3
    assert f'data-version="{character.version}"' in body(client, character)


def test_a_compendium_rename_shows_on_every_sheet_of_the_campaign(
    client, player, character, species
):
    character.species = species
    character.save()
    client.force_login(player)
    assert "Elfe" in body(client, character)
    species.name = "Haut-Elfe"
    campaign_services.entry_save(entry=species)
    assert "Haut-Elfe" in body(client, character)


def test_rights_follow_the_membership(client, player, other_player, storyteller, character):
    client.force_login(other_player)
    edit = reverse("characters:field", args=[character.pk, "lineage"])
    assert edit not in body(client, character)  # a reader's page
    membership = Membership.objects.get(campaign=character.campaign, user=other_player)
    storyteller_membership = Membership.objects.get(
        campaign=character.campaign, role=Role.STORYTELLER
    )
    campaign_services.storyteller_hand_over(campaign=character.campaign, to=membership)
    assert edit in body(client, character)  # now the Conteur: an editor's page
    assert storyteller_membership.user == storyteller
    campaign_services.membership_remove(
        membership=Membership.objects.get(campaign=character.campaign, user=player)
    )
    client.force_login(player)
    assert sheet(client, character).status_code == 404


def test_each_session_gets_its_own_csrf_token_in_the_cached_page(player, character):
    pages = []
    for _ in range(2):
        client = Client(enforce_csrf_checks=True)
        client.force_login(player)
        body(client, character)  # the CSRF cookie is set: the next page is kept for it
        page = body(client, character)
        assert unmasked(page) == unmasked(body(client, character))
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        assert "__sheet_csrf_token__" not in page
        url = reverse("characters:field", args=[character.pk, "notes"])
        version = re.search(r'data-version="(\d+)"', page).group(1)
        saved = client.post(
            url, {"value": f"note {len(pages)}", "version": version, "csrfmiddlewaretoken": token}
        )
        assert saved.status_code in (200, 302)
        pages.append(page)
    character.refresh_from_db()
    assert character.notes == "note 1"


def test_if_none_match_gets_304_until_the_sheet_changes(client, player, character):
    client.force_login(player)
    body(client, character)  # an editor's page is validated with its CSRF cookie
    etag = sheet(client, character)["ETag"]
    assert sheet(client, character, HTTP_IF_NONE_MATCH=etag).status_code == 304
    services.character_update_field(
        character=character.pk, field="lineage", value="Vey", version=1, by=player
    )
    changed = sheet(client, character, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_the_page_around_the_sheet_follows_its_viewer_and_names(
    client, player, storyteller, character
):
    """The navigation is cached with the sheet, per viewer: each sees their own name, a renamed
    campaign or character shows at once, and a message is shown once, then gone."""
    client.force_login(player)
    assert "Profil : </span>aelis" in body(client, character)
    conteur = Client()
    conteur.force_login(storyteller)
    assert "Profil : </span>conteur" in body(conteur, character)
    campaign_services.campaign_update(campaign=character.campaign, name="La Marche grise")
    assert ">La Marche grise</a>" in body(client, character)
    character.name = "Aelis Vey"  # a save, as the admin's: every path writes the row so
    character.save(update_fields=["name"])
    assert "<title>Aelis Vey · Altherion</title>" in body(client, character)
    player.username = "aelis-vey"
    player.save()
    client.force_login(player)
    assert "Profil : </span>aelis-vey" in body(client, character)
    url = reverse("characters:field", args=[character.pk, "lineage"])
    saved = client.post(url, {"value": "Maison Vey", "version": 1}, follow=True)
    assert "enregistré" in saved.content.decode() and "Maison Vey" in saved.content.decode()
    assert "enregistré" not in body(client, character)  # shown once; the page cached again


def test_an_id_past_the_largest_key_is_a_plain_404(client, player, character):
    """An id no 64-bit key holds never reaches the database."""
    client.force_login(player)
    for pk in (2**63, 10**30):
        assert client.get(f"/characters/{pk}/").status_code == 404
        assert client.get(f"/api/characters/{pk}/").status_code == 404


def test_a_name_that_looks_like_the_page_s_markup_is_only_a_name(client, player, character):
    """The body goes where the page around it left its place: a name typed as that place's
    markup is shown as typed, and the sheet is drawn once, in its place."""
    character.__class__.objects.filter(pk=character.pk).update(name="<!-- sheet body -->")
    client.force_login(player)
    page = body(client, character)
    assert "<title>&lt;!-- sheet body --&gt; · Altherion</title>" in page
    assert page.count('data-version="1"') == 1 and page.index("<title>") < page.index(
        "data-version"
    )


def test_the_field_in_edit_mode_is_a_page_of_its_own(client, player, character):
    client.force_login(player)
    url = reverse("characters:sheet", args=[character.pk])
    body(client, character)  # the CSRF cookie: an editor's pages are kept from now on
    plain = body(client, character)
    editing = client.get(f"{url}?edit=lineage").content.decode()
    assert 'id="id_value_lineage"' in editing and 'id="id_value_lineage"' not in plain
    assert 'id="id_value_lineage"' not in body(client, character)


def test_a_readers_page_carries_no_form_and_is_kept_for_every_reader(
    client, other_player, character, django_assert_max_num_queries
):
    client.force_login(other_player)
    first = body(client, character)  # no CSRF cookie needed: a reader's body has no form
    assert "csrfmiddlewaretoken" not in first.split('class="sheet"')[1]
    with django_assert_max_num_queries(3):  # the signed-in user, the character, the membership
        assert unmasked(body(client, character)) == unmasked(first)


def test_a_renamed_campaign_is_a_new_etag(client, player, character):
    client.force_login(player)
    body(client, character)
    etag = sheet(client, character)["ETag"]
    campaign_services.campaign_update(campaign=character.campaign, name="La Marche grise")
    renamed = sheet(client, character, HTTP_IF_NONE_MATCH=etag)
    assert renamed.status_code == 200 and ">La Marche grise</a>" in renamed.content.decode()
