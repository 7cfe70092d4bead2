"""The combat API (§13): the bestiary, encounters, combatants, initiative and turns.

The same services as the pages (`sessions.combat`), entered through the campaign policy like the
rest of the table API (`sessions.api.TableView`: 404 for non-members; a player's Conteur action
is a 403 from the service). Retries never double an effect: adding combatants takes an
`Idempotency-Key`, "next" and "delay" the step (`turn`) the client read, and initiative is rolled
once per fight.
"""

from __future__ import annotations

from functools import partial

from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.api import CampaignScopedDetail, CampaignScopedList
from campaigns.policy import is_storyteller
from common.api_errors import ApiErrorSerializer
from common.api_schema import IDEMPOTENCY_KEY
from sessions.api import TableView
from sessions.combat import attacks as combat_attacks
from sessions.combat import bestiary_serializers as bestiary_s
from sessions.combat import fights as combat
from sessions.combat import grapples as combat_grapples
from sessions.combat import masks
from sessions.combat import regeneration as combat_regeneration
from sessions.combat import selectors as cs
from sessions.combat import serializers as s
from sessions.combat.strikes import SPENDS, AttackRequest, DefenceRequest, Strike
from sessions.models import Combatant, Encounter, PlaySession, StatBlock

TAG = "Combat"
CONFLICT = OpenApiResponse(
    ApiErrorSerializer,
    description="Déjà fait, l'étape `turn` envoyée n'est plus celle du combat, le combat est "
    "terminé ou pas commencé, ou une attaque attend sa défense : le message dit laquelle.",
)


class StatBlockList(CampaignScopedList):
    api_tag = TAG
    api_descriptions = {
        "GET": "The campaign's bestiary (a player sees only the blocks the Conteur shows).",
        "POST": "Add an NPC stat block to the bestiary (the Conteur).",
    }
    queryset = StatBlock.objects.none()
    input_serializer_class = bestiary_s.StatBlockIn
    output_serializer_class = bestiary_s.StatBlockOut

    def rows(self):
        return cs.stat_blocks_for_user(campaign=self.campaign)


class StatBlockDetail(CampaignScopedDetail):
    api_tag = TAG
    api_descriptions = {
        "GET": "One stat block of the bestiary, with its Finesse score.",
        "PATCH": "Change a stat block (the Conteur): only the fields sent.",
        "DELETE": "Delete a stat block (the Conteur); combatants made from it stay.",
    }
    queryset = StatBlock.objects.none()
    input_serializer_class = bestiary_s.StatBlockIn
    output_serializer_class = bestiary_s.StatBlockOut
    rows = StatBlockList.rows


class CombatView(TableView):
    """A view of one encounter of the campaign; answers with the fight as the caller sees it."""

    api_tag = TAG
    queryset = Encounter.objects.none()
    output_serializer_class = s.EncounterOut

    def encounter(self) -> Encounter:
        encounter = Encounter.objects.filter(campaign=self.campaign, pk=self.kwargs["pk"]).first()
        if encounter is None:
            raise Http404
        return encounter

    def answer(self, encounter_id: int, status: int = 200) -> Response:
        encounter = Encounter.objects.select_related("play_session").get(pk=encounter_id)
        tracker = cs.tracker_for_user(
            campaign=self.campaign, user=self.request.user, encounter=encounter
        )
        return Response(s.EncounterOut(tracker).data, status=status)

    def step(self, service) -> Response:
        """Run one service of the fight with the body's fields (validated by
        `input_serializer_class`) and what the URL names, then answer the fight."""
        data = {}
        if self.input_serializer_class is not None:
            serializer = self.input_serializer_class(data=self.request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
        encounter = self.encounter()
        service(
            campaign=self.campaign,
            by=self.request.user,
            encounter_id=encounter.pk,
            **self.named(encounter),
            **data,
        )
        return self.answer(encounter.pk)

    def named(self, encounter: Encounter) -> dict:
        """What the URL names beyond the encounter, as the service's arguments."""
        return {}


class EncounterList(CombatView):
    api_descriptions = {
        "GET": "The campaign's fights, newest first.",
        "POST": "Open a fight (the Conteur; one open at a time), in a play session or not.",
    }
    input_serializer_class = s.EncounterOpenIn
    pagination_class = None  # the newest 100: a campaign's fights are few

    @extend_schema(responses=s.EncounterSummaryOut(many=True))
    def get(self, request: Request, **kwargs) -> Response:
        rows = cs.encounters_for_campaign(campaign=self.campaign)[:100]
        return Response(s.EncounterSummaryOut(rows, many=True).data)

    @extend_schema(responses={201: s.EncounterOut})
    def post(self, request: Request, **kwargs) -> Response:
        serializer = s.EncounterOpenIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        play_session = None
        if data.get("play_session"):
            play_session = PlaySession.objects.filter(
                campaign=self.campaign, pk=data["play_session"]
            ).first()
            if play_session is None:
                raise Http404
        encounter = combat.encounter_open(
            campaign=self.campaign,
            by=request.user,
            name=data.get("name", ""),
            play_session=play_session,
        )
        return self.answer(encounter.pk, status=201)


class EncounterDetail(CombatView):
    """The fight: round, step (`turn`), who acts, who comes next, the combatants."""

    api_descriptions = {
        "GET": "A fight as you may see it: round, step (`turn`), who acts and who comes next, "
        "the combatants with their initiative (hidden NPCs: the Conteur only).",
    }

    def get(self, request: Request, **kwargs) -> Response:
        return self.answer(self.encounter().pk)


class EncounterCombatants(CombatView):
    api_descriptions = {
        "POST": "Add combatants (the Conteur): characters, copies of a stat block (numbered: "
        "Brigand 1…4) or a quick NPC. The same `Idempotency-Key` again answers those already "
        "added (200) instead of adding more (201). In a running fight they roll initiative at "
        "once and act from the next round. Send exactly one of `characters`, `stat_block` "
        "(with `count`) or `name` (400 otherwise).",
    }
    input_serializer_class = s.CombatantsIn

    @extend_schema(
        parameters=[IDEMPOTENCY_KEY], responses={201: s.EncounterOut, 200: s.EncounterOut}
    )
    def post(self, request: Request, **kwargs) -> Response:
        serializer = s.CombatantsIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        encounter = self.encounter()
        if data.get("characters"):
            joining = combat.party_joining(self.campaign, data["characters"])
        elif data.get("stat_block"):
            joining = combat.block_joining(
                self.campaign, data["stat_block"], data["count"], data.get("hidden")
            )
        else:
            joining = combat.quick_joining(
                data["name"], data["finesse"], data["combativeness"], bool(data.get("hidden"))
            )
        _, created = combat.combatants_add(
            campaign=self.campaign,
            by=request.user,
            encounter_id=encounter.pk,
            joining=joining,
            idempotency_key=(request.headers.get("Idempotency-Key") or "")[:64],
        )
        return self.answer(encounter.pk, status=201 if created else 200)


class EncounterInitiative(CombatView):
    api_descriptions = {
        "POST": "Roll every combatant's initiative (a Finesse check, §5) and start round 1 (the "
        "Conteur). Once per fight: again is a 409.",
    }

    @extend_schema(request=None, responses={200: s.EncounterOut, 409: CONFLICT})
    def post(self, request: Request, **kwargs) -> Response:
        encounter = self.encounter()
        combat.initiative_roll(campaign=self.campaign, by=request.user, encounter_id=encounter.pk)
        return self.answer(encounter.pk)


class EncounterNext(CombatView):
    api_descriptions = {
        "POST": "End the current action (the Conteur, or the player whose character acts): the "
        "next combatant still in the fight acts; after the last, a new round. Send the `turn` "
        "you read: if it moved since, 409 and nothing changes (a double click skips no one). "
        "A fight that is over or not started, or an attack awaiting its defence: 409 too, its "
        "message naming the cause.",
    }
    input_serializer_class = s.TurnIn
    service = staticmethod(combat.turn_next)

    @extend_schema(responses={200: s.EncounterOut, 409: CONFLICT})
    def post(self, request: Request, **kwargs) -> Response:
        return self.step(self.service)


class EncounterDelay(EncounterNext):
    api_descriptions = {
        "POST": "Delay the current action: it swaps with the next combatant still in the fight "
        "this round (the Conteur, or the player whose character acts). Send the `turn` you "
        "read: if it moved since, 409.",
    }
    service = staticmethod(combat.turn_delay)


class EncounterRegeneration(EncounterNext):
    api_descriptions = {
        "POST": "The acting combatant forces a regeneration (§13): `points` restored to a gauge, "
        "as many serious wounds added, and the action ends (the Conteur, or the player whose "
        "character acts). Send the `turn` you read: if it moved since, 409.",
    }
    input_serializer_class = s.RegenerationIn
    service = staticmethod(combat_regeneration.regeneration_force)


class EncounterEnd(CombatView):
    api_descriptions = {"POST": "End the fight (the Conteur); another may then be opened."}

    @extend_schema(request=None)
    def post(self, request: Request, **kwargs) -> Response:
        return self.step(combat.encounter_end)


class CombatantDetail(CombatView):
    http_method_names = ["delete", "options"]
    api_descriptions = {
        "DELETE": "The combatant leaves the fight (the Conteur); before initiative it is removed.",
    }

    def _combatant(self, encounter: Encounter) -> Combatant:
        combatant = encounter.combatants.filter(pk=self.kwargs["combatant_id"]).first()
        if combatant is None or (combatant.hidden and not is_storyteller(self.campaign)):
            raise Http404
        return combatant

    def named(self, encounter: Encounter) -> dict:
        return {"combatant_id": self._combatant(encounter).pk}

    @extend_schema(responses={204: None})
    def delete(self, request: Request, **kwargs) -> Response:
        self.step(partial(combat.combatant_set_status, status="left"))
        return Response(status=204)


class CombatantStatusChange(CombatantDetail):
    http_method_names = ["post", "options"]
    api_descriptions = {
        "POST": "Mark a combatant defeated, unconscious, dead, back in the fight or gone (the "
        "Conteur): the order skips whoever is not in the fight.",
    }
    input_serializer_class = s.StatusIn

    def post(self, request: Request, **kwargs) -> Response:
        return self.step(combat.combatant_set_status)


class CombatantReveal(CombatantDetail):
    http_method_names = ["post", "options"]
    api_descriptions = {"POST": "Reveal a hidden NPC to the players (the Conteur)."}

    @extend_schema(request=None)
    def post(self, request: Request, **kwargs) -> Response:
        return self.step(combat.combatant_reveal)


class EncounterAttacks(CombatView):
    api_descriptions = {
        "POST": "The acting combatant attacks a target (the Conteur, or the player whose "
        "character acts; a riposte: the defender allowed one). The check is rolled as every "
        "table roll; the attack then waits for its target's defence (one at a time: another "
        "is a 409). The same `Idempotency-Key` again answers the same attack (200) instead of "
        "a new one (201). Send the `turn` you read: if it moved since, 409. A grapple "
        "(`grapple`: Étreinte, Mise au sol, Projection, §13) is an attack at bare hands with "
        "Force or Agilité and Bagarre; once landed, its state is on the target (`held_by`, "
        "`prone`). A held combatant can neither attack nor defend. A riposte (`riposte`: "
        "true, by the defender the last blow allows, `riposte_for`) always aims at that blow's "
        "attacker: `target` is then not asked and, if sent, ignored; against a hidden NPC a "
        "player reads it against « l'attaquant » (`target` null, `masked`).",
    }
    input_serializer_class = s.AttackIn
    output_serializer_class = s.AttackOut

    @extend_schema(
        parameters=[IDEMPOTENCY_KEY],
        responses={201: s.AttackOut, 200: s.AttackOut, 409: CONFLICT},
    )
    def post(self, request: Request, **kwargs) -> Response:
        serializer = s.AttackIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        encounter = self.encounter()
        turn, profile = data.pop("turn"), data.pop("profile")
        data.setdefault("characteristic", "")  # the service asks for one without `profile`
        data["skills"] = tuple(data.get("skills") or ())
        data["injuries"] = tuple(data.get("injuries") or ())
        pending, created = combat_attacks.attack_declare(
            campaign=self.campaign,
            by=request.user,
            encounter_id=encounter.pk,
            turn=turn,
            request=AttackRequest(**data),
            profile=profile,
            idempotency_key=(request.headers.get("Idempotency-Key") or "")[:64],
        )
        return Response(self._shown(encounter.pk, pending), status=201 if created else 200)

    def _shown(self, encounter_id: int, attack: dict) -> dict:
        """The attack with the defences its target may choose, if it is still waiting."""
        encounter = Encounter.objects.get(pk=encounter_id)
        tracker = cs.tracker_for_user(
            campaign=self.campaign, user=self.request.user, encounter=encounter
        )
        if (
            tracker is not None
            and tracker.pending is not None
            and tracker.pending.id == attack["id"]
        ):
            return s.AttackOut({**tracker.pending_data, "result": None}).data
        if attack.get("visibility") == "hidden" and not is_storyteller(self.campaign):
            attack = self._as_player_reads(encounter, attack)
        return s.AttackOut({**attack, "defences": []}).data

    @staticmethod
    def _as_player_reads(encounter: Encounter, attack: dict) -> dict:
        """A player's own hidden attack (a riposte on a hidden NPC that missed at once): its
        target unnamed, its blow as `masks` tells it."""
        by_pk = {c.pk: c for c in encounter.combatants.all()}
        attacker, target = by_pk.get(attack["attacker"]), by_pk.get(attack["target"])
        if attacker is None or target is None:
            raise Http404
        shown = masks.as_player_reads(attack, attacker, target)
        if shown is None:
            raise Http404
        result = attack.get("result")
        if result is not None:
            result = masks.as_player_reads(result, attacker, target)
        return {**shown, "result": result}


class AttackDefence(CombatView):
    api_descriptions = {
        "POST": "The target answers the attack waiting for it (`attack`: its `id`; its player, or "
        "the Conteur for an "
        "NPC): `block`, `dodge` or `parry` (one Finesse point, a check against the attack's "
        "total), `none`, or `reactive` (a reactive confrontation: send the `reply`). The damage, "
        "criticals and states follow, on the sheet or the NPC. Sending it again for the same "
        "attack answers the blow already resolved (200); an attack no longer waiting is a 409.",
    }
    input_serializer_class = s.DefenceIn
    output_serializer_class = s.BlowOut

    @extend_schema(responses={201: s.BlowOut, 200: s.BlowOut, 409: CONFLICT})
    def post(self, request: Request, **kwargs) -> Response:
        serializer = s.DefenceIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        encounter = self.encounter()
        reply = data.get("reply")
        if reply is not None:
            reply = Strike(
                **{
                    **reply,
                    "skills": tuple(reply.get("skills") or ()),
                    "injuries": tuple(reply.get("injuries") or ()),
                }
            )
        result, created = combat_attacks.attack_defend(
            campaign=self.campaign,
            by=request.user,
            encounter_id=encounter.pk,
            attack_id=data["attack"],
            request=DefenceRequest(
                defence=data["defence"],
                complexity=data["complexity"],
                skill_level=data.get("skill_level"),
                critical=data["critical"],
                reply=reply,
                **{k: data[k] for k in SPENDS if k != "injuries"},
                injuries=tuple(data.get("injuries") or ()),
            ),
        )
        if result.get("visibility") == "hidden" and not is_storyteller(self.campaign):
            if "masked_summary" not in result:
                raise Http404
            result = masks.masked_blow(result)  # a hidden NPC's blow on their character
        return Response(s.BlowOut(result).data, status=201 if created else 200)


# --- grapples (§13) ----------------------------------------------------------------------------


class EncounterEscape(CombatView):
    api_descriptions = {
        "POST": "The held combatant acting now tries to break free of an Étreinte (§13; its "
        "player, or the Conteur): Force or Agilité and Bagarre against the grapple's total. "
        "Freed or not, its action ends. The same `Idempotency-Key` again answers the same "
        "attempt (200) instead of a new one (201). Send the `turn` you read: if it moved "
        "since, 409.",
    }
    input_serializer_class = s.EscapeIn
    output_serializer_class = s.EscapeOut

    @extend_schema(
        parameters=[IDEMPOTENCY_KEY],
        responses={201: s.EscapeOut, 200: s.EscapeOut, 409: CONFLICT},
    )
    def post(self, request: Request, **kwargs) -> Response:
        serializer = s.EscapeIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        encounter = self.encounter()
        attempt, created = combat_grapples.grapple_escape(
            campaign=self.campaign,
            by=request.user,
            encounter_id=encounter.pk,
            idempotency_key=(request.headers.get("Idempotency-Key") or "")[:64],
            **serializer.validated_data,
        )
        if attempt.get("visibility") == "hidden" and not is_storyteller(self.campaign):
            raise Http404
        return Response(s.EscapeOut(attempt).data, status=201 if created else 200)


class CombatantRelease(CombatantDetail):
    http_method_names = ["post", "options"]
    api_descriptions = {
        "POST": "The holder lets go of this combatant, held in an Étreinte (§13; the holder's "
        "player, or the Conteur). Someone no longer held: nothing changes (200).",
    }

    @extend_schema(request=None)
    def post(self, request: Request, **kwargs) -> Response:
        return self.step(combat_grapples.grapple_release)


class CombatantStandUp(CombatantDetail):
    http_method_names = ["post", "options"]
    api_descriptions = {
        "POST": "A combatant à terre gets up (§13): its player during its own action, or the "
        "Conteur at any time; not while held. Someone already standing: nothing changes (200).",
    }

    @extend_schema(request=None)
    def post(self, request: Request, **kwargs) -> Response:
        return self.step(combat_grapples.grapple_stand_up)
