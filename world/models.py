"""The campaign's world: wiki pages written by the Conteur, their history and players' notes.

Who may read a page (and which secret blocks of it) is decided in `world/visibility.py` only;
writes go through `world/services.py`.
"""

import uuid
from pathlib import PurePosixPath

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from campaigns.models import NAME_LENGTH, Campaign

BODY_LENGTH = 50_000
NOTE_LENGTH = 10_000
TAG_LENGTH = 40


class PageKind(models.TextChoices):
    PLACE = "place", _("Lieu")
    NPC = "npc", _("PNJ")
    FACTION = "faction", _("Faction")
    ITEM = "item", _("Objet")
    NOTE = "note", _("Note")
    FREE = "free", _("Page libre")


class PageAudience(models.TextChoices):
    STORYTELLER = "storyteller", _("Conteur seul")
    EVERYONE = "everyone", _("Tous les membres")
    CHOSEN = "chosen", _("Membres choisis")


def page_image_path(page: "Page", filename: str) -> str:
    """A random name under the campaign's folder: the stored name says nothing of the page."""
    suffix = PurePosixPath(filename).suffix.lower()[:6]
    return f"world/{page.campaign_id}/{uuid.uuid4().hex}{suffix}"


class Page(models.Model):
    """One page of the world: a place, an NPC, a faction, an item, a note or a free page."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="world_pages")
    title = models.CharField(_("titre"), max_length=NAME_LENGTH)
    kind = models.CharField(_("genre"), max_length=16, choices=PageKind.choices)
    tags = models.JSONField(_("étiquettes"), default=list, blank=True)
    body = models.TextField(_("texte"), blank=True, max_length=BODY_LENGTH)
    # The body with every secret block taken out, kept for players' search (visibility.py).
    public_text = models.TextField(blank=True, editable=False)
    audience = models.CharField(
        _("visible par"),
        max_length=16,
        choices=PageAudience.choices,
        default=PageAudience.STORYTELLER,
    )
    readers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="world_pages_shared",
        verbose_name=_("membres choisis"),
    )
    image = models.ImageField(_("image"), upload_to=page_image_path, blank=True, max_length=200)
    version = models.PositiveIntegerField(default=1, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["title", "pk"]
        constraints = [
            models.UniqueConstraint(
                "campaign", Lower("title"), name="world_page_unique_title_per_campaign"
            ),
            models.CheckConstraint(
                condition=models.Q(audience__in=PageAudience.values), name="world_page_audience"
            ),
        ]

    def __str__(self) -> str:
        return self.title


class PageRevision(models.Model):
    """A saved version of a page, kept for its history and « Restaurer »."""

    page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField()
    title = models.CharField(max_length=NAME_LENGTH)
    kind = models.CharField(max_length=16, choices=PageKind.choices)
    tags = models.JSONField(default=list, blank=True)
    body = models.TextField(blank=True)
    audience = models.CharField(max_length=16, choices=PageAudience.choices)
    reader_ids = models.JSONField(default=list, blank=True)
    saved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    saved_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["page", "version"], name="world_revision_unique_version"
            )
        ]

    def __str__(self) -> str:
        return f"{self.title} v{self.version}"


class PageNote(models.Model):
    """A member's own note on a page: nobody else reads it, not even the Conteur."""

    page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="notes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="world_notes"
    )
    text = models.TextField(_("note"), blank=True, max_length=NOTE_LENGTH)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["page", "user"], name="world_note_one_per_member")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.page_id}"


class HandoutKind(models.TextChoices):
    PAGE = "page", _("Page")
    IMAGE = "image", _("Image")
    SECRET = "secret", _("Bloc secret")


def handout_image_path(handout: "Handout", filename: str) -> str:
    suffix = PurePosixPath(filename).suffix.lower()[:6]
    return f"world/{handout.campaign_id}/handouts/{uuid.uuid4().hex}{suffix}"


class Handout(models.Model):
    """What the Conteur gave chosen players during a séance: a copy of a page (its text without
    secret blocks), of its image, or of one secret block, as it was when given."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="handouts")
    page = models.ForeignKey(
        Page, on_delete=models.SET_NULL, null=True, blank=True, related_name="handouts"
    )
    kind = models.CharField(_("genre"), max_length=16, choices=HandoutKind.choices)
    title = models.CharField(_("titre"), max_length=NAME_LENGTH)
    text = models.TextField(_("texte"), blank=True, max_length=BODY_LENGTH)
    image = models.ImageField(_("image"), upload_to=handout_image_path, blank=True, max_length=200)
    secret_key = models.CharField(max_length=12, blank=True)
    recipients = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="world_handouts", verbose_name=_("remis à")
    )
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    given_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-given_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=HandoutKind.values), name="world_handout_kind"
            ),
        ]

    def __str__(self) -> str:
        return self.title
