"""The app's URLs plus `/bench/floor`: the cheapest Django view behind the same middleware and
session authentication, the floor the sheet is compared with. Only bench settings load this."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import include, path


@login_required
def floor(request):
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench/floor", floor),
    path("", include("altherion.urls")),
]
handler500 = "altherion.errors.server_error"  # as altherion.urls: a database away is a 503
