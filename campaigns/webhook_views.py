"""The campaign's webhook on its settings page (the Conteur only): set the address, send a test,
turn it back on after failures, remove it. Each POST redirects, or re-renders the section for
HTMX (`campaigns/settings.html#webhook`)."""

from __future__ import annotations

import copy

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns import selectors, webhooks
from campaigns.forms import CampaignForm, WebhookForm
from campaigns.policy import campaign_get_for_storyteller, explains_refusal
from common.htmx import HtmxHttpRequest


def webhook_context(campaign, form: WebhookForm | None = None, **extra) -> dict:
    """What the settings page's webhook section shows."""
    hook = selectors.webhook_for_campaign(campaign=campaign)
    if form is None:
        form = WebhookForm(initial={"url": hook.url} if hook else None)
    return {
        "webhook": hook,
        "webhook_form": form,
        "webhook_limit": settings.WEBHOOK_FAILURE_LIMIT,
        **extra,
    }


def _answer(request: HtmxHttpRequest, campaign, *, done: str = "", form=None, error: str = ""):
    """The section again for HTMX (with its message), else back to the settings page."""
    if request.htmx:
        context = webhook_context(campaign, form, webhook_done=done, webhook_error=error)
        context["campaign"] = campaign
        return render(request, "campaigns/settings.html#webhook", context)
    if form is not None and form.errors:
        return render(
            request,
            "campaigns/settings.html",
            {
                "campaign": campaign,
                "is_storyteller": True,
                "form": CampaignForm(instance=copy.copy(campaign)),
            }
            | webhook_context(campaign, form),
        )
    if error:
        messages.error(request, error)
    elif done:
        messages.success(request, done)
    return redirect("campaigns:settings", pk=campaign.pk)


def _conteur_post(view):
    """A POST of the Conteur on the section (404 for anyone else), its answer varying with
    HTMX."""
    return explains_refusal(login_required(require_POST(vary_on_headers("HX-Request")(view))))


def _acted(request: HtmxHttpRequest, campaign, act, done: str) -> HttpResponse:
    """Run `act` on the campaign's hook: its refusal shown, else `done`."""
    try:
        act(campaign=campaign)
    except ValidationError as error:
        return _answer(request, campaign, error=" ".join(error.messages))
    return _answer(request, campaign, done=done)


@_conteur_post
def webhook_save(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    form = WebhookForm(request.POST)
    if form.is_valid():
        try:
            webhooks.webhook_save(campaign=campaign, url=form.cleaned_data["url"])
        except ValidationError as error:
            form.add_error("url", error.message_dict.get("url", error.messages))
        else:
            return _answer(request, campaign, done=_("Webhook enregistré."))
    return _answer(request, campaign, form=form)


@_conteur_post
def webhook_test(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    done = _("Message de test envoyé : vérifiez le salon, puis actualisez cette page.")
    return _acted(request, campaign, webhooks.webhook_test, done)


@_conteur_post
def webhook_enable(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    return _acted(request, campaign, webhooks.webhook_enable, _("Webhook réactivé."))


@_conteur_post
def webhook_delete(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    done = _("Webhook supprimé : plus rien n'est publié.")
    return _acted(request, campaign, webhooks.webhook_delete, done)
