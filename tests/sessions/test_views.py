"""The table page, the roll POST, the poll, the odds, the Moral panel and consequences (HTML)."""

import json
import random

import pytest
from django.urls import reverse

from campaigns.policy import campaign_get_for_member
from rules.check import Check
from rules.odds import check_odds
from sessions import services
from sessions.checks import RollRequest
from sessions.models import MoralePool, Roll, TableEvent, Visibility
from tests.altherion.test_csp import assert_csp_safe
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def url(name, campaign, *args):
    return reverse(f"sessions:{name}", args=[campaign.pk, *args])


def roll_data(character, **extra):
    data = {
        "character": character.pk if character else "",
        "characteristic": "strength",
        "skills": ["melee"],
        "complexity": 1,
        "difficulty": 8,
        "boon": 0,
        "bane": 0,
        "impact": 0,
        "hope": 0,
        "hope_source": "personal",
        "despair_source": "personal",
        "visibility": "public",
        "idempotency_key": key(),
    }
    data.update(extra)
    return data


def stored_roll(campaign, user, character, visibility=Visibility.PUBLIC, seed=1):
    return services.roll_create(
        campaign=campaign_get_for_member(user=user, pk=campaign.pk),
        by=user,
        request=RollRequest(
            characteristic="strength",
            skills=("melee",) if character else (),
            difficulty=8,
            characteristic_value=None if character else 3,
            label="" if character else "Garde",
        ),
        character_id=character.pk if character else None,
        idempotency_key=key(),
        visibility=visibility,
        rng=random.Random(seed),
    )


def test_the_page_shows_the_form_the_moral_and_the_log(client, player, aelis, brann, campaign):
    stored_roll(campaign, player, aelis)
    client.force_login(player)
    response = client.get(url("table", campaign))
    body = response.content.decode()
    assert response.status_code == 200
    assert_csp_safe(body)
    assert 'id="roll-form"' in body and 'id="morale-panel"' in body
    assert "Aelis" in body and 'data-event-id="' in body
    assert 'id="table-poller"' in body and "sessions/table.js" in body
    assert "de réussite" in body  # odds for the default declaration


def test_outsiders_get_404_everywhere(client, outsider, campaign, aelis):
    done = stored_roll(campaign, aelis.owner, aelis)
    client.force_login(outsider)
    for name, args in [("table", ()), ("poll", ()), ("odds", ()), ("morale", ())]:
        assert client.get(url(name, campaign, *args)).status_code == 404
    assert client.post(url("roll", campaign), roll_data(aelis)).status_code == 404
    assert client.post(url("morale_act", campaign), {"action": "gain_hope"}).status_code == 404
    consequence = url("consequence", campaign, done.pk)
    assert client.post(consequence, {"kind": "fortune"}).status_code == 404


def test_a_roll_without_htmx_redirects_to_the_table(client, player, aelis, campaign):
    client.force_login(player)
    response = client.post(url("roll", campaign), roll_data(aelis))
    assert response.status_code == 302 and response["Location"] == url("table", campaign)
    assert Roll.objects.get().character == aelis


def test_a_roll_with_htmx_returns_its_row_and_a_fresh_key(client, player, aelis, campaign):
    client.force_login(player)
    data = roll_data(aelis)
    response = client.post(url("roll", campaign), data, **HX)
    body = response.content.decode()
    assert response.status_code == 200
    event = TableEvent.objects.get()
    assert f'data-event-id="{event.pk}"' in body and 'class="die kept"' in body
    assert 'hx-swap-oob="true"' in body and data["idempotency_key"] not in body
    assert "table-poll" in json.loads(response["HX-Trigger"])
    # The same key again (a double click): still one roll.
    client.post(url("roll", campaign), data, **HX)
    assert Roll.objects.count() == 1


def test_a_roll_that_cannot_be_paid_shows_the_error_in_the_form(client, player, aelis, campaign):
    client.force_login(player)
    response = client.post(url("roll", campaign), roll_data(aelis, impact=5), **HX)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#roll-form"
    assert "Aelis n&#x27;a que 2 points d&#x27;Impact." in response.content.decode()
    assert not Roll.objects.exists()


def test_the_storyteller_rolls_a_hidden_npc_roll(client_for, storyteller, player, campaign, aelis):
    data = roll_data(
        None, visibility="hidden", characteristic_value=4, skill_level=2, label="Garde"
    )
    data["skills"] = []
    assert client_for(storyteller).post(url("roll", campaign), data).status_code == 302
    assert Roll.objects.get().visibility == Visibility.HIDDEN
    assert "Garde" not in client_for(player).get(url("table", campaign)).content.decode()


def test_the_poll_answers_204_then_new_rows_after_the_cursor(client, player, aelis, campaign):
    client.force_login(player)
    first = stored_roll(campaign, player, aelis)
    cursor = first.events.get().pk
    assert client.get(url("poll", campaign), {"after": cursor}).status_code == 204
    second = stored_roll(campaign, player, aelis, seed=2)
    response = client.get(url("poll", campaign), {"after": cursor})
    body = response.content.decode()
    new = second.events.get().pk
    assert response.status_code == 200 and response["X-Table-Cursor"] == str(new)
    assert f'data-event-id="{new}"' in body and f'data-event-id="{cursor}"' not in body


def test_secret_rolls_never_reach_other_players(
    client, storyteller, player, other_player, aelis, brann, campaign
):
    stored_roll(campaign, player, aelis, visibility=Visibility.STORYTELLER)
    stored_roll(campaign, storyteller, None, visibility=Visibility.HIDDEN)

    def visible(user):
        client.force_login(user)
        response = client.get(url("poll", campaign), {"after": 0})
        page = client.get(url("table", campaign)).content.decode()
        body = response.content.decode() if response.status_code == 200 else ""
        return body.count("data-event-id="), page.count("data-event-id=")

    assert visible(other_player) == (0, 0)
    assert visible(player) == (1, 1)
    assert visible(storyteller) == (2, 2)


def test_the_poll_tells_news_only_of_what_the_member_may_see(
    client,
    storyteller,
    player,
    other_player,
    outsider,
    aelis,
    campaign,
    django_assert_max_num_queries,
):
    """The poll's read of new entries applies the log's visibility rule: a secret roll is news
    to its roller and the Conteur only, a non-member gets 404 (and no hint). The user, then
    one statement for the membership and whether the log moved; with an entry after the cursor,
    the membership with its campaign and the entries this member may see."""
    cursor = stored_roll(campaign, player, aelis).events.get().pk
    stored_roll(campaign, player, aelis, seed=3, visibility=Visibility.STORYTELLER)
    queries = {other_player: 4, outsider: 3}

    def poll(user, **query):
        client.force_login(user)
        # With news, a fifth for the group a Conteur's critical control names.
        with django_assert_max_num_queries(queries.get(user, 5)):
            return client.get(url("poll", campaign), {"after": cursor, **query}).status_code

    assert poll(other_player) == 204
    assert poll(player) == 200
    assert poll(storyteller) == 200
    assert poll(player, filter=aelis.pk + 1000) == 204  # another character's entries only
    assert poll(outsider) == 404


def test_the_poll_costs_the_same_queries_with_more_rows(
    client, player, aelis, campaign, django_assert_max_num_queries, django_assert_num_queries
):
    client.force_login(player)
    newest = stored_roll(campaign, player, aelis).events.get().pk
    # Nothing new: the user, the membership, the log after the cursor.
    with django_assert_max_num_queries(3):
        assert client.get(url("poll", campaign), {"after": newest}).status_code == 204
    with django_assert_max_num_queries(3) as one_row:
        client.get(url("poll", campaign), {"after": 0})
    for seed in range(10):
        stored_roll(campaign, player, aelis, seed=seed)
    with django_assert_num_queries(len(one_row.captured_queries)):
        response = client.get(url("poll", campaign), {"after": 0})
    assert response.content.decode().count("data-event-id=") == 11


def test_the_page_costs_the_same_queries_with_more_rows(
    client, storyteller, player, aelis, brann, campaign, django_assert_max_num_queries
):
    client.force_login(storyteller)
    stored_roll(campaign, player, aelis)
    # The user, the membership, the rollers with their skills in one, the log, the group, the
    # open injuries, the Moral, the pending Fortune requests, the fight.
    with django_assert_max_num_queries(9) as few:
        client.get(url("table", campaign))
    for seed in range(10):
        stored_roll(campaign, player, aelis, seed=seed)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(url("table", campaign))


def test_the_moral_moves_tell_the_poll(client, storyteller, player, aelis, brann, campaign):
    client.force_login(storyteller)
    response = client.post(url("morale_act", campaign), {"action": "gain_hope"}, **HX)
    assert response.status_code == 200 and 'data-morale="hope">1<' in response.content.decode()
    client.force_login(player)
    poll = client.get(url("poll", campaign), {"after": 0})
    assert "morale-changed" in json.loads(poll["HX-Trigger"])
    assert "Le groupe gagne 1 point d&#x27;espoir." in poll.content.decode()
    panel = client.get(url("morale", campaign), **HX)
    assert 'data-morale="hope">1<' in panel.content.decode()


def test_players_may_not_make_the_group_gain(client, player, aelis, brann, campaign):
    client.force_login(player)
    response = client.post(url("morale_act", campaign), {"action": "gain_hope"}, **HX)
    assert response.status_code == 403
    assert MoralePool.objects.filter(hope__gt=0).count() == 0


def test_a_refused_spend_says_why_and_changes_nothing(client, player, aelis, brann, campaign):
    client.force_login(player)
    data = {"action": "spend_hope", "character": aelis.pk, "source": "group"}
    response = client.post(url("morale_act", campaign), data, **HX)
    assert "aucun point d&#x27;espoir" in response.content.decode()
    assert not TableEvent.objects.exists()
    response = client.post(url("morale_act", campaign), data)
    assert response.status_code == 302


def test_the_odds_fragment_gives_the_engines_exact_odds(client, player, aelis, campaign):
    client.force_login(player)
    response = client.get(url("odds", campaign), roll_data(aelis, difficulty=9), **HX)
    expected = check_odds(Check(skill=3, complexity=1, characteristic=4, difficulty=9))
    shown = f"{100 * expected.success:.1f}".replace(".", ",")
    assert shown in response.content.decode()


def test_the_odds_preview_sends_only_what_the_odds_need(client, player, aelis, campaign):
    """Issue 16 §5: no CSRF token nor idempotency key in the preview's URL (logs, history)."""
    client.force_login(player)
    page = client.get(url("table", campaign)).content.decode()
    odds_div = page[page.index('<div id="odds"') :].split(">", 1)[0]
    assert 'hx-params="not csrfmiddlewaretoken,idempotency_key"' in odds_div
    data = roll_data(aelis, difficulty=9)
    del data["idempotency_key"]
    body = client.get(url("odds", campaign), data, **HX).content.decode()
    expected = check_odds(Check(skill=3, complexity=1, characteristic=4, difficulty=9))
    assert f"{100 * expected.success:.1f}".replace(".", ",") in body


def test_the_odds_show_the_sheets_dice_with_their_cause(client, player, aelis, campaign):
    aelis.exhaustion = 2
    aelis.save()
    client.force_login(player)
    body = client.get(url("odds", campaign), roll_data(aelis), **HX).content.decode()
    assert "— Épuisement 2" in body and "+2 dé d" in body


def test_the_storyteller_applies_a_consequence_once(
    client, storyteller, player, aelis, brann, campaign
):
    done = stored_roll(campaign, player, aelis)
    Roll.objects.filter(pk=done.pk).update(outcome="critical_success")
    client.force_login(storyteller)
    response = client.post(url("consequence", campaign, done.pk), {"kind": "fortune"}, **HX)
    assert response.status_code == 200
    assert "+1 Fortune" not in response.content.decode()  # the button is gone
    aelis.refresh_from_db()
    assert aelis.fortune == 1
    client.post(url("consequence", campaign, done.pk), {"kind": "fortune"}, **HX)
    aelis.refresh_from_db()
    assert aelis.fortune == 1


def test_the_page_prefills_a_skill_from_the_sheet(client, player, aelis, campaign):
    client.force_login(player)
    body = client.get(
        url("table", campaign), {"character": aelis.pk, "skill": "sport"}
    ).content.decode()
    assert '<option value="sport" selected>' in body


def test_a_session_table_stores_the_session(client, player, aelis, campaign):
    from datetime import timedelta

    from django.utils import timezone

    from sessions.models import PlaySession

    session = PlaySession.objects.create(
        campaign=campaign, title="Soirée", scheduled_at=timezone.now() + timedelta(days=1)
    )
    client.force_login(player)
    assert client.get(url("session_table", campaign, session.pk)).status_code == 200
    client.post(url("session_roll", campaign, session.pk), roll_data(aelis))
    assert Roll.objects.get().play_session == session


def test_injuries_are_offered_in_the_form_and_healed_from_the_panel(
    client_for, storyteller, player, aelis, brann, campaign
):
    from sessions.models import Injury

    injury = Injury.objects.create(campaign=campaign, character=aelis, row=4, effect="eye")
    page = client_for(player).get(url("table", campaign)).content.decode()
    assert "Aelis — Œil : 1 dé d&#x27;impuissance (Perception visuelle" in page
    odds = client_for(player).get(
        url("odds", campaign), roll_data(aelis, injuries=[injury.pk]), **HX
    )
    assert "Blessure : Œil" in odds.content.decode()
    assert "Guérie" not in page  # only the Conteur heals
    conteur = client_for(storyteller)
    # The Moral panel lists it under Aelis, with its heal button for the Conteur.
    panel = conteur.get(url("table", campaign)).content.decode()
    panel = panel[panel.index('id="morale-panel"') :]
    assert '<ul class="injury-list">' in panel and "Œil : 1 dé d&#x27;impuissance" in panel
    assert url("injury_heal", campaign, injury.pk) in panel
    response = conteur.post(url("injury_heal", campaign, injury.pk), **HX)
    assert response.status_code == 200 and "Œil" not in response.content.decode()
    injury.refresh_from_db()
    assert injury.healed_at is not None


def test_without_javascript_the_page_computes_the_odds_of_the_form(client, player, aelis, campaign):
    client.force_login(player)
    data = roll_data(aelis, difficulty=30)
    redirected = client.get(url("odds", campaign), data)
    assert redirected.status_code == 302 and redirected["Location"].startswith(
        url("table", campaign)
    )
    page = client.get(redirected["Location"]).content.decode()
    expected = check_odds(Check(skill=3, complexity=1, characteristic=4, difficulty=30))
    assert f"{100 * expected.success:.1f}".replace(".", ",") in page
    assert 'name="difficulty" value="30"' in page


def test_an_expired_session_sends_the_polling_page_to_the_login_form(client, campaign):
    response = client.get(url("poll", campaign), {"after": 0}, **HX)
    assert response.status_code == 204
    assert response["HX-Redirect"] == f"{reverse('login')}?next={url('table', campaign)}"
    assert client.get(url("poll", campaign)).status_code == 302  # a plain request: redirected
