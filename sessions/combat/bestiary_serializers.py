"""Shapes of the bestiary in the combat API: a stat block and its attack profiles."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.serializers import name_field, text_field
from common import api_fields
from rules import reference
from sessions import attack_profiles
from sessions.combat.attacks import GAUGE_KINDS
from sessions.combat.fights import block_finesse
from sessions.models import StatBlock


def _characteristic(**kwargs):
    return serializers.IntegerField(min_value=1, max_value=20, default=2, **kwargs)


def _points(**kwargs):
    return serializers.IntegerField(min_value=0, max_value=10_000, **kwargs)


# --- the bestiary ------------------------------------------------------------------------------


def _regeneration():
    return serializers.IntegerField(
        min_value=0, max_value=1000, default=0, help_text="Points rendus à la fin de chaque tour."
    )


@extend_schema_field(
    {"type": "string", "enum": list(attack_profiles.NPC_CHARACTERISTICS)},
    component_name="NpcCharacteristic",
)
class NpcCharacteristicField(serializers.ChoiceField):
    """One of the characteristics a stat block keeps (its own component: others differ)."""

    def __init__(self, **kwargs):
        super().__init__(choices=list(attack_profiles.NPC_CHARACTERISTICS), **kwargs)


@extend_schema_field(
    {"type": "string", "enum": ["", *attack_profiles.ROLLED_SKILL_KEYS]},
    component_name="ProfileSkill",
)
class ProfileSkillField(serializers.ChoiceField):
    """A rolled skill, or none (empty)."""

    def __init__(self, **kwargs):
        choices = ["", *attack_profiles.ROLLED_SKILL_KEYS]
        super().__init__(choices=choices, allow_blank=True, **kwargs)


class AttackProfileIn(serializers.Serializer):
    """One of an NPC's weapons (sessions.attack_profiles): any other key is refused, and the
    schema says `additionalProperties: false`."""

    request_schema_extra = {"additionalProperties": False}

    weapon = api_fields.TextField(max_length=attack_profiles.WEAPON_LENGTH, help_text="L'arme.")
    characteristic = NpcCharacteristicField(default="strength")
    skill = ProfileSkillField(default="melee")
    level = serializers.IntegerField(
        min_value=0, max_value=attack_profiles.LEVEL_MAX, default=0, help_text="Niveau."
    )
    damage = serializers.IntegerField(
        min_value=0, max_value=attack_profiles.DAMAGE_MAX, default=0, help_text="Dégâts de base."
    )
    gauge = serializers.ChoiceField(
        choices=[(gauge, reference.LABELS[gauge]) for gauge in GAUGE_KINDS], default="vitality"
    )
    ranged = api_fields.BooleanField(default=False, help_text="À distance.")
    nonlethal = api_fields.BooleanField(default=False, help_text="Non létale.")

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = [key for key in data if key not in self.fields]
            if unknown:
                raise serializers.ValidationError({key: ["Clé inconnue."] for key in unknown})
        return super().to_internal_value(data)


class AttackProfileOut(serializers.Serializer):
    """One of an NPC's weapons, as a stat block shows it (its own component: the request's
    carries its checks)."""

    weapon = serializers.CharField()
    characteristic = NpcCharacteristicField()
    skill = ProfileSkillField()
    level = serializers.IntegerField(help_text="Niveau.")
    damage = serializers.IntegerField(help_text="Dégâts de base.")
    gauge = serializers.ChoiceField(
        choices=[(gauge, reference.LABELS[gauge]) for gauge in GAUGE_KINDS]
    )
    ranged = serializers.BooleanField(help_text="À distance.")
    nonlethal = serializers.BooleanField(help_text="Non létale.")


class StatBlockIn(serializers.Serializer):
    name = name_field()
    agility = _characteristic(help_text="Agilité (avec Perception et Sagesse : la Finesse).")
    perception = _characteristic()
    wisdom = _characteristic(help_text="Sagesse.")
    strength = _characteristic(help_text="Force (Parade à distance, Blocage au bouclier).")
    vigor = _characteristic(help_text="Vigueur (Blocage).")
    combativeness = serializers.IntegerField(
        min_value=1, max_value=reference.COMBATIVENESS_MAX, default=1, help_text="Combativité."
    )
    vitality_max = _points(default=15)
    energy_max = _points(default=15)
    confidence_max = _points(default=15)
    armour = serializers.IntegerField(
        min_value=0, max_value=100, allow_null=True, required=False, help_text="Armure."
    )
    shield = api_fields.BooleanField(default=False, help_text="Porte un bouclier.")
    annulation = serializers.IntegerField(min_value=0, max_value=1000, default=0)
    resistance = serializers.IntegerField(min_value=0, max_value=1000, default=0)
    vitality_regeneration = _regeneration()
    energy_regeneration = _regeneration()
    confidence_regeneration = _regeneration()
    notes = text_field(required=False)
    attacks = serializers.ListField(
        child=AttackProfileIn(),
        required=False,
        max_length=attack_profiles.MAX_PROFILES,
        help_text="Ses attaques : une attaque de ce PNJ est l'une d'elles et une cible.",
    )
    hidden = api_fields.BooleanField(
        default=False, help_text="Caché aux joueurs (absent : visible)."
    )


class StatBlockOut(serializers.ModelSerializer):
    finesse = serializers.SerializerMethodField(help_text="Score de Finesse (l'initiative).")
    attacks = AttackProfileOut(many=True, read_only=True, help_text="Ses attaques.")

    class Meta:
        model = StatBlock
        fields = [
            "id",
            "name",
            "finesse",
            "agility",
            "perception",
            "wisdom",
            "strength",
            "vigor",
            "combativeness",
            "vitality_max",
            "energy_max",
            "confidence_max",
            "armour",
            "shield",
            "annulation",
            "resistance",
            "vitality_regeneration",
            "energy_regeneration",
            "confidence_regeneration",
            "notes",
            "attacks",
            "hidden",
        ]
        read_only_fields = fields

    def get_finesse(self, block) -> int:
        return block_finesse(block)
