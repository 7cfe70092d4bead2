"""Leaving for good (RGPD: the right to erasure), from the profile.

The page says what happens before anything does. Each campaign the user runs as Conteur is handed
over to another member or deleted, as they choose; then the account goes, and with it every
character the user owns in any campaign (sheet, notes, history, experience, trainings, injuries),
their memberships, notifications and API token. The rolls they made stay in their table's log —
the campaign's shared story — with no account attached. One transaction: a wrong password or a
campaign left without a decision changes nothing.
"""

from dataclasses import dataclass

from django import forms
from django.contrib.auth import authenticate, logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from campaigns import services as campaign_services
from campaigns.models import Campaign, Membership, Role
from characters.models import Character

DELETE = "delete"
CHANGED = _lazy("Vos campagnes ont changé depuis l'ouverture de cette page : vérifiez vos choix.")


# --- reads and the write ----------------------------------------------------------------------


def campaigns_run_by(*, user) -> list[Campaign]:
    """The campaigns `user` is Conteur of, with their members' count and characters' count."""
    run = Membership.objects.filter(user=user, role=Role.STORYTELLER).values("campaign")
    return list(
        Campaign.objects.filter(pk__in=run)
        .annotate(
            member_count=Count("memberships", distinct=True),
            character_count=Count("characters", distinct=True),
        )
        .order_by("name", "pk")
    )


def heirs_for(*, campaign: Campaign, user) -> list[Membership]:
    """The members `user` may hand `campaign` over to: everyone but themselves."""
    return list(
        Membership.objects.filter(campaign=campaign)
        .exclude(user=user)
        .select_related("user")
        .order_by("user__username")
    )


@transaction.atomic
def account_delete(*, user, decisions: dict[int, int | None]) -> None:
    """Delete `user`'s account after carrying out a decision for every campaign they run:
    `decisions[campaign_pk]` is the membership to hand it over to, or None to delete it.

    Refused (ValidationError, nothing changed) when the campaigns they run are not exactly the
    decided ones — one was created or handed over since the page was read."""
    run = Membership.objects.select_for_update().filter(user=user, role=Role.STORYTELLER)
    if set(run.values_list("campaign_id", flat=True)) != set(decisions):
        raise ValidationError(CHANGED)
    for campaign in Campaign.objects.filter(pk__in=decisions).order_by("pk"):
        heir_pk = decisions[campaign.pk]
        if heir_pk is None:
            campaign_services.campaign_delete(campaign=campaign)
            continue
        heir = Membership.objects.filter(campaign=campaign, pk=heir_pk).exclude(user=user).first()
        if heir is None:
            raise ValidationError(CHANGED)
        campaign_services.storyteller_hand_over(campaign=campaign, to=heir)
    user.delete()


# --- the form ---------------------------------------------------------------------------------


def _field_name(campaign: Campaign) -> str:
    return f"campaign_{campaign.pk}"


class AccountDeleteForm(forms.Form):
    """One required choice per campaign the user runs, then their password (checked through the
    login's own path, so repeated failures count towards its lockout)."""

    password = forms.CharField(
        label=_lazy("Votre mot de passe, pour confirmer"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, request: HttpRequest, campaigns: list[Campaign], **kwargs):
        super().__init__(*args, **kwargs)
        self.request = request
        self.campaigns = campaigns
        for campaign in campaigns:
            heirs = heirs_for(campaign=campaign, user=request.user)
            choices = [
                (str(m.pk), _("Confier la campagne à %(name)s") % {"name": m.user.get_username()})
                for m in heirs
            ]
            choices.append((DELETE, _("Supprimer la campagne et tout son contenu")))
            self.fields[_field_name(campaign)] = forms.ChoiceField(
                label=campaign.name,
                choices=choices,
                widget=forms.RadioSelect,
                error_messages={
                    "required": _("Choisissez ce que devient « %(name)s ».")
                    % {"name": campaign.name}
                },
            )
        # The password last, after the choices it confirms.
        self.order_fields([*(_field_name(c) for c in campaigns), "password"])

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        user = self.request.user
        signed = authenticate(self.request, username=user.get_username(), password=password)
        if signed is None or signed.pk != user.pk:
            raise ValidationError(_("Mot de passe incorrect : rien n'a été supprimé."))
        return password

    def decisions(self) -> dict[int, int | None]:
        chosen = {c.pk: self.cleaned_data[_field_name(c)] for c in self.campaigns}
        return {pk: None if value == DELETE else int(value) for pk, value in chosen.items()}

    def campaign_fields(self) -> list[tuple[Campaign, forms.BoundField]]:
        return [(c, self[_field_name(c)]) for c in self.campaigns]


# --- the pages --------------------------------------------------------------------------------


@dataclass(frozen=True)
class OwnCharacter:
    name: str
    campaign: str


def _page(request: HttpRequest, form: AccountDeleteForm) -> HttpResponse:
    characters = [
        OwnCharacter(name, campaign)
        for name, campaign in Character.objects.filter(owner=request.user)
        .order_by("campaign__name", "name")
        .values_list("name", "campaign__name")
    ]
    context = {"form": form, "characters": characters}
    return render(request, "accounts/delete.html", context)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def confirm(request: HttpRequest) -> HttpResponse:
    campaigns = campaigns_run_by(user=request.user)
    data = request.POST if request.method == "POST" else None
    form = AccountDeleteForm(data, request=request, campaigns=campaigns)
    if request.method == "GET" or not form.is_valid():
        return _page(request, form)
    try:
        account_delete(user=request.user, decisions=form.decisions())
    except ValidationError as error:
        form.add_error(None, error)
        return _page(request, form)
    logout(request)
    return redirect("account_deleted")


@require_GET
def done(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("profile")
    return render(request, "accounts/deleted.html")
