from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from altherion.health import service_status
from campaigns.selectors import memberships_for_user


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Visitors see what the app is; signed-in users see their campaigns ("Mes campagnes")."""
    context = {}
    if request.user.is_authenticated:
        context["memberships"] = memberships_for_user(user=request.user)
    return render(request, "home.html", context)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, _("Bienvenue, %(name)s ! Votre compte est créé.") % {"name": user}
        )
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    status = service_status()
    healthy = all(value != "down" for value in status.values())
    return JsonResponse(
        {"status": "ok" if healthy else "down", **status}, status=200 if healthy else 503
    )
