"""The handouts' pages: « Documents remis » (the whole list, and the Conteur's form), the panel
the table page fetches (the same list, short), giving a handout, and a handout's image.

The table page (sessions) shows the panel through a template include that `hx-get`s it here and
refreshes it on the `handouts-changed` signal (static/js/live.js), never through a Python import.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns.models import Campaign
from campaigns.policy import campaign_get_for_member, is_storyteller
from common.htmx import HtmxHttpRequest
from world import handouts
from world.handout_forms import HandoutForm
from world.images import content_type_of
from world.models import Page
from world.visibility import pages_for

PANEL_SIZE = 5


def give_form(*, campaign: Campaign, user, pages=None, data=None) -> HandoutForm:
    """The Conteur's form, offering what may be given from `pages` (all the campaign's)."""
    if pages is None:
        pages = pages_for(user=user, campaign=campaign)
    return HandoutForm(data, campaign=campaign, choices=handouts.choices_for(pages=pages))


def _context(request, campaign: Campaign, form: HandoutForm | None = None, **extra) -> dict:
    storyteller = is_storyteller(campaign)
    rows = handouts.handouts_for(user=request.user, campaign=campaign)
    if storyteller and form is None:
        form = give_form(campaign=campaign, user=request.user)
    return {
        "campaign": campaign,
        "is_storyteller": storyteller,
        "handouts": rows,
        "give_form": form if storyteller else None,
        **extra,
    }


@login_required
@require_GET
@vary_on_headers("HX-Request")
def handout_list(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """« Documents remis »: the whole page, or (HTMX) the short panel the table page shows."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    context = _context(request, campaign, next=request.GET.get("next", ""))
    if request.htmx:
        context["handouts"] = context["handouts"][:PANEL_SIZE]
        return render(request, "world/handouts.html#panel", {**context, "in_panel": True})
    return render(request, "world/handouts.html", context)


def _next(request) -> str | None:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


@login_required
@require_POST
def handout_give(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Give a handout: back where the form was (the table, the page) for a normal request, the
    panel again for an HTMX one (with the form's errors, status 200)."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    page = _page_of_form(request, campaign)
    pages = None if page is None else [page]
    form = give_form(campaign=campaign, user=request.user, pages=pages, data=request.POST)
    given = None
    if form.is_valid():
        try:
            given = handouts.handout_give_choice(
                campaign=campaign,
                by=request.user,
                what=form.cleaned_data["what"],
                recipients=form.cleaned_data["recipients"],
            )
        except ValidationError as error:
            form.add_error(None, error)
    names = "" if given is None else _recipients(given)
    if not request.htmx:
        if given is not None:
            messages.success(
                request,
                _("« %(title)s » est remis à %(names)s.") % {"title": given.title, "names": names},
            )
            return redirect(_next(request) or "handouts:list", pk=pk)
        return render(request, "world/handouts.html", _context(request, campaign, form))
    if page is not None:  # the form of the page's own view
        if given is not None:
            form = give_form(campaign=campaign, user=request.user, pages=pages)
        context = {"show": True, "campaign": campaign, "page": page, "give_form": form}
        context |= {"given": given, "given_to": names, "next": _next(request) or ""}
        return render(request, "world/_page_handout.html", context)
    if given is not None:
        form = None  # a fresh form for the next handout
    context = _context(
        request, campaign, form, given=given, given_to=names, next=_next(request) or ""
    )
    context["handouts"] = context["handouts"][:PANEL_SIZE]
    return render(request, "world/handouts.html#panel", {**context, "in_panel": True})


def _recipients(handout) -> str:
    return ", ".join(sorted(user.get_username() for user in handout.recipients.all()))


def _page_of_form(request, campaign: Campaign) -> Page | None:
    """The page whose own view holds the form (its `page` field), or None for the table's."""
    value = request.POST.get("page", "")
    if not value.isdigit() or not is_storyteller(campaign):
        return None
    return Page.objects.filter(campaign_id=campaign.pk, pk=int(value)).first()


@login_required
@require_GET
def handout_image(request: HtmxHttpRequest, pk: int, handout_pk: int) -> FileResponse:
    """A handout's image, to its recipients and the Conteur only (404 for anyone else)."""
    handout = handouts.handout_get_for_member(user=request.user, campaign_id=pk, pk=handout_pk)
    if not handout.image:
        raise Http404(_("Image introuvable."))
    response = FileResponse(
        handout.image.open("rb"), content_type=content_type_of(handout.image.name)
    )
    response["Cache-Control"] = "private, max-age=3600"
    response["X-Content-Type-Options"] = "nosniff"
    return response
