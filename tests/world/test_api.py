"""The world through the API: what a member may see (404 for the rest, as for a page that does
not exist), the body without the secrets they may not read, links and backlinks, search, history
and the stale refusal, the member's note, and handouts."""

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from sessions.models import PlaySession
from world.models import PageAudience, PageKind
from world.visibility import secret_blocks

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(storyteller, player, other_player, outsider):
    def signed_in(user):
        client = APIClient()
        client.force_login(user)
        return client

    return {
        "anonymous": APIClient(),
        "outsider": signed_in(outsider),
        "other": signed_in(other_player),
        "player": signed_in(player),
        "storyteller": signed_in(storyteller),
    }


def world(campaign, rest=""):
    return f"/api/campaigns/{campaign.pk}/world/{rest}"


def titles(answer) -> list[str]:
    return [row["title"] for row in answer.json()["results"]]


def test_the_list_shows_only_what_each_member_may_see(api, campaign, town, mayor, hidden_page):
    assert titles(api["storyteller"].get(world(campaign, "pages/"))) == [
        "La Main Grise",
        "Le maire Orso",
        "Vael",
    ]
    assert titles(api["player"].get(world(campaign, "pages/"))) == ["Le maire Orso", "Vael"]
    assert api["outsider"].get(world(campaign, "pages/")).status_code == 404
    assert api["anonymous"].get(world(campaign, "pages/")).status_code == 401


def test_the_list_filters_by_kind_and_tag(api, campaign, town, mayor):
    assert titles(api["player"].get(world(campaign, "pages/?kind=npc"))) == ["Le maire Orso"]
    assert titles(api["player"].get(world(campaign, "pages/?tag=port"))) == ["Vael"]
    assert titles(api["player"].get(world(campaign, "pages/?kind="))) == ["Le maire Orso", "Vael"]


def test_an_unknown_kind_is_refused_in_french(api, campaign, town):
    refused = api["player"].get(world(campaign, "pages/?kind=dragon"))
    assert refused.status_code == 400
    assert refused.json()["detail"] and "kind" in refused.json()["errors"]


def test_a_hidden_page_is_404_like_one_that_does_not_exist(api, campaign, hidden_page):
    hidden = api["player"].get(world(campaign, f"pages/{hidden_page.pk}/"))
    missing = api["player"].get(world(campaign, "pages/999999/"))
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json() == missing.json()
    assert "Main Grise" not in hidden.content.decode()
    for rest in ("links/", "note/", "history/"):
        assert (
            api["player"].get(world(campaign, f"pages/{hidden_page.pk}/{rest}")).status_code == 404
        )


def test_the_body_keeps_only_the_secrets_the_reader_may_read(
    api, campaign, mayor, storyteller, player, other_player
):
    conteur = api["storyteller"].get(world(campaign, f"pages/{mayor.pk}/")).json()
    aelis = api["player"].get(world(campaign, f"pages/{mayor.pk}/")).json()
    brann = api["other"].get(world(campaign, f"pages/{mayor.pk}/")).json()

    assert "vampire" in conteur["body"] and "crypte" in conteur["body"]
    assert len(conteur["secrets"]) == 2
    assert "vampire" in aelis["body"] and "crypte" not in aelis["body"]  # named in the first
    assert "vampire" not in brann["body"] and "crypte" not in brann["body"]
    assert brann["secrets"] == [] and brann["readers"] == []


def test_links_resolve_to_visible_pages_and_backlinks_never_name_a_hidden_one(
    api, campaign, town, mayor, hidden_page, storyteller
):
    PlaySession.objects.create(
        campaign=campaign,
        title="Arrivée",
        notes="On arrive à [[Vael]].",
        scheduled_at=timezone.now(),
    )

    links = api["player"].get(world(campaign, f"pages/{mayor.pk}/links/")).json()
    assert links["outgoing"] == [{"title": "Vael", "page": town.pk}]

    backlinks = api["player"].get(world(campaign, f"pages/{town.pk}/")).json()["backlinks"]
    assert [(b["kind"], b["title"]) for b in backlinks] == [
        ("page", "Le maire Orso"),
        ("journal", "Arrivée"),
    ]
    conteur = api["storyteller"].get(world(campaign, f"pages/{town.pk}/links/")).json()
    assert {b["title"] for b in conteur["backlinks"]} == {
        "La Main Grise",
        "Le maire Orso",
        "Arrivée",
    }


def test_a_link_to_a_hidden_page_reads_as_a_missing_one(api, campaign, make_page, hidden_page):
    page = make_page(title="Rumeurs", body="On parle de [[La Main Grise]] et de [[Nulle part]].")
    links = api["player"].get(world(campaign, f"pages/{page.pk}/links/")).json()
    assert links["outgoing"] == [
        {"title": "La Main Grise", "page": None},
        {"title": "Nulle part", "page": None},
    ]


def test_search_finds_only_what_the_member_may_see(api, campaign, mayor, hidden_page):
    def hits(who, q):
        answer = api[who].get(world(campaign, "search/"), {"q": q})
        assert answer.status_code == 200
        return [hit["title"] for hit in answer.json()]

    assert hits("storyteller", "vampire") == ["Le maire Orso"]
    assert hits("player", "sel") == ["Le maire Orso"]
    assert hits("player", "assassins") == []  # the hidden page's words
    assert hits("player", "crypte") == []  # a secret block's words
    assert hits("player", "Grise") == []
    assert api["outsider"].get(world(campaign, "search/"), {"q": "sel"}).status_code == 404


def test_search_needs_q_and_a_blank_one_finds_nothing(api, campaign, mayor):
    missing = api["player"].get(world(campaign, "search/"))
    assert missing.status_code == 400 and "q" in missing.json()["errors"]
    blank = api["player"].get(world(campaign, "search/"), {"q": " "})
    assert blank.status_code == 200 and blank.json() == []


def test_the_storyteller_writes_with_a_version_and_a_stale_one_is_409(api, campaign, town):
    url = world(campaign, f"pages/{town.pk}/")
    first = api["storyteller"].patch(url, {"body": "Un port noyé.", "version": 1}, format="json")
    assert first.status_code == 200 and first.json()["version"] == 2

    stale = api["storyteller"].patch(url, {"body": "Autre chose.", "version": 1}, format="json")
    assert stale.status_code == 409
    assert stale.json()["current"]["body"] == "Un port noyé."
    assert "modifiée entre-temps" in stale.json()["detail"]

    history = api["storyteller"].get(world(campaign, f"pages/{town.pk}/history/")).json()["results"]
    assert [r["version"] for r in history] == [2, 1]
    restored = api["storyteller"].post(
        world(campaign, f"pages/{town.pk}/restore/"),
        {"revision": history[1]["id"], "version": 2},
        format="json",
    )
    assert restored.status_code == 200
    assert restored.json()["body"] == "Un port de brume." and restored.json()["version"] == 3


def test_players_neither_write_pages_nor_read_their_history(api, campaign, town):
    url = world(campaign, f"pages/{town.pk}/")
    assert api["player"].patch(url, {"body": "x", "version": 1}, format="json").status_code == 403
    assert api["player"].get(world(campaign, f"pages/{town.pk}/history/")).status_code == 403
    created = api["player"].post(
        world(campaign, "pages/"), {"title": "Mienne", "kind": "note"}, format="json"
    )
    assert created.status_code == 403


def test_the_storyteller_creates_a_page_for_chosen_members(api, campaign, player):
    answer = api["storyteller"].post(
        world(campaign, "pages/"),
        {
            "title": "Lettre",
            "kind": PageKind.ITEM,
            "audience": PageAudience.CHOSEN,
            "readers": [player.pk],
            "body": "Pour Aelis.",
        },
        format="json",
    )
    assert answer.status_code == 201
    page = answer.json()["id"]
    assert api["player"].get(world(campaign, f"pages/{page}/")).status_code == 200
    assert api["other"].get(world(campaign, f"pages/{page}/")).status_code == 404
    duplicate = api["storyteller"].post(
        world(campaign, "pages/"), {"title": "lettre", "kind": "item"}, format="json"
    )
    assert duplicate.status_code == 400 and "title" in duplicate.json()["errors"]


def test_a_members_note_is_their_own(api, campaign, town):
    url = world(campaign, f"pages/{town.pk}/note/")
    assert api["player"].put(url, {"text": "Ne pas boire l'eau."}, format="json").status_code == 200
    assert api["player"].get(url).json() == {"text": "Ne pas boire l'eau."}
    assert api["other"].get(url).json() == {"text": ""}
    assert api["storyteller"].get(url).json() == {"text": ""}


def test_handouts_through_the_api_reach_their_recipients_only(
    api, campaign, mayor, player, other_player
):
    key = secret_blocks(mayor)[1].key
    given = api["storyteller"].post(
        world(campaign, "handouts/"),
        {"page": mayor.pk, "kind": "secret", "secret_key": key, "recipients": [player.pk]},
        format="json",
    )
    assert given.status_code == 201
    handout = given.json()
    assert handout["text"] == "Sa crypte est sous la chapelle."

    received = api["player"].get(world(campaign, "handouts/")).json()["results"]
    assert [h["id"] for h in received] == [handout["id"]]
    assert api["other"].get(world(campaign, "handouts/")).json()["results"] == []
    assert api["other"].get(world(campaign, f"handouts/{handout['id']}/")).status_code == 404
    mine = api["player"].get(world(campaign, f"handouts/{handout['id']}/")).json()
    assert mine["recipients"] == [player.pk]
    refused = api["player"].post(
        world(campaign, "handouts/"),
        {"page": mayor.pk, "kind": "page", "recipients": [other_player.pk]},
        format="json",
    )
    assert refused.status_code == 403


def test_a_restore_to_a_version_of_no_row_is_a_400(api, campaign, town):
    refused = api["storyteller"].post(
        world(campaign, f"pages/{town.pk}/restore/"),
        {"revision": 999999, "version": 1},
        format="json",
    )
    assert refused.status_code == 400 and "revision" in refused.json()["errors"]
