"""The demo data `manage.py seed_demo` loads: known logins for trying the app locally."""

import logging
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

logger = logging.getLogger(__name__)

DEMO_PASSWORD = "altherion-demo"


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    role: str


DEMO_USERS = (
    DemoLogin("conteur", DEMO_PASSWORD, "Conteur"),
    DemoLogin("aelis", DEMO_PASSWORD, "Joueuse"),
    DemoLogin("brann", DEMO_PASSWORD, "Joueur"),
)


@transaction.atomic
def demo_users_seed() -> dict[str, object]:
    """Create (or reset the passwords of) the demo users; returns them by username."""
    user_model = get_user_model()
    users = {}
    for demo in DEMO_USERS:
        user, _ = user_model.objects.get_or_create(username=demo.username)
        if not user.check_password(demo.password):
            user.set_password(demo.password)
            user.save(update_fields=["password"])
        users[demo.username] = user
    return users


@transaction.atomic
def demo_seed(*, story: bool = True):
    """The whole demo, every app's part in order; safe to run again. Returns the campaign.

    With `story`, the campaign is in mid-play: a past arc played (rolls, Moral), closed and paid,
    the current arc with a session played, and an ellipse whose trainings run. The story is
    played once, when its arc is made: a second run changes nothing."""
    from campaigns.demo import demo_campaign_seed
    from characters.demo import demo_characters_seed
    from sessions.demo import demo_sessions_seed
    from world.demo import demo_world_seed

    users = demo_users_seed()
    campaign = demo_campaign_seed(users=users)
    demo_sessions_seed(campaign=campaign)
    demo_characters_seed(campaign=campaign, users=users)
    demo_world_seed(campaign=campaign, storyteller=users["conteur"])
    if story:
        try:
            with transaction.atomic():
                demo_story_seed(campaign=campaign, users=users)
        except ValidationError as error:
            # An older demo someone has played in (an ellipse already open, a character deleted)
            # keeps its state: the story is skipped, the logins still work.
            logger.warning("demo story not played: %s", " ".join(error.messages))
    return campaign


@transaction.atomic
def demo_story_seed(*, campaign, users: dict) -> None:
    """Play the demo's story through the services, in the order it happened at the table."""
    from campaigns.demo import demo_past_arc_seed
    from characters.models import Character
    from progression.demo import demo_award_seed, demo_ellipse_seed
    from sessions import demo as table
    from sessions.models import PlaySession

    past_arc, made = demo_past_arc_seed(campaign=campaign)
    if not made:
        return  # played on an earlier run
    players = set(
        Character.objects.filter(campaign=campaign).values_list("owner__username", flat=True)
    )
    if not {"aelis", "brann"} <= players:
        raise ValidationError("Les personnages de démonstration manquent.")  # rolls the arc back
    past_session = table.demo_past_session_seed(campaign=campaign, arc=past_arc)
    table.demo_rolls_play(
        campaign=campaign, users=users, play_session=past_session, rolls=table.PAST_SESSION_ROLLS
    )
    table.demo_morale_play(campaign=campaign, users=users, moves=table.PAST_SESSION_MORALE)
    demo_award_seed(arc=past_arc, by=users["conteur"])
    current_session = PlaySession.objects.filter(
        campaign=campaign, title=table.DEMO_CURRENT_SESSION
    ).first()
    table.demo_rolls_play(
        campaign=campaign,
        users=users,
        play_session=current_session,
        rolls=table.CURRENT_SESSION_ROLLS,
    )
    table.demo_morale_play(campaign=campaign, users=users, moves=table.CURRENT_SESSION_MORALE)
    table.demo_fight_play(campaign=campaign, users=users, play_session=current_session)
    demo_ellipse_seed(campaign=campaign, storyteller=users["conteur"])
