"""Routes of the progression API, under /api/ (see progression/api.py)."""

from django.urls import path

from progression import api

app_name = "progression_api"

IN_CAMPAIGN = "campaigns/<int:campaign_id>/"
ARC = IN_CAMPAIGN + "arcs/<int:arc_id>/experience/"
CHARACTER = IN_CAMPAIGN + "characters/<int:character_id>/"
TRAINING = CHARACTER + "trainings/<int:training_id>/"
ELLIPSE = IN_CAMPAIGN + "ellipses/<int:ellipse_id>/"

urlpatterns = [
    path(ARC, api.ArcExperience.as_view(), name="arc-experience"),
    path(ARC + "preview/", api.ArcExperiencePreview.as_view(), name="arc-experience-preview"),
    path(ARC + "correct/", api.ArcExperienceCorrect.as_view(), name="arc-experience-correct"),
    path(CHARACTER + "ledger/", api.Ledger.as_view(), name="character-ledger"),
    path(CHARACTER + "improvements/", api.Improvements.as_view(), name="character-improvements"),
    path(CHARACTER + "spend/", api.Spend.as_view(), name="character-spend"),
    path(CHARACTER + "trainings/", api.Trainings.as_view(), name="character-trainings"),
    path(TRAINING + "cancel/", api.TrainingCancel.as_view(), name="training-cancel"),
    path(TRAINING + "trainer/", api.TrainingTrainer.as_view(), name="training-trainer"),
    path(IN_CAMPAIGN + "ellipses/", api.EllipseList.as_view(), name="ellipse-list"),
    path(ELLIPSE, api.EllipseDetail.as_view(), name="ellipse-detail"),
    path(ELLIPSE + "advance/", api.EllipseAdvance.as_view(), name="ellipse-advance"),
    path(ELLIPSE + "close/", api.EllipseClose.as_view(), name="ellipse-close"),
    path(ELLIPSE + "xp-trainer/", api.EllipseXpTrainer.as_view(), name="ellipse-xp-trainer"),
    path("notifications/", api.NotificationList.as_view(), name="notification-list"),
    path("notifications/read/", api.NotificationRead.as_view(), name="notification-read"),
]
