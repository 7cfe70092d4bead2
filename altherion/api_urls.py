"""Everything under /api/: each app contributes its own routes."""

from django.urls import include, path

urlpatterns = [
    path("", include("campaigns.api_urls")),
    path("", include("characters.api_urls")),
    path("", include("progression.api_urls")),
    path("", include("sessions.api_urls")),
]
