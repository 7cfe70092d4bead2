"""Stored XSS, in a real browser: every user text a page shows carries script payloads, and none
of them runs. Escaping (and nh3 for Markdown) must do it on its own: the page raises no
Content-Security-Policy violation, so the CSP is a second line, never the one that held."""

import random
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.models import (
    Ability,
    Arc,
    Asset,
    Branch,
    CharacterClass,
    Flaw,
    Membership,
    Notification,
    Role,
    Species,
)
from campaigns.policy import campaign_get_for_member
from campaigns.services import campaign_create
from characters.models import Character, CharacterSkill
from progression.ellipses import ellipse_open
from sessions import checks, services
from sessions.models import PlaySession, Visibility

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each vector sets window.__xss if it ever runs. Short enough for a 120-character name.
PAYLOAD = '<script>__xss=1</script><img src=x onerror=__xss=1>"><svg onload=__xss=1>'
MARKDOWN = (
    PAYLOAD
    + '\n\n[un lien](javascript:__xss=1) <a href="javascript:__xss=1">autre</a>'
    + '\n\n<iframe src="javascript:__xss=1"></iframe><b onmouseover=__xss=1>gras</b>'
)
DANGEROUS = (
    "script:not([src]), img[src='x'], svg[onload], [onerror], [onload], [onmouseover], "
    "a[href^='javascript'], iframe"
)


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill("correct-horse-battery")
    page.get_by_role("button", name="Se connecter").click()
    page.get_by_role("heading", name=f"Bonjour, {username}").wait_for()


@pytest.fixture
def hostile_campaign(storyteller, player):
    campaign = campaign_create(creator=storyteller, name=PAYLOAD, description=MARKDOWN)
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    arc = Arc.objects.create(campaign=campaign, title=PAYLOAD, summary=MARKDOWN)
    play_session = PlaySession.objects.create(
        campaign=campaign,
        arc=arc,
        title=PAYLOAD,
        notes=MARKDOWN,
        scheduled_at=timezone.now() + timedelta(days=2),
    )
    character_class = CharacterClass.objects.create(
        campaign=campaign, name=PAYLOAD, description=MARKDOWN
    )
    Species.objects.create(campaign=campaign, name=PAYLOAD[:119] + "1", description=MARKDOWN)
    Branch.objects.create(
        campaign=campaign, character_class=character_class, name=PAYLOAD, description=MARKDOWN
    )
    Ability.objects.create(
        campaign=campaign,
        character_class=character_class,
        name=PAYLOAD,
        description=MARKDOWN,
        prerequisites=MARKDOWN,
        cost=1,
    )
    Asset.objects.create(campaign=campaign, name=PAYLOAD, description=MARKDOWN, cost=3)
    Flaw.objects.create(campaign=campaign, name=PAYLOAD, description=MARKDOWN, value=3)
    character = Character.objects.create(
        campaign=campaign,
        owner=player,
        name=PAYLOAD,
        lineage=PAYLOAD,
        notes=MARKDOWN,
        private_notes=MARKDOWN,
        exaltation=3,
        impact_points=2,
    )
    CharacterSkill.objects.create(character=character, key="melee", level=3, expertises=[PAYLOAD])
    roll = services.roll_create(
        campaign=campaign_get_for_member(user=player, pk=campaign.pk),
        by=player,
        request=checks.RollRequest(characteristic="strength", skills=("melee",)),
        character_id=character.pk,
        idempotency_key=uuid.uuid4().hex,
        visibility=Visibility.PUBLIC,
        rng=random.Random(5),
    )
    type(roll).objects.filter(pk=roll.pk).update(label=PAYLOAD)
    roll.events.update(summary=PAYLOAD)
    ellipse_open(campaign=campaign, length_days=30)
    Notification.objects.create(
        user=player, campaign=campaign, kind="award", key="xss", text=PAYLOAD, link="/"
    )
    return {"campaign": campaign, "arc": arc, "session": play_session, "character": character}


def _pages(w) -> list[str]:
    c, arc, s, ch = w["campaign"].pk, w["arc"].pk, w["session"].pk, w["character"].pk
    return [
        "/",
        "/campaigns/",
        f"/campaigns/{c}/",
        f"/campaigns/{c}/settings/",
        f"/campaigns/{c}/members/",
        f"/campaigns/{c}/arcs/",
        f"/campaigns/{c}/arcs/{arc}/",
        f"/campaigns/{c}/arcs/{arc}/edit/",
        f"/campaigns/{c}/arcs/{arc}/experience/",
        f"/campaigns/{c}/sessions/",
        f"/campaigns/{c}/sessions/{s}/",
        f"/campaigns/{c}/sessions/{s}/edit/",
        f"/campaigns/{c}/compendium/",
        f"/campaigns/{c}/table/",
        f"/campaigns/{c}/progression/",
        f"/campaigns/{c}/ellipses/",
        f"/campaigns/{c}/characters/{ch}/experience/",
        f"/characters/{ch}/",
        f"/characters/{ch}/history/",
        "/notifications/",
    ]


def _visit_all(page, urls) -> None:
    dialogs, violations = [], []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    for url in urls:
        response = page.goto(url)
        assert response.status == 200, url
        page.wait_for_load_state("load")
        # Hovering every bold text would fire an onmouseover that got through.
        for bold in page.locator("main b, main strong").all()[:10]:
            bold.hover(timeout=2000)
        assert page.evaluate("typeof window.__xss") == "undefined", url
        assert page.locator(DANGEROUS).count() == 0, (url, page.locator(DANGEROUS).count())
    assert dialogs == []
    assert violations == [], violations


def test_the_payloads_are_shown_as_text_and_never_run_for_the_conteur(new_page, hostile_campaign):
    page = new_page()
    log_in(page, "conteur")
    _visit_all(page, _pages(hostile_campaign))
    # The text is there, readable, as typed.
    page.goto(f"/campaigns/{hostile_campaign['campaign'].pk}/")
    assert page.get_by_text("<script>__xss=1</script>", exact=False).count() > 0


def test_the_payloads_never_run_for_a_player(new_page, hostile_campaign):
    page = new_page()
    log_in(page, "aelis")
    pages = [
        url for url in _pages(hostile_campaign) if "/edit/" not in url and "settings" not in url
    ]
    pages = [url for url in pages if "/experience/" not in url or "characters" in url]
    _visit_all(page, pages)
