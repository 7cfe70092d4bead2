"""The table page: the roll form with live odds, the log (polled with a cursor), the Moral panel.

Every view works without JavaScript (plain forms and links, redirects after a POST); HTMX
re-renders fragments: the POST of a roll returns its row (`_roll_row.html`, the same template as
the page loop and the poll), the poll returns new rows or 204, and the Moral panel refreshes on a
`morale-changed` event the poll and the Moral actions send with HX-Trigger.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import reswap, retarget, trigger_client_event

from campaigns.models import Campaign
from campaigns.policy import (
    campaign_get_for_member,
    is_storyteller,
)
from common.htmx import HtmxHttpRequest
from rules import states as rules_states
from rules.odds import check_odds
from sessions import exhaustion, fortune, selectors, services
from sessions.checks import check_prepare
from sessions.combat import selectors as combat_selectors
from sessions.forms import (
    ConsequenceForm,
    FateSpendForm,
    FortuneAnswerForm,
    FortuneRequestForm,
    MoraleForm,
    RollForm,
    fresh_key,
)
from sessions.injuries import open_injuries_in, roller_injuries
from sessions.log_rows import decorate, group_if_needed
from sessions.models import PlaySession, TableEvent, TableEventKind
from sessions.morale import group_of
from sessions.table_access import MORALE_CHANGED, POLL_NOW, table_login_required


def _int(value) -> int | None:
    """A query-string id, or None if absent or not one the database could hold."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if 0 <= number < 10**18 else None


def _play_session(campaign: Campaign, session_pk: int | None) -> PlaySession | None:
    if session_pk is None:
        return None
    return get_object_or_404(PlaySession, campaign=campaign, pk=session_pk)


def _table_url(campaign: Campaign, play_session: PlaySession | None) -> str:
    if play_session is not None:
        return reverse("sessions:session_table", args=[campaign.pk, play_session.pk])
    return reverse("sessions:table", args=[campaign.pk])


def _roll_form(request, campaign, characters, data=None, initial=None, injuries=None) -> RollForm:
    return RollForm(
        data,
        initial=initial,
        characters=characters,
        storyteller=is_storyteller(campaign),
        injuries=selectors.hindering_injuries(characters) if injuries is None else injuries,
    )


def _odds_context(form: RollForm, characters) -> dict:
    """Exact odds of the declared check, and the dice the sheet adds with their cause."""
    if not form.is_valid():
        return {"odds_errors": form.errors}
    by_pk = {c.pk: c for c in characters}
    character_pk = form.cleaned_data.get("character")
    character = by_pk.get(character_pk) if character_pk else None
    request = form.roll_request()
    try:
        prepared = check_prepare(
            request=request,
            character=character,
            state=rules_states.FURY if request.fury else None,
            injuries=roller_injuries(character, request.injuries),
        )
    except ValidationError as error:
        return {"odds_errors": {"": error.messages}}
    return {"odds": check_odds(prepared.check), "prepared": prepared}


@login_required
@require_GET
@vary_on_headers("HX-Request")
def table_page(request: HtmxHttpRequest, pk: int, session_pk: int | None = None) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    play_session = _play_session(campaign, session_pk)
    characters = selectors.characters_for_roller(campaign=campaign, user=request.user)
    character_filter = _int(request.GET.get("filter"))
    before = _int(request.GET.get("before"))
    events = selectors.events_for_user(
        campaign=campaign, user=request.user, before=before, character_id=character_filter
    )
    group = group_of(campaign.pk)
    # The roll form's injuries and the Moral panel's, read once for both.
    wounds = open_injuries_in(campaign.pk, {c.pk for c in characters} | {c.pk for c in group})
    injuries = selectors.hindering_injuries(characters, wounds)
    form, odds_form = _page_roll_forms(request, campaign, characters, injuries)
    decorate(events, storyteller=is_storyteller(campaign))
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "play_session": play_session,
        "table_url": _table_url(campaign, play_session),
        "form": form,
        "characters": characters,
        "group": group,
        "events": events,
        "cursor": events[0].pk if events and before is None else 0,
        "before": before,
        "older": events[-1].pk if len(events) == selectors.LOG_PAGE else None,
        "character_filter": character_filter,
        "panel": selectors.morale_panel(
            campaign=campaign, user=request.user, group=group, wounds=wounds
        ),
        "own_event": _newest_own_roll(events, request.user) if before is None else None,
        **_odds_context(odds_form, characters),
        **combat_selectors.tracker_context(campaign, request.user),
    }
    template = "sessions/page.html"
    if request.htmx and before is not None:
        template += "#older"
    return render(request, template, context)


def _page_roll_forms(
    request, campaign: Campaign, characters, injuries
) -> tuple[RollForm, RollForm]:
    """The page's roll form and the form its odds are computed for: the same one when the page
    comes back from « Calculer les chances » without JavaScript, else the form prefilled from
    the query (a sheet's link) and its defaults."""
    if "idempotency_key" in request.GET:
        form = _roll_form(request, campaign, characters, data=request.GET, injuries=injuries)
        return form, form
    initial = {"character": _int(request.GET.get("character"))}
    if request.GET.get("skill"):
        initial["skills"] = [request.GET["skill"]]
    if request.GET.get("characteristic"):
        initial["characteristic"] = request.GET["characteristic"]
    if initial["character"] is None and characters and not is_storyteller(campaign):
        initial["character"] = characters[0].pk
    form = _roll_form(request, campaign, characters, initial=initial, injuries=injuries)
    defaults = {**form.initial, **_form_defaults(form)}
    return form, _roll_form(request, campaign, characters, data=defaults, injuries=injuries)


def _newest_own_roll(events: list[TableEvent], user) -> TableEvent | None:
    """The newest roll this user made among the rows shown, for the result under « Lancer »."""
    return next(
        (
            e
            for e in events
            if e.kind == TableEventKind.ROLL and e.roll is not None and e.actor_id == user.pk
        ),
        None,
    )


def _form_defaults(form: RollForm) -> dict:
    return {
        name: field.initial
        for name, field in form.fields.items()
        if field.initial is not None and name not in form.initial
    }


@table_login_required
@require_GET
@vary_on_headers("HX-Request")
def table_odds(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The odds fragment for the form's current values (the form sends them on every change)."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    if not request.htmx:  # without JavaScript the page itself shows the odds of the form
        return redirect(f"{reverse('sessions:table', args=[pk])}?{request.GET.urlencode()}")
    characters = selectors.characters_for_roller(campaign=campaign, user=request.user)
    form = _roll_form(request, campaign, characters, data=request.GET)
    # The preview sends only what the odds need: never the CSRF token nor the roll's key.
    form.fields["idempotency_key"].required = False
    context = {"campaign": campaign, **_odds_context(form, characters)}
    return render(request, "sessions/page.html#odds", context)


@login_required
@require_POST
def roll_create(request: HtmxHttpRequest, pk: int, session_pk: int | None = None) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    play_session = _play_session(campaign, session_pk)
    characters = selectors.characters_for_roller(campaign=campaign, user=request.user)
    form = _roll_form(request, campaign, characters, data=request.POST)
    roll = None
    if form.is_valid():
        try:
            roll = services.roll_create(
                campaign=campaign,
                by=request.user,
                request=form.roll_request(),
                character_id=form.cleaned_data.get("character"),
                idempotency_key=form.cleaned_data["idempotency_key"],
                visibility=form.cleaned_data["visibility"],
                play_session=play_session,
            )
        except ValidationError as error:
            form.add_error(None, error)
    if roll is None:
        if request.htmx:
            response = render(
                request,
                "sessions/page.html#roll-form",
                {
                    "campaign": campaign,
                    "form": form,
                    "table_url": _table_url(campaign, play_session),
                },
            )
            return reswap(retarget(response, "#roll-form"), "outerHTML")
        messages.error(request, " ".join(m for ms in form.errors.values() for m in ms))
        return redirect(_table_url(campaign, play_session))
    # A new roll carries its log line; a replayed one reads it.
    event = getattr(roll, "log_event", None) or (
        roll.events.select_related("roll", "actor", "character").first()
    )
    if not request.htmx:
        messages.success(request, event.summary)
        return redirect(_table_url(campaign, play_session))
    response = render(
        request,
        "sessions/_roll_row.html",
        {
            "event": decorate([event], storyteller=is_storyteller(campaign))[0],
            "campaign": campaign,
            "is_storyteller": is_storyteller(campaign),
            "group": selectors.player_characters(campaign),  # read only by the Conteur's form
            "new_key": fresh_key(),
        },
    )
    response = trigger_client_event(response, POLL_NOW)
    if _spent_morale(roll):
        response = trigger_client_event(response, MORALE_CHANGED)
    return response


def _spent_morale(roll) -> bool:
    inputs = roll.inputs
    return bool(
        inputs.get("hope")
        or inputs.get("cancel_critical_failure")
        or inputs.get("substitute")
        or inputs.get("narrow_success")
        or inputs.get("fury")
        or inputs.get("fortune_fate")
    )


@table_login_required
@require_GET
@vary_on_headers("HX-Request")
def table_poll(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """New log rows after the cursor `?after=<id>` (newest first, the oldest POLL_LIMIT of them),
    or 204: what a page asks while its event stream is down. `X-Table-Cursor` carries the
    newest id sent; `morale-changed` and `combat-changed` are triggered when the Moral or the
    fight moved."""
    after = _int(request.GET.get("after")) or 0
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    events = selectors.events_for_user(
        campaign=campaign,
        user=request.user,
        after=after,
        character_id=_int(request.GET.get("filter")),
        limit=selectors.POLL_LIMIT,
    )
    if not events:
        return _nothing_new(after)
    decorate(events, storyteller=is_storyteller(campaign))
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "events": events,
        # The victims a critical's control offers: read only when the Conteur has one to apply.
        "group": group_if_needed(campaign, events),
    }
    response = render(request, "sessions/page.html#log-rows", context)
    response["X-Table-Cursor"] = str(events[0].pk)
    if selectors.has_morale_event(events):
        response = trigger_client_event(response, MORALE_CHANGED)
    if combat_selectors.has_combat_event(events):
        response = trigger_client_event(response, combat_selectors.COMBAT_CHANGED)
    return response


def _nothing_new(after: int) -> HttpResponse:
    response = HttpResponse(status=204)
    response["X-Table-Cursor"] = str(after)
    return response


def _morale_context(request: HtmxHttpRequest, campaign: Campaign, **extra) -> dict:
    return {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "panel": selectors.morale_panel(campaign=campaign, user=request.user),
        **extra,
    }


def _morale_answer(
    request: HtmxHttpRequest, campaign: Campaign, error: str | None, forms: dict | None = None
) -> HttpResponse:
    """The Moral panel after one of its writes (HTMX): the refusal shown, or the log polled at
    once for what the write told."""
    context = _morale_context(request, campaign, morale_error=error, **(forms or {}))
    response = render(request, "sessions/page.html#morale", context)
    return trigger_client_event(response, POLL_NOW) if not error else response


@table_login_required
@require_GET
@vary_on_headers("HX-Request")
def morale_panel(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    if not request.htmx:
        return redirect("sessions:table", pk=pk)
    return render(request, "sessions/page.html#morale", _morale_context(request, campaign))


@login_required
@require_POST
def morale_action(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    group = list(selectors.player_characters(campaign))
    form = MoraleForm(request.POST, characters=group)
    error = None
    if form.is_valid():
        try:
            change = services.morale_change(
                campaign=campaign, by=request.user, **form.service_kwargs()
            )
        except ValidationError as exc:
            error = " ".join(exc.messages)
    else:
        error = " ".join(m for ms in form.errors.values() for m in ms)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, change.event.summary)
        return redirect("sessions:table", pk=pk)
    return _morale_answer(request, campaign, error)


def _panel_write(request: HtmxHttpRequest, campaign: Campaign, form, write, form_name: str):
    """Run one write of the Moral panel from its form: the panel comes back (HTMX, with the
    form kept on an error) or the page (redirect, with a message)."""
    error = event = None
    if form.is_valid():
        try:
            event = write(campaign=campaign, by=request.user, **form.service_kwargs())
        except ValidationError as exc:
            error = " ".join(exc.messages)
    else:
        error = " ".join(m for ms in form.errors.values() for m in ms)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, event.summary)
        return redirect("sessions:table", pk=campaign.pk)
    return _morale_answer(request, campaign, error, {form_name: form if error else None})


@login_required
@require_POST
def fate_spend(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The Conteur spends Fatalité (§14)."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    return _panel_write(
        request, campaign, FateSpendForm(request.POST), fortune.fate_spend, "fate_form"
    )


@login_required
@require_POST
def fortune_request(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A player asks the Conteur to spend Fortune points (§14)."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    form = FortuneRequestForm(request.POST)
    return _panel_write(request, campaign, form, fortune.fortune_request, "fortune_form")


@login_required
@require_POST
def fortune_answer(request: HtmxHttpRequest, pk: int, event_pk: int) -> HttpResponse:
    """The Conteur accepts or refuses a pending Fortune request (§14)."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    if not selectors.fortune_request_exists(campaign=campaign, pk=event_pk):
        raise Http404

    def answer(**kwargs):
        return fortune.fortune_answer(request_id=event_pk, **kwargs)

    return _panel_write(request, campaign, FortuneAnswerForm(request.POST), answer, "answer_form")


@login_required
@require_POST
def consequence_apply(request: HtmxHttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    form = ConsequenceForm(request.POST)
    error = None
    if form.is_valid():
        try:
            services.consequence_apply(
                campaign=campaign, by=request.user, roll_id=roll_pk, **form.service_kwargs()
            )
        except ValidationError as exc:
            error = " ".join(exc.messages)
    else:
        error = " ".join(m for ms in form.errors.values() for m in ms)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("sessions:table", pk=pk)
    event = (
        TableEvent.objects.filter(campaign=campaign, roll_id=roll_pk, kind=TableEventKind.ROLL)
        .select_related("roll", "actor", "character")
        .first()
    )
    response = render(
        request,
        "sessions/_roll_row.html",
        {
            "event": decorate([event], storyteller=is_storyteller(campaign))[0],
            "campaign": campaign,
            "is_storyteller": is_storyteller(campaign),
            "group": list(selectors.player_characters(campaign)),
            "consequence_error": error,
        },
    )
    response = trigger_client_event(response, POLL_NOW)
    return trigger_client_event(response, MORALE_CHANGED)


@login_required
@require_POST
def injury_heal(request: HtmxHttpRequest, pk: int, injury_pk: int) -> HttpResponse:
    """The Conteur marks an injury healed; the panel comes back (HTMX) or the page (redirect)."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    error = None
    try:
        services.injury_heal(campaign=campaign, by=request.user, injury_id=injury_pk)
    except ValidationError as exc:
        error = " ".join(exc.messages)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("sessions:table", pk=pk)
    return _morale_answer(request, campaign, error)


@login_required
@require_POST
def exhaustion_change(request: HtmxHttpRequest, pk: int, character_pk: int) -> HttpResponse:
    """The Conteur gives or removes one Épuisement point (§8): the panel comes back (HTMX), or
    the table — or the fight's screen it was asked from — (redirect)."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    change = {"1": 1, "-1": -1}.get(request.POST.get("change", ""), 0)
    error = None
    try:
        exhaustion.exhaustion_change(
            campaign=campaign, by=request.user, character_id=character_pk, change=change
        )
    except ValidationError as exc:
        error = " ".join(exc.messages)
    if not request.htmx:
        if error:
            messages.error(request, error)
        encounter = request.POST.get("encounter", "")
        if encounter.isascii() and encounter.isdigit():
            return redirect("sessions:combat_screen", pk, int(encounter))
        return redirect("sessions:table", pk=pk)
    return _morale_answer(request, campaign, error)
