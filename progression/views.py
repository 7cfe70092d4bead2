"""Progression pages (§10–§11): close an arc with the experience checklist (preview, confirm,
progress), a character's ledger with spending and trainings, ellipses with their timers and
advances, and notifications. Every view works without JavaScript; HTMX polls the job's progress.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.dateparse import parse_datetime
from django.utils.timezone import get_current_timezone, is_naive, make_aware
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns.models import Arc
from campaigns.policy import campaign_get_for_member, campaign_get_for_storyteller, is_storyteller
from characters.models import Character
from common.htmx import HtmxHttpRequest
from progression import experience
from progression import services as progression
from progression.models import (
    ArcAward,
    Ellipse,
    EllipseStatus,
    JobStatus,
    TrainerKind,
    Training,
    TrainingKind,
)
from rules import reference


def _messages(error: ValidationError) -> list[str]:
    return list(error.messages)


def _arc(campaign, arc_pk: int) -> Arc:
    arc = Arc.objects.filter(campaign=campaign, pk=arc_pk).first()
    if arc is None:
        raise Http404("Arc introuvable.")
    return arc


def _character(campaign, character_pk: int) -> Character:
    character = (
        Character.objects.filter(campaign=campaign, pk=character_pk)
        .select_related("owner", "species")
        .prefetch_related("skills", "abilities", "classes", "branches")
        .first()
    )
    if character is None:
        raise Http404("Personnage introuvable.")
    return character


def _require_editor(campaign, character: Character, user) -> None:
    if character.owner_id != user.pk and not is_storyteller(campaign):
        raise PermissionDenied("Seuls le joueur du personnage et le Conteur peuvent faire cela.")


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
    ellipse = Ellipse.objects.filter(campaign=campaign, status=EllipseStatus.OPEN).first()
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "characters": characters,
        "arcs": arcs,
        "ellipse": ellipse,
    }
    return render(request, "progression/overview.html", context)


# --- closing an arc: the checklist, its preview and the award job ------------------------------


CHECKLIST_ITEMS = {
    "balance": reference.BALANCE_ITEMS,
    "ingenuity": reference.INGENUITY_ITEMS,
    "ending_items": reference.ENDING_ITEMS,
}
THEORETICAL = [s for s in reference.SKILLS if not s.rolled]
USABLE = [(c, reference.LABELS[c]) for c in reference.CHARACTERISTICS] + [
    (s.key, s.label) for s in reference.SKILLS if s.rolled
]


def checklist_from_post(post, characters: list[Character]) -> dict[str, Any]:
    """Read the checklist form (a shape check only: the rules engine judges the values)."""
    errors: dict[str, list[str]] = {}

    def number(name: str, default: int | None = 0) -> int | None:
        raw = (post.get(name) or "").strip()
        if raw == "":
            return default
        try:
            value = int(raw)
        except ValueError:
            errors.setdefault(name, []).append(_("Entrez un nombre entier."))
            return default
        if value < 0 or value > 1000:
            errors.setdefault(name, []).append(_("Entrez un nombre entre 0 et 1000."))
            return default
        return value

    group = {
        "danger": number("danger", 0),
        "balance": post.getlist("balance"),
        "ingenuity": post.getlist("ingenuity"),
        "ending": post.get("ending") or "none",
        "ending_items": post.getlist("ending_items"),
        "length": post.get("length") or "hours",
    }
    per_character: dict[str, dict[str, Any]] = {}
    for character in characters:
        pk = character.pk
        if not post.get(f"present_{pk}"):
            continue
        per_character[str(pk)] = {
            "bounty": post.getlist(f"bounty_{pk}"),
            "optional_objectives": number(f"objectives_{pk}", 0),
            "used": post.getlist(f"used_{pk}"),
            "opposition_level": number(f"opposition_{pk}", None),
            "more_combative_enemy": bool(post.get(f"combative_{pk}")),
            "nearly_died": bool(post.get(f"nearly_died_{pk}")),
            "means": post.getlist(f"means_{pk}"),
        }
    if errors:
        raise ValidationError(errors)
    return {"group": group, "characters": per_character}


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
        "lengths": list(reference.LENGTH_MULTIPLIERS.items()),
        "usable": USABLE,
        "theoretical": THEORETICAL,
    }


@login_required
@require_http_methods(["GET", "POST"])
def arc_experience(request: HtmxHttpRequest, pk: int, arc_pk: int) -> HttpResponse:
    """GET: the checklist (or the award's progress and summary); POST "preview": every
    character's award from the rules engine; POST "confirm": close and pay in the background."""
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    arc = _arc(campaign, arc_pk)
    award = ArcAward.objects.filter(arc=arc).first()
    characters = list(Character.objects.filter(campaign=campaign).select_related("owner"))
    errors: list[str] = []
    preview = None
    if request.method == "POST":
        try:
            checklist = checklist_from_post(request.POST, characters)
            awards = progression.checklist_awards(checklist)
            if not awards:
                raise ValidationError(_("Cochez au moins un personnage présent."))
            if request.POST.get("action") == "confirm":
                if award is None:
                    award = progression.arc_award_confirm(
                        arc=arc, checklist=checklist, by=request.user
                    )
                    messages.success(request, _("Arc clos : l'expérience est en cours de calcul."))
                else:
                    award = progression.arc_award_correct(
                        award=award, checklist=checklist, by=request.user
                    )
                    messages.success(
                        request, _("Correction enregistrée : les écritures correctives suivent.")
                    )
                return redirect("progression:arc_experience", pk=campaign.pk, arc_pk=arc.pk)
            names = {c.pk: c.name for c in characters}
            preview = [
                {"name": names[character_pk], "award": result}
                for character_pk, result in sorted(awards.items(), key=lambda i: names[i[0]])
            ]
        except ValidationError as error:
            errors = _messages(error)
            checklist = _loose_checklist(request.POST, characters)
    else:
        checklist = (
            award.checklist
            if award
            else progression.default_checklist(arc=arc, characters=characters)
        )
    context = _checklist_context(campaign, arc, checklist, characters)
    context.update({"award": award, "preview": preview, "errors": errors})
    context["queue_message"] = progression.queue_message(award)
    return render(request, "progression/arc_experience.html", context)


def _loose_checklist(post, characters) -> dict[str, Any]:
    """The form as typed, to re-show it after an error."""
    return {
        "group": {
            "danger": post.get("danger"),
            "balance": post.getlist("balance"),
            "ingenuity": post.getlist("ingenuity"),
            "ending": post.get("ending"),
            "ending_items": post.getlist("ending_items"),
            "length": post.get("length"),
        },
        "characters": {
            str(c.pk): {
                "bounty": post.getlist(f"bounty_{c.pk}"),
                "optional_objectives": post.get(f"objectives_{c.pk}"),
                "used": post.getlist(f"used_{c.pk}"),
                "opposition_level": post.get(f"opposition_{c.pk}"),
                "more_combative_enemy": bool(post.get(f"combative_{c.pk}")),
                "nearly_died": bool(post.get(f"nearly_died_{c.pk}")),
                "means": post.getlist(f"means_{c.pk}"),
            }
            for c in characters
            if post.get(f"present_{c.pk}")
        },
    }


@login_required
@require_GET
@vary_on_headers("HX-Request")
def arc_experience_progress(request: HtmxHttpRequest, pk: int, arc_pk: int) -> HttpResponse:
    """The award job's progress (polled while it runs) and, once done, its summary table."""
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    arc = _arc(campaign, arc_pk)
    award = ArcAward.objects.filter(arc=arc).first()
    if award is None:
        raise Http404("Aucune récompense pour cet arc.")
    context = {"campaign": campaign, "is_storyteller": True, "arc": arc, "award": award}
    context["queue_message"] = progression.queue_message(award)
    template = "progression/arc_progress.html"
    if request.htmx:
        template += "#progress"
    return render(request, template, context)


# --- a character's experience: ledger, spending, trainings ------------------------------------


@login_required
@require_GET
def character_experience(request: HtmxHttpRequest, pk: int, character_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    character = _character(campaign, character_pk)
    can_edit = character.owner_id == request.user.pk or is_storyteller(campaign)
    context = _experience_context(campaign, character, can_edit)
    return render(request, "progression/character_experience.html", context)


def _experience_context(campaign, character: Character, can_edit: bool, **extra) -> dict:
    balances = experience.xp_balances(character_ids=[character.pk])[character.pk]
    spend = experience.spending_context(character=character)
    trainings = list(
        Training.objects.filter(character=character)
        .select_related("ellipse")
        .order_by("position", "pk")
    )
    experience.set_expected_days(trainings, campaign.in_game_day)
    ellipse = Ellipse.objects.filter(campaign=campaign, status=EllipseStatus.OPEN).first()
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "character": character,
        "can_edit": can_edit,
        "xp": balances,
        "entries": experience.ledger(character=character),
        "options": experience.spending_options(character=character, context=spend)
        if can_edit
        else [],
        "just_received": spend.just_received,
        "trainings": trainings,
        "ellipse": ellipse,
        "trainer_kinds": TrainerKind.choices,
        "spend_key": experience.new_key(),
        "learnable": _learnable(campaign, character) if ellipse and can_edit else [],
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


@login_required
@require_POST
def xp_spend(request: HtmxHttpRequest, pk: int, character_pk: int) -> HttpResponse:
    """Spend XP now (with a hope point or at reception); errors come back with status 200."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    character = _character(campaign, character_pk)
    _require_editor(campaign, character, request.user)
    try:
        entry = experience.xp_spend(
            character=character,
            kind=request.POST.get("kind", ""),
            target=request.POST.get("target", ""),
            detail=request.POST.get("detail", ""),
            mode=request.POST.get("mode", ""),
            key=(request.POST.get("key") or experience.new_key())[:64],
            by=request.user,
        )
    except ValidationError as error:
        context = _experience_context(campaign, character, True, errors=_messages(error))
        return render(request, "progression/character_experience.html", context)
    messages.success(request, _("Dépensé : %(label)s.") % {"label": entry.label})
    return redirect("progression:character_experience", pk=campaign.pk, character_pk=character.pk)


@login_required
@require_POST
def training_queue(request: HtmxHttpRequest, pk: int, character_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    character = _character(campaign, character_pk)
    _require_editor(campaign, character, request.user)
    ellipse = Ellipse.objects.filter(campaign=campaign, status=EllipseStatus.OPEN).first()
    try:
        if ellipse is None:
            raise ValidationError(_("Il n'y a pas d'ellipse en cours pour s'entraîner."))
        kind = request.POST.get("kind", "")
        if kind not in TrainingKind.values:
            raise ValidationError(_("Ce type d'entraînement n'existe pas."))
        training = experience.training_queue(
            character=character,
            ellipse=ellipse,
            kind=kind,
            target=request.POST.get("target", ""),
            detail=request.POST.get("detail", ""),
            trainer=request.POST.get("trainer", "alone"),
            by=request.user,
        )
    except ValidationError as error:
        context = _experience_context(campaign, character, True, errors=_messages(error))
        return render(request, "progression/character_experience.html", context)
    messages.success(request, _("Entraînement « %(label)s » ajouté.") % {"label": training.label})
    return redirect("progression:character_experience", pk=campaign.pk, character_pk=character.pk)


def _training(campaign, training_pk: int) -> Training:
    training = (
        Training.objects.filter(character__campaign=campaign, pk=training_pk)
        .select_related("character")
        .first()
    )
    if training is None:
        raise Http404("Entraînement introuvable.")
    return training


@login_required
@require_POST
def training_cancel(request: HtmxHttpRequest, pk: int, training_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    training = _training(campaign, training_pk)
    _require_editor(campaign, training.character, request.user)
    experience.training_cancel(training=training)
    messages.success(
        request,
        _("Entraînement « %(label)s » annulé : l'expérience réservée est rendue.")
        % {"label": training.label},
    )
    return redirect(
        "progression:character_experience", pk=campaign.pk, character_pk=training.character_id
    )


@login_required
@require_POST
def training_trainer(request: HtmxHttpRequest, pk: int, training_pk: int) -> HttpResponse:
    """The Conteur confirms (or refuses) the trainer a player chose for a training."""
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    training = _training(campaign, training_pk)
    try:
        experience.training_confirm_trainer(
            training=training, confirmed=request.POST.get("confirmed") == "1"
        )
        messages.success(request, _("Entraîneur mis à jour."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    target = request.POST.get("next")
    if target == "ellipse" and training.ellipse_id:
        return redirect(
            "progression:ellipse_detail", pk=campaign.pk, ellipse_pk=training.ellipse_id
        )
    return redirect(
        "progression:character_experience", pk=campaign.pk, character_pk=training.character_id
    )


# --- ellipses ----------------------------------------------------------------------------------


def _ellipse(campaign, ellipse_pk: int) -> Ellipse:
    ellipse = Ellipse.objects.filter(campaign=campaign, pk=ellipse_pk).first()
    if ellipse is None:
        raise Http404("Ellipse introuvable.")
    return ellipse


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
            deadline = None
            if request.POST.get("deadline"):
                deadline = parse_datetime(request.POST["deadline"])
                if deadline is None:
                    raise ValidationError(_("L'échéance n'est pas une date valide."))
                if is_naive(deadline):
                    deadline = make_aware(deadline, get_current_timezone())
            ellipse = progression.ellipse_open(
                campaign=campaign, length_days=int(raw), deadline=deadline
            )
            messages.success(request, _("Ellipse ouverte."))
            return redirect("progression:ellipse_detail", pk=campaign.pk, ellipse_pk=ellipse.pk)
        except ValidationError as error:
            errors = _messages(error)
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
    ellipse = _ellipse(campaign, ellipse_pk)
    trainings = list(
        Training.objects.filter(character__campaign=campaign)
        .filter(status__in=experience.ACTIVE)
        .select_related("character")
        .order_by("character__name", "character_id", "position", "pk")
    )
    experience.set_expected_days(trainings, campaign.in_game_day)
    characters = list(Character.objects.filter(campaign=campaign))
    for character in characters:
        character.xp_trainer = ellipse.xp_trainers.get(str(character.pk), "free")
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "ellipse": ellipse,
        "trainings": trainings,
        "characters": characters,
        "multipliers": list(reference.TRAINER_MULTIPLIERS.items()),
        "advances": list(ellipse.advances.all()[:10]),
        "pending": ellipse.advances.exclude(status=JobStatus.DONE).exists(),
        "queue_message": progression.queue_message(
            ellipse.advances.filter(status=JobStatus.PENDING).first()
        ),
        "key": experience.new_key(),
        "allowed": _allowed_labels(ellipse.kind),
    }
    return render(request, "progression/ellipse_detail.html", context)


def _allowed_labels(kind: str) -> list[str]:
    from rules import ellipse as rules_ellipse

    return [reference.ELLIPSE_ACTION_LABELS[a] for a in rules_ellipse.allowed_actions(kind)]


@login_required
@require_POST
def ellipse_advance(request: HtmxHttpRequest, pk: int, ellipse_pk: int) -> HttpResponse:
    """ "Advance N days" or "close the ellipse": recorded under the form's key, run in the
    background; a double click runs it once."""
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    ellipse = _ellipse(campaign, ellipse_pk)
    closes = request.POST.get("action") == "close"
    raw = (request.POST.get("days") or "0").strip()
    key = (request.POST.get("key") or experience.new_key())[:64]
    try:
        if not raw.isdigit():
            raise ValidationError(_("Entrez un nombre de jours."))
        progression.advance_request(
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
    ellipse = _ellipse(campaign, ellipse_pk)
    raw = request.POST.get("character", "")
    try:
        if not raw.isdigit():
            raise ValidationError(_("Choisissez un personnage."))
        progression.ellipse_set_xp_trainer(
            ellipse=ellipse, character_id=int(raw), trainer=request.POST.get("trainer", "")
        )
        messages.success(request, _("Multiplicateur confirmé."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("progression:ellipse_detail", pk=campaign.pk, ellipse_pk=ellipse.pk)


# --- notifications ---------------------------------------------------------------------------


@login_required
@require_GET
def notification_list(request: HtmxHttpRequest) -> HttpResponse:
    notifications = progression.notifications_for(user=request.user)
    return render(request, "progression/notifications.html", {"notifications": notifications})


@login_required
@require_POST
def notifications_read(request: HtmxHttpRequest) -> HttpResponse:
    raw = request.POST.get("notification", "")
    progression.notifications_mark_read(
        user=request.user, pk=int(raw) if raw.isdigit() and len(raw) < 18 else None
    )
    return redirect("progression:notifications")


@login_required
@require_GET
def notifications_count(request: HtmxHttpRequest) -> HttpResponse:
    """The nav's unread count, loaded by HTMX after the page so pages pay no query for it."""
    count = progression.unread_count(user=request.user)
    return render(request, "progression/_unread.html", {"count": count})
