"""Writing the world: versions, stale edits, restore, notes, and who sees what (visibility.py)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404

from world.models import PageAudience, PageNote
from world.services import StalePage, note_save, page_create, page_restore, page_update
from world.visibility import page_get_for_member, pages_for, secret_blocks, visible_body

pytestmark = pytest.mark.django_db


def test_every_save_is_a_version_kept_in_history(town, storyteller):
    page = page_update(page=town, by=storyteller, version=1, body="Un port noyé de brume.")
    assert page.version == 2
    assert [r.body for r in page.revisions.all()] == ["Un port noyé de brume.", "Un port de brume."]


def test_a_stale_edit_is_refused_with_the_current_text(town, storyteller):
    page_update(page=town, by=storyteller, version=1, body="Version de la première fenêtre.")
    with pytest.raises(StalePage) as refused:
        page_update(page=town, by=storyteller, version=1, body="Version de la seconde fenêtre.")
    assert refused.value.page.body == "Version de la première fenêtre."
    assert "modifiée entre-temps" in refused.value.messages[0]
    town.refresh_from_db()
    assert town.body == "Version de la première fenêtre." and town.version == 2


def test_restore_brings_an_old_text_back_as_a_new_version(town, storyteller):
    page_update(page=town, by=storyteller, version=1, body="Texte raté.")
    first = town.revisions.get(version=1)
    page = page_restore(page=town, by=storyteller, revision=first, version=2)
    assert page.body == "Un port de brume." and page.version == 3
    assert page.revisions.count() == 3


def test_titles_are_unique_in_a_campaign_whatever_the_case(town, make_page):
    with pytest.raises(ValidationError, match="existe déjà"):
        make_page(title="VAEL")


def test_only_the_storyteller_writes_pages(campaign, player):
    with pytest.raises(PermissionDenied):
        page_create(campaign=campaign, by=player, title="Mon repaire", kind="place")


def test_a_chosen_page_is_seen_by_its_readers_only(make_page, campaign, player, other_player):
    page = make_page(title="Lettre", audience=PageAudience.CHOSEN, readers=[player])
    assert page in pages_for(user=player, campaign=campaign)
    assert page not in pages_for(user=other_player, campaign=campaign)
    with pytest.raises(Http404):
        page_get_for_member(user=other_player, campaign_id=campaign.pk, pk=page.pk)


def test_hidden_page_is_a_404_for_players_and_outsiders(hidden_page, campaign, player, outsider):
    for user in (player, outsider):
        with pytest.raises(Http404):
            page_get_for_member(user=user, campaign_id=campaign.pk, pk=hidden_page.pk)


def test_secret_blocks_are_shown_to_the_storyteller_and_the_members_named(
    mayor, storyteller, player, other_player
):
    assert [block.usernames for block in secret_blocks(mayor)] == [("aelis",), ()]
    assert "vampire" in visible_body(page=mayor, user=storyteller)
    assert "crypte" in visible_body(page=mayor, user=storyteller)
    named = visible_body(page=mayor, user=player)
    assert "vampire" in named and "crypte" not in named
    other = visible_body(page=mayor, user=other_player)
    assert "vampire" not in other and "crypte" not in other and "sent le sel" in other


def test_notes_are_private_to_their_writer(town, player, other_player):
    note_save(page=town, user=player, text="Demander au capitaine.")
    note_save(page=town, user=other_player, text="Acheter du sel.")
    assert PageNote.objects.get(page=town, user=player).text == "Demander au capitaine."
    assert PageNote.objects.filter(page=town).count() == 2


def test_no_note_on_a_page_one_may_not_see(hidden_page, player):
    with pytest.raises(PermissionDenied):
        note_save(page=hidden_page, user=player, text="?")


def test_my_account_data_holds_my_notes_on_pages_i_still_see(
    town, hidden_page, storyteller, player, other_player
):
    from altherion.account_data import account_data_export
    from world.models import PageNote

    note_save(page=town, user=player, text="Le capitaine ment.")
    note_save(page=town, user=other_player, text="Acheter du sel.")
    PageNote.objects.create(page=hidden_page, user=player, text="Vu avant qu'elle soit cachée.")
    notes = account_data_export(user=player)["world_notes"]
    assert [(n["page"], n["text"]) for n in notes] == [("Vael", "Le capitaine ment.")]
