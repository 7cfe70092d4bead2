from django.contrib import admin

from campaigns.models import (
    Ability,
    Arc,
    Asset,
    Branch,
    Campaign,
    CharacterClass,
    Flaw,
    Invitation,
    Membership,
    Species,
    SpellEntry,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "tier", "creation_budget", "in_game_day", "created_at"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["campaign", "created_at", "expires_at", "uses", "max_uses", "revoked_at"]
    list_select_related = ["campaign"]
    readonly_fields = ["token", "uses", "created_by"]

    def has_add_permission(self, request) -> bool:
        return False  # links are made by the Conteur on the invitations page


@admin.register(Arc)
class ArcAdmin(admin.ModelAdmin):
    list_display = ["title", "campaign", "chapter", "act", "status"]
    list_filter = ["status"]
    list_select_related = ["campaign"]


@admin.register(Species, CharacterClass, Branch, Ability, Asset, Flaw, SpellEntry)
class CompendiumEntryAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign"]
    list_select_related = ["campaign"]
    search_fields = ["name"]
