"""Who may do what in a campaign: the one policy that pages and the API both use.

A non-member gets 404 for anything in a campaign (its existence is never revealed); members read;
only the Conteur manages. Every request asks the database (one indexed query for the membership
and its campaign), so removing a membership removes access at once.
"""

from functools import wraps

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Membership, Role

ROW_ID_MAX = 2**63 - 1  # a 64-bit key's largest: a larger id names no row


def membership_get(*, user, campaign_id: int) -> Membership | None:
    """The user's membership of the campaign, its campaign joined in; None for a non-member."""
    if not user.is_authenticated or not 0 < campaign_id <= ROW_ID_MAX:
        return None
    found = Membership.objects.select_related("campaign").filter(
        campaign_id=campaign_id, user_id=user.pk
    )[:1]
    return next(iter(found), None)


def campaign_get_for_member(*, user, pk: int) -> Campaign:
    """The campaign, with `.membership` set to the user's; 404 for anyone else."""
    membership = membership_get(user=user, campaign_id=pk)
    if membership is None:
        raise Http404(_("Campagne introuvable."))
    campaign = membership.campaign
    campaign.membership = membership
    return campaign


def campaign_get_for_storyteller(*, user, pk: int) -> Campaign:
    """The campaign if the user is its Conteur; 404 for non-members, 403 for players."""
    campaign = campaign_get_for_member(user=user, pk=pk)
    require_storyteller(campaign)
    return campaign


def require_storyteller(campaign: Campaign) -> None:
    if campaign.membership.role != Role.STORYTELLER:
        raise PermissionDenied(_("Seul le Conteur de la campagne peut faire cela."))


def is_storyteller(campaign: Campaign) -> bool:
    return campaign.membership.role == Role.STORYTELLER


def explains_refusal(view):
    """A player on a Conteur-only page gets a 403 page in French saying why, with a way back."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except PermissionDenied as error:
            context = {"message": str(error), "campaign_pk": kwargs.get("pk")}
            return render(request, "campaigns/forbidden.html", context, status=403)

    return wrapper
