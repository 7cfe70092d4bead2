from django.urls import path

from characters import api

app_name = "characters_api"
urlpatterns = [
    path("characters/<int:pk>/export/", api.character_export, name="export"),
]
