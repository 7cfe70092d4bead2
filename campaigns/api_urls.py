"""Routes of the campaign API, under /api/ (see campaigns/api.py)."""

from django.urls import path

from campaigns import api, webhook_api

app_name = "campaigns_api"

IN_CAMPAIGN = "campaigns/<int:campaign_id>/"

urlpatterns = [
    path("campaigns/", api.CampaignList.as_view(), name="campaign-list"),
    path(IN_CAMPAIGN, api.CampaignDetail.as_view(), name="campaign-detail"),
    path(IN_CAMPAIGN + "leave/", api.CampaignLeave.as_view(), name="campaign-leave"),
    path(IN_CAMPAIGN + "members/", api.MemberList.as_view(), name="member-list"),
    path(IN_CAMPAIGN + "members/<int:pk>/", api.MemberDetail.as_view(), name="member-detail"),
    path(
        IN_CAMPAIGN + "members/<int:pk>/hand-over/",
        api.MemberHandOver.as_view(),
        name="member-hand-over",
    ),
    path(IN_CAMPAIGN + "invitations/", api.InvitationList.as_view(), name="invitation-list"),
    path(
        IN_CAMPAIGN + "invitations/<int:pk>/revoke/",
        api.InvitationRevoke.as_view(),
        name="invitation-revoke",
    ),
    path("invitations/accept/", api.InvitationAccept.as_view(), name="invitation-accept"),
    path(IN_CAMPAIGN + "webhook/", webhook_api.WebhookDetail.as_view(), name="webhook"),
    path(IN_CAMPAIGN + "webhook/test/", webhook_api.WebhookTest.as_view(), name="webhook-test"),
    path(
        IN_CAMPAIGN + "webhook/enable/",
        webhook_api.WebhookEnable.as_view(),
        name="webhook-enable",
    ),
    path(IN_CAMPAIGN + "arcs/", api.ArcList.as_view(), name="arc-list"),
    path(IN_CAMPAIGN + "arcs/<int:pk>/", api.ArcDetail.as_view(), name="arc-detail"),
    path(IN_CAMPAIGN + "arcs/<int:pk>/close/", api.ArcClose.as_view(), name="arc-close"),
    path(IN_CAMPAIGN + "arcs/<int:pk>/reopen/", api.ArcReopen.as_view(), name="arc-reopen"),
]

for slug, (list_view, detail_view) in api.COMPENDIUM.items():
    urlpatterns += [
        path(
            f"{IN_CAMPAIGN}compendium/{slug}/", list_view.as_view(), name=f"compendium-{slug}-list"
        ),
        path(
            f"{IN_CAMPAIGN}compendium/{slug}/<int:pk>/",
            detail_view.as_view(),
            name=f"compendium-{slug}-detail",
        ),
    ]
