"""Campaign pages: every view works without JavaScript; HTMX saves a round trip where it helps.

Access comes first in every view, from `campaigns.policy` (404 for non-members, 403 for a player
on a Conteur-only action); every object is then looked up inside that campaign.
"""

import copy
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from campaigns import selectors, services
from campaigns.forms import (
    AbilityForm,
    ArcForm,
    AssetForm,
    BranchForm,
    CampaignForm,
    CharacterClassForm,
    FlawForm,
    InvitationForm,
    SpeciesForm,
    SpellEntryForm,
)
from campaigns.policy import (
    campaign_get_for_member,
    campaign_get_for_storyteller,
    explains_refusal,
    is_storyteller,
)
from campaigns.webhook_views import webhook_context
from common.htmx import HtmxHttpRequest


def _error_message(error: ValidationError) -> str:
    """A service's refusal as one sentence, for `messages.error` or the page's own message."""
    return " ".join(error.messages)


# --- my campaigns ---------------------------------------------------------------------------


@login_required
@require_GET
def campaign_list(request: HtmxHttpRequest) -> HttpResponse:
    memberships = selectors.memberships_for_user(user=request.user)
    return render(request, "campaigns/list.html", {"memberships": memberships})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request: HtmxHttpRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = services.campaign_create(creator=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                _("Campagne « %(name)s » créée : vous en êtes le Conteur.") % {"name": campaign},
            )
            return redirect("campaigns:dashboard", pk=campaign.pk)
    return render(request, "campaigns/create.html", {"form": form})


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def campaign_settings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    # The form fills a copy, so a rejected change never shows in the page's header.
    form = CampaignForm(request.POST or None, instance=copy.copy(campaign))
    if request.method == "POST" and form.is_valid():
        changed = {name: form.cleaned_data[name] for name in form.changed_data}
        try:
            # The form filled the instance already; the service validates and saves the fields.
            services.campaign_update(campaign=campaign, **changed)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Réglages de la campagne enregistrés."))
            return redirect("campaigns:dashboard", pk=campaign.pk)
    return render(
        request,
        "campaigns/settings.html",
        {"campaign": campaign, "is_storyteller": True, "form": form} | webhook_context(campaign),
    )


# --- members and invitations ----------------------------------------------------------------


@login_required
@require_GET
def members(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "members": selectors.members_for_campaign(campaign=campaign),
    }
    return render(request, "campaigns/members.html", context)


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def member_remove(request: HtmxHttpRequest, pk: int, membership_pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    membership = selectors.membership_get(campaign=campaign, pk=membership_pk)
    if request.method == "POST":
        try:
            services.membership_remove(membership=membership)
        except ValidationError as error:
            messages.error(request, _error_message(error))
        else:
            messages.success(
                request,
                _("%(name)s ne fait plus partie de la campagne.") % {"name": membership.user},
            )
        return redirect("campaigns:members", pk=campaign.pk)
    return render(
        request,
        "campaigns/member_remove.html",
        {"campaign": campaign, "is_storyteller": True, "membership": membership},
    )


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def hand_over(request: HtmxHttpRequest, pk: int, membership_pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    membership = selectors.membership_get(campaign=campaign, pk=membership_pk)
    if request.method == "POST":
        try:
            services.storyteller_hand_over(campaign=campaign, to=membership)
        except ValidationError as error:
            messages.error(request, _error_message(error))
            return redirect("campaigns:members", pk=campaign.pk)
        messages.success(
            request,
            _("%(name)s est désormais le Conteur ; vous restez joueur de la campagne.")
            % {"name": membership.user},
        )
        return redirect("campaigns:dashboard", pk=campaign.pk)
    return render(
        request,
        "campaigns/hand_over.html",
        {"campaign": campaign, "is_storyteller": True, "membership": membership},
    )


@login_required
@require_http_methods(["GET", "POST"])
def leave(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A player leaves the campaign; the Conteur must hand the role over first."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    if request.method == "POST":
        try:
            services.membership_remove(membership=campaign.membership)
        except ValidationError as error:
            messages.error(request, _error_message(error))
            return redirect("campaigns:members", pk=campaign.pk)
        messages.success(
            request, _("Vous avez quitté la campagne « %(name)s ».") % {"name": campaign}
        )
        return redirect("home")
    return render(
        request,
        "campaigns/leave.html",
        {"campaign": campaign, "is_storyteller": is_storyteller(campaign)},
    )


def _invitations_page(request, campaign, form) -> HttpResponse:
    context = {
        "campaign": campaign,
        "is_storyteller": True,
        "invitations": selectors.invitations_for_campaign(campaign=campaign),
        "form": form,
    }
    return render(request, "campaigns/invitations.html", context)


def _invitation_mail(request: HtmxHttpRequest, invitation, to: str) -> None:
    """Mail the invitation's link (the one the page shows) to `to`, and say whether it left."""
    site = request.build_absolute_uri("/")
    if services.invitation_mail(invitation=invitation, to=to, site=site, by=request.user):
        messages.success(request, _("Lien d'invitation créé et envoyé à %(to)s.") % {"to": to})
        return
    messages.error(
        request,
        _(
            "Lien créé, mais l'e-mail à %(to)s n'a pas pu partir : copiez le lien et "
            "envoyez-le vous-même."
        )
        % {"to": to},
    )


@explains_refusal
@login_required
@require_GET
def invitations(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    return _invitations_page(request, campaign, InvitationForm())


@explains_refusal
@login_required
@require_POST
@vary_on_headers("HX-Request")
def invitation_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    form = InvitationForm(request.POST)
    invitation = None
    if form.is_valid():
        email = form.cleaned_data.pop("email")
        try:
            invitation = services.invitation_create(
                campaign=campaign, by=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            form.add_error(None, error)
        if invitation is not None and email:
            _invitation_mail(request, invitation, email)
            # A full page, where the message says whether the mail left.
            if request.htmx:
                return HttpResponseClientRedirect(reverse("campaigns:invitations", args=[pk]))
            return redirect("campaigns:invitations", pk=campaign.pk)
    if not request.htmx:
        if invitation is None:
            return _invitations_page(request, campaign, form)
        messages.success(request, _("Lien d'invitation créé : copiez-le pour vos joueurs."))
        return redirect("campaigns:invitations", pk=campaign.pk)
    if invitation is None:
        response = render(
            request, "campaigns/_invitation_form.html", {"campaign": campaign, "form": form}
        )
        return reswap(retarget(response, "#invitation-form"), "outerHTML")
    return render(
        request,
        "campaigns/_invitation_row.html",
        {"campaign": campaign, "invitation": invitation},
    )


@explains_refusal
@login_required
@require_POST
@vary_on_headers("HX-Request")
def invitation_revoke(request: HtmxHttpRequest, pk: int, invitation_pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    invitation = selectors.invitation_get(campaign=campaign, pk=invitation_pk)
    invitation = services.invitation_revoke(invitation=invitation)
    if request.htmx:
        return render(
            request,
            "campaigns/_invitation_row.html",
            {"campaign": campaign, "invitation": invitation},
        )
    messages.success(request, _("Lien d'invitation révoqué : il ne fonctionne plus."))
    return redirect("campaigns:invitations", pk=campaign.pk)


@require_http_methods(["GET", "POST"])
def join(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The invitation page: the campaign's name and who invites show only while the link is usable
    by this user. A visitor not signed in sees them too (the link is the secret), with the way to
    sign up or log in and come back; joining itself needs an account."""
    if not request.user.is_authenticated and request.method == "POST":
        return redirect_to_login(request.get_full_path())
    invitation = selectors.invitation_by_token(token=token)
    problem = services.invitation_problem(invitation, user=request.user)
    if request.method == "POST" and problem is None:
        try:
            membership = services.invitation_accept(token=token, user=request.user)
        except ValidationError as error:
            problem = _error_message(error)
        else:
            messages.success(
                request,
                _("Bienvenue dans la campagne « %(name)s » !") % {"name": invitation.campaign},
            )
            return redirect("campaigns:dashboard", pk=membership.campaign_id)
    member_of = None
    if problem is not None and invitation is not None and request.user.is_authenticated:
        # Only a member learns where to go: the policy decides, not the invitation.
        try:
            member_of = campaign_get_for_member(user=request.user, pk=invitation.campaign_id)
        except Http404:
            member_of = None
    context = {"invitation": invitation, "problem": problem, "member_of": member_of}
    return render(
        request, "campaigns/join.html", context, status=404 if invitation is None else 200
    )


# --- arcs -----------------------------------------------------------------------------------


@login_required
@require_GET
def arc_list(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    context = {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "arcs": selectors.arcs_for_campaign(campaign=campaign),
    }
    return render(request, "campaigns/arc_list.html", context)


def _arc_form_page(request, campaign, form, arc=None) -> HttpResponse:
    return render(
        request,
        "campaigns/arc_form.html",
        {"campaign": campaign, "is_storyteller": True, "form": form, "arc": arc},
    )


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def arc_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    form = ArcForm(request.POST or None)
    form.instance.campaign = campaign
    if request.method == "POST" and form.is_valid():
        try:
            arc = services.entry_save(entry=form.save(commit=False))
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Arc « %(title)s » créé.") % {"title": arc})
            return redirect("campaigns:arc_detail", pk=campaign.pk, arc_pk=arc.pk)
    return _arc_form_page(request, campaign, form)


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def arc_edit(request: HtmxHttpRequest, pk: int, arc_pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    arc = selectors.arc_get(campaign=campaign, pk=arc_pk)
    form = ArcForm(request.POST or None, instance=arc)
    if request.method == "POST" and form.is_valid():
        try:
            arc = services.entry_save(entry=form.save(commit=False))
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Arc enregistré."))
            return redirect("campaigns:arc_detail", pk=campaign.pk, arc_pk=arc.pk)
    return _arc_form_page(request, campaign, form, arc)


@explains_refusal
@login_required
@require_POST
def arc_close(request: HtmxHttpRequest, pk: int, arc_pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    arc = services.arc_close(arc=selectors.arc_get(campaign=campaign, pk=arc_pk))
    messages.success(request, _("Arc « %(title)s » clos.") % {"title": arc})
    return redirect("campaigns:arc_detail", pk=campaign.pk, arc_pk=arc.pk)


@explains_refusal
@login_required
@require_POST
def arc_reopen(request: HtmxHttpRequest, pk: int, arc_pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    arc = services.arc_reopen(arc=selectors.arc_get(campaign=campaign, pk=arc_pk))
    messages.success(request, _("Arc « %(title)s » rouvert.") % {"title": arc})
    return redirect("campaigns:arc_detail", pk=campaign.pk, arc_pk=arc.pk)


# --- compendium -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """One section of the compendium: URL slug, French names, the form that edits it."""

    slug: str
    label: str
    added: str
    form_class: type
    scoped: bool = False  # the form offers the campaign's classes


SECTIONS = {
    section.slug: section
    for section in (
        Section(
            "species", gettext_lazy("Espèces"), gettext_lazy("Ajouter une espèce"), SpeciesForm
        ),
        Section(
            "classes",
            gettext_lazy("Classes"),
            gettext_lazy("Ajouter une classe"),
            CharacterClassForm,
        ),
        Section(
            "branches",
            gettext_lazy("Branches"),
            gettext_lazy("Ajouter une branche"),
            BranchForm,
            scoped=True,
        ),
        Section(
            "abilities",
            gettext_lazy("Aptitudes"),
            gettext_lazy("Ajouter une aptitude"),
            AbilityForm,
            scoped=True,
        ),
        Section("assets", gettext_lazy("Atouts"), gettext_lazy("Ajouter un atout"), AssetForm),
        Section("flaws", gettext_lazy("Handicaps"), gettext_lazy("Ajouter un handicap"), FlawForm),
        Section("spells", gettext_lazy("Sorts"), gettext_lazy("Ajouter un sort"), SpellEntryForm),
    )
}


def _section(slug: str) -> Section:
    if slug not in SECTIONS:
        raise Http404(_("Section inconnue."))
    return SECTIONS[slug]


def _entry_form(section: Section, campaign, data=None, instance=None):
    # Six forms (and edited rows) share one page: their element ids must not collide.
    key = f"{section.slug}_{instance.pk}" if instance is not None else section.slug
    kwargs = {"instance": instance, "auto_id": f"id_{key}_%s"}
    if section.scoped:
        kwargs["campaign"] = campaign
    form = section.form_class(data, **kwargs)
    form.instance.campaign = campaign
    return form


@login_required
@require_GET
def compendium(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    storyteller = is_storyteller(campaign)
    entries = selectors.compendium_for_campaign(campaign=campaign)
    sections = [
        {
            "section": section,
            "entries": entries[slug],
            "form": _entry_form(section, campaign) if storyteller else None,
        }
        for slug, section in SECTIONS.items()
    ]
    context = {
        "campaign": campaign,
        "is_storyteller": storyteller,
        "sections": sections,
        "is_empty": not any(entries.values()),
    }
    return render(request, "campaigns/compendium.html", context)


@explains_refusal
@login_required
@require_POST
def compendium_examples(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    added = services.compendium_examples_load(campaign=campaign)
    if added:
        messages.success(request, _("%(count)s entrées d'exemple ajoutées.") % {"count": added})
    else:
        messages.info(request, _("Les exemples sont déjà tous dans le compendium."))
    if request.POST.get("then") == "wizard":  # the wizard's empty lists: back to the wizard
        return redirect("characters:create", campaign_pk=campaign.pk)
    return redirect("campaigns:compendium", pk=campaign.pk)


def _compendium_url(campaign, kind: str) -> str:
    """The compendium page, scrolled to one section."""
    return reverse("campaigns:compendium", args=[campaign.pk]) + f"#{kind}"


def _entry_saved(request, campaign, section, entry, message: str) -> HttpResponse:
    """After a save: the entry's row for HTMX (swapped into the list), else back to its section."""
    if request.htmx:
        return render(
            request,
            "campaigns/compendium/_entry_row.html",
            {"campaign": campaign, "is_storyteller": True, "section": section, "entry": entry},
        )
    messages.success(request, message)
    return redirect(_compendium_url(campaign, section.slug))


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def entry_create(request: HtmxHttpRequest, pk: int, kind: str) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    section = _section(kind)
    form = _entry_form(section, campaign, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.entry_save(entry=form.save(commit=False))
        except ValidationError as error:
            form.add_error(None, error)
        else:
            message = _("« %(name)s » ajouté au compendium.") % {"name": entry}
            return _entry_saved(request, campaign, section, entry, message)
    context = {"campaign": campaign, "is_storyteller": True, "section": section, "form": form}
    if request.htmx and request.method == "POST":
        response = render(request, "campaigns/compendium/_new_entry_form.html", context)
        return reswap(retarget(response, f"#new-{kind}"), "outerHTML")
    return render(request, "campaigns/compendium/entry_form.html", context)


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def entry_edit(request: HtmxHttpRequest, pk: int, kind: str, entry_pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    section = _section(kind)
    entry = selectors.compendium_entry_get(campaign=campaign, slug=kind, pk=entry_pk)
    form = _entry_form(section, campaign, request.POST or None, instance=entry)
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.entry_save(entry=form.save(commit=False))
        except ValidationError as error:
            form.add_error(None, error)
        else:
            message = _("« %(name)s » enregistré.") % {"name": entry}
            return _entry_saved(request, campaign, section, entry, message)
    context = {
        "campaign": campaign,
        "is_storyteller": True,
        "section": section,
        "form": form,
        "entry": entry,
    }
    if request.htmx:
        return render(request, "campaigns/compendium/_edit_entry_row.html", context)
    return render(request, "campaigns/compendium/entry_form.html", context)


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def entry_delete(request: HtmxHttpRequest, pk: int, kind: str, entry_pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    _section(kind)  # 404 for an unknown section
    entry = selectors.compendium_entry_get(campaign=campaign, slug=kind, pk=entry_pk)
    if request.method == "POST":
        services.entry_delete(entry=entry)
        if request.htmx:
            return HttpResponse("")  # the row is swapped out
        messages.success(request, _("« %(name)s » supprimé du compendium.") % {"name": entry})
        return redirect(_compendium_url(campaign, kind))
    return render(
        request,
        "campaigns/confirm_delete.html",
        {
            "campaign": campaign,
            "is_storyteller": True,
            "object": entry,
            "cancel_url": _compendium_url(campaign, kind),
        },
    )
