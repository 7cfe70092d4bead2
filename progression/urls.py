"""Pages of the progression: arc experience, the XP ledger and spending, ellipses, notifications.
Included from altherion/urls.py under the `progression` namespace."""

from django.urls import path

from common import converters  # noqa: F401 (registers <rowid:…>)
from progression import views

campaign = "campaigns/<rowid:pk>/"
character = campaign + "characters/<rowid:character_pk>/experience/"

app_name = "progression"

urlpatterns = [
    path(campaign + "progression/", views.progression_overview, name="progression"),
    path(campaign + "arcs/<rowid:arc_pk>/experience/", views.arc_experience, name="arc_experience"),
    path(
        campaign + "arcs/<rowid:arc_pk>/experience/progress/",
        views.arc_experience_progress,
        name="arc_experience_progress",
    ),
    path(character, views.character_experience, name="character_experience"),
    path(character + "spend/", views.xp_spend, name="xp_spend"),
    path(character + "train/", views.training_queue, name="training_queue"),
    path(
        campaign + "trainings/<rowid:training_pk>/cancel/",
        views.training_cancel,
        name="training_cancel",
    ),
    path(
        campaign + "trainings/<rowid:training_pk>/trainer/",
        views.training_trainer,
        name="training_trainer",
    ),
    path(campaign + "ellipses/", views.ellipse_list, name="ellipse_list"),
    path(campaign + "ellipses/<rowid:ellipse_pk>/", views.ellipse_detail, name="ellipse_detail"),
    path(
        campaign + "ellipses/<rowid:ellipse_pk>/advance/",
        views.ellipse_advance,
        name="ellipse_advance",
    ),
    path(
        campaign + "ellipses/<rowid:ellipse_pk>/xp-trainer/",
        views.ellipse_xp_trainer,
        name="ellipse_xp_trainer",
    ),
    path("notifications/", views.notification_list, name="notifications"),
    path("notifications/count/", views.notifications_count, name="notifications_count"),
    path("notifications/read/", views.notifications_read, name="notifications_read"),
]
