from django.urls import path

from characters import views, wizard

app_name = "characters"
urlpatterns = [
    path("campaigns/<int:campaign_pk>/characters/new/", wizard.create, name="create"),
    path("campaigns/<int:campaign_pk>/characters/budget/", wizard.budget, name="budget"),
    path("characters/<int:pk>/", views.character_sheet, name="sheet"),
    path("characters/<int:pk>/fields/<str:field>/", views.character_field, name="field"),
    path("characters/<int:pk>/skills/", views.skill_add, name="skill_add"),
    path("characters/<int:pk>/skills/<str:key>/", views.skill_save, name="skill"),
    path("characters/<int:pk>/languages/<str:key>/", views.language_save, name="language"),
    path("characters/<int:pk>/entries/", views.entries_edit, name="entries"),
    path("characters/<int:pk>/entries/save/", views.entries_save, name="entries_save"),
    path("characters/<int:pk>/damage/", views.damage, name="damage"),
    path("characters/<int:pk>/rest/", views.rest, name="rest"),
    path("characters/<int:pk>/stabilise/", views.stabilise, name="stabilise"),
    path("characters/<int:pk>/heal/", views.heal, name="heal"),
    path("characters/<int:pk>/objective/", views.objective, name="objective"),
    path("characters/<int:pk>/history/", views.history, name="history"),
    path("characters/<int:pk>/delete/", views.character_delete, name="delete"),
    path(
        "characters/<int:pk>/history/<int:change_pk>/restore/",
        views.history_restore,
        name="history_restore",
    ),
]
