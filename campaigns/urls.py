from django.urls import path, register_converter

from campaigns import views


class RowIdConverter:
    """A row id: at most 18 digits, so a number too large for the database is a plain 404."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(RowIdConverter, "rowid")

app_name = "campaigns"

campaign = "campaigns/<rowid:pk>/"
urlpatterns = [
    path("campaigns/", views.campaign_list, name="list"),
    path("campaigns/new/", views.campaign_create, name="create"),
    path(campaign, views.dashboard, name="dashboard"),
    path(campaign + "settings/", views.campaign_settings, name="settings"),
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
    path(campaign + "arcs/<rowid:arc_pk>/", views.arc_detail, name="arc_detail"),
    path(campaign + "arcs/<rowid:arc_pk>/edit/", views.arc_edit, name="arc_edit"),
    path(campaign + "arcs/<rowid:arc_pk>/close/", views.arc_close, name="arc_close"),
    path(campaign + "arcs/<rowid:arc_pk>/reopen/", views.arc_reopen, name="arc_reopen"),
    path(campaign + "sessions/", views.session_list, name="session_list"),
    path(campaign + "sessions/new/", views.session_create, name="session_create"),
    path(campaign + "sessions/<rowid:session_pk>/", views.session_detail, name="session_detail"),
    path(campaign + "sessions/<rowid:session_pk>/edit/", views.session_edit, name="session_edit"),
    path(
        campaign + "sessions/<rowid:session_pk>/delete/",
        views.session_delete,
        name="session_delete",
    ),
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
