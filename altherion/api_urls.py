"""Everything under /api/: each app contributes its own routes."""

from django.urls import include, path

urlpatterns = [
    path("", include("campaigns.api_urls")),
    path("", include("characters.api_urls")),
    path("", include("campaigns.progression_api_urls")),
    path("", include("campaigns.table_api_urls")),
]
