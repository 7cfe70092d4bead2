"""Permission-scoped reads of characters, on top of the campaign policy.

A non-member of the character's campaign gets 404 (the sheet's existence is never revealed); a
member reads every sheet of the campaign; only the owner and the Conteur edit (403 for the others).
"""

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, QuerySet
from django.http import Http404

from campaigns.models import Campaign, Role
from campaigns.policy import campaign_get_for_member, is_storyteller
from characters.models import Character, CharacterChange

HISTORY_PAGE = 100
SHEET_RELATIONS = ("skills", "languages", "classes", "branches", "abilities", "assets", "flaws")


def sheet_queryset() -> QuerySet[Character]:
    """Characters with everything a sheet shows loaded in a fixed number of queries."""
    return Character.objects.select_related("species", "owner", "updated_by").prefetch_related(
        *SHEET_RELATIONS
    )


def can_edit(*, user, character: Character, campaign: Campaign) -> bool:
    """The owner and the campaign's Conteur edit a sheet; other members only read it."""
    return character.owner_id == user.pk or is_storyteller(campaign)


def _scoped(*, user, character: Character | None) -> Character:
    if character is None:
        raise Http404("Personnage introuvable.")
    campaign = campaign_get_for_member(user=user, pk=character.campaign_id)
    character.campaign = campaign
    character.can_edit = can_edit(user=user, character=character, campaign=campaign)
    character.viewer_is_storyteller = is_storyteller(campaign)
    # Private notes are for the owner and the Conteur only.
    character.can_see_private = character.can_edit
    return character


def character_get_for_viewer(*, user, pk: int, queryset: QuerySet | None = None) -> Character:
    """The character with `.campaign.membership`, `.can_edit`; 404 unless the user is a member."""
    if not user.is_authenticated:
        raise Http404("Personnage introuvable.")
    queryset = sheet_queryset() if queryset is None else queryset
    return _scoped(user=user, character=queryset.filter(pk=pk).first())


def character_get_for_editor(*, user, pk: int, queryset: QuerySet | None = None) -> Character:
    """As `character_get_for_viewer`, and 403 for a member who may only read the sheet."""
    character = character_get_for_viewer(user=user, pk=pk, queryset=queryset)
    if not character.can_edit:
        raise PermissionDenied("Seuls le joueur du personnage et le Conteur peuvent le modifier.")
    return character


def character_history(*, character: Character, limit: int = HISTORY_PAGE) -> list[CharacterChange]:
    """The latest changes of a sheet, newest first, with their authors (one query)."""
    changes = CharacterChange.objects.filter(character=character).select_related("by")
    return list(changes[:limit])


def characters_for_campaign(*, campaign: Campaign, user) -> list[Character]:
    """The characters of a campaign that this member may see, for the dashboard (one query).

    Every member sees every sheet of the campaign; `campaign.membership` must be the user's."""
    characters = list(
        Character.objects.filter(campaign=campaign).select_related("owner", "species")
    )
    if getattr(campaign, "membership", None) is None:
        campaign = campaign_get_for_member(user=user, pk=campaign.pk)
    storyteller = is_storyteller(campaign)
    for character in characters:
        character.can_edit = storyteller or character.owner_id == user.pk
    return characters


def characters_for_user(*, user) -> QuerySet[Character]:
    """Every character in the campaigns the user belongs to (for the API list)."""
    return sheet_queryset().filter(campaign__memberships__user=user).distinct()


def history_prefetch() -> Prefetch:
    return Prefetch("changes", queryset=CharacterChange.objects.select_related("by"))


def sheet_probe(*, user, pk: int) -> dict:
    """What decides how a sheet looks to this user, in one query — its version, the campaign's
    compendium revision, the viewer's role — for the page cache; 404 unless the user is a
    member of the character's campaign."""
    row = (
        Character.objects.filter(pk=pk, campaign__memberships__user=user.pk)
        .values(
            "pk",
            "name",
            "version",
            "owner_id",
            "owner__username",
            "campaign_id",
            "campaign__name",
            "campaign__revision",
            "campaign__memberships__role",
        )
        .first()
        if user.is_authenticated
        else None
    )
    if row is None:
        raise Http404("Personnage introuvable.")
    row["storyteller"] = row.pop("campaign__memberships__role") == Role.STORYTELLER
    row["can_edit"] = row["storyteller"] or row["owner_id"] == user.pk
    return row
