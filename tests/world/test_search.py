"""One search box over pages, compendium and journals: only what the member may see."""

import pytest
from django.urls import reverse

from world.models import PageAudience, PageKind
from world.search import search, snippet

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(make_page, mayor, hidden_page, town, compendium, make_play_session, campaign):
    make_page(title="La forêt de Brume", body="Une forêt où les loups parlent.")
    make_page(
        title="Lettre du maire",
        kind=PageKind.ITEM,
        audience=PageAudience.CHOSEN,
        body="Une lettre sur la brume.",
    )
    make_play_session(campaign, title="Soirée 1", notes="Le groupe traverse la brume.")


def titles(hits):
    return [hit.title for hit in hits]


def test_search_finds_pages_compendium_and_journals(world, campaign, player):
    hits = search(user=player, campaign=campaign, q="Sylvain")
    assert [(hit.kind, hit.title) for hit in hits] == [("compendium", "Sylvain")]
    found = titles(search(user=player, campaign=campaign, q="brume"))
    assert "La forêt de Brume" in found and "Vael" in found and "Soirée 1" in found


def test_a_player_never_finds_a_hidden_page_nor_a_chosen_one_not_theirs(world, campaign, player):
    assert titles(search(user=player, campaign=campaign, q="assassins")) == []
    assert "Lettre du maire" not in titles(search(user=player, campaign=campaign, q="lettre"))


def test_the_storyteller_finds_everything(world, campaign, storyteller):
    assert titles(search(user=storyteller, campaign=campaign, q="assassins")) == ["La Main Grise"]
    assert titles(search(user=storyteller, campaign=campaign, q="vampire")) == ["Le maire Orso"]


def test_a_secret_block_is_never_a_way_in_nor_shown(world, campaign, player, other_player):
    # Aelis is named in the vampire's block, but search looks only outside secret blocks.
    for user in (player, other_player):
        assert search(user=user, campaign=campaign, q="vampire") == []
        assert search(user=user, campaign=campaign, q="crypte") == []
    for hit in search(user=other_player, campaign=campaign, q="sel"):
        assert "vampire" not in hit.snippet and "crypte" not in hit.snippet


def test_an_outsider_finds_nothing_and_gets_404_from_the_page(
    world, campaign, outsider, client_for
):
    assert search(user=outsider, campaign=campaign, q="brume") == []
    url = reverse("world:search", kwargs={"pk": campaign.pk})
    assert client_for(outsider).get(url, {"q": "brume"}).status_code == 404


def test_the_search_page_lists_hits_and_htmx_gets_the_results_only(world, campaign, player_client):
    url = reverse("world:search", kwargs={"pk": campaign.pk})
    html = player_client.get(url, {"q": "loups"}).content.decode()
    assert "La forêt de Brume" in html and "1 résultat pour « loups »" in html
    fragment = player_client.get(url, {"q": "loups"}, HTTP_HX_REQUEST="true").content.decode()
    assert "La forêt de Brume" in fragment and "<html" not in fragment
    assert "Rien trouvé pour « dragon »" in player_client.get(url, {"q": "dragon"}).content.decode()
    restored = player_client.get(
        url, {"q": "loups"}, HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"
    )
    assert "<html" in restored.content.decode()


def test_no_hidden_title_in_the_search_page(world, campaign, player_client):
    url = reverse("world:search", kwargs={"pk": campaign.pk})
    html = player_client.get(url, {"q": "Vael"}).content.decode()
    assert "La Main Grise" not in html and "vampire" not in html


def test_a_snippet_shows_the_words_around_the_first_match():
    text = "Début. " + "x " * 200 + "Les forêts du nord sont sombres. " + "y " * 200
    excerpt = snippet(text, "forêt")
    assert "forêts du nord" in excerpt and excerpt.startswith("… ")


@pytest.mark.services
def test_postgresql_search_ignores_accents_and_plurals(postgres, make_page, campaign, player):
    make_page(title="Le bois", body="Une foret sans accent.")
    make_page(title="La sylve", body="La forêt profonde.")
    make_page(title="Le marais", body="Des chevaux et des marécages.")
    assert sorted(titles(search(user=player, campaign=campaign, q="forêts"))) == [
        "La sylve",
        "Le bois",
    ]
    assert titles(search(user=player, campaign=campaign, q="cheval marecage")) == ["Le marais"]
