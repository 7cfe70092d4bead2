"""seed_demo: a campaign in mid-play, made once, whose players' first pages show the product."""

import re
from html import unescape
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.urls import reverse

from campaigns.demo import DEMO_ARC, DEMO_CAMPAIGN, DEMO_PAST_ARC
from campaigns.models import Arc, ArcStatus, Campaign
from characters.models import Character
from progression.models import Ellipse, TrainingStatus
from sessions.models import Roll

pytestmark = pytest.mark.django_db

UNTOUCHED = {"sessions.Session", "axes.AccessLog", "axes.AccessAttempt", "axes.AccessFailureLog"}


def row_counts() -> dict[str, int]:
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.label not in UNTOUCHED
    }


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def text(response) -> str:
    assert response.status_code == 200
    return unescape(response.content.decode())


@pytest.fixture
def demo():
    seed()
    return Campaign.objects.get(name=DEMO_CAMPAIGN)


def as_user(client, username):
    client.force_login(Character.objects.get(owner__username=username).owner)
    return client


def test_seed_demo_is_idempotent_and_prints_logins_that_work(django_user_model):
    seed()
    first = row_counts()
    out = seed()
    assert row_counts() == first  # a second run adds, duplicates and removes nothing
    assert django_user_model.objects.count() == 3
    assert first["play.Roll"] >= 5 and first["progression.XpEntry"] >= 2
    for username in ("conteur", "aelis", "brann"):
        assert f"{username} / altherion-demo" in out
        assert authenticate(username=username, password="altherion-demo") is not None
    last_lines = out.strip().splitlines()[-3:]
    assert [line.split()[1] for line in last_lines] == ["conteur", "aelis", "brann"]


def test_the_demo_is_in_mid_play(demo):
    arcs = {arc.title: arc.status for arc in Arc.objects.filter(campaign=demo)}
    assert arcs == {DEMO_PAST_ARC: ArcStatus.CLOSED, DEMO_ARC: ArcStatus.OPEN}
    outcomes = set(Roll.objects.filter(campaign=demo).values_list("outcome", flat=True))
    assert {"success", "failure", "critical_success"} <= outcomes
    rollers = set(Roll.objects.filter(campaign=demo).values_list("character__name", flat=True))
    assert {"Aelis de Vael", "Brann le Roc", None} <= rollers  # both players and an NPC
    assert Roll.objects.filter(campaign=demo, visibility="storyteller").exists()
    assert Roll.objects.filter(campaign=demo, visibility="hidden").exists()
    ellipse = Ellipse.objects.get(campaign=demo, status="open")
    statuses = set(ellipse.trainings.values_list("status", flat=True))
    assert {TrainingStatus.RUNNING, TrainingStatus.QUEUED, TrainingStatus.DONE} <= statuses


def test_the_players_table_shows_rolls_and_the_moral(client, demo):
    html = text(as_user(client, "aelis").get(reverse("sessions:table", args=[demo.pk])))
    assert "Repérer la côte dans la brume" in html and "Réussite" in html
    assert "Sauver la cargaison de l'épave" in html and "Échec" in html
    assert "Réussite critique" in html
    assert "Suivre les traces dans la brume" in html  # her own secret roll
    assert "Le guetteur du phare" not in html  # the Conteur's hidden roll
    assert re.search(r'data-morale="hope">[1-9]\d*</strong>', html)
    assert re.search(r'data-morale="despair">[1-9]\d*</strong>', html)


def test_the_hidden_roll_is_the_conteurs_only(client, demo):
    page = text(as_user(client, "brann").get(reverse("sessions:table", args=[demo.pk])))
    assert "Suivre les traces dans la brume" not in page  # Aelis's secret roll
    client.force_login(demo.memberships.get(role="storyteller").user)
    assert "Le guetteur du phare" in text(client.get(reverse("sessions:table", args=[demo.pk])))


def test_the_players_experience_shows_the_paid_award_and_a_running_training(client, demo):
    aelis = Character.objects.get(campaign=demo, owner__username="aelis")
    html = text(
        as_user(client, "aelis").get(
            reverse("progression:character_experience", args=[demo.pk, aelis.pk])
        )
    )
    assert f"Fin de l'arc « {DEMO_PAST_ARC} »" in html
    assert re.search(r"<td>\+[1-9]\d*</td>", html)  # the award, paid into the ledger
    assert "Spécialité de Tir" in html and "En cours" in html
    assert re.search(r"[1-9]\d* / 30 jours", html)  # the timer has run
    assert "En file" in html


def test_the_player_has_an_unread_notification(client, demo):
    as_user(client, "aelis")
    badge = text(client.get(reverse("progression:notifications_count")))
    assert re.search(r'class="unread-badge"[^>]*>[1-9]\d*<', badge)
    page = text(client.get(reverse("progression:notifications")))
    assert "Nouveau" in page and "points d'expérience" in page


def test_an_older_demo_played_in_still_seeds_and_keeps_its_state(caplog):
    from altherion.demo import demo_seed
    from progression.ellipses import ellipse_open

    campaign = demo_seed(story=False)  # the thin demo of earlier versions
    ellipse_open(campaign=campaign, length_days=10)  # someone opened an ellipse in it
    out = seed()
    assert "aelis / altherion-demo" in out.strip().splitlines()[-2]
    assert "demo story not played" in caplog.text
    assert not Arc.objects.filter(campaign=campaign, title=DEMO_PAST_ARC).exists()
    assert not Roll.objects.filter(campaign=campaign).exists()  # nothing half-played


def test_the_demo_has_a_fight_in_progress_with_a_bestiary_and_a_hidden_npc(demo, client):
    from sessions.models import Encounter, StatBlock

    (fight,) = Encounter.objects.filter(campaign=demo)
    assert fight.status == "running" and fight.round == 1
    assert StatBlock.objects.filter(campaign=demo, hidden=True).exists()
    assert all(block.attacks for block in StatBlock.objects.filter(campaign=demo))
    hidden = fight.combatants.filter(hidden=True)
    assert hidden.exists() and fight.combatants.filter(character__isnull=False).count() == 2
    # Aelis's player is asked to answer « une attaque » without learning who shoots.
    assert fight.pending_attack["attacker"] == hidden.get().pk
    table = text(as_user(client, "aelis").get(reverse("sessions:table", args=[demo.pk])))
    assert "Une attaque" in table and "Se défendre" in table
    assert "Guetteur" not in table
    # The Conteur sees the whole, and the players' bestiary shows only what is shown.
    bestiary = text(client.get(reverse("sessions:bestiary", args=[demo.pk])))
    assert "Pillard des brumes" in bestiary and "Guetteur" not in bestiary
