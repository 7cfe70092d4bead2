from django.contrib import admin

from sessions.models import PlaySession


@admin.register(PlaySession)
class PlaySessionAdmin(admin.ModelAdmin):
    list_display = ["title", "campaign", "scheduled_at", "arc"]
    list_select_related = ["campaign", "arc"]
