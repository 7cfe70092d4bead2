"""Shapes of the combat API: inputs and outputs kept apart; `sessions.combat` decides."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.serializers import name_field
from common import api_fields
from rules import combat as rules_combat
from rules import reference
from sessions import attack_profiles, consequences
from sessions.checks import CHARACTERISTIC_KEYS, ROLLED_SKILLS
from sessions.combat.attacks import GAUGE_KINDS
from sessions.combat.blows import DEFENCE_LABELS
from sessions.combat.fights import MAX_COPIES
from sessions.models import CombatantStatus, EncounterStatus

ID = {"min_value": 1, "max_value": 2**63 - 1}


@extend_schema_field(
    {"type": "string", "enum": CombatantStatus.values, "description": "En lice, vaincu…"},
    component_name="CombatantStatus",
)
class CombatantStatusField(serializers.ChoiceField):
    """A combatant's state in the fight: its own schema component (other `status` differ)."""

    def __init__(self, **kwargs):
        super().__init__(choices=CombatantStatus.choices, **kwargs)


@extend_schema_field(
    {"type": "string", "enum": EncounterStatus.values, "description": "preparing, running, ended"},
    component_name="EncounterStatus",
)
class EncounterStatusField(serializers.ChoiceField):
    def __init__(self, **kwargs):
        super().__init__(choices=EncounterStatus.choices, **kwargs)


# --- encounters --------------------------------------------------------------------------------


class EncounterOpenIn(serializers.Serializer):
    name = name_field(required=False)
    play_session = serializers.IntegerField(required=False, allow_null=True, **ID)


class CombatantsIn(serializers.Serializer):
    """One of three ways to join: `characters` (sheets), `stat_block` with `count` copies, or
    a quick NPC with `name` (and `finesse`, `combativeness`)."""

    characters = serializers.ListField(
        child=serializers.IntegerField(**ID), required=False, min_length=1, max_length=50
    )
    stat_block = serializers.IntegerField(required=False, **ID)
    count = serializers.IntegerField(min_value=1, max_value=MAX_COPIES, default=1)
    name = name_field(required=False)
    finesse = serializers.IntegerField(min_value=0, max_value=20, default=2)
    combativeness = serializers.IntegerField(
        min_value=1, max_value=reference.COMBATIVENESS_MAX, default=1
    )
    hidden = api_fields.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Cachés aux joueurs ; absent : selon le profil (un PNJ improvisé est visible).",
    )
    request_schema_extra = {
        "oneOf": [
            {"required": ["characters"]},
            {"required": ["stat_block"]},
            {"required": ["name"]},
        ]
    }

    def validate(self, data):
        sources = [k for k in ("characters", "stat_block", "name") if data.get(k)]
        if len(sources) != 1:
            raise serializers.ValidationError(
                "Envoyez soit `characters`, soit `stat_block` (et `count`), soit `name`.",
                code="beyond_schema",
            )
        return data


class TurnIn(serializers.Serializer):
    turn = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        help_text="L'étape lue (`turn` du combat) : si elle a changé depuis, 409 et rien ne bouge.",
    )


class StatusIn(serializers.Serializer):
    status = CombatantStatusField()


class CombatantOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    character = serializers.IntegerField(source="character_id", allow_null=True)
    stat_block = serializers.IntegerField(source="stat_block_id", allow_null=True)
    finesse = serializers.IntegerField()
    combativeness = serializers.IntegerField()
    hidden = serializers.BooleanField()
    status = CombatantStatusField()
    initiative = serializers.IntegerField(allow_null=True)
    finesse_points = serializers.IntegerField(help_text="Points de Finesse restants ce tour.")
    agony = serializers.IntegerField(help_text="Agonie d'un PNJ (un personnage : sa fiche).")
    aggravation = serializers.IntegerField(help_text="Aggravation d'un PNJ.")
    unconscious_turns = serializers.IntegerField(help_text="Tours d'inconscience restants.")
    held = serializers.BooleanField(
        default=False, help_text="Tenu dans une Étreinte (§13) : ni attaque ni défense."
    )
    held_by = serializers.IntegerField(
        source="holder_shown",
        allow_null=True,
        default=None,
        help_text="Qui le tient (null : personne, ou un PNJ caché pour un joueur).",
    )
    prone = serializers.BooleanField(help_text="À terre (Mise au sol, §13).")


class SlotOut(serializers.Serializer):
    combatant = serializers.IntegerField(source="combatant.pk")
    name = serializers.CharField(source="combatant.name")
    action = serializers.IntegerField(source="n", help_text="1 : première action du tour, 2…")


ROUND_HELP = (
    "Le numéro du tour de jeu (chaque combattant agit une fois par point de Combativité) ; "
    "0 : pas d'initiative."
)
TURN_HELP = (
    "Le compteur d'étapes du combat, pas le numéro du tour de jeu (c'est `round`) : il avance "
    "à chaque étape (initiative, attaque, défense, action finie ou retardée). À renvoyer avec "
    "`next/`, `delay/`, une attaque ou une régénération : s'il a changé depuis, 409."
)


class EncounterSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = EncounterStatusField()
    round = serializers.IntegerField(help_text=ROUND_HELP)
    turn = serializers.IntegerField(help_text=TURN_HELP)
    play_session = serializers.IntegerField(source="play_session_id", allow_null=True)
    created_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)


# --- attacks and defences (§8, §13) ------------------------------------------------------------

ROLLED_SKILL_KEYS = [s.key for s in ROLLED_SKILLS]


@extend_schema_field(
    {"type": "string", "enum": [consequences.TABLE, consequences.RESILIENCE]},
    component_name="CriticalMode",
)
class CriticalModeField(serializers.ChoiceField):
    """How a critical suffered is paid (the same choice as a consequence's `mode`)."""

    def __init__(self, **kwargs):
        super().__init__(choices=[consequences.TABLE, consequences.RESILIENCE], **kwargs)


class SpendsIn(serializers.Serializer):
    """What a combat roll carries besides its check, as every table roll (§5, §13): the
    expertise die, Impact and hope spent, the despair options, the injuries that hinder it."""

    expertise = api_fields.BooleanField(default=False, help_text="Expert : +1d10 sans critique.")
    impact = serializers.IntegerField(
        min_value=0,
        max_value=100,
        default=0,
        help_text="Points d'Impact : 1 dé de surpuissance chacun.",
    )
    hope = serializers.IntegerField(
        min_value=0, max_value=10, default=0, help_text="Espoir dépensé : +1 chacun."
    )
    cancel_critical_failure = api_fields.BooleanField(
        default=False, help_text="Un point d'espoir annule un échec critique."
    )
    narrow_success = api_fields.BooleanField(
        default=False,
        help_text="Un point de désespoir : un échec devient une réussite de justesse.",
    )
    injuries = serializers.ListField(
        child=serializers.IntegerField(**ID),
        required=False,
        default=list,
        max_length=20,
        help_text="Les blessures déclarées qui gênent ce jet (leurs `id`).",
    )


class StrikeIn(SpendsIn):
    """An attack's check (§5) and its blow: a character's values come from its sheet; an NPC's
    `characteristic_value` and `skill_level` are the Conteur's."""

    characteristic = serializers.ChoiceField(choices=list(CHARACTERISTIC_KEYS))
    skills = serializers.ListField(
        child=serializers.ChoiceField(choices=ROLLED_SKILL_KEYS),
        required=False,
        default=list,
        max_length=3,
    )
    complexity = serializers.IntegerField(min_value=0, max_value=20, default=0)
    difficulty = serializers.IntegerField(min_value=0, max_value=200, default=0)
    boon = serializers.IntegerField(min_value=0, max_value=20, default=0)
    bane = serializers.IntegerField(min_value=0, max_value=20, default=0)
    damage = serializers.IntegerField(
        min_value=0, max_value=10_000, default=0, help_text="Dégâts de base (arme, sort…)."
    )
    gauge = serializers.ChoiceField(
        choices=[(gauge, reference.LABELS[gauge]) for gauge in GAUGE_KINDS],
        default="vitality",
        help_text="La constitution visée : vitality (physique), energy (magique), "
        "confidence (sociale).",
    )
    characteristic_value = serializers.IntegerField(
        min_value=0, max_value=50, required=False, allow_null=True, default=None
    )
    skill_level = serializers.IntegerField(
        min_value=0, max_value=10, required=False, allow_null=True, default=None
    )


class AttackIn(StrikeIn):
    profile = serializers.IntegerField(
        min_value=0,
        max_value=attack_profiles.MAX_PROFILES - 1,
        required=False,
        allow_null=True,
        default=None,
        help_text="Un PNJ : le rang (0…) de l'une de ses attaques (`attacks` de son profil) ; "
        "elle donne caractéristique, compétence, dégâts, portée et létalité.",
    )
    characteristic = serializers.ChoiceField(
        choices=list(CHARACTERISTIC_KEYS),
        required=False,
        help_text="Sans `profile`, l'attaque la demande (400 sinon).",
    )
    turn = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text="L'étape lue (`turn` du combat)."
    )
    target = serializers.IntegerField(
        **ID,
        required=False,
        help_text="Le combattant visé (obligatoire, sauf pour une riposte : elle vise toujours "
        "l'attaquant du dernier coup, et une `target` envoyée avec elle est ignorée).",
    )
    nonlethal = api_fields.BooleanField(default=False, help_text="Attaque non létale (§8).")
    ranged = api_fields.BooleanField(default=False, help_text="Arme à distance.")
    hidden = api_fields.BooleanField(default=False, help_text="Attaque dissimulée.")
    riposte = api_fields.BooleanField(
        default=False,
        help_text="La riposte du défenseur après une défense critique (§8), contre l'attaquant "
        "du dernier coup, même caché (« l'attaquant ») : `target` n'est pas demandée.",
    )
    grapple = serializers.ChoiceField(
        choices=["", *rules_combat.GRAPPLES],
        default="",
        help_text="Une prise à mains nues (§13) : embrace (Étreinte), takedown (Mise au sol), "
        "throw (Projection) ; vide : une attaque. Une prise se lance avec `strength` ou "
        "`agility` et Bagarre (`skills`, `damage` et `gauge` sont alors ceux des règles).",
    )
    distance = serializers.IntegerField(
        min_value=0,
        max_value=rules_combat.THROW_DISTANCE_MAX,
        default=0,
        help_text="Projection : la distance en mètres (1 au moins), moins de dégâts au-delà "
        "du premier.",
    )
    heavy = api_fields.BooleanField(
        default=False, help_text="Prise contre une cible grosse ou lourde : plus difficile."
    )
    critical = CriticalModeField(
        default=consequences.TABLE,
        help_text="Un critique subi par l'attaquant (son échec critique, la réussite critique "
        "d'une réplique) : table d'Aggravation, ou Résilience dépensée.",
    )

    def validate(self, data):
        # A riposte's target is implied (the last blow's attacker); any other attack's is
        # asked by the service (`attacks._target`), which knows whether this one ripostes.
        data["target"] = 0 if data.get("riposte") else data.get("target", 0)
        return data


class DefenceIn(SpendsIn):
    attack = api_fields.TextField(
        max_length=64, help_text="L'`id` de l'attaque qui attend (`pending_attack`)."
    )
    defence = serializers.ChoiceField(choices=list(DEFENCE_LABELS))
    complexity = serializers.IntegerField(min_value=0, max_value=20, default=0)
    boon = serializers.IntegerField(min_value=0, max_value=20, default=0)
    bane = serializers.IntegerField(min_value=0, max_value=20, default=0)
    skill_level = serializers.IntegerField(
        min_value=0,
        max_value=10,
        required=False,
        allow_null=True,
        default=None,
        help_text="Le niveau d'un PNJ dans la compétence de la défense.",
    )
    critical = CriticalModeField(
        default=consequences.TABLE,
        help_text="Un critique subi : table d'Aggravation, ou Résilience dépensée.",
    )
    reply = StrikeIn(
        required=False, allow_null=True, default=None, help_text="Confrontation : la réplique."
    )


class OfferedOut(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    characteristic = serializers.IntegerField()
    skill = serializers.CharField()
    skill_level = serializers.IntegerField()
    available = serializers.BooleanField()
    note = serializers.CharField()
    success = serializers.FloatField(allow_null=True, help_text="Chance de réussite exacte.")
    source = serializers.CharField(help_text="D'où vient la caractéristique : vigor, armour…")


class AggravationOut(serializers.Serializer):
    attacker = serializers.IntegerField()
    defender = serializers.IntegerField()


MASKED_HELP = "Attaque d'un PNJ caché lue par un joueur : ni son auteur ni ses chiffres (null)."


class BlowOut(serializers.Serializer):
    """A resolved attack: the defence, the damage each side took, criticals, riposte."""

    id = serializers.CharField()
    attacker = serializers.IntegerField(allow_null=True, help_text="null : un PNJ caché.")
    target = serializers.IntegerField(
        allow_null=True, help_text="null : un PNJ caché (une riposte contre « l'attaquant »)."
    )
    roll = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField(allow_null=True)
    defence = serializers.CharField()
    defence_roll = serializers.IntegerField(allow_null=True)
    reply_roll = serializers.IntegerField(allow_null=True)
    defended = serializers.BooleanField()
    damage = serializers.IntegerField()
    reply_damage = serializers.IntegerField()
    aggravation = AggravationOut()
    riposte_for = serializers.IntegerField(allow_null=True)
    summary = serializers.CharField()
    grapple = serializers.CharField(
        default="",
        help_text="Ce que la prise a laissé : held (tenu), prone (à terre), thrown (projeté), "
        "ou vide.",
    )
    masked = serializers.BooleanField(default=False, help_text=MASKED_HELP)


class AttackOut(serializers.Serializer):
    """An attack waiting for its defence."""

    id = serializers.CharField()
    attacker = serializers.IntegerField(allow_null=True, help_text="null : un PNJ caché.")
    target = serializers.IntegerField(
        allow_null=True, help_text="null : un PNJ caché (une riposte contre « l'attaquant »)."
    )
    roll = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField(allow_null=True)
    outcome = serializers.CharField()
    exploded = serializers.BooleanField()
    nonlethal = serializers.BooleanField()
    ranged = serializers.BooleanField()
    hidden = serializers.BooleanField()
    damage = serializers.IntegerField(allow_null=True)
    gauge = serializers.CharField()
    masked = serializers.BooleanField(default=False, help_text=MASKED_HELP)
    grapple = serializers.CharField(default="", help_text="La prise tentée, ou vide.")
    distance = serializers.IntegerField(default=0, help_text="Projection : mètres.")
    defences = OfferedOut(many=True, help_text="Les défenses possibles, pour qui défend.")
    result = BlowOut(
        allow_null=True,
        required=False,
        help_text="Le coup résolu : null tant que la défense est attendue (un raté : tout de suite).",
    )


class EncounterOut(serializers.Serializer):
    """A fight as this member may see it (hidden NPCs: the Conteur only)."""

    id = serializers.IntegerField(source="encounter.pk")
    name = serializers.CharField(source="encounter.name")
    status = EncounterStatusField(source="encounter.status")
    round = serializers.IntegerField(source="encounter.round", help_text=ROUND_HELP)
    turn = serializers.IntegerField(source="encounter.turn", help_text=TURN_HELP)
    play_session = serializers.IntegerField(source="encounter.play_session_id", allow_null=True)
    acting = SlotOut(allow_null=True, help_text="Qui agit (null : pas commencé, ou caché).")
    hidden_acting = serializers.BooleanField(help_text="Le Conteur joue un PNJ caché.")
    upcoming = SlotOut(many=True, help_text="Les prochaines actions de ce tour.")
    may_end_turn = serializers.BooleanField(help_text="Vous pouvez finir l'action en cours.")
    may_attack = serializers.BooleanField(help_text="Vous jouez le combattant qui agit.")
    pending_attack = AttackOut(
        source="pending_data", allow_null=True, help_text="L'attaque qui attend sa défense."
    )
    last_attack = BlowOut(source="last", allow_null=True, help_text="Le dernier coup résolu.")
    combatants = CombatantOut(many=True)


class RegenerationIn(TurnIn):
    gauge = serializers.ChoiceField(
        choices=[(gauge, reference.LABELS[gauge]) for gauge in GAUGE_KINDS]
    )
    points = serializers.IntegerField(
        min_value=1, max_value=10_000, help_text="Points régénérés (autant de blessures graves)."
    )


# --- grapples (§13) ----------------------------------------------------------------------------


@extend_schema_field(
    {"type": "string", "enum": list(rules_combat.GRAPPLE_CHARACTERISTICS)},
    component_name="GrappleCharacteristic",
)
class GrappleCharacteristicField(serializers.ChoiceField):
    """Force or Agilité, as the grappler describes it (§13)."""

    def __init__(self, **kwargs):
        super().__init__(choices=list(rules_combat.GRAPPLE_CHARACTERISTICS), **kwargs)


class EscapeIn(TurnIn):
    characteristic = GrappleCharacteristicField(help_text="Force ou Agilité.")
    complexity = serializers.IntegerField(min_value=0, max_value=20, default=0)
    characteristic_value = serializers.IntegerField(
        min_value=0,
        max_value=50,
        required=False,
        allow_null=True,
        default=None,
        help_text="Un PNJ : sa valeur (absente : celle de son profil).",
    )
    skill_level = serializers.IntegerField(
        min_value=0,
        max_value=10,
        required=False,
        allow_null=True,
        default=None,
        help_text="Un PNJ : son niveau en Bagarre.",
    )


class EscapeOut(serializers.Serializer):
    """An attempt to break free of an Étreinte (§13)."""

    combatant = serializers.IntegerField()
    holder = serializers.IntegerField()
    roll = serializers.IntegerField()
    total = serializers.IntegerField()
    difficulty = serializers.IntegerField(help_text="Le total de la prise, à égaler.")
    freed = serializers.BooleanField()
    summary = serializers.CharField()
