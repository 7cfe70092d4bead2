"""Query-string filters of the campaign API lists (django-filter, the default filter backend)."""

import django_filters
from django import forms
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from campaigns.models import (
    Ability,
    AbilityTier,
    Arc,
    ArcStatus,
    Asset,
    Branch,
    CharacterClass,
    ClassTier,
    Flaw,
    Invitation,
    Membership,
    Role,
    Species,
    SpellEntry,
)
from campaigns.serializers import ID_MAX


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": ID_MAX})
class IdFilter(django_filters.Filter):
    """A row id: a whole number (django-filter's NumberFilter would accept 1.5)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", ID_MAX)
        super().__init__(*args, **kwargs)


@extend_schema_field(OpenApiTypes.BOOL)
class BoolFilter(django_filters.Filter):
    """`true` or `false`, nothing else (django-filter's BooleanFilter reads `null`, `1` or
    `unknown` too, which the schema's boolean does not allow)."""

    field_class = forms.TypedChoiceField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("choices", [("true", "true"), ("false", "false")])
        kwargs.setdefault("coerce", lambda value: value == "true")
        kwargs.setdefault("empty_value", None)
        super().__init__(*args, **kwargs)


class CampaignFilter(django_filters.FilterSet):
    """Filters `selectors.memberships_for_user`: one row per campaign of the user."""

    role = django_filters.ChoiceFilter(choices=Role.choices, help_text=_("Votre rôle."))
    name = django_filters.CharFilter(
        field_name="campaign__name", lookup_expr="icontains", help_text=_("Nom contenant…")
    )

    class Meta:
        model = Membership
        fields = ["role", "name"]


class ArcFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=ArcStatus.choices)
    chapter = IdFilter(help_text=_("Numéro du chapitre."))

    class Meta:
        model = Arc
        fields = ["status", "chapter"]


class InvitationFilter(django_filters.FilterSet):
    active = BoolFilter(
        method="filter_active",
        help_text=_("Seulement les liens encore utilisables (ou l'inverse)."),
    )

    class Meta:
        model = Invitation
        fields = ["active"]

    def filter_active(self, queryset, name, value):
        usable = Q(revoked_at__isnull=True, expires_at__gt=timezone.now(), uses__lt=F("max_uses"))
        return queryset.filter(usable) if value else queryset.exclude(usable)


class _EntryFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", help_text=_("Nom contenant…"))


class SpeciesFilter(_EntryFilter):
    class Meta:
        model = Species
        fields = ["name"]


class CharacterClassFilter(_EntryFilter):
    tier = django_filters.ChoiceFilter(choices=ClassTier.choices)

    class Meta:
        model = CharacterClass
        fields = ["name", "tier"]


class BranchFilter(_EntryFilter):
    character_class = IdFilter(field_name="character_class_id")

    class Meta:
        model = Branch
        fields = ["name", "character_class"]


class AbilityFilter(_EntryFilter):
    character_class = IdFilter(field_name="character_class_id")
    tier = django_filters.ChoiceFilter(choices=AbilityTier.choices)
    species = BoolFilter(
        field_name="character_class",
        lookup_expr="isnull",
        help_text=_("true : seulement les aptitudes d'espèce (sans classe)."),
    )

    class Meta:
        model = Ability
        fields = ["name", "character_class", "tier", "species"]


class AssetFilter(_EntryFilter):
    class Meta:
        model = Asset
        fields = ["name"]


class SpellEntryFilter(_EntryFilter):
    class Meta:
        model = SpellEntry
        fields = ["name"]


class FlawFilter(_EntryFilter):
    class Meta:
        model = Flaw
        fields = ["name"]
