from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

import campaigns.urls
from altherion import campaign_pages, profile, views
from common import api_errors

# The campaign's own pages, plus the two that gather every app (the dashboard, an arc's page).
campaign_routes = [
    path("campaigns/<rowid:pk>/", campaign_pages.dashboard, name="dashboard"),
    path("campaigns/<rowid:pk>/arcs/<rowid:arc_pk>/", campaign_pages.arc_detail, name="arc_detail"),
    *campaigns.urls.urlpatterns,
]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/profile/", profile.profile, name="profile"),
    path("accounts/profile/token/", profile.token_create, name="profile_token_create"),
    path(
        "accounts/profile/token/regenerate/",
        profile.token_regenerate,
        name="profile_token_regenerate",
    ),
    path("accounts/profile/token/revoke/", profile.token_revoke, name="profile_token_revoke"),
    path("api/", include("altherion.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    re_path(r"^api/", api_errors.not_found),  # JSON 404 for every other /api/ address
    path("admin/", admin.site.urls),
    path("", include((campaign_routes, "campaigns"))),
    path("", include("sessions.urls")),
    path("", include("characters.urls")),
    path("", include("progression.urls")),
]
handler500 = "altherion.errors.server_error"
