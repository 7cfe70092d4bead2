"""The campaign pages that gather every app: the dashboard and an arc's page.

They sit in the project layer because they show campaigns, characters and play sessions side by
side; each app's own pages stay in its `views.py`.
"""

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns import selectors as campaign_selectors
from campaigns.models import Arc, Campaign, Membership
from campaigns.policy import campaign_get_for_member, is_storyteller
from characters.selectors import characters_for_campaign
from common.htmx import HtmxHttpRequest
from sessions import selectors as session_selectors
from sessions.models import PlaySession


@dataclass(frozen=True)
class Dashboard:
    members: list[Membership]
    current_arc: Arc | None
    next_session: PlaySession | None
    last_session: PlaySession | None


def campaign_dashboard(*, campaign: Campaign) -> Dashboard:
    """What the dashboard shows besides characters: members, the current arc, the sessions."""
    next_session, last_session = session_selectors.play_sessions_next_and_last(campaign=campaign)
    return Dashboard(
        members=campaign_selectors.members_for_campaign(campaign=campaign),
        current_arc=campaign_selectors.arc_current(campaign=campaign),
        next_session=next_session,
        last_session=last_session,
    )


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
