"""Progression pages (§10–§11): close an arc with the experience checklist (preview, confirm,
progress), a character's ledger with spending and trainings, ellipses with their timers and
advances, and notifications. Every view works without JavaScript; HTMX polls the job's progress.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.dateparse import parse_datetime
from django.utils.timezone import get_current_timezone, is_naive, make_aware
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns.models import Arc, LengthUnit
from campaigns.policy import campaign_get_for_member, campaign_get_for_storyteller, is_storyteller
from characters.models import Character
from characters.selectors import can_edit
from common.htmx import HtmxHttpRequest
from progression import experience, notifications, trainings
from progression.awards import (
    arc_award_confirm,
    arc_award_correct,
    checklist_awards,
    default_checklist,
)
from progression.ellipses import (
    advance_request,
    ellipse_allowed_actions,
    ellipse_open,
    ellipse_rest_weeks,
    ellipse_set_xp_trainer,
)
from progression.forms import checklist_as_typed, checklist_from_post
from progression.models import (
    ArcAward,
    Ellipse,
    EllipseStatus,
    JobStatus,
    TrainerKind,
    Training,
    TrainingKind,
    XpTrainer,
)
from progression.selectors import (
    arc_get,
    character_get,
    ellipse_current,
    ellipse_get,
    require_editor,
    training_get,
    trainings_with_timers,
)
from progression.services import new_key, queue_message
from rules import reference
from rules.experience import NOT_USED_IN_ARC

THEORETICAL = [s for s in reference.SKILLS if not s.rolled]
USABLE = [(c, reference.LABELS[c]) for c in reference.CHARACTERISTICS] + [
    (s.key, s.label) for s in reference.SKILLS if s.rolled
]


# --- the campaign's progression overview ------------------------------------------------------


@login_required
@require_GET
def progression_overview(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    characters = list(Character.objects.filter(campaign=campaign).select_related("owner"))
    balances = experience.xp_balances(character_ids=[c.pk for c in characters])
    for character in characters:
        character.xp = balances[character.pk]
    arcs = list(
        Arc.objects.filter(campaign=campaign).select_related("award").order_by("-created_at", "-pk")
    )
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "characters": characters,
        "arcs": arcs,
        "ellipse": ellipse_current(campaign=campaign),
    }
    return render(request, "progression/overview.html", context)


# --- closing an arc: the checklist, its preview and the award job ------------------------------


def _checklist_context(campaign, arc: Arc, checklist: dict[str, Any], characters) -> dict:
    ticks = checklist.get("characters", {})
    rows = [
        {
            "character": c,
            "present": str(c.pk) in ticks,
            "ticks": ticks.get(str(c.pk), {"bounty": [], "optional_objectives": 0}),
        }
        for c in characters
    ]
    return {
        "campaign": campaign,
        "is_storyteller": True,
        "arc": arc,
        "group": checklist.get("group", {}),
        "rows": rows,
        "danger_levels": list(reference.DANGER_LEVELS.items()),
        "balance_items": reference.BALANCE_ITEMS,
        "ingenuity_items": reference.INGENUITY_ITEMS,
        "ending_items": reference.ENDING_ITEMS,
        "bounty_items": reference.BOUNTY_ITEMS,
        "lengths": [
            (unit, label, reference.LENGTH_MULTIPLIERS[unit]) for unit, label in LengthUnit.choices
        ],
        "usable": USABLE,
        "theoretical": THEORETICAL,
    }


@login_required
@require_http_methods(["GET", "POST"])
def arc_experience(request: HtmxHttpRequest, pk: int, arc_pk: int) -> HttpResponse:
    """GET: the checklist (or the award's progress and summary); POST "preview": every
    character's award from the rules engine; POST "confirm": close and pay in the background."""
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    arc = arc_get(campaign=campaign, pk=arc_pk)
    award = ArcAward.objects.filter(arc=arc).first()
    characters = list(Character.objects.filter(campaign=campaign).select_related("owner"))
    errors: list[str] = []
    preview = None
    if request.method == "POST":
        try:
            checklist = checklist_from_post(request.POST, characters)
            awards = checklist_awards(checklist)
            if not awards:
                raise ValidationError(_("Cochez au moins un personnage présent."))
            if request.POST.get("action") == "confirm":
                _confirm_or_correct(request, arc, award, checklist)
                return redirect("progression:arc_experience", pk=campaign.pk, arc_pk=arc.pk)
            names = {c.pk: c.name for c in characters}
            preview = [
                {"name": names[character_pk], "award": result}
                for character_pk, result in sorted(awards.items(), key=lambda i: names[i[0]])
            ]
        except ValidationError as error:
            errors = list(error.messages)
            checklist = checklist_as_typed(request.POST, characters)
    else:
        checklist = award.checklist if award else default_checklist(arc=arc, characters=characters)
    context = _checklist_context(campaign, arc, checklist, characters)
    context.update({"award": award, "preview": preview, "errors": errors})
    context["queue_message"] = queue_message(award)
    # ?character=<id>: the character's "unlock" part comes open (linked from its XP page).
    context["open_character"] = request.GET.get("character", "")
    return render(request, "progression/arc_experience.html", context)


def _confirm_or_correct(request, arc: Arc, award: ArcAward | None, checklist: dict) -> None:
    """Close the arc and pay it, or, once paid, write the correction; say so in a message."""
    if award is None:
        arc_award_confirm(arc=arc, checklist=checklist, by=request.user)
        messages.success(request, _("Arc clos : l'expérience est en cours de calcul."))
    else:
        arc_award_correct(award=award, checklist=checklist, by=request.user)
        messages.success(request, _("Correction enregistrée : les écritures correctives suivent."))


@login_required
@require_GET
@vary_on_headers("HX-Request")
def arc_experience_progress(request: HtmxHttpRequest, pk: int, arc_pk: int) -> HttpResponse:
    """The award job's progress (polled while it runs) and, once done, its summary table."""
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    arc = arc_get(campaign=campaign, pk=arc_pk)
    award = ArcAward.objects.filter(arc=arc).first()
    if award is None:
        raise Http404(_("Aucune récompense pour cet arc."))
    context = {"campaign": campaign, "is_storyteller": True, "arc": arc, "award": award}
    context["queue_message"] = queue_message(award)
    template = "progression/arc_progress.html"
    if request.htmx:
        template += "#progress"
    return render(request, template, context)


# --- a character's experience: ledger, spending, trainings ------------------------------------


@login_required
@require_GET
def character_experience(request: HtmxHttpRequest, pk: int, character_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    character = character_get(campaign=campaign, pk=character_pk)
    editor = can_edit(user=request.user, character=character, campaign=campaign)
    context = _experience_context(campaign, character, editor)
    return render(request, "progression/character_experience.html", context)


def _experience_context(campaign, character: Character, editor: bool, **extra) -> dict:
    balances = experience.xp_balances(character_ids=[character.pk])[character.pk]
    spend = experience.spending_context(character=character)
    character_trainings = trainings_with_timers(character=character, today=campaign.in_game_day)
    ellipse = ellipse_current(campaign=campaign)
    options = experience.spending_options(character=character, context=spend) if editor else []
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "character": character,
        "can_edit": editor,
        "xp": balances,
        "entries": experience.ledger(character=character),
        "options": options,
        # Locked until used in the arc: the page says why, and where the Conteur ticks it.
        "locked_by_use": any(NOT_USED_IN_ARC in option.reasons for option in options),
        "spend_arc": spend.arc,
        "just_received": spend.just_received,
        # §7: in a special state, leftover experience may be distributed (no training time).
        "in_special_state": experience.leftover_distributable(character=character),
        "trainings": character_trainings,
        "ellipse": ellipse,
        "trainer_kinds": TrainerKind.choices,
        "spend_key": new_key(),
        "learnable": _learnable(campaign, character) if ellipse and editor else [],
    }
    context.update(extra)
    return context


def _learnable(campaign, character: Character) -> list[tuple[str, str, str]]:
    """Classes and branches the character might learn in an ellipse: (kind, id, label)."""
    owned_classes = {c.pk for c in character.classes.all()}
    owned_branches = {b.pk for b in character.branches.all()}
    found = [
        ("class", str(c.pk), _("Classe %(name)s") % {"name": c.name})
        for c in campaign.classes.all()
        if c.pk not in owned_classes
    ]
    found += [
        ("branch", str(b.pk), _("Branche %(name)s") % {"name": b.name})
        for b in campaign.branches.all()
        if b.pk not in owned_branches and b.character_class_id in owned_classes
    ]
    return found


def _character_for_editor(request: HtmxHttpRequest, pk: int, character_pk: int):
    """The campaign and the character, for its player or the Conteur (404, then 403)."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    character = character_get(campaign=campaign, pk=character_pk)
    require_editor(campaign=campaign, character=character, user=request.user)
    return campaign, character


def _refused(request, campaign, character: Character, error: ValidationError) -> HttpResponse:
    """The experience page again with the reasons (status 200: htmx keeps the body)."""
    context = _experience_context(campaign, character, True, errors=list(error.messages))
    return render(request, "progression/character_experience.html", context)


def _to_experience(campaign_pk: int, character_pk: int) -> HttpResponse:
    return redirect("progression:character_experience", pk=campaign_pk, character_pk=character_pk)


@login_required
@require_http_methods(["GET", "POST"])
def xp_spend(request: HtmxHttpRequest, pk: int, character_pk: int) -> HttpResponse:
    """GET: confirm the spend (it cannot be taken back); POST: spend XP now (with a hope point or
    at reception). Errors come back with status 200."""
    campaign, character = _character_for_editor(request, pk, character_pk)
    if request.method == "GET":
        return _spend_confirmation(request, campaign, character)
    try:
        entry = experience.xp_spend(
            character=character,
            kind=request.POST.get("kind", ""),
            target=request.POST.get("target", ""),
            detail=request.POST.get("detail", ""),
            mode=request.POST.get("mode", ""),
            key=(request.POST.get("key") or new_key())[:64],
            by=request.user,
        )
    except ValidationError as error:
        return _refused(request, campaign, character, error)
    messages.success(request, _("Dépensé : %(label)s.") % {"label": entry.label})
    return _to_experience(campaign.pk, character.pk)


def _spend_confirmation(request, campaign, character: Character) -> HttpResponse:
    """The page that asks before spending: what is bought, its cost and the balance after."""
    kind, target = request.GET.get("kind", ""), request.GET.get("target", "")
    mode = request.GET.get("mode", "")
    option = next(
        (
            o
            for o in experience.spending_options(character=character)
            if o.kind == kind and o.target == target
        ),
        None,
    )
    if option is None or mode not in experience.SPENDING_NOW:
        raise Http404(_("Cette amélioration n'existe pas."))
    available = experience.xp_balances(character_ids=[character.pk])[character.pk]["available"]
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "character": character,
        "option": option,
        "mode": mode,
        "available": available,
        "after": available - option.cost,
        "key": (request.GET.get("key") or new_key())[:64],
    }
    return render(request, "progression/confirm_spend.html", context)


@login_required
@require_POST
def training_queue(request: HtmxHttpRequest, pk: int, character_pk: int) -> HttpResponse:
    campaign, character = _character_for_editor(request, pk, character_pk)
    ellipse = ellipse_current(campaign=campaign)
    try:
        if ellipse is None:
            raise ValidationError(_("Il n'y a pas d'ellipse en cours pour s'entraîner."))
        kind = request.POST.get("kind", "")
        if kind not in TrainingKind.values:
            raise ValidationError(_("Ce type d'entraînement n'existe pas."))
        training = trainings.training_queue(
            character=character,
            ellipse=ellipse,
            kind=kind,
            target=request.POST.get("target", ""),
            detail=request.POST.get("detail", ""),
            trainer=request.POST.get("trainer", "alone"),
            by=request.user,
        )
    except ValidationError as error:
        return _refused(request, campaign, character, error)
    messages.success(request, _("Entraînement « %(label)s » ajouté.") % {"label": training.label})
    return _to_experience(campaign.pk, character.pk)


@login_required
@require_POST
def training_cancel(request: HtmxHttpRequest, pk: int, training_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    training = training_get(campaign=campaign, pk=training_pk)
    require_editor(campaign=campaign, character=training.character, user=request.user)
    trainings.training_cancel(training=training)
    messages.success(
        request,
        _("Entraînement « %(label)s » annulé : l'expérience réservée est rendue.")
        % {"label": training.label},
    )
    return _to_experience(campaign.pk, training.character_id)


@login_required
@require_POST
def training_trainer(request: HtmxHttpRequest, pk: int, training_pk: int) -> HttpResponse:
    """The Conteur confirms (or refuses) the trainer a player chose for a training."""
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    training = training_get(campaign=campaign, pk=training_pk)
    try:
        trainings.training_confirm_trainer(
            training=training, confirmed=request.POST.get("confirmed") == "1"
        )
        messages.success(request, _("Entraîneur mis à jour."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    if request.POST.get("next") == "ellipse" and training.ellipse_id:
        return redirect(
            "progression:ellipse_detail", pk=campaign.pk, ellipse_pk=training.ellipse_id
        )
    return _to_experience(campaign.pk, training.character_id)


# --- ellipses ----------------------------------------------------------------------------------


def _deadline(raw: str):
    """The form's real-world deadline (in the current time zone when naive), or None."""
    if not raw:
        return None
    deadline = parse_datetime(raw)
    if deadline is None:
        raise ValidationError(_("L'échéance n'est pas une date valide."))
    if is_naive(deadline):
        deadline = make_aware(deadline, get_current_timezone())
    return deadline


@login_required
@require_http_methods(["GET", "POST"])
def ellipse_list(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The campaign's ellipses; the Conteur opens one (POST) with its length and a deadline."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    errors: list[str] = []
    if request.method == "POST":
        campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
        try:
            raw = (request.POST.get("length_days") or "").strip()
            if not raw.isdigit() or int(raw) > 100_000:
                raise ValidationError(_("Entrez une durée en jours (un nombre entier)."))
            deadline = _deadline(request.POST.get("deadline"))
            ellipse = ellipse_open(campaign=campaign, length_days=int(raw), deadline=deadline)
            messages.success(request, _("Ellipse ouverte."))
            return redirect("progression:ellipse_detail", pk=campaign.pk, ellipse_pk=ellipse.pk)
        except ValidationError as error:
            errors = list(error.messages)
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "ellipses": list(Ellipse.objects.filter(campaign=campaign)),
        "errors": errors,
        "has_open": Ellipse.objects.filter(campaign=campaign, status=EllipseStatus.OPEN).exists(),
    }
    return render(request, "progression/ellipse_list.html", context)


@login_required
@require_GET
def ellipse_detail(request: HtmxHttpRequest, pk: int, ellipse_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    ellipse = ellipse_get(campaign=campaign, pk=ellipse_pk)
    running = list(
        Training.objects.filter(character__campaign=campaign)
        .filter(status__in=experience.ACTIVE)
        .select_related("character")
        .order_by("character__name", "character_id", "position", "pk")
    )
    trainings.set_expected_days(running, campaign.in_game_day)
    characters = list(Character.objects.filter(campaign=campaign))
    for character in characters:
        character.xp_trainer = ellipse.xp_trainers.get(str(character.pk), XpTrainer.FREE)
        character.surcharge_weeks = ellipse.surcharge_weeks.get(str(character.pk), 0)
        multiplier = reference.TRAINER_MULTIPLIERS[character.xp_trainer]
        character.xp_trainer_label = f"×{multiplier} ({XpTrainer(character.xp_trainer).label})"
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "ellipse": ellipse,
        "trainings": running,
        "characters": characters,
        "multipliers": [
            (key, label, reference.TRAINER_MULTIPLIERS[key]) for key, label in XpTrainer.choices
        ],
        "advances": list(ellipse.advances.all()[:10]),
        "rest_weeks": ellipse_rest_weeks(ellipse),
        "pending": ellipse.advances.exclude(status=JobStatus.DONE).exists(),
        "queue_message": queue_message(ellipse.advances.filter(status=JobStatus.PENDING).first()),
        "key": new_key(),
        "allowed": ellipse_allowed_actions(ellipse.kind),
    }
    return render(request, "progression/ellipse_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def ellipse_advance(request: HtmxHttpRequest, pk: int, ellipse_pk: int) -> HttpResponse:
    """ "Advance N days" or "close the ellipse": recorded under the form's key, run in the
    background; a double click runs it once. GET asks before closing (it cannot be undone)."""
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    ellipse = ellipse_get(campaign=campaign, pk=ellipse_pk)
    if request.method == "GET":
        if not ellipse.is_open:
            return redirect("progression:ellipse_detail", pk=campaign.pk, ellipse_pk=ellipse.pk)
        context = {
            "campaign": campaign,
            "is_storyteller": True,
            "ellipse": ellipse,
            "key": (request.GET.get("key") or new_key())[:64],
            "running": Training.objects.filter(
                character__campaign=campaign, status__in=experience.ACTIVE
            ).count(),
        }
        return render(request, "progression/confirm_ellipse_close.html", context)
    closes = request.POST.get("action") == "close"
    raw = (request.POST.get("days") or "0").strip()
    key = (request.POST.get("key") or new_key())[:64]
    try:
        if not raw.isdigit():
            raise ValidationError(_("Entrez un nombre de jours."))
        advance_request(
            ellipse=ellipse,
            key=f"form:{key}",
            days=0 if closes else int(raw),
            closes=closes,
            by=request.user,
        )
        messages.success(
            request,
            _("Fin de l'ellipse demandée.") if closes else _("Avance de l'ellipse demandée."),
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("progression:ellipse_detail", pk=campaign.pk, ellipse_pk=ellipse.pk)


@login_required
@require_POST
def ellipse_xp_trainer(request: HtmxHttpRequest, pk: int, ellipse_pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    ellipse = ellipse_get(campaign=campaign, pk=ellipse_pk)
    raw = request.POST.get("character", "")
    try:
        if not raw.isdigit():
            raise ValidationError(_("Choisissez un personnage."))
        surcharge = (request.POST.get("surcharge_weeks") or "").strip()
        if surcharge and not surcharge.isdigit():
            raise ValidationError(_("La surcharge est un nombre de semaines."))
        ellipse_set_xp_trainer(
            ellipse=ellipse,
            character_id=int(raw),
            trainer=request.POST.get("trainer", ""),
            surcharge_weeks=int(surcharge) if surcharge else None,
        )
        messages.success(request, _("Multiplicateur confirmé."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("progression:ellipse_detail", pk=campaign.pk, ellipse_pk=ellipse.pk)


# --- notifications ---------------------------------------------------------------------------


@login_required
@require_GET
def notification_list(request: HtmxHttpRequest) -> HttpResponse:
    rows = notifications.notifications_for(user=request.user)
    return render(request, "progression/notifications.html", {"notifications": rows})


@login_required
@require_POST
def notifications_read(request: HtmxHttpRequest) -> HttpResponse:
    raw = request.POST.get("notification", "")
    notifications.notifications_mark_read(
        user=request.user, pk=int(raw) if raw.isdigit() and len(raw) < 18 else None
    )
    return redirect("progression:notifications")


@login_required
@require_GET
def notifications_count(request: HtmxHttpRequest) -> HttpResponse:
    """The nav's unread count, loaded by HTMX after the page so pages pay no query for it."""
    count = notifications.unread_count(user=request.user)
    return render(request, "progression/_unread.html", {"count": count})
