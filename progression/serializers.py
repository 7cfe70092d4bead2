"""API shapes of the progression (§10–§11): `*In` serializers check the shape of a request
(types, ranges, known keys), `*Out` ones render. What is allowed — costs, once per act, the
ellipse's kind, the checklist's combinations — is the rules engine's, through the services.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.serializers import MomentField
from characters.models import NAME_LENGTH
from common.api_fields import BooleanField, TextField, UniqueListField
from progression.models import (
    EllipseKind,
    EllipseStatus,
    JobStatus,
    TrainerKind,
    TrainingKind,
    TrainingStatus,
    XpEntryKind,
)
from rules import reference

ID_MAX = 2**63 - 1
DAYS_MAX = 100_000  # far above any ellipse, far below the column's limit
SMALL_MAX = 1000
KEY_LENGTH = 50  # the client's idempotency key; prefixed to stay unique per ellipse/character
COMPENDIUM_KINDS = frozenset({"ability", "class", "branch"})
ROW_ID = re.compile(r"[0-9]{1,19}")


def choice_field(choices, component: str) -> type[serializers.ChoiceField]:
    """A choice field class with its own schema component: several choice sets share a field
    name here ("kind", "status"), and the generator's names made from the field would collide."""

    choices = [(value, str(label)) for value, label in choices]

    class Field(serializers.ChoiceField):
        def __init__(self, **kwargs):
            super().__init__(choices=choices, **kwargs)

    schema = {
        "type": "string",
        "enum": [value for value, _label in choices],
        "description": "\n".join(f"* `{value}` - {label}" for value, label in choices),
    }
    return extend_schema_field(schema, component_name=component)(Field)


def _items(items) -> list[tuple[str, str]]:
    return [(item.key, item.label) for item in items]


BalanceField = choice_field(_items(reference.BALANCE_ITEMS), "ChecklistBalanceEnum")
IngenuityField = choice_field(_items(reference.INGENUITY_ITEMS), "ChecklistIngenuityEnum")
EndingItemField = choice_field(_items(reference.ENDING_ITEMS), "ChecklistEndingItemEnum")
BountyField = choice_field(_items(reference.BOUNTY_ITEMS), "ChecklistBountyEnum")
EndingField = choice_field(
    [("none", "Rien"), ("chapter", "Fin de chapitre"), ("act", "Fin d'acte")],
    "ChecklistEndingEnum",
)
LengthField = choice_field(
    [(key, key) for key in reference.LENGTH_MULTIPLIERS], "ChecklistLengthEnum"
)
UsedField = choice_field(
    [(c, reference.LABELS[c]) for c in reference.CHARACTERISTICS]
    + [(s.key, s.label) for s in reference.SKILLS if s.rolled],
    "ChecklistUsedEnum",
)
MeansField = choice_field(
    [(s.key, s.label) for s in reference.SKILLS if not s.rolled], "ChecklistMeansEnum"
)
XpEntryKindField = choice_field(XpEntryKind.choices, "XpEntryKindEnum")
SpendKindField = choice_field(
    [(k, label) for k, label in TrainingKind.choices if k not in ("class", "branch")],
    "SpendKindEnum",
)
SpendModeField = choice_field(
    [
        ("hope", "Avec un point d'espoir"),
        ("on_receipt", "À la réception"),
        ("special_state", "Expérience restante répartie dans un état spécial"),
    ],
    "SpendModeEnum",
)
TrainingKindField = choice_field(TrainingKind.choices, "TrainingKindEnum")
TrainerKindField = choice_field(TrainerKind.choices, "TrainerKindEnum")
TrainingStatusField = choice_field(TrainingStatus.choices, "TrainingStatusEnum")
JobStatusField = choice_field(JobStatus.choices, "JobStatusEnum")
EllipseKindField = choice_field(EllipseKind.choices, "EllipseKindEnum")
EllipseStatusField = choice_field(EllipseStatus.choices, "EllipseStatusEnum")
XpTrainerField = choice_field(
    [(key, f"×{value}") for key, value in reference.TRAINER_MULTIPLIERS.items()],
    "XpTrainerEnum",
)


def _id(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=ID_MAX, **kwargs)


def _unique(values: list) -> list:
    if len(set(values)) != len(values):
        raise serializers.ValidationError(gettext("Chaque case ne se coche qu'une fois."))
    return values


def _choices(field_class, **kwargs) -> serializers.ListField:
    return UniqueListField(child=field_class(), max_length=50, validators=[_unique], **kwargs)


# --- the arc's experience checklist ----------------------------------------------------------


class GroupChecklistIn(serializers.Serializer):
    danger = serializers.IntegerField(min_value=0, max_value=SMALL_MAX, help_text="1 à 5.")
    balance = _choices(BalanceField, required=False, default=list)
    ingenuity = _choices(IngenuityField, required=False, default=list)
    ending = EndingField(required=False, default="none")
    ending_items = _choices(EndingItemField, required=False, default=list)
    length = LengthField()


class CharacterTicksIn(serializers.Serializer):
    character = _id(help_text="Un personnage présent de la campagne.")
    bounty = _choices(BountyField, required=False, default=list)
    optional_objectives = serializers.IntegerField(
        min_value=0, max_value=SMALL_MAX, required=False, default=0
    )
    used = _choices(
        UsedField,
        required=False,
        default=list,
        help_text="Caractéristiques et compétences utilisées pendant l'arc.",
    )
    opposition_level = serializers.IntegerField(
        min_value=0, max_value=SMALL_MAX, required=False, allow_null=True, default=None
    )
    more_combative_enemy = BooleanField(required=False, default=False)
    nearly_died = BooleanField(required=False, default=False)
    means = _choices(MeansField, required=False, default=list)


class ChecklistIn(serializers.Serializer):
    """The Conteur's end-of-arc checklist (§10): the group's ticks and each present character's."""

    group = GroupChecklistIn()
    characters = CharacterTicksIn(many=True, max_length=1000)

    def validate_characters(self, value: list[dict]) -> list[dict]:
        ids = [row["character"] for row in value]
        if len(set(ids)) != len(ids):
            raise serializers.ValidationError(
                gettext("Chaque personnage ne figure qu'une fois."), code="beyond_schema"
            )
        return value


def checklist_to_service(data: dict[str, Any]) -> dict[str, Any]:
    """The services' stored form: characters keyed by their id (as a string)."""
    return {
        "group": dict(data["group"]),
        "characters": {
            str(row["character"]): {k: v for k, v in row.items() if k != "character"}
            for row in data["characters"]
        },
    }


def checklist_from_service(checklist: dict[str, Any]) -> dict[str, Any]:
    """The API's form of a stored checklist: every field present, characters as a list."""
    group = checklist.get("group", {})
    return {
        "group": {
            "danger": group.get("danger") or 0,
            "balance": list(group.get("balance") or []),
            "ingenuity": list(group.get("ingenuity") or []),
            "ending": group.get("ending") or "none",
            "ending_items": list(group.get("ending_items") or []),
            "length": group.get("length") or "hours",
        },
        "characters": [
            {
                "character": int(pk),
                "bounty": list(ticks.get("bounty") or []),
                "optional_objectives": ticks.get("optional_objectives") or 0,
                "used": list(ticks.get("used") or []),
                "opposition_level": ticks.get("opposition_level"),
                "more_combative_enemy": bool(ticks.get("more_combative_enemy")),
                "nearly_died": bool(ticks.get("nearly_died")),
                "means": list(ticks.get("means") or []),
            }
            for pk, ticks in sorted(
                checklist.get("characters", {}).items(), key=lambda item: int(item[0])
            )
        ],
    }


class GroupChecklistOut(serializers.Serializer):
    danger = serializers.IntegerField()
    balance = serializers.ListField(child=BalanceField())
    ingenuity = serializers.ListField(child=IngenuityField())
    ending = EndingField()
    ending_items = serializers.ListField(child=EndingItemField())
    length = LengthField()


class CharacterTicksOut(serializers.Serializer):
    character = serializers.IntegerField()
    bounty = serializers.ListField(child=BountyField())
    optional_objectives = serializers.IntegerField()
    used = serializers.ListField(child=UsedField())
    opposition_level = serializers.IntegerField(allow_null=True)
    more_combative_enemy = serializers.BooleanField()
    nearly_died = serializers.BooleanField()
    means = serializers.ListField(child=MeansField())


class ChecklistOut(serializers.Serializer):
    group = GroupChecklistOut()
    characters = CharacterTicksOut(many=True)


class AwardLineOut(serializers.Serializer):
    label = serializers.CharField()
    points = serializers.IntegerField()


class AwardPreviewOut(serializers.Serializer):
    """One character's award as the rules engine computes it from the checklist."""

    character = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()
    lines = AwardLineOut(many=True)


class AwardSummaryRowOut(serializers.Serializer):
    character = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField(help_text="L'expérience de l'arc pour ce personnage.")
    paid = serializers.IntegerField(help_text="Ce que cette révision a versé (la différence).")


class AwardJobOut(serializers.Serializer):
    """The job that pays the arc's awards: its status and progress, its summary once done."""

    status = JobStatusField()
    revision = serializers.IntegerField()
    total = serializers.IntegerField(help_text="Personnages à payer.")
    paid = serializers.IntegerField(help_text="Personnages déjà payés.")
    percent = serializers.IntegerField()
    summary = AwardSummaryRowOut(many=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class ArcRefOut(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    act = serializers.IntegerField()
    status = serializers.CharField()


class ArcExperienceOut(serializers.Serializer):
    """An arc's checklist (a default one until confirmed), every present character's award
    preview, and the award job (null until the Conteur confirms)."""

    arc = ArcRefOut()
    checklist = ChecklistOut()
    preview = AwardPreviewOut(many=True)
    award = AwardJobOut(allow_null=True)


class AwardPreviewListOut(serializers.Serializer):
    preview = AwardPreviewOut(many=True)


# --- the ledger and spending -----------------------------------------------------------------


class XpEntryOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = XpEntryKindField()
    amount = serializers.IntegerField(help_text="Positif : gagné ; négatif : dépensé.")
    label = serializers.CharField()
    breakdown = AwardLineOut(many=True)
    act = serializers.IntegerField(allow_null=True)
    improvement = serializers.CharField(help_text="« type:cible » pour une dépense.")
    created_at = serializers.DateTimeField()


class ImprovementOut(serializers.Serializer):
    """An improvement the sheet can aim at, its cost, and whether it may be bought now; if not,
    the rules engine's reasons in French."""

    kind = SpendKindField()
    target = serializers.CharField()
    label = serializers.CharField()
    cost = serializers.IntegerField()
    allowed = serializers.BooleanField()
    reasons = serializers.ListField(child=serializers.CharField())


def _compendium_target_schema(kinds) -> dict:
    """`_compendium_target` in JSON Schema: a kind of the compendium names its entry by id."""
    compendium_kind = "^(" + "|".join(sorted(COMPENDIUM_KINDS & set(kinds))) + ")$"
    return {
        "anyOf": [
            {"properties": {"kind": {"not": {"pattern": compendium_kind}}}},
            {
                "properties": {"target": {"type": "string", "pattern": "^[1-9][0-9]{0,17}$"}},
                "required": ["target"],
            },
        ]
    }


def _compendium_target(data: dict) -> dict:
    """A class, branch or ability is named by its compendium id: refuse what is not even a row
    id (the services look it up within the campaign)."""
    target = data.get("target", "")
    if data.get("kind") in COMPENDIUM_KINDS and not (
        ROW_ID.fullmatch(target) and 0 < int(target) <= ID_MAX
    ):
        raise serializers.ValidationError(
            {"target": [gettext("Cette entrée n'existe pas dans le compendium de la campagne.")]}
        )
    return data


class SpendIn(serializers.Serializer):
    request_schema_extra = _compendium_target_schema(SpendKindField().choices)
    kind = SpendKindField()
    target = TextField(
        max_length=NAME_LENGTH,
        required=False,
        default="",
        allow_blank=True,
        help_text="La caractéristique, la compétence, le domaine ou l'id de l'aptitude.",
    )
    detail = TextField(
        max_length=NAME_LENGTH,
        required=False,
        default="",
        allow_blank=True,
        help_text="Le nom d'une spécialité.",
    )
    mode = SpendModeField()
    key = TextField(
        max_length=KEY_LENGTH,
        help_text="Clé d'idempotence : la même dépense envoyée deux fois n'est payée qu'une fois.",
    )

    def validate(self, data: dict) -> dict:
        return _compendium_target(data)


# --- trainings -------------------------------------------------------------------------------


class TrainingIn(serializers.Serializer):
    request_schema_extra = _compendium_target_schema(TrainingKindField().choices)
    kind = TrainingKindField()
    target = TextField(max_length=NAME_LENGTH, required=False, default="", allow_blank=True)
    detail = TextField(max_length=NAME_LENGTH, required=False, default="", allow_blank=True)
    trainer = TrainerKindField(required=False, default="alone")

    def validate(self, data: dict) -> dict:
        return _compendium_target(data)


class TrainerConfirmIn(serializers.Serializer):
    confirmed = BooleanField(
        required=False, default=True, help_text="false : le joueur s'entraîne seul."
    )


class TrainingOut(serializers.Serializer):
    """A training and its timer: `days_done / days_needed` (null: finishes at the ellipse's end);
    `expected_day` is the in-game day it should finish, after the ones queued before it."""

    id = serializers.IntegerField()
    character = serializers.IntegerField(source="character_id")
    ellipse = serializers.IntegerField(source="ellipse_id", allow_null=True)
    kind = TrainingKindField()
    target = serializers.CharField()
    detail = serializers.CharField()
    label = serializers.CharField()
    trainer = TrainerKindField()
    trainer_confirmed = serializers.BooleanField()
    status = TrainingStatusField()
    position = serializers.IntegerField()
    days_done = serializers.IntegerField()
    days_needed = serializers.IntegerField(allow_null=True)
    percent = serializers.IntegerField()
    expected_day = serializers.SerializerMethodField()
    xp_reserved = serializers.IntegerField()
    finished_day = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_expected_day(self, training) -> int | None:
        return getattr(training, "expected_day", None)


class EllipseTrainingOut(TrainingOut):
    character_name = serializers.CharField(source="character.name")


# --- ellipses and advances -------------------------------------------------------------------


class EllipseIn(serializers.Serializer):
    length_days = serializers.IntegerField(min_value=1, max_value=DAYS_MAX)
    deadline = MomentField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Échéance réelle : l'ellipse se clôt d'elle-même une fois passée.",
    )


class AdvanceIn(serializers.Serializer):
    days = serializers.IntegerField(min_value=1, max_value=DAYS_MAX)
    key = TextField(
        max_length=KEY_LENGTH,
        required=False,
        help_text="Clé d'idempotence : la même avance envoyée deux fois ne s'applique qu'une fois.",
    )


class CloseIn(serializers.Serializer):
    key = TextField(max_length=KEY_LENGTH, required=False)


class XpTrainerIn(serializers.Serializer):
    character = _id()
    trainer = XpTrainerField()
    surcharge_weeks = serializers.IntegerField(
        min_value=0,
        max_value=DAYS_MAX,
        required=False,
        help_text="Semaines de surcharge (§11 : 20 blessures graves infligées à soi-même dans la "
        "semaine, +1 XP chacune) ; absent : inchangé.",
    )


class AdvanceOut(serializers.Serializer):
    id = serializers.IntegerField()
    days = serializers.IntegerField()
    closes = serializers.BooleanField()
    status = JobStatusField()
    summary = serializers.JSONField(
        help_text="Une fois faite : jours, entraînements terminés, refusés, XP d'ellipse, repos."
    )
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class EllipseOut(serializers.Serializer):
    id = serializers.IntegerField()
    length_days = serializers.IntegerField()
    kind = EllipseKindField()
    status = EllipseStatusField()
    deadline = serializers.DateTimeField(allow_null=True)
    start_day = serializers.IntegerField()
    days_elapsed = serializers.IntegerField()
    days_left = serializers.IntegerField()
    xp_trainers = serializers.DictField(
        child=XpTrainerField(),
        help_text="Multiplicateur d'XP confirmé par personnage (id) ; absent : libre (×1).",
    )
    surcharge_weeks = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        help_text="Semaines de surcharge par personnage (id) ; absent : aucune.",
    )
    created_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)


class EllipseDetailOut(EllipseOut):
    in_game_day = serializers.IntegerField(source="campaign.in_game_day")
    allowed_actions = serializers.ListField(child=serializers.CharField())
    trainings = EllipseTrainingOut(many=True)
    advances = AdvanceOut(many=True, help_text="Les dix dernières avances.")


# --- notifications ---------------------------------------------------------------------------


class NotificationOut(serializers.Serializer):
    id = serializers.IntegerField()
    campaign = serializers.IntegerField(source="campaign_id", allow_null=True)
    kind = serializers.CharField()
    text = serializers.CharField()
    link = serializers.CharField()
    created_at = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True)


class NotificationReadIn(serializers.Serializer):
    notification = _id(required=False, help_text="Une notification ; absente : toutes.")


class NotificationReadOut(serializers.Serializer):
    marked = serializers.IntegerField(help_text="Combien de notifications sont passées lues.")
    unread = serializers.IntegerField(help_text="Combien restent non lues.")
