"""Issue 13 §9 and §7, what a player notices: the ellipse's rest for every character (Fragilité,
Épuisement), Surcharge XP, carried-over trainings, spending XP with a hope point through the
table's log, leftover experience distributed in a special state, one opposition level for every
skill and forgotten domain."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import Arc
from characters.models import Character, CharacterSkill, SkillKind
from progression import awards, ellipses, experience, trainings
from progression.models import Training, TrainingStatus, XpEntry, XpEntryKind
from sessions.models import TableEvent, TableEventKind
from tests.character_fixtures import *  # noqa: F403 (fixtures: the sheet factories)

GROUP = {"danger": 3, "ending": "none", "length": "weeks"}  # (3 + 2) × 3 = 15 XP each


@pytest.fixture
def hero(campaign, player):
    character = Character.objects.create(campaign=campaign, owner=player, name="Aelis")
    CharacterSkill.objects.create(character=character, key="melee", level=2)
    return character


@pytest.fixture
def awarded(campaign, hero, storyteller, django_capture_on_commit_callbacks):
    """An arc closed and paid: 15 XP, strength and melee used, an opposition of level 5."""
    arc = Arc.objects.create(campaign=campaign, title="Arc", length_unit="weeks")
    ticks = {"bounty": ["took_part"], "used": ["strength", "melee"], "opposition_level": 5}
    with django_capture_on_commit_callbacks(execute=True):
        awards.arc_award_confirm(
            arc=arc,
            checklist={"group": GROUP, "characters": {str(hero.pk): ticks}},
            by=storyteller,
        )
    return arc


def close(ellipse, capture, key="close"):
    with capture(execute=True):
        ellipses.advance_request(ellipse=ellipse, key=key, closes=True)
    ellipse.refresh_from_db()
    return ellipse


def test_a_character_who_trained_all_along_also_rests_at_the_ellipse_end(
    campaign, hero, awarded, player, django_capture_on_commit_callbacks
):
    # §11 "Major: … lower thresholds X times … X = weeks of rest / 2": 98 days = 14 weeks, X = 7.
    Character.objects.filter(pk=hero.pk).update(fragility=3)
    ellipse = ellipses.ellipse_open(campaign=campaign, length_days=98)
    trainings.training_queue(
        character=hero, ellipse=ellipse, kind="skill", target="melee", by=player
    )  # 120 days alone: it runs the whole ellipse
    close(ellipse, django_capture_on_commit_callbacks)
    hero.refresh_from_db()
    assert hero.fragility == 0
    assert hero.changes.filter(field="fragility", new_value=0).exists()
    # The skill did not finish: it carries over, with its days done (Reading §11).
    still = Training.objects.get(character=hero)
    assert still.status == TrainingStatus.RUNNING and still.days_done == 98


def test_a_minor_ellipse_rest_clears_exhaustion(
    campaign, hero, awarded, django_capture_on_commit_callbacks
):
    # §11 "Minor: … rest to clear Épuisement"; §8 "a full rest of [Épuisement] days with no
    # wounds removes 1 point": 7 days clear 3 points (3 + 2 + 1 days).
    Character.objects.filter(pk=hero.pk).update(exhaustion=3, fragility=2)
    ellipse = close(
        ellipses.ellipse_open(campaign=campaign, length_days=7), django_capture_on_commit_callbacks
    )
    hero.refresh_from_db()
    assert (hero.exhaustion, hero.fragility) == (0, 2)  # a minor ellipse lowers no threshold
    assert {"character": "Aelis", "exhaustion": -3} in ellipse.advances.get().summary["rest"]
    note = hero.owner.notifications.filter(key__contains=f"ellipse:{ellipse.pk}:end").get()
    assert "3 points d'Épuisement" in note.text


def test_surcharge_weeks_add_ellipse_xp(
    campaign, hero, storyteller, clients, django_capture_on_commit_callbacks
):
    # §11: "surcharge +1 per week at most when the character inflicts on itself 20 serious
    # wounds that week" (« Surcharge : 1 point d'expérience … maximum 1 point/semaine »).
    ellipse = ellipses.ellipse_open(campaign=campaign, length_days=21)  # 3 weeks
    url = reverse("progression:ellipse_xp_trainer", args=[campaign.pk, ellipse.pk])
    response = clients["storyteller"].post(
        url, {"character": hero.pk, "trainer": "superior", "surcharge_weeks": "2"}
    )
    assert response.status_code == 302
    with pytest.raises(ValidationError, match="entre 0 et 3"):
        ellipses.ellipse_set_xp_trainer(
            ellipse=ellipse, character_id=hero.pk, trainer="free", surcharge_weeks=4
        )
    close(ellipse, django_capture_on_commit_callbacks)
    entry = XpEntry.objects.get(character=hero, kind=XpEntryKind.ELLIPSE)
    assert entry.amount == 3 * 2 + 2
    assert entry.breakdown[-1] == {"label": "Surcharge : 2 semaines", "points": 2}


def test_surcharge_weeks_through_the_api(campaign, hero, storyteller, clients):
    ellipse = ellipses.ellipse_open(campaign=campaign, length_days=14)
    url = reverse(
        "progression_api:ellipse-xp-trainer",
        kwargs={"campaign_id": campaign.pk, "ellipse_id": ellipse.pk},
    )
    client = clients["storyteller"]
    body = {"character": hero.pk, "trainer": "free", "surcharge_weeks": 1}
    response = client.post(url, body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["surcharge_weeks"] == {str(hero.pk): 1}


def test_spending_xp_with_a_hope_point_lowers_hope_through_the_table_log(
    campaign, hero, awarded, player
):
    # §10 "with a hope point"; Reading: the character's own, spent by the Moral's rules.
    Character.objects.filter(pk=hero.pk).update(personal_hope=1)
    experience.xp_spend(
        character=hero, kind="skill", target="melee", mode="hope", key="k1", by=player
    )
    hero.refresh_from_db()
    assert hero.personal_hope == 0 and hero.skills.get(key="melee").level == 3
    event = TableEvent.objects.get(campaign=campaign, kind=TableEventKind.MORALE)
    assert event.character_id == hero.pk and event.actor_id == player.pk
    assert event.payload["move"]["action"] == "spend_hope"
    assert event.payload["move"]["source"] == "personal"
    assert [e["kind"] for e in event.payload["events"]] == ["hope_spent"]
    assert "Expérience dépensée" in event.summary
    assert hero.changes.filter(field="personal_hope", old_value=1, new_value=0).exists()


def test_without_personal_hope_nothing_is_spent_nor_logged(campaign, hero, awarded, player):
    with pytest.raises(ValidationError, match="point d'espoir personnel"):
        experience.xp_spend(
            character=hero, kind="skill", target="melee", mode="hope", key="k1", by=player
        )
    assert not TableEvent.objects.filter(campaign=campaign).exists()
    assert not XpEntry.objects.filter(character=hero, kind=XpEntryKind.SPEND).exists()


def test_leftover_experience_may_be_distributed_in_a_special_state(
    campaign, hero, awarded, player, clients
):
    # §7: "Common effects of Zone, Acharnement, Flamboyance and Apaisement: … leftover
    # experience may be distributed."
    page = reverse("progression:character_experience", args=[campaign.pk, hero.pk])
    assert 'value="special_state"' not in clients["player"].get(page).content.decode()
    with pytest.raises(ValidationError, match="état spécial"):
        experience.xp_spend(
            character=hero,
            kind="characteristic",
            target="strength",
            mode="special_state",
            key="k0",
            by=player,
        )
    Character.objects.filter(pk=hero.pk).update(special_state="fury")
    assert 'value="special_state"' in clients["player"].get(page).content.decode()
    entry = experience.xp_spend(
        character=hero,
        kind="characteristic",
        target="strength",
        mode="special_state",
        key="k1",
        by=player,
    )
    hero.refresh_from_db()
    assert hero.strength == 3 and entry.amount == -5 and "état spécial" in entry.label
    assert not Training.objects.filter(character=hero).exists()  # no training time


def test_the_arc_opposition_level_also_counts_for_forgotten_domains(
    campaign, hero, storyteller, django_capture_on_commit_callbacks
):
    # §10: "forgotten domain 25 (… same opposition condition as skills)".
    CharacterSkill.objects.create(
        character=hero, key="astrologie", level=3, kind=SkillKind.FORGOTTEN_DOMAIN
    )
    arc = Arc.objects.create(campaign=campaign, title="Arc", length_unit="years")
    group = {"danger": 5, "ending": "act", "length": "years"}  # (5 + 2 + 2) × 5 = 45 XP
    ticks = {"bounty": ["took_part"], "used": ["astrologie"], "opposition_level": 3}
    with django_capture_on_commit_callbacks(execute=True):
        awards.arc_award_confirm(
            arc=arc, checklist={"group": group, "characters": {str(hero.pk): ticks}}, by=storyteller
        )
    options = experience.spending_options(character=Character.objects.get(pk=hero.pk))
    domain = next(o for o in options if o.kind == "forgotten_domain")
    assert domain.allowed, domain.reasons


def test_a_characteristic_is_improved_up_to_the_rules_cap_not_the_model_one(
    campaign, hero, awarded, player
):
    # §1: "maximum 8 + the species' favourite bonus for it" (the model accepts up to 20).
    Character.objects.filter(pk=hero.pk).update(strength=8)
    with pytest.raises(ValidationError, match=r"déjà au plus haut \(8\)"):
        experience.xp_spend(
            character=hero,
            kind="characteristic",
            target="strength",
            mode="on_receipt",
            key="k1",
            by=player,
        )
    hero.refresh_from_db()
    assert hero.strength == 8
    assert not XpEntry.objects.filter(character=hero, kind=XpEntryKind.SPEND).exists()
