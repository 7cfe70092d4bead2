"""What every action of the tracker does around its service (`views`, `spell_views`): run it,
turn its refusal into the French sentence shown, then answer with the tracker (HTMX, polling
the log at once) or a redirect to the page the form came from."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django_htmx.http import trigger_client_event

from campaigns.models import Campaign
from common.htmx import HtmxHttpRequest
from sessions.combat import selectors as cs
from sessions.table_access import POLL_NOW

BACK_TO = {"table": "sessions:table", "combat": "sessions:combat"}


def form_errors(form) -> str:
    """A bound form's errors as one French sentence, for the tracker's error line."""
    return " ".join(m for ms in form.errors.values() for m in ms)


def action_response(
    request: HtmxHttpRequest, campaign: Campaign, error: str | None
) -> HttpResponse:
    """After an action: the tracker again (HTMX, and the log polled at once), else a redirect
    to the page the form was on, with the error or nothing (the log says what happened)."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        back = BACK_TO.get(request.POST.get("back", ""), "sessions:combat")
        return redirect(back, pk=campaign.pk)
    context = {**cs.tracker_context(campaign, request.user), "combat_error": error}
    response = render(request, "sessions/combat_tracker.html", context)
    return trigger_client_event(response, POLL_NOW) if not error else response


def service_refusal(call) -> str | None:
    """Run a service; its refusal becomes the French sentence shown to the user."""
    try:
        call()
    except ValidationError as error:
        return " ".join(error.messages)
    except PermissionDenied as error:
        return str(error)
    return None


def tracker_action(request: HtmxHttpRequest, campaign: Campaign, form, act) -> HttpResponse:
    """A tracker's form posted: its shape errors, else `act(cleaned_data)` — the service, whose
    refusal is shown — then the tracker (`action_response`)."""
    if not form.is_valid():
        return action_response(request, campaign, form_errors(form))
    return action_response(request, campaign, service_refusal(lambda: act(form.cleaned_data)))
