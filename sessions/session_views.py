"""The play sessions' pages: the list, planning one, its page, editing and deleting it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from campaigns import selectors as campaign_selectors
from campaigns import services as campaign_services
from campaigns.policy import (
    campaign_get_for_member,
    campaign_get_for_storyteller,
    explains_refusal,
    is_storyteller,
)
from common.htmx import HtmxHttpRequest
from sessions import selectors, services
from sessions.forms import PlaySessionForm


@login_required
@require_GET
def session_list(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "play_sessions": selectors.play_sessions_for_campaign(campaign=campaign),
    }
    return render(request, "sessions/session_list.html", context)


def _session_form_page(request, campaign, form, play_session=None) -> HttpResponse:
    return render(
        request,
        "sessions/session_form.html",
        {"campaign": campaign, "is_storyteller": True, "form": form, "play_session": play_session},
    )


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def session_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    initial = {}
    current_arc = campaign_selectors.arc_current(campaign=campaign)
    if current_arc is not None:
        initial["arc"] = current_arc.pk
    form = PlaySessionForm(request.POST or None, campaign=campaign, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            play_session = services.play_session_save(play_session=form.save(commit=False))
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request, _("Séance « %(title)s » planifiée.") % {"title": play_session}
            )
            return redirect("sessions:detail", pk=campaign.pk, session_pk=play_session.pk)
    return _session_form_page(request, campaign, form)


@login_required
@require_GET
def session_detail(request: HtmxHttpRequest, pk: int, session_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "play_session": selectors.play_session_get(campaign=campaign, pk=session_pk),
    }
    return render(request, "sessions/session_detail.html", context)


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def session_edit(request: HtmxHttpRequest, pk: int, session_pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    play_session = selectors.play_session_get(campaign=campaign, pk=session_pk)
    form = PlaySessionForm(request.POST or None, instance=play_session, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        try:
            play_session = services.play_session_save(play_session=form.save(commit=False))
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Séance enregistrée."))
            return redirect("sessions:detail", pk=campaign.pk, session_pk=play_session.pk)
    return _session_form_page(request, campaign, form, play_session)


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def session_delete(request: HtmxHttpRequest, pk: int, session_pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    play_session = selectors.play_session_get(campaign=campaign, pk=session_pk)
    if request.method == "POST":
        campaign_services.entry_delete(entry=play_session)
        messages.success(request, _("Séance « %(title)s » supprimée.") % {"title": play_session})
        return redirect("sessions:list", pk=campaign.pk)
    return render(
        request,
        "campaigns/confirm_delete.html",
        {
            "campaign": campaign,
            "is_storyteller": True,
            "object": play_session,
            "cancel_url": reverse("sessions:detail", args=[campaign.pk, play_session.pk]),
        },
    )
