"""Permission-scoped reads of the progression, for the pages and the API alike: the rows a URL
names inside a campaign (404 for any id outside it), who may act for a character (403 for the
other players), the open ellipse, and a character's trainings with their timers.

The campaign itself comes from `campaigns.policy` first, so a non-member never gets this far.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import Arc, Campaign
from characters.models import Character
from characters.selectors import can_edit
from progression.models import Ellipse, EllipseStatus, Training
from progression.trainings import set_expected_days

NOT_AN_EDITOR = gettext_lazy("Seuls le joueur du personnage et le Conteur peuvent faire cela.")


def _found(row, message: str):
    if row is None:
        raise Http404(message)
    return row


def arc_get(*, campaign: Campaign, pk: int) -> Arc:
    return _found(Arc.objects.filter(campaign=campaign, pk=pk).first(), _("Arc introuvable."))


def character_get(*, campaign: Campaign, pk: int) -> Character:
    """The character with what its experience page and spending read (skills, compendium)."""
    character = (
        Character.objects.filter(campaign=campaign, pk=pk)
        .select_related("owner", "species")
        .prefetch_related("skills", "abilities", "classes", "branches")
        .first()
    )
    return _found(character, _("Personnage introuvable."))


def require_editor(*, campaign: Campaign, character: Character, user) -> None:
    """Only the character's player and the Conteur spend its XP and manage its trainings."""
    if not can_edit(user=user, character=character, campaign=campaign):
        raise PermissionDenied(NOT_AN_EDITOR)


def training_get(*, campaign: Campaign, pk: int, character: Character | None = None) -> Training:
    """A training of the campaign (of `character`, if given), with its character."""
    trainings = Training.objects.filter(character__campaign=campaign, pk=pk)
    if character is not None:
        trainings = trainings.filter(character=character)
    return _found(trainings.select_related("character").first(), _("Entraînement introuvable."))


def ellipse_get(*, campaign: Campaign, pk: int) -> Ellipse:
    ellipse = Ellipse.objects.filter(campaign=campaign, pk=pk).first()
    return _found(ellipse, _("Ellipse introuvable."))


def ellipse_current(*, campaign: Campaign) -> Ellipse | None:
    """The campaign's open ellipse, if any (at most one is open)."""
    return Ellipse.objects.filter(campaign=campaign, status=EllipseStatus.OPEN).first()


def trainings_with_timers(*, character: Character, today: int) -> list[Training]:
    """The character's trainings in queue order, each active one with its `expected_day`."""
    trainings = list(
        Training.objects.filter(character=character)
        .select_related("ellipse")
        .order_by("position", "pk")
    )
    set_expected_days(trainings, today)
    return trainings
