"""The demo campaign `manage.py seed_demo` loads: a Conteur, two players, the compendium, the
current arc and the past one (closed and paid by `progression.demo`)."""

from django.db import transaction

from campaigns.models import Arc, Campaign, Membership, Role
from campaigns.services import campaign_create, compendium_examples_load, entry_save

DEMO_CAMPAIGN = "Les Brumes d'Emeshar"
DEMO_ARC = "Le phare éteint"
DEMO_PAST_ARC = "La Mouette échouée"


@transaction.atomic
def demo_campaign_seed(*, users: dict) -> Campaign:
    """Create the demo campaign once (found again by name and Conteur on later runs)."""
    storyteller = users["conteur"]
    campaign = Campaign.objects.filter(
        name=DEMO_CAMPAIGN,
        memberships__user=storyteller,
        memberships__role=Role.STORYTELLER,
    ).first()
    if campaign is None:
        campaign = campaign_create(
            creator=storyteller,
            name=DEMO_CAMPAIGN,
            description=(
                "Sur la côte d'Emeshar, les brumes montent chaque nuit un peu plus loin "
                "dans les terres. Le phare de Vael s'est éteint."
            ),
        )
    for username in ("aelis", "brann"):
        Membership.objects.get_or_create(
            campaign=campaign, user=users[username], defaults={"role": Role.PLAYER}
        )
    compendium_examples_load(campaign=campaign)
    arc = Arc.objects.filter(campaign=campaign, title=DEMO_ARC).first()
    if arc is None:
        arc = entry_save(
            entry=Arc(
                campaign=campaign,
                title=DEMO_ARC,
                summary="Découvrir pourquoi le phare de Vael s'est éteint.",
                length_unit="days",
            )
        )
    return campaign


@transaction.atomic
def demo_past_arc_seed(*, campaign: Campaign) -> tuple[Arc, bool]:
    """The arc played before the current one (it is closed and paid by the progression's demo).
    Returns it and whether it was made now: the story around it is played only then."""
    arc = Arc.objects.filter(campaign=campaign, title=DEMO_PAST_ARC).first()
    if arc is not None:
        return arc, False
    arc = entry_save(
        entry=Arc(
            campaign=campaign,
            title=DEMO_PAST_ARC,
            summary="La *Mouette* s'échoue sur les récifs : gagner Vael à travers la brume.",
            closes="chapter",
            length_unit="days",
        )
    )
    return arc, True
