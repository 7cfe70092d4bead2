"""A new campaign's dashboard guides its Conteur: three first steps, each ticked once done, the
card gone when all are; players never see it. The wizard's empty lists say where entries come
from."""

from html import unescape

import pytest
from django.urls import reverse

from campaigns.models import Membership, Role
from campaigns.services import campaign_create, compendium_examples_load, invitation_create

pytestmark = pytest.mark.django_db

STEPS = (
    "Charger les exemples du compendium",
    "Inviter des joueurs",
    "Planifier la première séance",
)


@pytest.fixture
def new_campaign(storyteller):
    return campaign_create(creator=storyteller, name="La Marche grise")


def dashboard(client, campaign) -> str:
    response = client.get(reverse("campaigns:dashboard", args=[campaign.pk]))
    assert response.status_code == 200
    return unescape(response.content.decode())


def card(html: str) -> str:
    """The first-steps card's HTML, or "" when the page has none."""
    start = html.find('class="card first-steps"')
    if start == -1:
        return ""
    return html[start : html.index("</section>", start)]


def done_steps(html: str) -> list[str]:
    return [label for label in STEPS if f'{label} <span class="badge">Fait</span>' in card(html)]


def test_a_new_campaign_shows_the_three_steps_with_their_links(storyteller_client, new_campaign):
    page = dashboard(storyteller_client, new_campaign)
    html = card(page)
    assert "Premiers pas" in html
    for label in STEPS:
        assert label in html
    examples = reverse("campaigns:compendium_examples", args=[new_campaign.pk])
    assert f'<form method="post" action="{examples}"' in html  # an action: it posts
    assert f'href="{reverse("campaigns:invitations", args=[new_campaign.pk])}"' in html
    assert f'href="{reverse("sessions:create", args=[new_campaign.pk])}"' in html
    assert done_steps(page) == []


def test_the_examples_button_loads_the_compendium_and_ticks_the_step(
    storyteller_client, new_campaign
):
    html = card(dashboard(storyteller_client, new_campaign))
    examples = reverse("campaigns:compendium_examples", args=[new_campaign.pk])
    assert examples in html
    response = storyteller_client.post(examples)
    assert response.status_code == 302
    assert new_campaign.species.exists()
    assert done_steps(dashboard(storyteller_client, new_campaign)) == [STEPS[0]]


def test_an_invitation_or_a_player_ticks_the_invite_step(
    storyteller_client, new_campaign, storyteller, player
):
    invitation = invitation_create(campaign=new_campaign, by=storyteller)
    assert done_steps(dashboard(storyteller_client, new_campaign)) == [STEPS[1]]
    invitation.delete()
    assert done_steps(dashboard(storyteller_client, new_campaign)) == []
    Membership.objects.create(campaign=new_campaign, user=player, role=Role.PLAYER)
    assert done_steps(dashboard(storyteller_client, new_campaign)) == [STEPS[1]]


def test_a_session_ticks_the_last_step_and_all_three_remove_the_card(
    storyteller_client, new_campaign, storyteller, make_play_session
):
    make_play_session(new_campaign)
    assert done_steps(dashboard(storyteller_client, new_campaign)) == [STEPS[2]]
    invitation_create(campaign=new_campaign, by=storyteller)
    compendium_examples_load(campaign=new_campaign)
    html = dashboard(storyteller_client, new_campaign)
    assert card(html) == ""
    assert "Premiers pas" not in html


def test_players_never_see_the_card(player_client, new_campaign, player):
    Membership.objects.create(campaign=new_campaign, user=player, role=Role.PLAYER)
    html = dashboard(player_client, new_campaign)
    assert "Premiers pas" not in html
    assert "Charger les exemples" not in html


def test_the_dashboard_costs_the_same_queries_with_or_without_the_steps(
    storyteller_client, new_campaign, storyteller, make_play_session, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as fresh:
        dashboard(storyteller_client, new_campaign)
    make_play_session(new_campaign)
    invitation_create(campaign=new_campaign, by=storyteller)
    compendium_examples_load(campaign=new_campaign)
    with django_assert_max_num_queries(len(fresh)):
        dashboard(storyteller_client, new_campaign)


def test_the_dashboard_shows_the_group_moral(storyteller_client, new_campaign):
    from sessions.models import MoralePool

    html = dashboard(storyteller_client, new_campaign)
    assert "Ni espoir ni désespoir pour l'instant" in html
    MoralePool.objects.update_or_create(campaign=new_campaign, defaults={"hope": 2, "despair": 1})
    html = dashboard(storyteller_client, new_campaign)
    assert "<strong>2</strong> espoir · <strong>1</strong> désespoir" in html


# --- the creation wizard's empty lists --------------------------------------------------------


def wizard(client, campaign) -> str:
    response = client.get(reverse("characters:create", args=[campaign.pk]))
    assert response.status_code == 200
    return unescape(response.content.decode())


def test_the_wizards_empty_lists_offer_the_conteur_the_examples(storyteller_client, new_campaign):
    html = wizard(storyteller_client, new_campaign)
    examples = reverse("campaigns:compendium_examples", args=[new_campaign.pk])
    assert f'<form id="load-examples" method="post" action="{examples}"' in html
    # species, classes, abilities, assets, flaws: each empty list has its button
    assert html.count('form="load-examples"') == 5
    storyteller_client.post(examples)
    assert 'form="load-examples"' not in wizard(storyteller_client, new_campaign)


def test_the_wizards_empty_lists_tell_a_player_to_wait_for_the_conteur(
    player_client, new_campaign, player
):
    Membership.objects.create(campaign=new_campaign, user=player, role=Role.PLAYER)
    html = wizard(player_client, new_campaign)
    assert "Le Conteur doit d’abord les ajouter au compendium." in html
    assert "load-examples" not in html


def test_the_wizards_examples_button_comes_back_to_the_wizard(storyteller_client, new_campaign):
    """The wizard's empty lists point to « Charger les exemples »: once loaded, the Conteur is
    back in the wizard, its lists filled."""
    wizard = reverse("characters:create", args=[new_campaign.pk])
    page = storyteller_client.get(wizard).content.decode()
    assert "Charger les exemples" in page and 'name="then" value="wizard"' in page
    examples = reverse("campaigns:compendium_examples", args=[new_campaign.pk])
    response = storyteller_client.post(examples, {"then": "wizard"}, follow=True)
    assert response.redirect_chain[-1][0] == wizard
    assert "exemple ajoutées" in response.content.decode()
    assert "Charger les exemples" not in response.content.decode()
