"""The world's pages: the index, a page, its forms, history, notes, image and search."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns.policy import (
    campaign_get_for_member,
    campaign_get_for_storyteller,
    explains_refusal,
    is_storyteller,
    require_storyteller,
)
from common.htmx import HtmxHttpRequest
from world import selectors, services
from world.forms import NoteForm, PageForm, SearchForm
from world.images import content_type_of
from world.links import backlinks, page_parts
from world.models import PageAudience, PageKind
from world.search import search
from world.visibility import page_get_for_member


@login_required
@require_GET
def index(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    kind = request.GET.get("kind", "")
    kind = kind if kind in PageKind.values else ""
    tag = request.GET.get("tag", "")[:40]
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "world": selectors.world_index(user=request.user, campaign=campaign, kind=kind, tag=tag),
        "kinds": PageKind.choices,
        "kind": kind,
        "tag": tag,
        "search_form": SearchForm(),
    }
    return render(request, "world/index.html", context)


def _page_context(request, page, note_form=None) -> dict:
    note = selectors.note_for(page=page, user=request.user)
    return {
        "campaign": page.campaign,
        "is_storyteller": is_storyteller(page.campaign),
        "page": page,
        "parts": page_parts(page=page, user=request.user),
        "backlinks": backlinks(page=page, user=request.user),
        "note": note,
        "note_form": note_form or NoteForm(initial={"text": note.text if note else ""}),
        "chosen_readers": page.readers.order_by("username")
        if page.audience == PageAudience.CHOSEN
        else [],
    }


@login_required
@require_GET
def page_detail(request: HtmxHttpRequest, pk: int, page_pk: int) -> HttpResponse:
    page = page_get_for_member(user=request.user, campaign_id=pk, pk=page_pk)
    return render(request, "world/page.html", _page_context(request, page))


@login_required
@require_POST
@vary_on_headers("HX-Request")
def note_save(request: HtmxHttpRequest, pk: int, page_pk: int) -> HttpResponse:
    page = page_get_for_member(user=request.user, campaign_id=pk, pk=page_pk)
    form = NoteForm(request.POST)
    saved = False
    if form.is_valid():
        try:
            services.note_save(page=page, user=request.user, text=form.cleaned_data["text"])
            saved = True
        except ValidationError as error:
            form.add_error("text", error)
    if not request.htmx:
        if saved:
            messages.success(request, _("Note enregistrée."))
            return redirect("world:page", pk=pk, page_pk=page.pk)
        return render(request, "world/page.html", _page_context(request, page, form))
    context = {"campaign": page.campaign, "page": page, "note_form": form, "note_saved": saved}
    return render(request, "world/page.html#note", context)


@login_required
@require_GET
def page_image(request: HtmxHttpRequest, pk: int, page_pk: int) -> FileResponse:
    """The page's image, streamed to a member who may see the page (404 for anyone else)."""
    page = page_get_for_member(user=request.user, campaign_id=pk, pk=page_pk)
    if not page.image:
        raise Http404(_("Pas d'image."))
    response = FileResponse(page.image.open("rb"), content_type=content_type_of(page.image.name))
    response["Cache-Control"] = "private, max-age=300"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _form_fields(form: PageForm) -> dict:
    data = dict(form.cleaned_data)
    data.pop("version", None)
    if not data.get("image"):
        data.pop("image", None)
    return data


def _form_page(request, campaign, form, page=None, stale=None) -> HttpResponse:
    context = {
        "campaign": campaign,
        "is_storyteller": True,
        "form": form,
        "page": page,
        "stale": stale,
    }
    return render(request, "world/page_form.html", context)


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def page_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    initial = {"title": request.GET.get("title", "")[:120], "kind": PageKind.PLACE}
    form = PageForm(request.POST or None, request.FILES or None, campaign=campaign, initial=initial)
    if request.method == "POST" and form.is_valid():
        fields = _form_fields(form)
        fields.pop("remove_image", None)
        try:
            page = services.page_create(campaign=campaign, by=request.user, **fields)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Page « %(title)s » créée.") % {"title": page.title})
            return redirect("world:page", pk=pk, page_pk=page.pk)
    return _form_page(request, campaign, form)


def _page_initial(page) -> dict:
    return {
        "title": page.title,
        "kind": page.kind,
        "tags": ", ".join(page.tags),
        "body": page.body,
        "audience": page.audience,
        "readers": list(page.readers.all()),
        "version": page.version,
    }


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def page_edit(request: HtmxHttpRequest, pk: int, page_pk: int) -> HttpResponse:
    page = page_get_for_member(user=request.user, campaign_id=pk, pk=page_pk)
    require_storyteller(page.campaign)
    has_image = bool(page.image)
    if request.method != "POST":
        form = PageForm(initial=_page_initial(page), campaign=page.campaign, has_image=has_image)
        return _form_page(request, page.campaign, form, page)
    form = PageForm(request.POST, request.FILES, campaign=page.campaign, has_image=has_image)
    if form.is_valid():
        version = form.cleaned_data["version"] or page.version
        try:
            page = services.page_update(
                page=page, by=request.user, version=version, **_form_fields(form)
            )
        except services.StalePage as stale:
            # The editor's text stays in the form, now against the current version: saving
            # again, after reading the current text, is a deliberate choice.
            data = request.POST.copy()
            data["version"] = stale.page.version
            form = PageForm(data, campaign=page.campaign, has_image=has_image)
            return _form_page(request, page.campaign, form, stale.page, stale=stale)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Page enregistrée (version %(v)d).") % {"v": page.version})
            return redirect("world:page", pk=pk, page_pk=page.pk)
    return _form_page(request, page.campaign, form, page)


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def page_delete(request: HtmxHttpRequest, pk: int, page_pk: int) -> HttpResponse:
    page = page_get_for_member(user=request.user, campaign_id=pk, pk=page_pk)
    require_storyteller(page.campaign)
    if request.method == "POST":
        services.page_delete(page=page, by=request.user)
        messages.success(request, _("Page « %(title)s » supprimée.") % {"title": page.title})
        return redirect("world:index", pk=pk)
    context = {"campaign": page.campaign, "is_storyteller": True, "page": page}
    return render(request, "world/page_delete.html", context)


@explains_refusal
@login_required
@require_GET
def page_history(request: HtmxHttpRequest, pk: int, page_pk: int) -> HttpResponse:
    page = page_get_for_member(user=request.user, campaign_id=pk, pk=page_pk)
    require_storyteller(page.campaign)
    context = {
        "campaign": page.campaign,
        "is_storyteller": True,
        "page": page,
        "revisions": selectors.page_history(page=page),
    }
    return render(request, "world/history.html", context)


@explains_refusal
@login_required
@require_POST
def page_restore(request: HtmxHttpRequest, pk: int, page_pk: int, revision_pk: int) -> HttpResponse:
    page = page_get_for_member(user=request.user, campaign_id=pk, pk=page_pk)
    require_storyteller(page.campaign)
    revision = get_object_or_404(page.revisions, pk=revision_pk)
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = 0
    try:
        page = services.page_restore(page=page, by=request.user, revision=revision, version=version)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("world:history", pk=pk, page_pk=page.pk)
    messages.success(
        request,
        _("Version %(old)d restaurée (la page est en version %(v)d).")
        % {"old": revision.version, "v": page.version},
    )
    return redirect("world:page", pk=pk, page_pk=page.pk)


@login_required
@require_GET
@vary_on_headers("HX-Request")
def world_search(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    form = SearchForm(request.GET)
    q = form.cleaned_data["q"] if form.is_valid() else ""
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "search_form": form,
        "q": q,
        "hits": search(user=request.user, campaign=campaign, q=q) if q else [],
    }
    # A history restore (back button after a pushed search) needs the whole page.
    fragment = request.htmx and not request.htmx.history_restore_request
    template = "world/search.html#results" if fragment else "world/search.html"
    return render(request, template, context)
