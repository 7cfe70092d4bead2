"""The world's pages as members and outsiders see them."""

import pytest
from django.urls import reverse

from tests.world.conftest import SECRET_BODY
from world.models import Page, PageAudience
from world.services import note_save, page_update

pytestmark = pytest.mark.django_db


def page_url(page, name="world:page"):
    return reverse(name, kwargs={"pk": page.campaign_id, "page_pk": page.pk})


def test_empty_world_invites_the_storyteller_to_write(campaign, storyteller_client, player_client):
    url = reverse("world:index", kwargs={"pk": campaign.pk})
    assert "Écrire la première page" in storyteller_client.get(url).content.decode()
    assert "aucune page du monde" in player_client.get(url).content.decode()


def test_index_lists_visible_pages_by_kind_only(town, hidden_page, player_client, campaign):
    html = player_client.get(reverse("world:index", kwargs={"pk": campaign.pk})).content.decode()
    assert "Vael" in html and "Lieu" in html
    assert "La Main Grise" not in html


def test_index_filters_by_tag(town, make_page, player_client, campaign):
    make_page(title="Le Bosquet", tags=["forêt"])
    url = reverse("world:index", kwargs={"pk": campaign.pk})
    html = player_client.get(url, {"tag": "port"}).content.decode()
    assert "Vael" in html and "Le Bosquet" not in html


def test_world_is_in_the_campaign_navigation(campaign, player_client):
    html = player_client.get(reverse("campaigns:dashboard", kwargs={"pk": campaign.pk})).content
    assert reverse("world:index", kwargs={"pk": campaign.pk}).encode() in html


@pytest.mark.parametrize("name", ["world:page", "world:history", "world:edit", "world:image"])
def test_a_hidden_page_is_a_404_for_players_and_outsiders(
    name, hidden_page, player_client, outsider_client
):
    assert player_client.get(page_url(hidden_page, name)).status_code == 404
    assert outsider_client.get(page_url(hidden_page, name)).status_code == 404


def test_outsider_gets_404_on_a_public_page_and_the_index(town, outsider_client, campaign):
    assert outsider_client.get(page_url(town)).status_code == 404
    assert (
        outsider_client.get(reverse("world:index", kwargs={"pk": campaign.pk})).status_code == 404
    )


def test_secret_words_never_reach_a_player_not_named(mayor, client_for, other_player):
    html = client_for(other_player).get(page_url(mayor)).content.decode()
    assert "sent le sel" in html
    assert "vampire" not in html and "crypte" not in html and "Secret" not in html


def test_a_named_player_reads_their_secret_only(mayor, player_client):
    html = player_client.get(page_url(mayor)).content.decode()
    assert "vampire" in html and "crypte" not in html


def test_the_storyteller_sees_secrets_marked(mayor, storyteller_client):
    html = storyteller_client.get(page_url(mayor)).content.decode()
    assert "vampire" in html and "crypte" in html
    assert html.count('class="secret"') == 2 and "Conteur seul" in html


def test_links_resolve_and_a_missing_page_is_offered_to_the_storyteller(
    make_page, town, storyteller_client, player_client, campaign
):
    page = make_page(title="Le port", body="Voir [[Vael|la ville]] et [[Le Phare]].")
    create = reverse("world:create", kwargs={"pk": campaign.pk}) + "?title=Le+Phare"
    storyteller_html = storyteller_client.get(page_url(page)).content.decode()
    assert f'href="{page_url(town)}"' in storyteller_html and ">la ville</a>" in storyteller_html
    assert f'href="{create.replace("&", "&amp;")}"' in storyteller_html
    player_html = player_client.get(page_url(page)).content.decode()
    assert "Le Phare" in player_html and "/monde/nouvelle/" not in player_html


def test_creation_offer_prefills_the_title(campaign, storyteller_client):
    url = reverse("world:create", kwargs={"pk": campaign.pk})
    assert 'value="Le Phare"' in storyteller_client.get(url, {"title": "Le Phare"}).content.decode()


def test_a_link_to_a_hidden_page_reads_as_plain_text_for_players(
    make_page, hidden_page, player_client
):
    page = make_page(title="Rumeurs", body="On parle de [[La Main Grise]].")
    html = player_client.get(page_url(page)).content.decode()
    assert "La Main Grise" in html and page_url(hidden_page) not in html


def test_backlinks_name_only_pages_the_player_may_see(town, hidden_page, mayor, player_client):
    html = player_client.get(page_url(town)).content.decode()
    assert "Cité dans" in html
    # The mayor cites Vael outside its secrets; the hidden faction's page is never named.
    assert "Le maire Orso" in html and "La Main Grise" not in html


def test_a_link_inside_a_secret_is_no_backlink_for_those_who_may_not_read_it(
    make_page, town, client_for, storyteller, other_player
):
    make_page(title="Carnet", body=":::secret\nLa clé de [[Vael]].\n:::\nRien d'autre.")
    assert "Carnet" not in client_for(other_player).get(page_url(town)).content.decode()
    assert "Carnet" in client_for(storyteller).get(page_url(town)).content.decode()


def test_the_journal_links_to_pages_and_shows_as_a_backlink(
    town, make_play_session, campaign, player_client
):
    session = make_play_session(campaign, title="Soirée 1", notes="Arrivée à [[Vael]].")
    url = reverse("sessions:detail", kwargs={"pk": campaign.pk, "session_pk": session.pk})
    assert f'href="{page_url(town)}"' in player_client.get(url).content.decode()
    html = player_client.get(page_url(town)).content.decode()
    assert "Soirée 1" in html and "journal de séance" in html


def test_storyteller_creates_a_page_from_the_form(campaign, storyteller_client, player):
    response = storyteller_client.post(
        reverse("world:create", kwargs={"pk": campaign.pk}),
        {
            "title": "Lettre",
            "kind": "item",
            "tags": "indice, Port",
            "body": "Une lettre scellée.",
            "audience": PageAudience.CHOSEN,
            "readers": [player.pk],
        },
    )
    page = Page.objects.get(title="Lettre")
    assert response.status_code == 302 and response["Location"] == page_url(page)
    assert page.tags == ["indice", "port"] and list(page.readers.all()) == [player]


def test_players_may_not_create_pages(campaign, player_client):
    url = reverse("world:create", kwargs={"pk": campaign.pk})
    assert player_client.get(url).status_code == 403
    assert player_client.post(url, {"title": "X", "kind": "place"}).status_code == 403
    assert not Page.objects.exists()


def test_a_stale_edit_is_refused_showing_the_current_text(town, storyteller, storyteller_client):
    page_update(page=town, by=storyteller, version=1, body="Texte de l'autre onglet.")
    response = storyteller_client.post(
        page_url(town, "world:edit"),
        {
            "title": "Vael",
            "kind": "place",
            "body": "Mon texte.",
            "audience": "everyone",
            "version": 1,
        },
    )
    html = response.content.decode()
    assert response.status_code == 200 and "modifiée entre-temps" in html
    assert "Texte de l&#x27;autre onglet." in html and "Mon texte." in html
    town.refresh_from_db()
    assert town.body == "Texte de l'autre onglet."
    # Saved again after reading the current text: the editor's version now wins, deliberately.
    assert 'name="version" value="2"' in html
    storyteller_client.post(
        page_url(town, "world:edit"),
        {
            "title": "Vael",
            "kind": "place",
            "body": "Mon texte.",
            "audience": "everyone",
            "version": 2,
        },
    )
    town.refresh_from_db()
    assert town.body == "Mon texte." and town.version == 3


def test_history_offers_restore_and_restore_brings_the_text_back(
    town, storyteller, storyteller_client
):
    page_update(page=town, by=storyteller, version=1, body="Texte raté.")
    html = storyteller_client.get(page_url(town, "world:history")).content.decode()
    assert "Restaurer la version 1" in html
    first = town.revisions.get(version=1)
    url = reverse(
        "world:restore",
        kwargs={"pk": town.campaign_id, "page_pk": town.pk, "revision_pk": first.pk},
    )
    response = storyteller_client.post(url, {"version": 2})
    assert response.status_code == 302
    town.refresh_from_db()
    assert town.body == "Un port de brume." and town.version == 3


def test_delete_asks_first_then_deletes(town, storyteller_client):
    url = page_url(town, "world:delete")
    assert "Supprimer la page « Vael » ?" in storyteller_client.get(url).content.decode()
    assert Page.objects.filter(pk=town.pk).exists()
    storyteller_client.post(url)
    assert not Page.objects.filter(pk=town.pk).exists()


def test_a_note_is_private_to_its_writer(town, player, player_client, client_for, other_player):
    response = player_client.post(page_url(town, "world:note"), {"text": "Le capitaine ment."})
    assert response.status_code == 302
    assert "Le capitaine ment." in player_client.get(page_url(town)).content.decode()
    assert "Le capitaine ment." not in client_for(other_player).get(page_url(town)).content.decode()


def test_a_note_saved_with_htmx_returns_the_note_fragment(town, player_client):
    response = player_client.post(
        page_url(town, "world:note"), {"text": "Acheter du sel."}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200 and "Note enregistrée." in html
    assert "Acheter du sel." in html and "<html" not in html


def test_no_note_on_a_hidden_page(hidden_page, player_client):
    assert player_client.post(page_url(hidden_page, "world:note"), {"text": "?"}).status_code == 404


def test_storyteller_sees_no_player_note(town, player, storyteller_client):
    note_save(page=town, user=player, text="Je soupçonne le Conteur.")
    assert "Je soupçonne" not in storyteller_client.get(page_url(town)).content.decode()


def test_a_page_carrying_secrets_in_its_body_keeps_them_after_edit(mayor, storyteller):
    page = page_update(page=mayor, by=storyteller, version=1, title="Orso, maire de Vael")
    assert page.body == SECRET_BODY and "vampire" not in page.public_text


def test_a_player_may_read_but_not_edit_nor_see_history(town, player_client):
    assert player_client.get(page_url(town)).status_code == 200
    for name in ("world:edit", "world:history", "world:delete"):
        assert player_client.get(page_url(town, name)).status_code == 403
    assert player_client.post(page_url(town, "world:edit"), {"title": "X"}).status_code == 403
    town.refresh_from_db()
    assert town.title == "Vael"


def test_a_restore_from_a_stale_history_is_refused(town, storyteller, storyteller_client):
    page_update(page=town, by=storyteller, version=1, body="Deuxième.")
    page_update(page=town, by=storyteller, version=2, body="Troisième.")
    first = town.revisions.get(version=1)
    url = reverse(
        "world:restore",
        kwargs={"pk": town.campaign_id, "page_pk": town.pk, "revision_pk": first.pk},
    )
    response = storyteller_client.post(url, {"version": 2}, follow=True)
    assert "modifiée entre-temps" in response.content.decode()
    town.refresh_from_db()
    assert town.body == "Troisième." and town.version == 3


def test_a_page_of_another_campaign_is_404_under_my_campaign(town, other_campaign, player_client):
    url = reverse("world:page", kwargs={"pk": other_campaign.pk, "page_pk": town.pk})
    assert player_client.get(url).status_code == 404
