"""What cannot be undone asks first, without JavaScript: spending XP and closing an ellipse each
go through a confirmation page (GET), and only its button (POST) does it."""

import re
from html import unescape

import pytest
from django.urls import reverse

from progression.models import Advance, ArcAward, Ellipse, XpEntry
from tests.progression.helpers import make_arc, make_character

pytestmark = pytest.mark.django_db


@pytest.fixture
def aelis(campaign, player):
    character = make_character(campaign, player, "Aelis", personal_hope=1)
    XpEntry.objects.create(
        character=character, source_key="x", kind="award", amount=20, label="Arc"
    )
    ArcAward.objects.create(
        arc=make_arc(campaign, status="closed", closed_at="2030-01-01T00:00Z"),
        checklist={"characters": {str(character.pk): {"used": ["strength"]}}},
        status="done",
    )
    return character


@pytest.fixture
def ellipse(campaign):
    return Ellipse.objects.create(campaign=campaign, length_days=40, kind="medium")


def page(response) -> str:
    assert response.status_code == 200
    return unescape(response.content.decode())


def spend_url(campaign, character) -> str:
    return reverse("progression:xp_spend", args=[campaign.pk, character.pk])


def test_the_spend_buttons_lead_to_a_confirmation_not_a_spend(client, campaign, aelis, player):
    client.force_login(player)
    html = page(
        client.get(reverse("progression:character_experience", args=[campaign.pk, aelis.pk]))
    )
    url = spend_url(campaign, aelis)
    assert f'<form method="get" action="{url}"' in html
    assert f'<form method="post" action="{url}"' not in html
    assert "csrfmiddlewaretoken" not in html.split(f'action="{url}"')[1].split("</form>")[0]


def test_the_confirmation_says_what_it_costs_and_spends_nothing(client, campaign, aelis, player):
    client.force_login(player)
    query = {"kind": "characteristic", "target": "strength", "mode": "hope", "key": "k-1"}
    html = page(client.get(spend_url(campaign, aelis), query))
    assert "Acheter « Force +1 » ?" in html
    assert "Aelis dépense 5 points d’expérience et 1 point d’espoir personnel." in html
    assert "Expérience disponible : 20 → 15." in html
    assert "définitive" in html
    assert re.search(r'<input type="hidden" name="key" value="k-1">', html)
    assert XpEntry.objects.filter(kind="spend").count() == 0
    aelis.refresh_from_db()
    assert aelis.strength == 2 and aelis.personal_hope == 1


def test_confirming_spends_once(client, campaign, aelis, player):
    client.force_login(player)
    data = {"kind": "characteristic", "target": "strength", "mode": "hope", "key": "k-1"}
    assert client.post(spend_url(campaign, aelis), data).status_code == 302
    assert client.post(spend_url(campaign, aelis), data).status_code == 302  # a double click
    assert XpEntry.objects.filter(kind="spend").count() == 1
    aelis.refresh_from_db()
    assert aelis.strength == 3 and aelis.personal_hope == 0


def test_a_refused_spend_says_why_on_the_confirmation(client, campaign, aelis, player):
    client.force_login(player)
    query = {"kind": "skill", "target": "melee", "mode": "hope"}
    html = page(client.get(spend_url(campaign, aelis), query))
    assert (
        "Seul ce qui a été utilisé pendant l'arc peut être amélioré : un jet à une séance" in html
    )
    assert "Dépenser</button>" not in html  # nothing to confirm


def test_an_unknown_improvement_or_a_stranger_gets_404(
    client, campaign, aelis, player, other_player, outsider
):
    client.force_login(player)
    unknown = {"kind": "characteristic", "target": "nope", "mode": "hope"}
    assert client.get(spend_url(campaign, aelis), unknown).status_code == 404
    known = {"kind": "characteristic", "target": "strength", "mode": "hope"}
    client.force_login(outsider)
    assert client.get(spend_url(campaign, aelis), known).status_code == 404
    client.force_login(other_player)
    assert client.get(spend_url(campaign, aelis), known).status_code == 403


def test_closing_an_ellipse_asks_first(client, campaign, ellipse, storyteller):
    client.force_login(storyteller)
    url = reverse("progression:ellipse_advance", args=[campaign.pk, ellipse.pk])
    detail = page(client.get(reverse("progression:ellipse_detail", args=[campaign.pk, ellipse.pk])))
    close_form = detail.split(f'action="{url}"')[2].split("</form>")[0]
    assert "Clore l'ellipse" in close_form
    assert f'<form method="get" action="{url}"' in detail
    html = page(client.get(url, {"key": "abc-close", "action": "close"}))
    assert f"Clore « {ellipse} » ?" in html
    assert "Les 40 jours restants passent d’un coup" in html
    assert "ne se rouvre pas" in html
    assert '<input type="hidden" name="key" value="abc-close">' in html
    assert not Advance.objects.exists()


def test_confirming_the_close_requests_it(
    client, campaign, ellipse, storyteller, django_capture_on_commit_callbacks
):
    client.force_login(storyteller)
    url = reverse("progression:ellipse_advance", args=[campaign.pk, ellipse.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"key": "abc-close", "action": "close"})
    assert response.status_code == 302
    ellipse.refresh_from_db()
    assert Advance.objects.get().closes and not ellipse.is_open
    # once closed, the confirmation page is gone: back to the ellipse
    assert client.get(url, {"action": "close"}).status_code == 302


def test_only_the_conteur_sees_the_close_confirmation(client, campaign, ellipse, player, outsider):
    url = reverse("progression:ellipse_advance", args=[campaign.pk, ellipse.pk])
    client.force_login(player)
    assert client.get(url, {"action": "close"}).status_code == 403
    client.force_login(outsider)
    assert client.get(url, {"action": "close"}).status_code == 404
