"""Reads for campaign pages: each one a fixed number of queries, whatever the number of rows.

Access is decided by `campaigns.policy` before these run; every lookup of an object inside a
campaign is scoped by that campaign, so another campaign's ids are 404.
"""

from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery
from django.shortcuts import get_object_or_404

from campaigns.models import (
    Ability,
    Arc,
    ArcStatus,
    Asset,
    Branch,
    Campaign,
    CharacterClass,
    Flaw,
    Invitation,
    Membership,
    Role,
    Species,
    SpellEntry,
    Webhook,
)


def memberships_for_user(*, user) -> QuerySet[Membership]:
    """The user's campaigns ("Mes campagnes"), each with its member count and Conteur's name."""
    storyteller_name = Membership.objects.filter(
        campaign=OuterRef("campaign"), role=Role.STORYTELLER
    ).values("user__username")[:1]
    return (
        Membership.objects.filter(user=user)
        .select_related("campaign")
        .annotate(
            member_count=Count("campaign__memberships"),
            storyteller_name=Subquery(storyteller_name),
        )
        .order_by("campaign__name", "campaign__pk")
    )


def members_for_campaign(*, campaign: Campaign) -> list[Membership]:
    """Members with their users, the Conteur first."""
    memberships = Membership.objects.filter(campaign=campaign).select_related("user")
    return sorted(memberships, key=lambda m: (not m.is_storyteller, m.joined_at, m.pk))


def membership_get(*, campaign: Campaign, pk: int) -> Membership:
    return get_object_or_404(Membership.objects.select_related("user"), campaign=campaign, pk=pk)


def invitations_for_campaign(*, campaign: Campaign) -> QuerySet[Invitation]:
    return Invitation.objects.filter(campaign=campaign)


def invitation_get(*, campaign: Campaign, pk: int) -> Invitation:
    return get_object_or_404(Invitation, campaign=campaign, pk=pk)


def invitation_by_token(*, token: str) -> Invitation | None:
    """The invitation with its campaign and who made it (the join page names both)."""
    return Invitation.objects.select_related("campaign", "created_by").filter(token=token).first()


def arcs_for_campaign(*, campaign: Campaign) -> QuerySet[Arc]:
    """Open arcs first, newest first, each with its number of play sessions."""
    return (
        Arc.objects.filter(campaign=campaign)
        .annotate(session_count=Count("play_sessions"))
        .order_by("-status", "-created_at", "-pk")  # "open" sorts after "closed"
    )


def arc_get(*, campaign: Campaign, pk: int) -> Arc:
    return get_object_or_404(Arc, campaign=campaign, pk=pk)


def arc_current(*, campaign: Campaign) -> Arc | None:
    """The most recently created open arc: the one the table is playing."""
    return (
        Arc.objects.filter(campaign=campaign, status=ArcStatus.OPEN)
        .order_by("-created_at", "-pk")
        .first()
    )


# --- compendium -----------------------------------------------------------------------------


def compendium_kind_models() -> dict[str, type]:
    return {
        "species": Species,
        "classes": CharacterClass,
        "branches": Branch,
        "abilities": Ability,
        "assets": Asset,
        "flaws": Flaw,
        "spells": SpellEntry,
    }


def compendium_entries(*, campaign: Campaign, slug: str) -> QuerySet:
    """The entries of one section, with what their rows display (no query per row)."""
    model = compendium_kind_models()[slug]
    entries = model.objects.filter(campaign=campaign)
    if slug == "classes":
        entries = entries.prefetch_related(
            Prefetch("branches", queryset=Branch.objects.order_by("name", "pk"))
        )
    elif slug in ("branches", "abilities"):
        entries = entries.select_related("character_class")
    return entries


def compendium_entry_get(*, campaign: Campaign, slug: str, pk: int):
    return get_object_or_404(compendium_entries(campaign=campaign, slug=slug), pk=pk)


def compendium_for_campaign(*, campaign: Campaign) -> dict[str, list]:
    """Every section's entries: one query per section (plus one for the classes' branches)."""
    return {
        slug: list(compendium_entries(campaign=campaign, slug=slug))
        for slug in compendium_kind_models()
    }


def webhook_for_campaign(*, campaign: Campaign) -> Webhook | None:
    """The campaign's webhook, or None (for its Conteur: the URL is a secret)."""
    return Webhook.objects.filter(campaign=campaign).first()
