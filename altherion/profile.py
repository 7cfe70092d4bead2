"""The profile page: the account's e-mail address (where a password reset is sent), a user's
personal API token (create, regenerate, revoke), and the doors to their data and to leaving.

DRF's `Token` keeps the key in clear, but the page shows it in full only once, in the response to
the POST that made it (never in a redirect, a message or a cookie); afterwards only its first
characters, so a screen share of the profile does not leak it. Regenerating or revoking asks for
confirmation first: every script using the old key stops working at once.
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from rest_framework.authtoken.models import Token

TEMPLATE = "accounts/profile.html"
SHOWN_PREFIX = 6


class EmailForm(forms.Form):
    email = forms.EmailField(
        label=_lazy("Adresse e-mail"),
        required=False,
        help_text=_lazy(
            "Pour recevoir un lien si vous oubliez votre mot de passe ; laissez vide pour n'en "
            "donner aucune."
        ),
    )


@transaction.atomic
def account_email_update(*, user, email: str) -> None:
    user.email = email
    user.save(update_fields=["email"])


@transaction.atomic
def api_token_create(*, user) -> Token:
    """A new key for the user, replacing any previous one (which stops working)."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


@transaction.atomic
def api_token_revoke(*, user) -> bool:
    """Delete the user's key; False if there was none."""
    deleted, _rows = Token.objects.filter(user=user).delete()
    return bool(deleted)


def _page(
    request: HttpRequest,
    *,
    new_key: str | None = None,
    confirm: str | None = None,
    email_form: EmailForm | None = None,
):
    token = Token.objects.filter(user=request.user).first()
    context = {
        "email_form": email_form or EmailForm(initial={"email": request.user.email}),
        "token": token,
        "token_prefix": token.key[:SHOWN_PREFIX] if token else "",
        "new_key": new_key,
        "confirm": confirm,
    }
    return render(request, TEMPLATE, context)


@never_cache
@login_required
@require_GET
def profile(request: HttpRequest) -> HttpResponse:
    return _page(request)


@never_cache
@login_required
@require_POST
def email_update(request: HttpRequest) -> HttpResponse:
    form = EmailForm(request.POST)
    if not form.is_valid():
        return _page(request, email_form=form)
    account_email_update(user=request.user, email=form.cleaned_data["email"])
    messages.success(request, _("Adresse e-mail enregistrée."))
    return redirect("profile")


@never_cache
@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    if Token.objects.filter(user=request.user).exists():
        messages.warning(
            request,
            _("Vous avez déjà un jeton : régénérez-le si vous avez perdu la clé."),
        )
        return redirect("profile")
    token = api_token_create(user=request.user)
    return _page(request, new_key=token.key)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def token_regenerate(request: HttpRequest) -> HttpResponse:
    if not Token.objects.filter(user=request.user).exists():
        return redirect("profile")
    if request.method == "GET":
        return _page(request, confirm="regenerate")
    token = api_token_create(user=request.user)
    return _page(request, new_key=token.key)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def token_revoke(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        if not Token.objects.filter(user=request.user).exists():
            return redirect("profile")
        return _page(request, confirm="revoke")
    if api_token_revoke(user=request.user):
        messages.success(request, _("Jeton révoqué : il ne donne plus accès à l'API."))
    return redirect("profile")
