"""Everything under /api/: each app contributes its own routes."""

from django.urls import include, path

from altherion import auth_api

# The busiest first (the table's, then the sheets'): Django tries them in order.
urlpatterns = [
    path("", include("sessions.api_urls")),
    path("", include("characters.api_urls")),
    path("", include("campaigns.api_urls")),
    path("", include("progression.api_urls")),
    path("", include("world.api_urls")),
    path("auth/token/", auth_api.AuthToken.as_view(), name="auth-token"),
]
