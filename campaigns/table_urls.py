"""The table's pages, under /campaigns/<pk>/table/ (namespace `table`)."""

from django.urls import path

from campaigns import table_views as views

app_name = "table"

table = "campaigns/<rowid:pk>/table/"
session = "campaigns/<rowid:pk>/sessions/<rowid:session_pk>/table/"
urlpatterns = [
    path(table, views.table_page, name="page"),
    path(table + "odds/", views.table_odds, name="odds"),
    path(table + "rolls/", views.roll_create, name="roll"),
    path(table + "poll/", views.table_poll, name="poll"),
    path(table + "morale/", views.morale_panel, name="morale"),
    path(table + "morale/act/", views.morale_action, name="morale_act"),
    path(
        table + "rolls/<rowid:roll_pk>/consequence/",
        views.consequence_apply,
        name="consequence",
    ),
    path(table + "injuries/<rowid:injury_pk>/heal/", views.injury_heal, name="injury_heal"),
    path(session, views.table_page, name="session"),
    path(session + "rolls/", views.roll_create, name="session_roll"),
]
