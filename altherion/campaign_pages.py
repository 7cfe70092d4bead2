"""The campaign pages that gather every app: the dashboard and an arc's page.

They sit in the project layer because they show campaigns, characters and play sessions side by
side; each app's own pages stay in its `views.py`.
"""

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef, Subquery
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from campaigns import selectors as campaign_selectors
from campaigns.models import Arc, Campaign, Invitation, Membership
from campaigns.policy import campaign_get_for_member, is_storyteller
from characters.selectors import characters_for_campaign
from common.htmx import HtmxHttpRequest
from progression.models import Ellipse, EllipseStatus
from sessions import selectors as session_selectors
from sessions.models import MoralePool, PlaySession


@dataclass(frozen=True)
class FirstStep:
    """One step of a new campaign's checklist: what to do, where, and whether it is done.
    `post` means the link is an action (a button posting to `url`), not a page."""

    label: str
    hint: str
    url: str
    done: bool
    post: bool = False


@dataclass(frozen=True)
class Dashboard:
    members: list[Membership]
    current_arc: Arc | None
    next_session: PlaySession | None
    last_session: PlaySession | None
    hope: int  # the group's Moral pool
    despair: int
    ellipse: Ellipse | None  # the downtime in progress, if any
    first_steps: list[FirstStep]  # empty once every step is done (and always for players)


def campaign_dashboard(*, campaign: Campaign) -> Dashboard:
    """What the dashboard shows besides characters: members, the current arc and ellipse, the
    sessions, the Moral, and the Conteur's first steps. A fixed number of queries, whatever
    the rows: the Moral, the ellipse and the steps' flags come in one."""
    next_session, last_session = session_selectors.play_sessions_next_and_last(campaign=campaign)
    members = campaign_selectors.members_for_campaign(campaign=campaign)
    facts = _campaign_facts(campaign)
    steps = []
    if is_storyteller(campaign):
        steps = first_steps(
            campaign=campaign,
            has_entries=any(facts[f"has_{kind}"] for kind in _compendium()),
            has_players=len(members) > 1 or facts["invited"],
            has_session=bool(next_session or last_session),
        )
    ellipse = None
    if facts["ellipse_pk"] is not None:
        ellipse = Ellipse(
            pk=facts["ellipse_pk"],
            campaign=campaign,
            kind=facts["ellipse_kind"],
            length_days=facts["ellipse_length"],
            days_elapsed=facts["ellipse_elapsed"],
        )
    return Dashboard(
        members=members,
        current_arc=campaign_selectors.arc_current(campaign=campaign),
        next_session=next_session,
        last_session=last_session,
        hope=facts["hope"] or 0,
        despair=facts["despair"] or 0,
        ellipse=ellipse,
        first_steps=steps,
    )


def _compendium() -> dict[str, type]:
    return campaign_selectors.compendium_kind_models()


def _campaign_facts(campaign: Campaign) -> dict:
    """One query: whether each compendium section and an invitation exist, the Moral pool, and
    the open ellipse (at most one) with what the dashboard says of it."""
    pool = MoralePool.objects.filter(campaign=OuterRef("pk"))
    ellipse = Ellipse.objects.filter(campaign=OuterRef("pk"), status=EllipseStatus.OPEN)
    fields = {
        **{
            f"has_{kind}": Exists(model.objects.filter(campaign=OuterRef("pk")))
            for kind, model in _compendium().items()
        },
        "invited": Exists(Invitation.objects.filter(campaign=OuterRef("pk"))),
        "hope": Subquery(pool.values("hope")[:1]),
        "despair": Subquery(pool.values("despair")[:1]),
        "ellipse_pk": Subquery(ellipse.values("pk")[:1]),
        "ellipse_kind": Subquery(ellipse.values("kind")[:1]),
        "ellipse_length": Subquery(ellipse.values("length_days")[:1]),
        "ellipse_elapsed": Subquery(ellipse.values("days_elapsed")[:1]),
    }
    return Campaign.objects.filter(pk=campaign.pk).annotate(**fields).values(*fields).get()


def first_steps(
    *, campaign: Campaign, has_entries: bool, has_players: bool, has_session: bool
) -> list[FirstStep]:
    """The Conteur's checklist for a new campaign, or [] once all of it is done."""
    steps = [
        FirstStep(
            _("Charger les exemples du compendium"),
            _("Espèces, classes, aptitudes, atouts et handicaps d'exemple, à modifier ensuite."),
            reverse("campaigns:compendium_examples", args=[campaign.pk]),
            done=has_entries,
            post=True,
        ),
        FirstStep(
            _("Inviter des joueurs"),
            _("Un lien secret à envoyer à chaque joueur, ou à tout le groupe."),
            reverse("campaigns:invitations", args=[campaign.pk]),
            done=has_players,
        ),
        FirstStep(
            _("Planifier la première séance"),
            _("Sa date, son arc et son journal ; les joueurs la voient sur leur tableau de bord."),
            reverse("sessions:create", args=[campaign.pk]),
            done=has_session,
        ),
    ]
    return [] if all(step.done for step in steps) else steps


@login_required
@require_GET
def dashboard(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "dashboard": campaign_dashboard(campaign=campaign),
        "characters": characters_for_campaign(campaign=campaign, user=request.user),
    }
    return render(request, "campaigns/dashboard.html", context)


@login_required
@require_GET
def arc_detail(request: HtmxHttpRequest, pk: int, arc_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    arc = campaign_selectors.arc_get(campaign=campaign, pk=arc_pk)
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "arc": arc,
        "play_sessions": session_selectors.play_sessions_for_arc(arc=arc),
    }
    return render(request, "campaigns/arc_detail.html", context)
