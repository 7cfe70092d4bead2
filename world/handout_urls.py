"""The handouts' pages, under /campaigns/<pk>/monde/documents/ (world/handout_views.py)."""

from django.urls import path

from world import handout_views as views

app_name = "handouts"

urlpatterns = [
    path("", views.handout_list, name="list"),
    path("give/", views.handout_give, name="give"),
    path("<rowid:handout_pk>/image/", views.handout_image, name="image"),
]
