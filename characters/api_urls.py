from django.urls import path

from characters import api

app_name = "characters_api"
urlpatterns = [
    path("characters/", api.character_list, name="list"),
    path("characters/<int:pk>/", api.character_detail, name="detail"),
    path("characters/<int:pk>/history/", api.character_history, name="history"),
    path("characters/<int:pk>/skills/", api.skill_list, name="skills"),
    path("characters/<int:pk>/skills/<str:key>/", api.skill_detail, name="skill"),
    path("characters/<int:pk>/languages/", api.language_list, name="languages"),
    path("characters/<int:pk>/languages/<str:key>/", api.language_detail, name="language"),
    path("characters/<int:pk>/entries/<str:relation>/", api.entries, name="entries"),
    path("characters/<int:pk>/damage/", api.damage, name="damage"),
    path("characters/<int:pk>/rest/", api.rest, name="rest"),
    path("characters/<int:pk>/heal/", api.heal, name="heal"),
    path("characters/<int:pk>/stabilise/", api.stabilise, name="stabilise"),
    path("characters/<int:pk>/objective/", api.objective, name="objective"),
    path("characters/<int:pk>/export/", api.character_export, name="export"),
    path(
        "campaigns/<int:campaign_id>/characters/import/",
        api.character_import,
        name="import",
    ),
]
