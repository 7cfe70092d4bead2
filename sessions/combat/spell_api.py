"""Spells in the combat API (§15): cast one, or preview it (nothing written).

The same service as the page (`sessions.combat.spells`), entered like every combat route
(`sessions.combat.api.CombatView`: 404 for non-members and for another campaign's fight; a
player casting out of turn is a 403 from the service). A cast is idempotent: the same
`Idempotency-Key` from the same member answers the cast already made (200) instead of a new one
(201); it also carries the `turn` the client read (409 if the fight moved since).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common import api_fields
from common.api_errors import ApiErrorSerializer
from common.api_schema import IDEMPOTENCY_KEY
from rules import reference
from sessions.checks import CHARACTERISTIC_KEYS
from sessions.combat import spell_casts
from sessions.combat import spells as combat_spells
from sessions.combat.api import CONFLICT, CombatView
from sessions.combat.attacks import GAUGE_KINDS
from sessions.combat.serializers import ID, ROLLED_SKILL_KEYS

KINDS = list(combat_spells.KINDS)


@extend_schema_field(
    {"type": "string", "enum": KINDS, "description": "plain, healing (guérison), area (zone)"},
    component_name="SpellKind",
)
class SpellKindField(serializers.ChoiceField):
    """A spell's kind: its own schema component (other `kind` fields differ)."""

    def __init__(self, **kwargs):
        super().__init__(choices=KINDS, **kwargs)


def _points(help_text: str, maximum: int = combat_spells.MAX_SPELL_POINTS):
    return serializers.IntegerField(min_value=0, max_value=maximum, default=0, help_text=help_text)


# --- inputs --------------------------------------------------------------------------------------


class SpellPreviewIn(serializers.Serializer):
    """A spell's inputs: its kind, its check (§5) and its incantation's spends (§15)."""

    kind = SpellKindField(
        default=combat_spells.PLAIN,
        help_text="plain (un sort), healing (guérison : difficulté et complexité calculées), "
        "area (zone : un jet par cible ou groupe).",
    )
    name = api_fields.TextField(
        max_length=80, required=False, default="", allow_blank=True, help_text="Nom du sort."
    )
    characteristic = serializers.ChoiceField(choices=list(CHARACTERISTIC_KEYS), default="power")
    skills = serializers.ListField(
        child=serializers.ChoiceField(choices=ROLLED_SKILL_KEYS),
        required=False,
        default=list,
        max_length=3,
        help_text="Les compétences lancées (par exemple sorcellerie).",
    )
    complexity = serializers.IntegerField(
        min_value=0,
        max_value=20,
        default=0,
        help_text="Sort simple ou de zone (guérison : calculée).",
    )
    difficulty = serializers.IntegerField(
        min_value=0,
        max_value=200,
        default=0,
        help_text="Sort simple ou de zone (guérison : calculée).",
    )
    boon = serializers.IntegerField(min_value=0, max_value=20, default=0)
    bane = serializers.IntegerField(min_value=0, max_value=20, default=0)
    characteristic_value = serializers.IntegerField(
        min_value=0, max_value=50, required=False, allow_null=True, default=None,
        help_text="La valeur d'un PNJ qui lance (le Conteur).",
    )  # fmt: skip
    skill_level = serializers.IntegerField(
        min_value=0, max_value=10, required=False, allow_null=True, default=None
    )
    spell_points = _points("Les points du sort.")
    focus = _points(
        "Concentration : 1 Combativité par dé de surpuissance en plus.",
        maximum=reference.COMBATIVENESS_MAX,
    )
    gestures = _points("Gestes : jusqu'aux points du sort, 1 Combativité.")
    words = _points("Paroles : jusqu'aux points du sort, 1 Combativité.")
    components = _points("Composantes : jusqu'aux points du sort, 1 Combativité.")
    overcharge = api_fields.BooleanField(
        default=False, help_text="Surcharge : coût ×2, + les points du sort, 1 Combativité."
    )
    target = serializers.IntegerField(
        **ID, required=False, allow_null=True, default=None,
        help_text="Guérison : le combattant soigné (un personnage).",
    )  # fmt: skip
    gauge = serializers.ChoiceField(
        choices=[(gauge, reference.LABELS[gauge]) for gauge in GAUGE_KINDS],
        default="vitality",
        help_text="Guérison : la constitution soignée ; zone : celle que frappe chaque coup.",
    )
    targets = serializers.IntegerField(
        min_value=1,
        max_value=combat_spells.MAX_AREA,
        default=1,
        help_text="Zone : les personnages ou groupes touchés (un jet chacun).",
    )
    area_targets = serializers.ListField(
        child=serializers.IntegerField(**ID),
        required=False,
        default=list,
        max_length=combat_spells.MAX_AREA,
        help_text="Zone : les combattants nommés (un jet chacun ; remplace `targets`).",
    )
    spell = serializers.IntegerField(
        **ID, required=False, allow_null=True, default=None,
        help_text="Le sort du compendium : son nom, ses points et son coût, sauf ceux envoyés.",
    )  # fmt: skip
    energy_cost = serializers.IntegerField(
        min_value=0, max_value=combat_spells.MAX_ENERGY_COST, required=False, allow_null=True,
        default=None,
        help_text="Le coût en Énergie (absent : celui du compendium) : payé au début de "
        "l'incantation, deux fois en surcharge.",
    )  # fmt: skip
    wounds = serializers.IntegerField(
        min_value=0, max_value=combat_spells.MAX_SPELL_POINTS, required=False, allow_null=True,
        default=None, help_text="Guérison : moins de blessures à soigner (vide : toutes).",
    )  # fmt: skip
    expertise = api_fields.BooleanField(
        default=False, help_text="Le lanceur est expert : +1d10 sans critique (§2)."
    )
    damage = serializers.IntegerField(
        min_value=0, max_value=combat_spells.MAX_SPELL_POINTS, default=0,
        help_text="Zone : les dégâts de base de chaque coup (plus le bonus de colonne du lanceur); "
        "chaque cible nommée répond à son jet comme à une attaque.",
    )  # fmt: skip
    nonlethal = api_fields.BooleanField(
        default=False, help_text="Zone : des coups non létaux (§8)."
    )

    def spell_request(self) -> combat_spells.SpellRequest:
        data = dict(self.validated_data)
        data.pop("turn", None)
        data["skills"] = tuple(data.get("skills") or ())
        data["area_targets"] = tuple(data.get("area_targets") or ())
        return combat_spells.SpellRequest(**data)


class SpellIn(SpellPreviewIn):
    turn = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text="L'étape lue (`turn` du combat)."
    )


# --- outputs -------------------------------------------------------------------------------------


class IncantationOut(serializers.Serializer):
    boon_dice = serializers.IntegerField(help_text="Dés de surpuissance (la concentration).")
    extra_points = serializers.IntegerField(help_text="Points de sort en plus.")
    combativeness_spent = serializers.IntegerField()
    cost_multiplier = serializers.IntegerField(help_text="2 si le sort est surchargé.")


class HealingOut(serializers.Serializer):
    target = serializers.IntegerField()
    target_name = serializers.CharField()
    gauge = serializers.CharField()
    maximum = serializers.IntegerField()
    current = serializers.IntegerField()
    wounds = serializers.IntegerField(help_text="Blessures (maximum − valeur).")
    scars = serializers.IntegerField()
    peril = serializers.BooleanField()
    resilience_points = serializers.IntegerField()
    difficulty = serializers.IntegerField(help_text="Les blessures à soigner (§15).")
    complexity = serializers.IntegerField(help_text="Par les cicatrices, +1 par aggravation.")
    scar_complexity = serializers.IntegerField()
    aggravations = serializers.ListField(
        child=serializers.ChoiceField(
            choices=[
                combat_spells.rules_magic.GAUGE_AT_ZERO,
                combat_spells.rules_magic.RESILIENCE_AT_ZERO,
                combat_spells.rules_magic.GAUGE_IN_PERIL,
            ]
        )
    )
    reasons = serializers.ListField(child=serializers.CharField(), help_text="En français.")


class SpellPreviewOut(serializers.Serializer):
    caster = serializers.IntegerField(allow_null=True, help_text="Le combattant qui agit.")
    caster_name = serializers.CharField()
    actions_left = serializers.IntegerField(
        allow_null=True, help_text="Ses actions encore à venir ce tour : la Combativité à dépenser."
    )
    incantation = IncantationOut(allow_null=True)
    spell_points = serializers.IntegerField()
    total_points = serializers.IntegerField()
    healing = HealingOut(allow_null=True)
    checks = serializers.IntegerField(help_text="Les jets : un par cible ou groupe en zone.")
    energy_paid = serializers.IntegerField(help_text="L'Énergie que coûterait le sort.")
    caster_energy = serializers.IntegerField(
        allow_null=True, help_text="L'Énergie actuelle du lanceur."
    )
    errors = serializers.ListField(
        child=serializers.CharField(), help_text="Ce que le lancer refuserait, en français."
    )


class SpellRollOut(serializers.Serializer):
    id = serializers.IntegerField()
    total = serializers.IntegerField()
    target = serializers.IntegerField()
    margin = serializers.IntegerField()
    outcome = serializers.CharField()
    outcome_label = serializers.CharField()


class SpendsOut(serializers.Serializer):
    focus = serializers.IntegerField()
    gestures = serializers.IntegerField()
    words = serializers.IntegerField()
    components = serializers.IntegerField()
    overcharge = serializers.BooleanField()


class CastOut(serializers.Serializer):
    """A spell's step: begun (its cost, what the incantation gave and took), resolved (its
    rolls, what the healing did) or lost (why)."""

    id = serializers.CharField()
    state = serializers.ChoiceField(
        choices=["begun", "resolved", "lost"],
        help_text="begun : l'incantation commence ; resolved : le sort se résout au tour "
        "suivant ; lost : le sort est perdu.",
    )
    caster = serializers.IntegerField()
    caster_name = serializers.CharField()
    kind = SpellKindField(required=False)
    name = serializers.CharField(allow_blank=True)
    round = serializers.IntegerField()
    spell_points = serializers.IntegerField(required=False)
    total_points = serializers.IntegerField(required=False)
    energy_paid = serializers.IntegerField(required=False, help_text="L'Énergie payée.")
    spends = SpendsOut(required=False)
    incantation = IncantationOut(required=False)
    actions_given_up = serializers.IntegerField(
        required=False,
        help_text="Les actions du lanceur retirées de ce tour (l'incantation prend le tour).",
    )
    checks = serializers.IntegerField(required=False)
    area_targets = serializers.ListField(child=serializers.IntegerField(), required=False)
    healing = HealingOut(allow_null=True, required=False)
    rolls = SpellRollOut(many=True)
    healed_points = serializers.IntegerField(help_text="Les points regagnés par la guérison.")
    visibility = serializers.CharField()
    summary = serializers.CharField(help_text="La ligne du journal.")


# --- views ---------------------------------------------------------------------------------------


class EncounterSpells(CombatView):
    api_descriptions = {
        "POST": "The acting combatant begins a spell (the Conteur, or the player whose "
        "character acts): `plain`, `healing` (difficulty = wounds to heal, complexity from "
        "the target's scars, gauge and Résilience, §15) or `area` (one check per named target "
        "or group). Its Énergie cost (twice when overcharged) is paid now. The incantation "
        "takes the caster's turn: its later actions this round are given up (the Combativité "
        "spent, at most as many points, is drawn from them) and the hand passes on; the "
        "spell resolves at the caster's first slot of the next round (`spells/resolve/`). The same `Idempotency-Key` again answers the same cast (200) instead of a new one "
        "(201). Send the `turn` you read: if it moved since, 409.",
    }
    input_serializer_class = SpellIn
    output_serializer_class = CastOut

    @extend_schema(
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: CastOut,
            200: CastOut,
            409: CONFLICT,
            400: OpenApiResponse(ApiErrorSerializer, description="Refusé par les règles."),
        },
    )
    def post(self, request: Request, **kwargs) -> Response:
        serializer = SpellIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        encounter = self.encounter()
        cast, created = spell_casts.spell_cast(
            campaign=self.campaign,
            by=request.user,
            encounter_id=encounter.pk,
            turn=serializer.validated_data["turn"],
            request=serializer.spell_request(),
            idempotency_key=(request.headers.get("Idempotency-Key") or "")[:64],
        )
        return Response(CastOut(cast).data, status=201 if created else 200)


class ResolveIn(serializers.Serializer):
    turn = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text="L'étape lue (`turn` du combat)."
    )


class EncounterSpellResolve(CombatView):
    api_descriptions = {
        "POST": "At the caster's first slot of the round after it began, its spell resolves: "
        "the checks are rolled (one per named target of an area spell), a healing that "
        "succeeds restores the wounds it was computed for and stabilises the gauge (a "
        "character's sheet through the care services, an NPC's stat block); then the hand "
        "passes on. A spell lost meanwhile (the caster knocked out or held, its slot gone by) "
        "answers `state: lost`. Send the `turn` you read: if it moved since, 409.",
    }
    input_serializer_class = ResolveIn
    output_serializer_class = CastOut

    @extend_schema(
        responses={
            201: CastOut,
            200: CastOut,
            409: CONFLICT,
            400: OpenApiResponse(ApiErrorSerializer, description="Refusé par les règles."),
        },
    )
    def post(self, request: Request, **kwargs) -> Response:
        serializer = ResolveIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        cast, created = spell_casts.spell_resolve(
            campaign=self.campaign,
            by=request.user,
            encounter_id=self.encounter().pk,
            turn=serializer.validated_data["turn"],
        )
        return Response(CastOut(cast).data, status=201 if created else 200)


class EncounterSpellPreview(CombatView):
    api_descriptions = {
        "GET": "Preview a spell before casting it, nothing written: a healing spell's difficulty "
        "and complexity computed from its target's sheet (with the reasons), what the "
        "incantation's spends give (dice, spell points, cost) and the Combativité the acting "
        "combatant has left this round; `errors` lists what the cast would refuse. The query "
        "takes the same fields as the cast (without `turn`).",
    }
    output_serializer_class = SpellPreviewOut
    validates_query = True

    @extend_schema(parameters=[SpellPreviewIn], responses={200: SpellPreviewOut})
    def get(self, request: Request, **kwargs) -> Response:
        serializer = SpellPreviewIn(data=request.query_params)
        serializer.is_valid(raise_exception=True)
        preview = combat_spells.spell_preview(
            campaign=self.campaign, encounter=self.encounter(), request=serializer.spell_request()
        )
        return Response(SpellPreviewOut(preview.as_dict()).data)
