"""Shapes of the table API: inputs and outputs kept apart; the services decide what is allowed."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaigns.models import Arc
from campaigns.serializers import MomentField, RowIdField, name_field, scope_to_campaign, text_field
from common.api_fields import BooleanField, TextField
from sessions import checks, consequences, morale
from sessions.checks import RollRequest
from sessions.models import PlaySession, Visibility

SOURCES = [morale.PERSONAL, morale.GROUP, morale.SERENITY]


@extend_schema_field(
    {
        "type": "string",
        "enum": SOURCES,
        "description": "personal : ses points ; group : le Moral ; serenity : l'Apaisement, "
        "sans dépense, le Moral gagne le point opposé",
    },
    component_name="PointSource",
)
class SourceField(serializers.ChoiceField):
    """Where a hope or despair point comes from (§5–§6): one documented enum for every use."""

    def __init__(self, **kwargs):
        super().__init__(choices=SOURCES, **kwargs)


def _small(high=20, **kw):
    return serializers.IntegerField(min_value=0, max_value=high, default=0, **kw)


class CheckIn(serializers.Serializer):
    """A check as declared before rolling (§5): used by the odds (query string) and the rolls."""

    character = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**63 - 1, default=None
    )
    characteristic = serializers.ChoiceField(choices=list(checks.CHARACTERISTIC_KEYS))
    skills = serializers.ListField(
        child=TextField(max_length=120), required=False, default=list, max_length=10
    )
    complexity = _small()
    difficulty = _small(200)
    expertise = BooleanField(default=False)
    boon = _small(help_text="Dés de surpuissance de la situation.")
    bane = _small(help_text="Dés d'impuissance de la situation (blessures, membre…).")
    impact = _small(help_text="Points d'Impact dépensés, un dé de surpuissance chacun.")
    hope = _small(10, help_text="Points d'espoir dépensés pour +1 chacun.")
    hope_source = SourceField(default=morale.PERSONAL)
    cancel_critical_failure = BooleanField(default=False)
    substitute = BooleanField(default=False)
    despair_source = SourceField(default=morale.PERSONAL)
    narrow_success = BooleanField(default=False)
    fury = BooleanField(default=False)
    fortune_fate = BooleanField(default=False)
    characteristic_value = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=50, default=None
    )
    skill_level = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=10, default=None
    )
    label = TextField(max_length=120, required=False, allow_blank=True, default="")
    injuries = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        default=list,
        max_length=20,
        help_text="Les blessures du personnage qui gênent ce jet (leurs dés d'impuissance).",
    )
    critical_success_from = serializers.IntegerField(
        min_value=2,
        max_value=10,
        default=10,
        help_text="Une capacité élargit la réussite critique : dès cette face (10 sans capacité).",
    )
    critical_failure_to = serializers.IntegerField(
        min_value=1,
        max_value=9,
        default=1,
        help_text="Une capacité élargit l'échec critique : jusqu'à cette face (1 sans capacité).",
    )


def roll_request(validated: dict) -> RollRequest:
    """The check a validated `CheckIn` (or `RollIn`) body asks for."""
    data = dict(validated)
    for name in ("character", "visibility", "idempotency_key", "play_session"):
        data.pop(name, None)
    data["skills"] = tuple(data["skills"])
    data["injuries"] = tuple(data["injuries"])
    return RollRequest(**data)


class RollIn(CheckIn):
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PUBLIC)
    idempotency_key = TextField(
        max_length=64,
        required=False,
        help_text="Une clé par jet voulu : la renvoyer (ou l'en-tête Idempotency-Key) rend le "
        "même jet au lieu d'en lancer un autre.",
    )
    play_session = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**63 - 1, default=None
    )


class RollOut(serializers.Serializer):
    id = serializers.IntegerField()
    play_session = serializers.IntegerField(source="play_session_id", allow_null=True)
    arc = serializers.IntegerField(source="arc_id", allow_null=True)
    character = serializers.IntegerField(source="character_id", allow_null=True)
    character_name = serializers.SerializerMethodField()
    rolled_by = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    visibility = serializers.CharField()
    characteristic = serializers.CharField()
    skills = serializers.ListField(child=serializers.CharField())
    label = serializers.CharField()
    inputs = serializers.JSONField()
    breakdown = serializers.JSONField()
    outcome = serializers.CharField()
    total = serializers.IntegerField()
    target = serializers.IntegerField()
    margin = serializers.IntegerField()
    zone = serializers.BooleanField()
    consequences = serializers.ListField(child=serializers.CharField())

    def get_character_name(self, roll) -> str | None:
        return roll.character.name if roll.character_id else None

    def get_rolled_by(self, roll) -> str | None:
        return roll.rolled_by.get_username() if roll.rolled_by_id else None


_MOMENT = serializers.DateTimeField()


def roll_out(roll) -> dict:
    """`RollOut(roll).data` as a plain dict (the documented shape, without building a serializer
    and its nineteen fields for every roll: the table's busiest answer)."""
    return {
        "id": roll.pk,
        "play_session": roll.play_session_id,
        "arc": roll.arc_id,
        "character": roll.character_id,
        "character_name": roll.character.name if roll.character_id else None,
        "rolled_by": roll.rolled_by.get_username() if roll.rolled_by_id else None,
        "created_at": _MOMENT.to_representation(roll.created_at),
        "visibility": str(roll.visibility),
        "characteristic": str(roll.characteristic),
        "skills": [str(skill) for skill in roll.skills],
        "label": str(roll.label),
        "inputs": roll.inputs,
        "breakdown": roll.breakdown,
        "outcome": str(roll.outcome),
        "total": int(roll.total),
        "target": int(roll.target),
        "margin": int(roll.margin),
        "zone": bool(roll.zone),
        "consequences": [str(kind) for kind in roll.consequences],
    }


class EventOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    visibility = serializers.CharField()
    actor = serializers.SerializerMethodField()
    character = serializers.IntegerField(source="character_id", allow_null=True)
    roll = serializers.IntegerField(source="roll_id", allow_null=True)
    summary = serializers.CharField()
    payload = serializers.JSONField()
    created_at = serializers.DateTimeField()

    def get_actor(self, event) -> str | None:
        return event.actor.get_username() if event.actor_id else None


class LogOut(serializers.Serializer):
    cursor = serializers.IntegerField(help_text="Renvoyez-le en ?after= pour la suite.")
    results = EventOut(many=True)


class CauseOut(serializers.Serializer):
    kind = serializers.CharField()
    count = serializers.IntegerField()
    label = serializers.CharField()


class OddsOut(serializers.Serializer):
    success = serializers.FloatField()
    critical_success = serializers.FloatField()
    critical_failure = serializers.FloatField()
    mean = serializers.FloatField()
    dice = serializers.IntegerField()
    keep_highest = serializers.BooleanField()
    skill_level = serializers.IntegerField()
    characteristic_value = serializers.IntegerField()
    target = serializers.IntegerField()
    causes = CauseOut(many=True)


class InjuryOut(serializers.Serializer):
    id = serializers.IntegerField()
    effect = serializers.CharField()
    label = serializers.CharField()
    created_at = serializers.DateTimeField()


class MemberOut(serializers.Serializer):
    character = serializers.IntegerField(source="character.pk")
    name = serializers.CharField(source="character.name")
    hope = serializers.IntegerField()
    despair = serializers.IntegerField()
    cap = serializers.IntegerField()
    calm = serializers.BooleanField()
    state = serializers.CharField()
    injuries = InjuryOut(many=True)
    fortune = serializers.IntegerField()


class FortuneRequestOut(serializers.Serializer):
    id = serializers.IntegerField()
    character = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField()
    reason = serializers.CharField()


class MoraleOut(serializers.Serializer):
    hope = serializers.IntegerField()
    despair = serializers.IntegerField()
    fate = serializers.IntegerField()
    capacity = serializers.IntegerField()
    galvanized = serializers.BooleanField()
    tormented = serializers.BooleanField()
    members = MemberOut(many=True)
    fortune_requests = FortuneRequestOut(many=True)


class MoraleActionIn(serializers.Serializer):
    action = serializers.ChoiceField(choices=list(morale.MORALE_ACTIONS))
    character = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**63 - 1
    )
    source = SourceField(default=morale.GROUP)
    taker = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**63 - 1
    )
    agreeing = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        default=list,
    )
    state = serializers.ChoiceField(
        choices=list(morale.ENTERABLE_STATES), required=False, allow_blank=True, default=""
    )
    effect = serializers.ChoiceField(
        choices=["hope", "despair"], required=False, allow_blank=True, default=""
    )


class MoraleActionOut(serializers.Serializer):
    event = EventOut()
    morale = MoraleOut()
    exploit = serializers.JSONField(allow_null=True)


class FateSpendIn(serializers.Serializer):
    points = serializers.IntegerField(
        min_value=1, max_value=5, help_text="Points de Fatalité dépensés (pas plus que la réserve)."
    )
    reason = TextField(max_length=200, help_text="À quoi sert la Fatalité, en quelques mots.")
    visibility = serializers.ChoiceField(
        choices=[Visibility.PUBLIC, Visibility.STORYTELLER], default=Visibility.PUBLIC
    )
    idempotency_key = TextField(
        max_length=64,
        required=False,
        help_text="Une clé par dépense voulue : la renvoyer (ou l'en-tête Idempotency-Key) rend "
        "la même dépense au lieu d'en faire une autre.",
    )


class MoraleEventOut(serializers.Serializer):
    event = EventOut()
    morale = MoraleOut()


class FortuneRequestIn(serializers.Serializer):
    character = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    points = serializers.IntegerField(
        min_value=1, max_value=5, help_text="Points de Fortune à dépenser (pas plus que la fiche)."
    )
    reason = TextField(max_length=200, help_text="À quoi sert la Fortune, en quelques mots.")
    idempotency_key = TextField(
        max_length=64,
        required=False,
        help_text="Une clé par demande voulue : la renvoyer (ou l'en-tête Idempotency-Key) rend "
        "la même demande au lieu d'en faire une autre.",
    )


class ExhaustionIn(serializers.Serializer):
    change = serializers.ChoiceField(
        choices=[1, -1], help_text="+1 : donner un point d'Épuisement ; -1 : en retirer un."
    )


class FortuneAnswerIn(serializers.Serializer):
    accept = BooleanField(help_text="true : dépenser les points ; false : refuser.")


class ConsequenceIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=list(consequences.CONSEQUENCES))
    victim = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**63 - 1
    )
    mode = serializers.ChoiceField(
        choices=[consequences.TABLE, consequences.RESILIENCE], default=consequences.TABLE
    )
    face = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=10)


class UsedInArcOut(serializers.Serializer):
    character = serializers.IntegerField()
    characteristics = serializers.ListField(child=serializers.CharField())
    skills = serializers.ListField(child=serializers.CharField())


class PlaySessionIn(serializers.Serializer):
    title = name_field()
    scheduled_at = MomentField()
    notes = text_field(required=False)
    arc = RowIdField(queryset=Arc.objects.none(), allow_null=True, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        scope_to_campaign(self, "arc")


class PlaySessionOut(serializers.ModelSerializer):
    arc_title = serializers.CharField(
        source="arc.title", read_only=True, allow_null=True, default=None
    )

    class Meta:
        model = PlaySession
        fields = ["id", "title", "scheduled_at", "notes", "arc", "arc_title", "created_at"]
        read_only_fields = fields
