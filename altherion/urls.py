from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

import campaigns.urls
from altherion import account_data, account_delete, campaign_pages, profile, views
from altherion.account_forms import LoginForm, PasswordResetMailForm
from common import api_errors
from sessions import stream

PASSWORD_RESET_DAYS = settings.PASSWORD_RESET_TIMEOUT // (24 * 60 * 60)

# The campaign's own pages, plus the two that gather every app (the dashboard, an arc's page).
campaign_routes = [
    path("campaigns/<rowid:pk>/", campaign_pages.dashboard, name="dashboard"),
    path("campaigns/<rowid:pk>/arcs/<rowid:arc_pk>/", campaign_pages.arc_detail, name="arc_detail"),
    *campaigns.urls.urlpatterns,
]

# Django tries the patterns in order, and no two of them match one address: the busiest come
# first (an API roll was found after ~90 others, the table's pages after ~70).
urlpatterns = [
    path("api/", include("altherion.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    re_path(r"^api/", api_errors.not_found),  # JSON 404 for every other /api/ address
    path("campaigns/<rowid:pk>/", include("sessions.urls")),
    path("campaigns/<rowid:pk>/monde/documents/", include("world.handout_urls")),
    path("", include("characters.urls")),
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("live/", stream.page_stream, name="live"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=LoginForm),
        name="login",
    ),
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
    path(
        "accounts/password/reset/",
        auth_views.PasswordResetView.as_view(
            form_class=PasswordResetMailForm,
            extra_email_context={"timeout_days": PASSWORD_RESET_DAYS},
        ),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("accounts/profile/", profile.profile, name="profile"),
    path("accounts/profile/email/", profile.email_update, name="profile_email"),
    path("accounts/profile/data.json", account_data.download, name="account_data"),
    path("accounts/profile/delete/", account_delete.confirm, name="account_delete"),
    path("accounts/deleted/", account_delete.done, name="account_deleted"),
    path("accounts/profile/token/", profile.token_create, name="profile_token_create"),
    path(
        "accounts/profile/token/regenerate/",
        profile.token_regenerate,
        name="profile_token_regenerate",
    ),
    path("accounts/profile/token/revoke/", profile.token_revoke, name="profile_token_revoke"),
    path("admin/", admin.site.urls),
    path("", include((campaign_routes, "campaigns"))),
    path("", include("progression.urls")),
    path("", include("world.urls")),
]
handler500 = "altherion.errors.server_error"
