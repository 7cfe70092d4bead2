"""Character sheet pages: every view works without JavaScript; HTMX edits fields in place.

Access comes first in every view, from `characters.selectors` on top of the campaign policy
(404 for non-members, 403 for a member who may only read). A field edit re-renders the section
holding the field and sends every section of derived values out of band, so changing Force
updates Corps, Puissance, Harmonie, the gauges, the rest table and the speeds at once.
"""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators import http
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from characters import condition, services, sheet
from characters.fields import CONDITION_FIELDS, SHEET_FIELDS
from characters.forms import (
    DamageForm,
    EntriesForm,
    FieldForm,
    HealForm,
    LanguageAddForm,
    LanguageForm,
    ObjectiveForm,
    RestForm,
    SkillAddForm,
    SkillForm,
    StabiliseForm,
)
from characters.models import CharacterChange, SkillKind
from characters.restore import character_change_restore
from characters.selectors import (
    character_get_for_editor,
    character_get_for_sheet,
    character_get_for_viewer,
    character_history,
)
from characters.services import (
    SheetConflict,
    character_entries_set,
    character_language_remove,
    character_language_set,
    character_skill_remove,
    character_skill_set,
    character_update_field,
)
from characters.sheet_page import SHEET_CACHE_TIMEOUT, sheet_context, sheet_shown
from common.htmx import HtmxHttpRequest
from rules import reference

# The sections whose values depend on other fields: re-sent out of band after every edit.
DERIVED_SECTIONS = ("characteristics", "gauges", "pools", "condition", "morale", "derived")


def section_of(field: str) -> str:
    if field in ("name", "lineage", "species"):
        return "identity"
    if field in (*reference.CHARACTERISTICS, "origin", "exaltation", "combativeness"):
        return "characteristics"
    if field.split("_")[0] in reference.GAUGES:
        return "gauges"
    if field.endswith("_points"):
        return "pools"
    if field in CONDITION_FIELDS:
        return "condition"
    if field in ("notes", "private_notes"):
        return "notes"
    return "morale"


def add_errors(form, error: ValidationError, fields: dict[str, str] | None = None) -> None:
    """Put a service's ValidationError on the form: known fields on their input, others on top."""
    fields = fields or {}
    if not hasattr(error, "error_dict"):
        form.add_error(None, error.messages)
        return
    for name, messages_ in error.message_dict.items():
        target = fields.get(name, name if name in form.fields else None)
        form.add_error(target, messages_)


def _reload(character_pk: int, user):
    return character_get_for_sheet(user=user, pk=character_pk)


def _sheet_character(request: HtmxHttpRequest, pk: int):
    """The sheet's character, read once per request: the ETag and the page both need it."""
    if getattr(request, "sheet_character", None) is None:
        request.sheet_character = character_get_for_sheet(user=request.user, pk=pk)
    return request.sheet_character


def _sheet_etag(request: HtmxHttpRequest, pk: int) -> str | None:
    """The page's validator: what its body shows (`sheet_shown`) and what the page around it
    shows (the viewer, the campaign's name). A page with messages to show is drawn, not
    revalidated."""
    if request.htmx or get_messages(request):
        return None
    character = _sheet_character(request, pk)
    shown = sheet_shown(request, character)
    if shown is None:
        return None
    page = f"{shown}:{request.user.pk}:{request.user.get_username()}:{character.campaign.name}"
    return hashlib.sha256(page.encode()).hexdigest()[:32]


@login_required
@require_GET
@vary_on_headers("HX-Request")
@http.condition(etag_func=_sheet_etag)
def character_sheet(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The sheet page: its body from the template fragment cache, under what it shows;
    `If-None-Match` with the page's ETag → 304."""
    character = _sheet_character(request, pk)
    context = sheet_context(request, character)
    if request.htmx and request.GET.get("part") == "skills":
        return render(request, "characters/sheet.html#skills", context)
    context["sheet_shown"] = sheet_shown(request, character)
    context["sheet_cache_timeout"] = SHEET_CACHE_TIMEOUT
    return render(request, "characters/sheet.html", context)


def _render_sections(request, character, *, primary: str, status: int = 200, **extra):
    """The edited section, plus every derived section out of band."""
    context = sheet_context(request, character, **extra)
    context["primary"] = primary
    context["oob_sections"] = [s for s in DERIVED_SECTIONS if s != primary]
    return render(request, "characters/_sections.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def character_field(request: HtmxHttpRequest, pk: int, field: str) -> HttpResponse:
    """GET: the field's section in edit mode (or back to display with ?cancel). POST: save it."""
    spec = SHEET_FIELDS.get(field)
    if spec is None:
        raise Http404(_("Champ inconnu."))
    section = section_of(field)
    if request.method == "GET":
        character = character_get_for_sheet(user=request.user, pk=pk)
        editing = "" if "cancel" in request.GET else field
        if not request.htmx:
            url = reverse("characters:sheet", args=[pk])
            return redirect(f"{url}?edit={editing}#f-{field}" if editing else url)
        context = sheet_context(request, character, edit_field=editing)
        return render(request, f"characters/sheet.html#sec-{section}", context)

    character = character_get_for_editor(user=request.user, pk=pk)
    if (spec.storyteller_only and not character.viewer_is_storyteller) or (
        spec.private and not character.can_see_private
    ):
        raise PermissionDenied(_("Seul le Conteur peut modifier ce champ."))
    form = FieldForm(spec, request.POST, campaign=character.campaign)
    conflict = None
    notes: tuple[str, ...] = ()
    if form.is_valid():
        try:
            saved = character_update_field(
                character=character,
                field=field,
                value=form.cleaned_value(),
                version=form.cleaned_data["version"],
                by=request.user,
                storyteller=character.viewer_is_storyteller,
            )
        except SheetConflict as error:
            conflict = error
        except ValidationError as error:
            add_errors(form, error, {field: "value"})
        else:
            if field in reference.CHARACTERISTICS:  # §1: a pool may have come down with it
                notes = sheet.pools_lowered_messages(character, saved)
    if form.is_valid() and conflict is None:
        if not request.htmx:
            saved_message = _("%(field)s enregistré.") % {"field": spec.label}
            messages.success(request, " ".join((saved_message, *notes)))
            return redirect(f"{reverse('characters:sheet', args=[pk])}#f-{field}")
        return _render_sections(
            request, _reload(pk, request.user), primary=section, field_notes=notes
        )
    character = _reload(pk, request.user)
    extra = {"conflict": conflict} if conflict else {"edit_field": field, "field_form": form}
    if not request.htmx:
        return render(request, "characters/sheet.html", sheet_context(request, character, **extra))
    if conflict:
        return _render_sections(request, character, primary=section, **extra)
    return render(
        request, f"characters/sheet.html#sec-{section}", sheet_context(request, character, **extra)
    )


# --- skills and languages ------------------------------------------------------------------


def _skills_response(request, pk, **extra) -> HttpResponse:
    character = _reload(pk, request.user)
    if not request.htmx:
        return render(request, "characters/sheet.html", sheet_context(request, character, **extra))
    return render(
        request, "characters/sheet.html#skills", sheet_context(request, character, **extra)
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def skill_save(request: HtmxHttpRequest, pk: int, key: str) -> HttpResponse:
    character = character_get_for_editor(user=request.user, pk=pk)
    row = next((r for r in character.skills.all() if r.key == key), None)
    if row is None:
        raise Http404(_("Compétence absente de la fiche."))
    form = SkillForm(request.POST)
    extra: dict = {}
    if form.is_valid():
        try:
            if request.POST.get("remove"):
                character_skill_remove(
                    character=character,
                    key=key,
                    version=form.cleaned_data["version"],
                    by=request.user,
                )
            else:
                character_skill_set(
                    character=character,
                    key=key,
                    kind=row.kind,
                    level=form.cleaned_data["level"],
                    expertises=form.cleaned_data["expertises"],
                    version=form.cleaned_data["version"],
                    by=request.user,
                )
        except SheetConflict as error:
            extra["skill_conflict"] = error
        except ValidationError as error:
            add_errors(form, error)
    if not form.is_valid():
        extra.update(skill_errors=[m for errors in form.errors.values() for m in errors])
    if not request.htmx and not extra:
        return redirect(f"{reverse('characters:sheet', args=[pk])}#skills")
    return _skills_response(request, pk, **extra)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def skill_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    character = character_get_for_editor(user=request.user, pk=pk)
    owned = {row.key for row in character.skills.all()}
    form = SkillAddForm(request.POST, owned=owned)
    if form.is_valid():
        data = form.cleaned_data
        domain = data["domain"].strip()
        try:
            character_skill_set(
                character=character,
                key=domain or data["skill"],
                kind=SkillKind.FORGOTTEN_DOMAIN if domain else SkillKind.SKILL,
                level=data["level"],
                expertises=data["expertises"],
                version=data["version"],
                by=request.user,
            )
        except SheetConflict as error:
            return _skills_response(request, pk, skill_conflict=error)
        except ValidationError as error:
            add_errors(form, error)
    if form.is_valid():
        if not request.htmx:
            return redirect(f"{reverse('characters:sheet', args=[pk])}#skills")
        return _skills_response(request, pk)
    return _skills_response(request, pk, skill_add_form=form)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def language_save(request: HtmxHttpRequest, pk: int, key: str) -> HttpResponse:
    character = character_get_for_editor(user=request.user, pk=pk)
    adding = key == "new"
    form = (LanguageAddForm if adding else LanguageForm)(request.POST)
    extra: dict = {}
    if form.is_valid():
        data = form.cleaned_data
        key = data["language"] if adding else key
        try:
            if request.POST.get("remove"):
                character_language_remove(
                    character=character, key=key, version=data["version"], by=request.user
                )
            else:
                character_language_set(
                    character=character,
                    key=key,
                    level=data["level"],
                    writing=data["writing"],
                    version=data["version"],
                    by=request.user,
                )
        except SheetConflict as error:
            extra["language_conflict"] = error
        except ValidationError as error:
            add_errors(form, error)
    if not form.is_valid():
        extra["language_errors"] = form.errors
    if not request.htmx and not extra:
        return redirect(f"{reverse('characters:sheet', args=[pk])}#languages")
    character = _reload(pk, request.user)
    template = "characters/sheet.html" + ("#languages" if request.htmx else "")
    return render(request, template, sheet_context(request, character, **extra))


@login_required
@require_POST
def entries_save(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    character = character_get_for_editor(user=request.user, pk=pk)
    form = EntriesForm(request.POST, campaign=character.campaign)
    if form.is_valid():
        try:
            for relation in ("classes", "branches", "abilities", "assets", "flaws"):
                character_entries_set(
                    character=character,
                    relation=relation,
                    ids=[e.pk for e in form.cleaned_data[relation]],
                    version=form.cleaned_data["version"],
                    by=request.user,
                )
        except SheetConflict as error:
            messages.error(request, str(error))
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("Classes, aptitudes, atouts et handicaps enregistrés."))
    return redirect(f"{reverse('characters:sheet', args=[pk])}#entries")


@login_required
@require_GET
def entries_edit(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    character = character_get_for_editor(user=request.user, pk=pk)
    initial = {
        "version": character.version,
        **{r: list(getattr(character, r).all()) for r in services.COMPENDIUM_MODELS},
    }
    form = EntriesForm(initial=initial, campaign=character.campaign)
    return render(
        request,
        "characters/entries.html",
        {"character": character, "campaign": character.campaign, "form": form},
    )


# --- actions: damage, rest, stabilise (§4, §8) ---------------------------------------------


def _action(request, pk, form_class, run) -> HttpResponse:
    character = character_get_for_editor(user=request.user, pk=pk)
    form = form_class(request.POST)
    if form.is_valid():
        try:
            notes = run(character, form.cleaned_data)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            for note in notes:
                messages.info(request, note)
    else:
        messages.error(request, _("Vérifiez les valeurs saisies pour cette action."))
    if not request.htmx:
        return redirect(f"{reverse('characters:sheet', args=[pk])}#actions")
    return _render_sections(request, _reload(pk, request.user), primary="actions", flash=True)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def damage(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _action(
        request,
        pk,
        DamageForm,
        lambda c, d: condition.character_damage(
            character=c,
            gauge=d["gauge"],
            amount=d["amount"],
            scars=d["scars"] or 0,
            by=request.user,
        ),
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def rest(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _action(
        request,
        pk,
        RestForm,
        lambda c, d: condition.character_rest(character=c, by=request.user, **d),
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def objective(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The Conteur says an important objective is reached (or a new one appears): every Impact
    point comes back (§1)."""
    character = character_get_for_editor(user=request.user, pk=pk)
    if not character.viewer_is_storyteller:
        raise PermissionDenied(_("Seul le Conteur annonce qu'un objectif est atteint."))
    return _action(
        request,
        pk,
        ObjectiveForm,
        lambda c, d: condition.character_objective_reached(character=c, by=request.user),
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def stabilise(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _action(
        request,
        pk,
        StabiliseForm,
        lambda c, d: condition.character_stabilise(character=c, gauge=d["gauge"], by=request.user),
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def heal(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return _action(
        request,
        pk,
        HealForm,
        lambda c, d: condition.character_heal(
            character=c, gauge=d["gauge"], points=d["points"], by=request.user
        ),
    )


# --- history -------------------------------------------------------------------------------


@login_required
@require_GET
def history(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    character = character_get_for_viewer(user=request.user, pk=pk)
    changes = character_history(character=character)
    if not character.can_see_private:
        changes = [c for c in changes if c.field != "private_notes"]
    return render(
        request,
        "characters/history.html",
        {"character": character, "campaign": character.campaign, "changes": changes},
    )


@login_required
@require_POST
def history_restore(request: HtmxHttpRequest, pk: int, change_pk: int) -> HttpResponse:
    character = character_get_for_viewer(user=request.user, pk=pk)
    if not character.viewer_is_storyteller:
        raise PermissionDenied(_("Seul le Conteur peut restaurer une valeur."))
    change = CharacterChange.objects.filter(character=character, pk=change_pk).first()
    if change is None:
        raise Http404(_("Modification introuvable."))
    try:
        character_change_restore(change=change, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Valeur restaurée."))
    return redirect("characters:history", pk=pk)


@login_required
@require_http_methods(["GET", "POST"])
def character_delete(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """GET asks for confirmation; POST deletes the character and its history for good."""
    character = character_get_for_editor(user=request.user, pk=pk)
    if request.method == "POST":
        campaign_pk, name = character.campaign.pk, character.name
        services.character_delete(character=character)
        messages.success(request, _("« %(name)s » a été supprimé.") % {"name": name})
        return redirect("campaigns:dashboard", campaign_pk)
    return render(
        request,
        "characters/delete.html",
        {"character": character, "campaign": character.campaign},
    )
