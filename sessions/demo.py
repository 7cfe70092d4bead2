"""The demo campaign's play sessions: one played last week, one planned next week."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from campaigns.demo import DEMO_ARC
from campaigns.models import Arc, Campaign
from campaigns.services import entry_save
from sessions.models import PlaySession


@transaction.atomic
def demo_sessions_seed(*, campaign: Campaign) -> None:
    """Plan the demo's two sessions once (nothing more on later runs)."""
    arc = Arc.objects.filter(campaign=campaign, title=DEMO_ARC).first()
    if not PlaySession.objects.filter(campaign=campaign).exists():
        now = timezone.now().replace(minute=0, second=0, microsecond=0)
        entry_save(
            entry=PlaySession(
                campaign=campaign,
                arc=arc,
                title="Arrivée à Vael",
                scheduled_at=now - timedelta(days=7),
                notes=(
                    "Le groupe arrive au port de **Vael**.\n\n"
                    "- Aelis interroge la gardienne du phare\n"
                    "- Brann remarque des traces dans la brume"
                ),
            )
        )
        entry_save(
            entry=PlaySession(
                campaign=campaign,
                arc=arc,
                title="Le phare éteint",
                scheduled_at=now + timedelta(days=7),
            )
        )
