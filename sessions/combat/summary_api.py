"""A fight's summary as its own API operation (issue 39 §4): who hit whom, the damage dealt and
taken per gauge, the criticals and each one's state, as the caller may see them (a hidden NPC is
null for a player: `summary.fight_summary`)."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.policy import is_storyteller
from sessions.combat import summary as combat_summary
from sessions.combat.api import CombatView
from sessions.combat.serializers import (
    AggravationOut,
    CombatantStatusField,
    EncounterStatusField,
)


class GaugeDamageOut(serializers.Serializer):
    vitality = serializers.IntegerField()
    energy = serializers.IntegerField()
    confidence = serializers.IntegerField()


class FighterSummaryOut(serializers.Serializer):
    combatant = serializers.IntegerField()
    name = serializers.CharField()
    status = CombatantStatusField()
    dealt = serializers.IntegerField(help_text="Dégâts infligés (coups et répliques).")
    taken = serializers.IntegerField(help_text="Dégâts reçus.")
    criticals = serializers.IntegerField(help_text="Critiques subis (niveaux d'Aggravation).")
    taken_by_gauge = GaugeDamageOut(help_text="Dégâts reçus par constitution.")


class SummaryBlowOut(serializers.Serializer):
    round = serializers.IntegerField()
    attacker = serializers.IntegerField(allow_null=True, help_text="null : un PNJ caché.")
    target = serializers.IntegerField(allow_null=True, help_text="null : un PNJ caché.")
    gauge = serializers.CharField()
    damage = serializers.IntegerField()
    reply_damage = serializers.IntegerField()
    aggravation = AggravationOut()


class FightSummaryOut(serializers.Serializer):
    """A fight's summary as this member may see it: who hit whom, damage per gauge, states."""

    id = serializers.IntegerField(source="encounter.pk")
    name = serializers.CharField(source="encounter.name")
    status = EncounterStatusField(source="encounter.status")
    round = serializers.IntegerField(source="encounter.round")
    combatants = FighterSummaryOut(many=True)
    blows = SummaryBlowOut(many=True, help_text="Les coups portés, dans l'ordre.")


class EncounterSummary(CombatView):
    api_descriptions = {
        "GET": "The fight's summary as you may see it: who hit whom (a hidden NPC: null for a "
        "player), the damage dealt and taken per gauge, the criticals and each one's state.",
    }
    output_serializer_class = FightSummaryOut

    def get(self, request: Request, **kwargs) -> Response:
        encounter = self.encounter()
        summary = combat_summary.fight_summary(
            encounter,
            list(encounter.combatants.order_by("pk")),
            storyteller=is_storyteller(self.campaign),
        )
        return Response(FightSummaryOut(summary).data)
