"""API shapes of campaigns: `*In` serializers check the shape of a request, `*Out` ones render.

Input serializers only check types and ranges and keep references inside the campaign (a foreign
id is "not found", as everywhere); what is allowed is decided by the policy and the services.
"""

from datetime import UTC, datetime

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns import services
from campaigns.models import (
    BUDGET_MAX,
    CHARACTERISTIC_NAMES,
    MODIFIER_MAX,
    MODIFIER_MIN,
    NAME_LENGTH,
    TEXT_LENGTH,
    Ability,
    AbilityTier,
    Arc,
    ArcCloses,
    ArcStatus,
    Asset,
    Branch,
    CharacterClass,
    ClassTier,
    Flaw,
    Invitation,
    LengthUnit,
    Membership,
    Role,
    Species,
    SpellEntry,
    Tier,
    validate_characteristic_list,
    validate_characteristic_modifiers,
)
from common.api_fields import TextField

SMALL_MAX = 1000  # chapters, acts, costs: far above any real table, far below the column's limit
DAY_MAX = 10_000_000


def name_field(**kwargs):
    """A name's text field (a name column's length at most), shared by every app's serializers."""
    return TextField(max_length=NAME_LENGTH, **kwargs)


def text_field(**kwargs):
    """A free text's field (may be blank, a text column's length at most)."""
    return TextField(max_length=TEXT_LENGTH, allow_blank=True, **kwargs)


def _tier_field(choices, component: str) -> type[serializers.ChoiceField]:
    """A "tier" field class: three choice sets share that name, so each gets its own schema
    component (the names made from the field's would collide). A class, not an annotated
    instance: DRF copies declared fields by re-instantiating them."""

    class TierField(serializers.ChoiceField):
        def __init__(self, **kwargs):
            super().__init__(choices=choices, **kwargs)

    schema = {
        "type": "string",
        "enum": [value for value, _label in choices],
        "description": "\n".join(f"* `{value}` - {label}" for value, label in choices),
    }
    return extend_schema_field(schema, component_name=component)(TierField)


CampaignTierField = _tier_field(Tier.choices, "CampaignTierEnum")
ClassTierField = _tier_field(ClassTier.choices, "ClassTierEnum")
AbilityTierField = _tier_field(AbilityTier.choices, "AbilityTierEnum")


ID_MAX = 2**63 - 1  # the largest row id (a 64-bit integer column)


class RowIdField(serializers.PrimaryKeyRelatedField):
    """The id of a row of this campaign (the queryset is scoped in the serializer's __init__).

    Refuses what the database cannot even compare — true, 1.5, 10**30 — as not found or of the
    wrong type, before the lookup.
    """

    def to_internal_value(self, data):
        if isinstance(data, bool | float):
            self.fail("incorrect_type", data_type=type(data).__name__)
        try:
            number = int(data)
        except (TypeError, ValueError):
            number = None
        if number is not None and not 0 < number <= ID_MAX:
            self.fail("does_not_exist", pk_value=data)
        return super().to_internal_value(data)


def scope_to_campaign(serializer: serializers.Serializer, *field_names: str) -> None:
    """Restrict related-id fields to rows of the campaign in the serializer's context."""
    campaign = serializer.context.get("campaign")
    for name in field_names:
        field = serializer.fields.get(name)
        if field is not None:
            model = field.queryset.model
            field.queryset = (
                model.objects.filter(campaign=campaign) if campaign else model.objects.none()
            )


# --- campaigns and members --------------------------------------------------------------------


class CampaignIn(serializers.Serializer):
    name = name_field()
    description = text_field(required=False)
    creation_budget = serializers.IntegerField(min_value=1, max_value=BUDGET_MAX, required=False)
    tier = CampaignTierField(required=False)
    in_game_day = serializers.IntegerField(min_value=1, max_value=DAY_MAX, required=False)


class CampaignOut(serializers.Serializer):
    """A campaign as one of its members sees it, from their membership row
    (`selectors.memberships_for_user`, which annotates the counts)."""

    id = serializers.IntegerField(source="campaign.id", read_only=True)
    name = serializers.CharField(source="campaign.name", read_only=True)
    description = serializers.CharField(source="campaign.description", read_only=True)
    creation_budget = serializers.IntegerField(source="campaign.creation_budget", read_only=True)
    tier = CampaignTierField(source="campaign.tier", read_only=True)
    in_game_day = serializers.IntegerField(source="campaign.in_game_day", read_only=True)
    created_at = serializers.DateTimeField(source="campaign.created_at", read_only=True)
    role = serializers.ChoiceField(
        choices=Role.choices, read_only=True, help_text=_("Votre rôle dans la campagne.")
    )
    member_count = serializers.IntegerField(read_only=True)
    storyteller_name = serializers.CharField(read_only=True, allow_null=True)


class MembershipOut(serializers.ModelSerializer):
    username = serializers.CharField(source="user.get_username", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "campaign", "user", "username", "role", "joined_at"]
        read_only_fields = fields


# --- invitations --------------------------------------------------------------------------------


class InvitationIn(serializers.Serializer):
    days = serializers.IntegerField(
        min_value=1,
        max_value=services.INVITATION_DAYS_MAX,
        default=services.INVITATION_DAYS_DEFAULT,
        help_text=_("Durée de validité du lien, en jours."),
    )
    max_uses = serializers.IntegerField(
        min_value=1,
        max_value=100,
        default=5,
        help_text=_("Nombre de joueurs qu'il peut faire entrer."),
    )
    email = serializers.EmailField(
        required=False,
        allow_blank=True,
        max_length=254,
        help_text=_("L'adresse e-mail d'un joueur : le lien lui est envoyé (facultatif)."),
    )


INVITATION_STATES = [
    ("active", _("Valide")),
    ("revoked", _("Révoquée")),
    ("expired", _("Expirée")),
    ("used_up", _("Épuisée")),
]


class InvitationOut(serializers.ModelSerializer):
    created_by = serializers.CharField(
        source="created_by.get_username", read_only=True, allow_null=True, default=None
    )
    state = serializers.ChoiceField(choices=INVITATION_STATES, read_only=True)
    mailed = serializers.BooleanField(
        read_only=True,
        allow_null=True,
        default=None,
        help_text=_(
            "À la création avec `email` : le lien est-il parti ? (null sinon ; s'il n'est pas "
            "parti, envoyez le lien vous-même)."
        ),
    )

    class Meta:
        model = Invitation
        fields = [
            "id",
            "token",
            "state",
            "created_by",
            "created_at",
            "expires_at",
            "max_uses",
            "uses",
            "revoked_at",
            "mailed",
        ]
        read_only_fields = fields


class InvitationAcceptIn(serializers.Serializer):
    token = TextField(max_length=64, help_text=_("Le jeton du lien d'invitation."))


# --- arcs and play sessions -----------------------------------------------------------------------


class ArcIn(serializers.Serializer):
    title = name_field()
    summary = text_field(required=False)
    chapter = serializers.IntegerField(min_value=1, max_value=SMALL_MAX, required=False)
    act = serializers.IntegerField(min_value=1, max_value=SMALL_MAX, required=False)
    closes = serializers.ChoiceField(choices=ArcCloses.choices, required=False, allow_blank=True)
    length_unit = serializers.ChoiceField(choices=LengthUnit.choices, required=False)


class ArcOut(serializers.ModelSerializer):
    status = serializers.ChoiceField(
        choices=ArcStatus.choices,
        read_only=True,
        help_text=_("Se change par les actions « close » et « reopen »."),
    )
    session_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Arc
        fields = [
            "id",
            "title",
            "summary",
            "chapter",
            "act",
            "closes",
            "length_unit",
            "status",
            "session_count",
            "created_at",
            "closed_at",
        ]
        read_only_fields = fields


@extend_schema_field({"type": "string", "format": "date-time", "pattern": "^20[0-9]{2}-"})
class MomentField(serializers.DateTimeField):
    """A date and time of the real calendar in this century: year 1 or 9999 is a typo, and
    outside it the local time zone's history gives offsets no client can parse. The year is
    the one written (`2099-12-31T23:00:00-05:00` is in 2099), as the schema's pattern says."""

    EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
    LATEST = datetime(2100, 1, 1, tzinfo=UTC)

    def to_internal_value(self, value):
        moment = super().to_internal_value(value)
        written = value[:4] if isinstance(value, str) and value[:4].isdigit() else None
        year = int(written) if written else moment.astimezone(UTC).year
        if not self.EARLIEST.year <= year < self.LATEST.year:
            raise serializers.ValidationError(_("Indiquez une date entre l'an 2000 et l'an 2099."))
        return moment


# --- compendium --------------------------------------------------------------------------------


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "enum": list(CHARACTERISTIC_NAMES)},
        "uniqueItems": True,
        "maxItems": len(CHARACTERISTIC_NAMES),
    }
)
class CharacteristicNamesField(serializers.ListField):
    child = serializers.ChoiceField(choices=CHARACTERISTIC_NAMES)

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", len(CHARACTERISTIC_NAMES))
        super().__init__(**kwargs)
        self.validators.append(validate_characteristic_list)


@extend_schema_field(
    {
        "type": "object",
        "properties": {
            name: {"type": "integer", "minimum": MODIFIER_MIN, "maximum": MODIFIER_MAX}
            for name in CHARACTERISTIC_NAMES
        },
        "additionalProperties": False,
    }
)
class ModifiersField(serializers.DictField):
    child = serializers.IntegerField(min_value=MODIFIER_MIN, max_value=MODIFIER_MAX)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.validators.append(validate_characteristic_modifiers)


class SpeciesIn(serializers.Serializer):
    name = name_field()
    description = text_field(required=False)
    favourite_characteristics = CharacteristicNamesField(required=False)
    modifiers = ModifiersField(
        required=False, help_text=_("Caractéristique → bonus (ou malus), de −3 à +3.")
    )
    innate_abilities = text_field(required=False)


class SpeciesOut(serializers.ModelSerializer):
    favourite_characteristics = CharacteristicNamesField(read_only=True)
    modifiers = ModifiersField(read_only=True)

    class Meta:
        model = Species
        fields = [
            "id",
            "name",
            "description",
            "favourite_characteristics",
            "modifiers",
            "innate_abilities",
        ]
        read_only_fields = fields


class CharacterClassIn(serializers.Serializer):
    name = name_field()
    description = text_field(required=False)
    tier = ClassTierField(required=False)
    prerequisites = text_field(required=False)


class BranchRef(serializers.ModelSerializer):
    class Meta:
        model = Branch
        fields = ["id", "name"]
        read_only_fields = fields


class CharacterClassOut(serializers.ModelSerializer):
    tier = ClassTierField(read_only=True)
    branches = BranchRef(many=True, read_only=True)

    class Meta:
        model = CharacterClass
        fields = ["id", "name", "description", "tier", "prerequisites", "branches"]
        read_only_fields = fields


class BranchIn(serializers.Serializer):
    name = name_field()
    description = text_field(required=False)
    character_class = RowIdField(queryset=CharacterClass.objects.none())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        scope_to_campaign(self, "character_class")


class BranchOut(serializers.ModelSerializer):
    character_class_name = serializers.CharField(source="character_class.name", read_only=True)

    class Meta:
        model = Branch
        fields = ["id", "name", "description", "character_class", "character_class_name"]
        read_only_fields = fields


class AbilityIn(serializers.Serializer):
    name = name_field()
    description = text_field(required=False)
    character_class = RowIdField(
        queryset=CharacterClass.objects.none(),
        allow_null=True,
        required=False,
        help_text=_("Vide pour une aptitude d'espèce."),
    )
    tier = AbilityTierField(required=False)
    cost = serializers.IntegerField(min_value=0, max_value=SMALL_MAX, required=False)
    prerequisites = text_field(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        scope_to_campaign(self, "character_class")


class AbilityOut(serializers.ModelSerializer):
    tier = AbilityTierField(read_only=True)
    character_class_name = serializers.CharField(
        source="character_class.name", read_only=True, allow_null=True, default=None
    )

    class Meta:
        model = Ability
        fields = [
            "id",
            "name",
            "description",
            "character_class",
            "character_class_name",
            "tier",
            "cost",
            "prerequisites",
        ]
        read_only_fields = fields


class AssetIn(serializers.Serializer):
    name = name_field()
    description = text_field(required=False)
    cost = serializers.IntegerField(min_value=0, max_value=SMALL_MAX, required=False)


class AssetOut(serializers.ModelSerializer):
    class Meta:
        model = Asset
        fields = ["id", "name", "description", "cost"]
        read_only_fields = fields


class SpellEntryIn(serializers.Serializer):
    name = name_field()
    description = text_field(required=False)
    spell_points = serializers.IntegerField(min_value=0, max_value=SMALL_MAX, required=False)
    energy_cost = serializers.IntegerField(
        min_value=0,
        max_value=SMALL_MAX,
        required=False,
        help_text="Énergie payée au début de l'incantation (le double en surcharge).",
    )


class SpellEntryOut(serializers.ModelSerializer):
    class Meta:
        model = SpellEntry
        fields = ["id", "name", "description", "spell_points", "energy_cost"]
        read_only_fields = fields


class FlawIn(serializers.Serializer):
    name = name_field()
    description = text_field(required=False)
    value = serializers.IntegerField(min_value=0, max_value=SMALL_MAX, required=False)


class FlawOut(serializers.ModelSerializer):
    class Meta:
        model = Flaw
        fields = ["id", "name", "description", "value"]
        read_only_fields = fields
