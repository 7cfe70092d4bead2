"""Routes of the world API, under /api/campaigns/<campaign_id>/world/ (see world/api.py)."""

from django.urls import path

from world import api

app_name = "world_api"

WORLD = "campaigns/<int:campaign_id>/world/"
PAGE = WORLD + "pages/<int:pk>/"

urlpatterns = [
    path(WORLD + "pages/", api.PageList.as_view(), name="page-list"),
    path(PAGE, api.PageDetail.as_view(), name="page-detail"),
    path(PAGE + "history/", api.PageHistory.as_view(), name="page-history"),
    path(PAGE + "restore/", api.PageRestore.as_view(), name="page-restore"),
    path(PAGE + "links/", api.PageLinks.as_view(), name="page-links"),
    path(PAGE + "note/", api.PageNoteView.as_view(), name="page-note"),
    path(WORLD + "search/", api.WorldSearch.as_view(), name="search"),
    path(WORLD + "handouts/", api.HandoutList.as_view(), name="handout-list"),
    path(WORLD + "handouts/<int:pk>/", api.HandoutDetail.as_view(), name="handout-detail"),
]
