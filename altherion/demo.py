"""The demo data `manage.py seed_demo` loads: known logins for trying the app locally."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

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
def demo_seed():
    """The whole demo, every app's part in order; safe to run again. Returns the campaign."""
    from campaigns.demo import demo_campaign_seed
    from characters.demo import demo_characters_seed
    from sessions.demo import demo_sessions_seed

    users = demo_users_seed()
    campaign = demo_campaign_seed(users=users)
    demo_sessions_seed(campaign=campaign)
    demo_characters_seed(campaign=campaign, users=users)
    return campaign
