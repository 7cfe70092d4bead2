from django.urls import path

from common import converters  # noqa: F401 (registers <rowid:…>)
from world import views

app_name = "world"

world = "campaigns/<rowid:pk>/monde/"
page = world + "<rowid:page_pk>/"
urlpatterns = [
    path(world, views.index, name="index"),
    path(world + "nouvelle/", views.page_create, name="create"),
    path(world + "recherche/", views.world_search, name="search"),
    path(page, views.page_detail, name="page"),
    path(page + "modifier/", views.page_edit, name="edit"),
    path(page + "supprimer/", views.page_delete, name="delete"),
    path(page + "historique/", views.page_history, name="history"),
    path(page + "historique/<rowid:revision_pk>/restaurer/", views.page_restore, name="restore"),
    path(page + "note/", views.note_save, name="note"),
    path(page + "image/", views.page_image, name="image"),
]
