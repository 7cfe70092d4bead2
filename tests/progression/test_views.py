"""Progression pages: the close-arc checklist with its preview and confirmation, a character's
ledger and spending, ellipses with timers and advances, notifications and the nav's count."""

from html import unescape

import pytest
from django.urls import reverse

from campaigns.models import Notification
from progression import experience
from progression.models import ArcAward, Ellipse, Training, XpEntry
from tests.altherion.test_csp import assert_csp_safe
from tests.progression.helpers import make_arc, make_character

pytestmark = pytest.mark.django_db


@pytest.fixture
def party(campaign, player, other_player):
    return [
        make_character(campaign, player, "Aelis"),
        make_character(campaign, other_player, "Brann"),
    ]


def checklist_post(party, action):
    data = {
        "danger": "3",
        "ending": "chapter",
        "ending_items": ["main_objectives"],
        "balance": ["all_active"],
        "length": "weeks",
        "action": action,
    }
    for character in party:
        data[f"present_{character.pk}"] = "1"
        data[f"bounty_{character.pk}"] = ["took_part"]
        data[f"objectives_{character.pk}"] = "0"
        data[f"used_{character.pk}"] = ["strength"]
    return data


def test_the_conteur_previews_then_confirms_and_the_player_is_notified(
    client, campaign, party, storyteller, player, django_capture_on_commit_callbacks
):
    arc = make_arc(campaign)
    url = reverse("progression:arc_experience", args=[campaign.pk, arc.pk])
    client.force_login(storyteller)
    page = client.get(url)
    assert page.status_code == 200
    assert_csp_safe(page.content.decode())
    preview = client.post(url, checklist_post(party, "preview"))
    # (danger 3 + balance 1 + chapter 1 + objectives 1 + took part 2) × weeks 3 = 24.
    assert preview.status_code == 200 and "Aperçu des récompenses" in preview.content.decode()
    assert "<strong>24</strong>" in preview.content.decode()
    assert not XpEntry.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(url, checklist_post(party, "confirm"))
    assert done.status_code == 302
    summary = client.get(url).content.decode()
    assert "Récompenses versées" in summary and "Brann" in summary
    client.force_login(player)
    home = client.get(reverse("home")).content.decode()
    assert 'id="nav-notifications"' in home
    count = client.get(reverse("progression:notifications_count"), headers={"HX-Request": "true"})
    assert ">1</span>" in count.content.decode()
    notes = client.get(reverse("progression:notifications")).content.decode()
    assert "reçoit 24 points d&#x27;expérience" in notes or "reçoit 24 points d'expérience" in notes
    client.post(reverse("progression:notifications_read"))
    assert not Notification.objects.filter(user=player, read_at__isnull=True).exists()
    count = client.get(reverse("progression:notifications_count"))
    assert "unread-badge" not in count.content.decode()


def test_a_bad_checklist_comes_back_with_french_errors(client, campaign, party, storyteller):
    arc = make_arc(campaign)
    url = reverse("progression:arc_experience", args=[campaign.pk, arc.pk])
    client.force_login(storyteller)
    data = checklist_post(party, "confirm") | {"danger": "", f"objectives_{party[0].pk}": "x"}
    response = client.post(url, data)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Entrez un nombre entier." in body
    assert not ArcAward.objects.exists()


def test_the_award_progress_polls_while_running(client, campaign, party, storyteller):
    arc = make_arc(campaign)
    ArcAward.objects.create(arc=arc, checklist={}, total=2, paid=1)
    client.force_login(storyteller)
    url = reverse("progression:arc_experience_progress", args=[campaign.pk, arc.pk])
    partial = client.get(url, headers={"HX-Request": "true"})
    body = partial.content.decode()
    assert 'hx-trigger="every 1s"' in body and "1 personnage sur 2" in body
    assert "<html" not in body and "HX-Request" in partial["Vary"]
    assert "<html" in client.get(url).content.decode()


@pytest.mark.parametrize(
    ("persona", "status"), [("outsider", 404), ("player", 403), ("storyteller", 200)]
)
def test_only_the_conteur_closes_an_arc(client, campaign, request, persona, status):
    arc = make_arc(campaign)
    client.force_login(request.getfixturevalue(persona))
    url = reverse("progression:arc_experience", args=[campaign.pk, arc.pk])
    assert client.get(url).status_code == status


def test_the_ledger_page_shows_costs_and_reasons(client, campaign, party, player, outsider):
    aelis = party[0]
    XpEntry.objects.create(character=aelis, source_key="x", kind="award", amount=12, label="Test")
    url = reverse("progression:character_experience", args=[campaign.pk, aelis.pk])
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    client.force_login(player)
    body = client.get(url).content.decode()
    assert_csp_safe(body)
    assert "Solde : <strong>12</strong>" in body
    assert (
        "Seul ce qui a été utilisé pendant l&#x27;arc peut être amélioré : un jet à une séance"
        in body
    )


def test_a_refused_spend_says_why_and_changes_nothing(client, campaign, party, player):
    aelis = party[0]
    url = reverse("progression:xp_spend", args=[campaign.pk, aelis.pk])
    client.force_login(player)
    response = client.post(url, {"kind": "skill", "target": "melee", "mode": "hope", "key": "k"})
    assert response.status_code == 200
    assert "Il faut 10 points d&#x27;expérience" in response.content.decode()
    assert not XpEntry.objects.exists()


def test_the_conteur_opens_an_ellipse_and_a_player_trains(
    client, campaign, party, storyteller, player, django_capture_on_commit_callbacks
):
    aelis = party[0]
    XpEntry.objects.create(character=aelis, source_key="x", kind="award", amount=20, label="Test")
    client.force_login(storyteller)
    response = client.post(
        reverse("progression:ellipse_list", args=[campaign.pk]), {"length_days": "0"}
    )
    assert "au moins un jour" in response.content.decode()
    client.post(reverse("progression:ellipse_list", args=[campaign.pk]), {"length_days": "40"})
    ellipse = Ellipse.objects.get()
    assert ellipse.kind == "medium"
    # A theoretical improvement needs the Conteur's ticks; a specialty of a rolled skill needs use.
    client.force_login(player)
    url = reverse("progression:training_queue", args=[campaign.pk, aelis.pk])
    refused = client.post(url, {"kind": "characteristic", "target": "strength", "trainer": "alone"})
    assert "utilisé pendant l&#x27;arc" in refused.content.decode()
    ArcAward.objects.create(
        arc=make_arc(campaign, status="closed", closed_at="2030-01-01T00:00Z"),
        checklist={"characters": {str(aelis.pk): {"used": ["strength"]}}},
        status="done",
    )
    assert (
        client.post(
            url, {"kind": "characteristic", "target": "strength", "trainer": "trainer"}
        ).status_code
        == 302
    )
    training = Training.objects.get()
    detail = reverse("progression:ellipse_detail", args=[campaign.pk, ellipse.pk])
    body = client.get(detail).content.decode()
    assert_csp_safe(body)
    assert "0 / 30 jours" in body
    client.force_login(storyteller)
    client.post(
        reverse("progression:training_trainer", args=[campaign.pk, training.pk]), {"confirmed": "1"}
    )
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("progression:ellipse_advance", args=[campaign.pk, ellipse.pk]),
            {"days": "7", "key": "abc", "action": "advance"},
        )
        client.post(
            reverse("progression:ellipse_advance", args=[campaign.pk, ellipse.pk]),
            {"days": "7", "key": "abc", "action": "advance"},
        )
    body = client.get(detail).content.decode()
    assert "7 / 21 jours" in body  # a confirmed trainer: 21 days; the double click ran once


def test_pages_keep_a_fixed_number_of_queries(
    client, campaign, player, storyteller, django_assert_max_num_queries
):
    from characters.models import Character

    def make(n):
        for i in range(n):
            character = make_character(campaign, player, f"P{i}-{Character.objects.count()}")
            XpEntry.objects.create(
                character=character, source_key="x", kind="award", amount=5, label="T"
            )

    ellipse = Ellipse.objects.create(campaign=campaign, length_days=30, kind="medium")
    client.force_login(storyteller)
    pages = [
        reverse("progression:progression", args=[campaign.pk]),
        reverse("progression:ellipse_detail", args=[campaign.pk, ellipse.pk]),
        reverse("progression:notifications"),
    ]
    make(2)
    counts = []
    for url in pages:
        with django_assert_max_num_queries(20) as captured:
            client.get(url)
        counts.append(len(captured))
    make(10)
    for url, before in zip(pages, counts, strict=True):
        with django_assert_max_num_queries(before):
            client.get(url)


def test_locked_experience_says_why_and_the_conteur_finds_the_box_that_unlocks_it(
    client, campaign, party, storyteller, player, django_capture_on_commit_callbacks
):
    """Aelis used only her Force in the arc: Sagesse is locked. Her player reads why and whom to
    ask; the Conteur follows the page's link to the arc's checklist, where Aelis's unlocking part
    comes open, ticks Sagesse, and Sagesse may be bought."""
    aelis = party[0]
    arc = make_arc(campaign)
    arc_url = reverse("progression:arc_experience", args=[campaign.pk, arc.pk])
    client.force_login(storyteller)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(arc_url, checklist_post(party, "confirm"))
    xp_url = reverse("progression:character_experience", args=[campaign.pk, aelis.pk])

    client.force_login(player)
    page = unescape(client.get(xp_url).content.decode())
    assert "Pourquoi des améliorations sont verrouillées" in page
    assert f"servi pendant le dernier arc clos, « {arc.title} »" in page
    assert "Un jet fait à une séance de cet arc la débloque" in page
    assert "Demandez au Conteur de le cocher" in page
    assert arc_url not in page  # the checklist is the Conteur's

    client.force_login(storyteller)
    page = unescape(client.get(xp_url).content.decode())
    link = f"{arc_url}?character={aelis.pk}#spend-{aelis.pk}"
    assert f'href="{link}"' in page and "Cocher ce qu'a utilisé Aelis" in page
    checklist = unescape(client.get(link.split("#")[0]).content.decode())
    assert f'<details id="spend-{aelis.pk}" open>' in checklist
    assert f'<details id="spend-{party[1].pk}">' in checklist
    assert "Débloquer la dépense d'expérience" in checklist
    # Several skills are ticked as checkboxes (a keyboard goes through them), not a <select>.
    assert f'type="checkbox" name="used_{aelis.pk}" value="wisdom"' in checklist
    assert f'type="checkbox" name="used_{aelis.pk}" value="strength" checked' in checklist

    corrected = checklist_post(party, "confirm")
    corrected[f"used_{aelis.pk}"] = ["strength", "wisdom"]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(arc_url, corrected)
    options = {
        o.target: o
        for o in experience.spending_options(character=aelis)
        if o.kind == "characteristic"
    }
    assert options["wisdom"].allowed and not options["will"].allowed
