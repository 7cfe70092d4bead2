"""Routes of the sessions API, under /api/campaigns/<campaign_id>/ (see sessions/api.py)."""

from django.urls import path

from sessions import api, stream
from sessions.combat import api_urls as combat_api_urls

app_name = "sessions_api"

IN_CAMPAIGN = "campaigns/<int:campaign_id>/"

urlpatterns = [
    path(IN_CAMPAIGN + "sessions/", api.PlaySessionList.as_view(), name="play-session-list"),
    path(
        IN_CAMPAIGN + "sessions/<int:pk>/",
        api.PlaySessionDetail.as_view(),
        name="play-session-detail",
    ),
    path(IN_CAMPAIGN + "rolls/", api.RollList.as_view(), name="roll-list"),
    path(IN_CAMPAIGN + "stream/", stream.api_stream, name="stream"),
    path(IN_CAMPAIGN + "rolls/<int:pk>/", api.RollDetail.as_view(), name="roll-detail"),
    path(
        IN_CAMPAIGN + "rolls/<int:pk>/consequences/",
        api.RollConsequence.as_view(),
        name="roll-consequence",
    ),
    path(IN_CAMPAIGN + "injuries/<int:pk>/heal/", api.InjuryHeal.as_view(), name="injury-heal"),
    path(
        IN_CAMPAIGN + "characters/<int:character_id>/exhaustion/",
        api.ExhaustionChange.as_view(),
        name="exhaustion",
    ),
    path(IN_CAMPAIGN + "log/", api.TableLog.as_view(), name="log"),
    path(IN_CAMPAIGN + "arcs/<int:arc_id>/used/", api.UsedInArc.as_view(), name="used-in-arc"),
    path(IN_CAMPAIGN + "odds/", api.Odds.as_view(), name="odds"),
    path(IN_CAMPAIGN + "morale/", api.Morale.as_view(), name="morale"),
    path(IN_CAMPAIGN + "morale/actions/", api.MoraleAction.as_view(), name="morale-action"),
    path(IN_CAMPAIGN + "morale/fate/spend/", api.FateSpend.as_view(), name="fate-spend"),
    path(
        IN_CAMPAIGN + "morale/fortune/requests/",
        api.FortuneRequest.as_view(),
        name="fortune-request",
    ),
    path(
        IN_CAMPAIGN + "morale/fortune/requests/<int:pk>/answer/",
        api.FortuneAnswer.as_view(),
        name="fortune-answer",
    ),
]
urlpatterns += combat_api_urls.urlpatterns
