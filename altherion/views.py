from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from altherion.account_forms import SignupForm
from campaigns.selectors import memberships_for_user
from common.health import service_status


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Visitors see what the app is; signed-in users see their campaigns ("Mes campagnes")."""
    context = {}
    if request.user.is_authenticated:
        context["memberships"] = memberships_for_user(user=request.user)
    return render(request, "home.html", context)


def _safe_next(request: HttpRequest) -> str:
    """The `next` page to return to after signing up, if it stays on this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else ""


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, _("Bienvenue, %(name)s ! Votre compte est créé.") % {"name": user}
        )
        return redirect(next_url or "home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    status = service_status()
    healthy = all(value != "down" for value in status.values())
    return JsonResponse(
        {"status": "ok" if healthy else "down", **status}, status=200 if healthy else 503
    )


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers and tools ask for whatever the page says: the SVG icon
    (its static address, hashed in production)."""
    return redirect(static("favicon.svg"))
