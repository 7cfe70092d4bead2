from django.urls import path

from campaigns import views, webhook_views
from common import converters  # noqa: F401 (registers <rowid:…>)

app_name = "campaigns"

campaign = "campaigns/<rowid:pk>/"
urlpatterns = [
    path("campaigns/", views.campaign_list, name="list"),
    path("campaigns/new/", views.campaign_create, name="create"),
    path(campaign + "settings/", views.campaign_settings, name="settings"),
    path(campaign + "settings/webhook/", webhook_views.webhook_save, name="webhook_save"),
    path(campaign + "settings/webhook/test/", webhook_views.webhook_test, name="webhook_test"),
    path(
        campaign + "settings/webhook/enable/", webhook_views.webhook_enable, name="webhook_enable"
    ),
    path(
        campaign + "settings/webhook/delete/", webhook_views.webhook_delete, name="webhook_delete"
    ),
    path(campaign + "members/", views.members, name="members"),
    path(
        campaign + "members/<rowid:membership_pk>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path(campaign + "members/<rowid:membership_pk>/hand-over/", views.hand_over, name="hand_over"),
    path(campaign + "leave/", views.leave, name="leave"),
    path(campaign + "invitations/", views.invitations, name="invitations"),
    path(campaign + "invitations/new/", views.invitation_create, name="invitation_create"),
    path(
        campaign + "invitations/<rowid:invitation_pk>/revoke/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    path("join/<str:token>/", views.join, name="join"),
    path(campaign + "arcs/", views.arc_list, name="arc_list"),
    path(campaign + "arcs/new/", views.arc_create, name="arc_create"),
    path(campaign + "arcs/<rowid:arc_pk>/edit/", views.arc_edit, name="arc_edit"),
    path(campaign + "arcs/<rowid:arc_pk>/close/", views.arc_close, name="arc_close"),
    path(campaign + "arcs/<rowid:arc_pk>/reopen/", views.arc_reopen, name="arc_reopen"),
    path(campaign + "compendium/", views.compendium, name="compendium"),
    path(
        campaign + "compendium/examples/",
        views.compendium_examples,
        name="compendium_examples",
    ),
    path(campaign + "compendium/<slug:kind>/new/", views.entry_create, name="entry_create"),
    path(
        campaign + "compendium/<slug:kind>/<rowid:entry_pk>/edit/",
        views.entry_edit,
        name="entry_edit",
    ),
    path(
        campaign + "compendium/<slug:kind>/<rowid:entry_pk>/delete/",
        views.entry_delete,
        name="entry_delete",
    ),
]
