"""Handouts: the Conteur gives a page, an image or one secret to chosen players; it reaches their
table page at once (the live channel) and stays in their « Documents remis »; nobody else ever
receives it, not even as a live event."""

import io

import pytest
from asgiref.sync import sync_to_async
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from world.handouts import choices_for, handout_give, handouts_for
from world.models import HandoutKind
from world.services import page_update
from world.visibility import secret_blocks

pytestmark = pytest.mark.django_db


def png(color="red") -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", (4, 4), color).save(out, "PNG")
    return SimpleUploadedFile("carte.png", out.getvalue(), content_type="image/png")


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def test_a_secret_handout_reaches_only_its_recipient(
    mayor, storyteller, player, other_player, campaign
):
    first = secret_blocks(mayor)[1]  # the block that names no one: the Conteur's alone

    handout = handout_give(
        page=mayor,
        by=storyteller,
        kind=HandoutKind.SECRET,
        recipients=[player],
        secret_key=first.key,
    )

    assert handout.text == "Sa crypte est sous la chapelle."
    assert list(handouts_for(user=player, campaign=campaign)) == [handout]
    assert list(handouts_for(user=other_player, campaign=campaign)) == []
    assert list(handouts_for(user=storyteller, campaign=campaign)) == [handout]


def test_a_page_handout_is_a_copy_without_any_secret_and_outlives_later_edits(
    mayor, storyteller, player
):
    handout = handout_give(page=mayor, by=storyteller, kind=HandoutKind.PAGE, recipients=[player])
    page_update(page=mayor, by=storyteller, version=1, body="Tout autre chose.")

    handout.refresh_from_db()
    assert "sent le sel" in handout.text
    assert "vampire" not in handout.text and "crypte" not in handout.text
    assert handout.title == "Le maire Orso"


def test_only_the_storyteller_gives_and_only_to_players_of_the_campaign(
    town, storyteller, player, outsider
):
    with pytest.raises(PermissionDenied):
        handout_give(page=town, by=player, kind=HandoutKind.PAGE, recipients=[player])
    with pytest.raises(ValidationError, match="joueurs de la campagne"):
        handout_give(page=town, by=storyteller, kind=HandoutKind.PAGE, recipients=[outsider])
    with pytest.raises(ValidationError, match="au moins un joueur"):
        handout_give(page=town, by=storyteller, kind=HandoutKind.PAGE, recipients=[])
    with pytest.raises(ValidationError, match="pas d'image"):
        handout_give(page=town, by=storyteller, kind=HandoutKind.IMAGE, recipients=[player])
    with pytest.raises(ValidationError, match="plus dans la page"):
        handout_give(
            page=town,
            by=storyteller,
            kind=HandoutKind.SECRET,
            recipients=[player],
            secret_key="000000000000",
        )
    assert not town.handouts.exists()


def test_the_choices_name_the_page_its_image_and_each_secret(make_page, mayor):
    with_map = make_page(title="Carte de Vael", image=png())
    labels = [c.label for c in choices_for(pages=[mayor, with_map])]
    assert labels == [
        "Page « Le maire Orso »",
        "Secret n° 1 de « Le maire Orso » : Le maire est un vampire.",
        "Secret n° 2 de « Le maire Orso » : Sa crypte est sous la chapelle.",
        "Page « Carte de Vael »",
        "Image de « Carte de Vael »",
    ]


# --- the pages ---------------------------------------------------------------------------------


def test_the_storyteller_gives_from_the_table_and_the_player_sees_it_there(
    client_for, campaign, storyteller, player, other_player, mayor
):
    key = secret_blocks(mayor)[0].key
    conteur = client_for(storyteller)
    table = f"/campaigns/{campaign.pk}/table/"
    give = f"/campaigns/{campaign.pk}/monde/documents/give/"

    answer = conteur.post(
        give, {"what": f"secret:{mayor.pk}:{key}", "recipients": [player.pk], "next": table}
    )

    assert answer.status_code == 302 and answer["Location"] == table
    panel = client_for(player).get(
        f"/campaigns/{campaign.pk}/monde/documents/", headers={"HX-Request": "true"}
    )
    assert "Le maire est un vampire." in panel.content.decode()
    other = client_for(other_player).get(
        f"/campaigns/{campaign.pk}/monde/documents/", headers={"HX-Request": "true"}
    )
    assert "vampire" not in other.content.decode()
    assert "aucun document" in other.content.decode()
    assert (
        f'hx-get="/campaigns/{campaign.pk}/monde/documents/'
        in client_for(player).get(table).content.decode()
    )


def test_an_htmx_give_answers_the_panel_and_errors_come_back_in_it(
    client_for, campaign, storyteller, player, town
):
    conteur = client_for(storyteller)
    give = f"/campaigns/{campaign.pk}/monde/documents/give/"
    htmx = {"HX-Request": "true"}

    refused = conteur.post(give, {"what": f"page:{town.pk}"}, headers=htmx)
    assert refused.status_code == 200
    assert "Choisissez au moins un joueur." in refused.content.decode()

    done = conteur.post(give, {"what": f"page:{town.pk}", "recipients": [player.pk]}, headers=htmx)
    assert "« Vael » est remis à aelis." in done.content.decode()
    assert town.handouts.count() == 1


def test_a_player_cannot_give_and_an_outsider_sees_nothing(
    client_for, campaign, player, outsider, town
):
    give = f"/campaigns/{campaign.pk}/monde/documents/give/"
    assert client_for(player).post(give, {"what": f"page:{town.pk}"}).status_code in (200, 403)
    assert not town.handouts.exists()
    assert client_for(outsider).get(f"/campaigns/{campaign.pk}/monde/documents/").status_code == 404


def test_an_image_handout_is_served_to_its_recipients_only(
    client_for, make_page, campaign, storyteller, player, other_player, outsider
):
    page = make_page(title="Carte de Vael", image=png())
    handout = handout_give(page=page, by=storyteller, kind=HandoutKind.IMAGE, recipients=[player])
    url = f"/campaigns/{campaign.pk}/monde/documents/{handout.pk}/image/"

    shown = client_for(player).get(url)
    assert shown.status_code == 200 and shown["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(b"".join(shown.streaming_content))).size == (4, 4)
    assert client_for(storyteller).get(url).status_code == 200
    assert client_for(other_player).get(url).status_code == 404
    assert client_for(outsider).get(url).status_code == 404
    assert handout.image.name != page.image.name  # a copy: replacing the page's keeps it


# --- the live event ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_live_event_reaches_only_the_recipients_open_table(
    settings, campaign, storyteller, player, other_player, town
):
    from tests.sessions.test_stream import in_own_thread, live, open_stream

    settings.PUSH_REDIS_URL = ""
    settings.LIVE_HEARTBEAT_SECONDS = 0.2

    @in_own_thread
    async def run():
        aelis = await open_stream(player, live(campaign))
        brann = await open_stream(other_player, live(campaign))
        await sync_to_async(handout_give)(
            page=town, by=storyteller, kind=HandoutKind.PAGE, recipients=[player]
        )
        seen = await aelis.until("event: handouts")
        unseen = await brann.quiet_for(0.5)
        await aelis.close()
        await brann.close()
        return seen, unseen

    seen, unseen = run()
    assert "event: handouts" in seen
    assert "handouts" not in unseen and "Vael" not in unseen


def test_the_page_view_offers_the_storyteller_to_give_this_page_only(
    client_for, campaign, storyteller, player, mayor, town
):
    page_url = f"/campaigns/{campaign.pk}/monde/{mayor.pk}/"
    shown = client_for(storyteller).get(page_url).content.decode()
    assert "Remettre aux joueurs" in shown
    assert "Secret n° 2 de « Le maire Orso »" in shown and "Page « Vael »" not in shown
    assert "Remettre aux joueurs" not in client_for(player).get(page_url).content.decode()

    key = secret_blocks(mayor)[0].key
    give = f"/campaigns/{campaign.pk}/monde/documents/give/"
    form = {"what": f"secret:{mayor.pk}:{key}", "recipients": [player.pk], "page": mayor.pk}
    answer = client_for(storyteller).post(give, {**form, "next": page_url})
    assert answer.status_code == 302 and answer["Location"] == page_url
    again = client_for(storyteller).post(give, form, headers={"HX-Request": "true"})
    assert 'id="page-handout"' in again.content.decode()
    assert "« Le maire Orso » est remis à aelis." in again.content.decode()
    assert mayor.handouts.count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_api_stream_names_the_handout_and_another_campaigns_page_hears_nothing(
    settings, campaign, storyteller, player, town
):
    from campaigns.services import campaign_create
    from tests.sessions.test_stream import in_own_thread, open_stream

    settings.PUSH_REDIS_URL = ""
    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    elsewhere = campaign_create(creator=player, name="Ailleurs")

    @in_own_thread
    async def run():
        api = await open_stream(player, f"/api/campaigns/{campaign.pk}/stream/")
        other_table = await open_stream(player, f"/campaigns/{elsewhere.pk}/live/?after=0")
        handout = await sync_to_async(handout_give)(
            page=town, by=storyteller, kind=HandoutKind.PAGE, recipients=[player]
        )
        seen = await api.until("event: handouts")
        unseen = await other_table.quiet_for(0.5)
        await api.close()
        await other_table.close()
        return handout.pk, seen, unseen

    handout, seen, unseen = run()
    assert f'data: {{"handout": {handout}}}' in seen
    assert "handouts" not in unseen


def test_documents_remis_is_a_whole_page_without_htmx_and_the_give_takes_post_only(
    client_for, campaign, storyteller, player, town
):
    handout_give(page=town, by=storyteller, kind=HandoutKind.PAGE, recipients=[player])
    url = f"/campaigns/{campaign.pk}/monde/documents/"

    page = client_for(player).get(url)
    assert page.status_code == 200
    assert "<h1>Documents remis</h1>" in page.content.decode()
    assert "Un port de brume." in page.content.decode()
    assert page["Vary"] and "HX-Request" in page["Vary"]
    assert client_for(storyteller).get(url + "give/").status_code == 405


def test_a_players_panel_follows_the_live_signal_and_the_storytellers_form_is_left_alone(
    client_for, campaign, storyteller, player
):
    url = f"/campaigns/{campaign.pk}/monde/documents/"
    htmx = {"HX-Request": "true"}
    assert "handouts-changed from:body" in client_for(player).get(url, headers=htmx).text
    assert "hx-trigger" not in client_for(storyteller).get(url, headers=htmx).text.split("<form")[0]


def test_a_players_account_data_holds_the_handouts_given_to_them_only(
    client_for, campaign, storyteller, player, other_player, mayor
):
    key = secret_blocks(mayor)[0].key
    handout_give(
        page=mayor, by=storyteller, kind=HandoutKind.SECRET, recipients=[player], secret_key=key
    )

    mine = client_for(player).get("/accounts/profile/data.json").json()["world_handouts"]
    theirs = client_for(other_player).get("/accounts/profile/data.json").json()["world_handouts"]

    assert [(h["title"], h["text"]) for h in mine] == [
        ("Le maire Orso", "Le maire est un vampire.")
    ]
    assert theirs == []
