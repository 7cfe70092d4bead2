"""Pages of a play session: the séances of a campaign and the table (namespace `sessions`).

Included under `campaigns/<rowid:pk>/` (altherion/urls.py): an address outside a campaign is
refused by that one prefix, not by each of these patterns in turn."""

from django.urls import path

from common import converters  # noqa: F401 (registers <rowid:…>)
from sessions import session_views, stream, views
from sessions.combat import urls as combat_urls

app_name = "sessions"

table = "table/"
session = "sessions/<rowid:session_pk>/table/"
campaign = ""
urlpatterns = [
    path(campaign + "sessions/", session_views.session_list, name="list"),
    path(campaign + "sessions/new/", session_views.session_create, name="create"),
    path(campaign + "sessions/<rowid:session_pk>/", session_views.session_detail, name="detail"),
    path(campaign + "sessions/<rowid:session_pk>/edit/", session_views.session_edit, name="edit"),
    path(
        campaign + "sessions/<rowid:session_pk>/delete/",
        session_views.session_delete,
        name="delete",
    ),
    path(table, views.table_page, name="table"),
    path(table + "odds/", views.table_odds, name="odds"),
    path(table + "rolls/", views.roll_create, name="roll"),
    path(table + "poll/", views.table_poll, name="poll"),
    path("live/", stream.page_stream, name="stream"),
    path(table + "morale/", views.morale_panel, name="morale"),
    path(table + "morale/act/", views.morale_action, name="morale_act"),
    path(table + "morale/fate/", views.fate_spend, name="fate_spend"),
    path(table + "morale/fortune/", views.fortune_request, name="fortune_request"),
    path(
        table + "morale/fortune/<rowid:event_pk>/answer/",
        views.fortune_answer,
        name="fortune_answer",
    ),
    path(
        table + "characters/<rowid:character_pk>/exhaustion/",
        views.exhaustion_change,
        name="exhaustion",
    ),
    path(
        table + "rolls/<rowid:roll_pk>/consequence/",
        views.consequence_apply,
        name="consequence",
    ),
    path(table + "injuries/<rowid:injury_pk>/heal/", views.injury_heal, name="injury_heal"),
    path(session, views.table_page, name="session_table"),
    path(session + "rolls/", views.roll_create, name="session_roll"),
]
urlpatterns += combat_urls.urlpatterns  # the bestiary and combat (§13)
