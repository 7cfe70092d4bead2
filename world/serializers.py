"""The world API's shapes: input serializers check types and sizes, the services decide the rest;
output serializers show a page as its reader may see it (the view passes `visible_body`)."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.models import NAME_LENGTH
from common.api_fields import TextField
from world.models import (
    BODY_LENGTH,
    NOTE_LENGTH,
    TAG_LENGTH,
    Handout,
    HandoutKind,
    Page,
    PageAudience,
    PageKind,
    PageRevision,
)
from world.visibility import secret_blocks

ID_MAX = 2**63 - 1


class PageSummaryOut(serializers.ModelSerializer):
    has_image = serializers.SerializerMethodField()

    class Meta:
        model = Page
        fields = ["id", "title", "kind", "tags", "audience", "version", "has_image", "updated_at"]
        read_only_fields = fields

    def get_has_image(self, page: Page) -> bool:
        return bool(page.image)


class BacklinkOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["page", "journal"], help_text="A page or a séance.")
    title = serializers.CharField()
    url = serializers.CharField(help_text="The page's address in the site (HTML).")


class SecretOut(serializers.Serializer):
    index = serializers.IntegerField()
    key = serializers.CharField(help_text="Names the block for a handout (`secret_key`).")
    text = serializers.CharField()
    usernames = serializers.ListField(child=serializers.CharField())


class PageOut(PageSummaryOut):
    """A page as its reader may see it: `body` without the secret blocks they may not read;
    `readers` (the chosen members' user ids) only for the Conteur, else empty."""

    body = serializers.SerializerMethodField()
    readers = serializers.SerializerMethodField()
    secrets = serializers.SerializerMethodField()
    backlinks = serializers.SerializerMethodField()

    class Meta(PageSummaryOut.Meta):
        fields = [*PageSummaryOut.Meta.fields, "body", "readers", "secrets", "backlinks"]
        fields += ["created_at"]
        read_only_fields = fields

    @extend_schema_field(OpenApiTypes.STR)
    def get_body(self, page: Page) -> str:
        return self.context["body"]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_readers(self, page: Page) -> list[int]:
        if not self.context.get("storyteller"):
            return []
        return sorted(page.readers.values_list("pk", flat=True))

    @extend_schema_field(SecretOut(many=True))
    def get_secrets(self, page: Page) -> list[dict]:
        """The page's secret blocks, for the Conteur only (a player reads those shown to them
        in `body`)."""
        if not self.context.get("storyteller"):
            return []
        return SecretOut(secret_blocks(page), many=True).data

    @extend_schema_field(BacklinkOut(many=True))
    def get_backlinks(self, page: Page) -> list[dict]:
        return BacklinkOut(self.context.get("backlinks", []), many=True).data


class PageIn(serializers.Serializer):
    title = serializers.CharField(max_length=NAME_LENGTH)
    kind = serializers.ChoiceField(choices=PageKind.choices)
    tags = serializers.ListField(
        child=serializers.CharField(max_length=TAG_LENGTH), required=False, max_length=20
    )
    body = serializers.CharField(
        max_length=BODY_LENGTH, required=False, allow_blank=True, trim_whitespace=False
    )
    audience = serializers.ChoiceField(choices=PageAudience.choices, required=False)
    readers = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        required=False,
        help_text="User ids of the members chosen (audience `chosen`).",
    )


class PagePatchIn(PageIn):
    version = serializers.IntegerField(
        min_value=1, help_text="The version you read; a stale one is refused with 409."
    )


class PageConflictOut(serializers.Serializer):
    detail = serializers.CharField()
    errors = serializers.DictField()
    current = PageOut(help_text="The page as it is now (as you may see it).")


class RevisionOut(serializers.ModelSerializer):
    saved_by = serializers.CharField(source="saved_by.get_username", default=None)

    class Meta:
        model = PageRevision
        fields = ["id", "version", "title", "kind", "tags", "body", "audience", "saved_by"]
        fields += ["saved_at"]
        read_only_fields = fields


class RestoreIn(serializers.Serializer):
    revision = serializers.IntegerField(min_value=1, max_value=ID_MAX)
    version = serializers.IntegerField(min_value=1, help_text="The page's version you read.")


class LinkOut(serializers.Serializer):
    title = serializers.CharField()
    page = serializers.IntegerField(
        allow_null=True,
        help_text="The linked page's id; null when there is no such page you may see.",
    )


class LinksOut(serializers.Serializer):
    outgoing = LinkOut(many=True)
    backlinks = BacklinkOut(many=True)


class NoteInOut(serializers.Serializer):
    text = serializers.CharField(max_length=NOTE_LENGTH, allow_blank=True, trim_whitespace=False)


class SearchIn(serializers.Serializer):
    """The search's query string: `q` is required, and may be blank (no hit then)."""

    q = TextField(allow_blank=True, help_text="The words sought (blank: no hit).")


class HitOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["page", "compendium", "journal"])
    kind_label = serializers.CharField()
    title = serializers.CharField()
    url = serializers.CharField()
    snippet = serializers.CharField()


class HandoutOut(serializers.ModelSerializer):
    """A handout; `recipients` (user ids) for the Conteur, only the reader's own id otherwise."""

    recipients = serializers.SerializerMethodField()
    image_url = serializers.SerializerMethodField()

    class Meta:
        model = Handout
        fields = ["id", "page", "kind", "title", "text", "image_url", "recipients", "given_at"]
        read_only_fields = fields

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_recipients(self, handout: Handout) -> list[int]:
        ids = sorted(user.pk for user in handout.recipients.all())
        if self.context.get("storyteller"):
            return ids
        return [pk for pk in ids if pk == self.context.get("user_id")]

    def get_image_url(self, handout: Handout) -> str | None:
        if not handout.image:
            return None
        return reverse(
            "handouts:image", kwargs={"pk": handout.campaign_id, "handout_pk": handout.pk}
        )


class HandoutIn(serializers.Serializer):
    page = serializers.IntegerField(min_value=1, max_value=ID_MAX)
    kind = serializers.ChoiceField(choices=HandoutKind.choices)
    secret_key = serializers.CharField(
        max_length=12,
        required=False,
        allow_blank=True,
        help_text="For `secret`: the block's key (`secrets` of the page's detail for the Conteur).",
    )
    recipients = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        min_length=1,
        help_text="User ids of the players who receive it.",
    )
