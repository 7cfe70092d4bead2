"""The top bar on every page (issue 16 §4, §7): « Mes campagnes », the username opening the
profile, the unread count polled cheaply, the icon, and the API docs without inline styles."""

from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from campaigns.models import Notification

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["home", "profile", "progression:notifications"])
def test_every_page_links_my_campaigns_and_the_profile_under_my_name(client, player, name):
    client.force_login(player)
    body = client.get(reverse(name)).content.decode()
    nav = body[body.index('<nav class="nav"') : body.index("</nav>")]
    assert f'href="{reverse("campaigns:list")}">Mes campagnes</a>' in nav
    profile_link = nav[nav.index(f'<a href="{reverse("profile")}"') :].split("</a>")[0]
    assert "aelis" in profile_link
    assert f'href="{reverse("password_change")}"' not in nav


def test_the_unread_count_reads_itself_again_on_a_notification_in_at_most_three_queries(
    client, player, django_assert_max_num_queries
):
    Notification.objects.create(user=player, kind="award", key="a", text="Vous recevez 4 XP.")
    client.force_login(player)
    client.get(reverse("home"))  # the session is now in the cache, as on every later poll
    with django_assert_max_num_queries(3):
        fragment = client.get(
            reverse("progression:notifications_count"), headers={"HX-Request": "true"}
        ).content.decode()
    # Told by the page's stream (static/js/live.js), or asked while the stream is down.
    assert 'hx-trigger="notifications-changed from:body, live-poll from:body"' in fragment
    assert 'hx-swap="outerHTML"' in fragment
    assert 'id="unread-count"' in fragment
    assert '<span class="unread-badge" aria-label="1 non lue">1</span>' in fragment


def test_the_favicon_is_served(client):
    home = client.get(reverse("home")).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in home
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == "/static/favicon.svg"
    icon = finders.find("favicon.svg")
    assert icon and Path(icon).read_text().startswith("<svg")


def test_the_api_docs_have_no_inline_style(client, player):
    client.force_login(player)
    body = client.get(reverse("api-docs")).content.decode()
    assert "<style" not in body and "/static/css/swagger.css" in body
    assert "swagger-ui-bundle.js" in body
