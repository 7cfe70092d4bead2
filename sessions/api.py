"""The table's REST API: rolls, the log, odds, the Moral and consequences, per campaign.

A REST client can run a whole session with it: roll (POST rolls/), read the log (GET log/?after=
with the returned cursor), move the Moral (POST morale/actions/). Every view enters the campaign
through `campaigns.policy` (404 for non-members), calls the same services and selectors as the
pages (`sessions.services`, `sessions.selectors`), and errors become JSON in
`common.api_errors`.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import asdict

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, generics
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.api import CampaignScopedDetail, CampaignScopedList
from campaigns.models import Arc
from campaigns.policy import campaign_get_for_member
from common.api_errors import ApiSchema, replay_responses
from common.api_schema import IDEMPOTENCY_KEY, ROW_ID_PARAMETER
from common.conditional import etag_matches
from common.parsers import JSONParser
from rules import states as rules_states
from rules.odds import check_odds
from sessions import api_filters, exhaustion, fortune, selectors, services
from sessions import serializers as s
from sessions.checks import check_prepare
from sessions.injuries import roller_injuries
from sessions.models import PlaySession, Roll, TableEvent

ID_MAX = 2**63 - 1
TAG = "Table"


class RollCursor(CursorPagination):
    ordering = "-id"
    page_size = 50
    max_page_size = 200
    page_size_query_param = "page_size"

    def get_page_size(self, request):
        # DRF falls back to the default on `?page_size=abc`: refuse it, as the schema says.
        value = request.query_params.get(self.page_size_query_param)
        if value not in (None, "") and not (value.isascii() and value.isdigit() and value != "0"):
            raise exceptions.ValidationError(
                {"page_size": ["Indiquez un nombre entier positif de jets par page."]}
            )
        return super().get_page_size(request)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1}
        return parameters


class TableView(generics.GenericAPIView):
    schema = ApiSchema()
    parser_classes = [JSONParser]
    api_tag = TAG
    input_serializer_class = None
    output_serializer_class = s.RollOut

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if any(value > ID_MAX for value in kwargs.values()):
            raise Http404
        self.campaign = campaign_get_for_member(user=request.user, pk=kwargs["campaign_id"])

    def get_serializer_class(self):
        return self.output_serializer_class


def _int_param(request: Request, name: str) -> int | None:
    value = request.query_params.get(name)
    if value in (None, ""):
        return None
    if not value.isascii() or not value.isdigit() or int(value) > ID_MAX:
        raise exceptions.ValidationError(
            {name: ["Indiquez un identifiant (nombre entier positif)."]}
        )
    return int(value)


class RollList(TableView, generics.ListAPIView):
    """Rolls you may see, newest first, cursor-paginated (`?character=`, `?arc=` filters); POST
    rolls a check on the server and pays for it atomically. The same `idempotency_key` (or
    `Idempotency-Key` header) with the same request returns the roll already made (200) instead
    of a new one (201); with another request it is refused (422): a new roll needs a new key."""

    api_descriptions = {
        "GET": "Rolls you may see, newest first, cursor-paginated (`?character=`, `?arc=`).",
        "POST": "Roll a check on the server, paid for atomically (Moral, Impact). The same "
        "`Idempotency-Key` header (or `idempotency_key` field) with the same request answers the "
        "roll already made (200) instead of a new one (201); with another request it is refused "
        "(422): a new roll needs a new key.",
    }
    queryset = Roll.objects.none()
    input_serializer_class = s.RollIn
    pagination_class = RollCursor
    validates_query = True

    @extend_schema(
        parameters=[
            OpenApiParameter("character", ROW_ID_PARAMETER, description="Un personnage."),
            OpenApiParameter("arc", ROW_ID_PARAMETER, description="Un arc."),
        ]
    )
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        rolls = selectors.rolls_for_user(campaign=self.campaign, user=self.request.user)
        character = _int_param(self.request, "character")
        if character is not None:
            rolls = rolls.filter(character_id=character)
        arc = _int_param(self.request, "arc")
        if arc is not None:
            rolls = rolls.filter(arc_id=arc)
        return rolls

    @extend_schema(parameters=[IDEMPOTENCY_KEY], responses=replay_responses(s.RollOut))
    def post(self, request: Request, campaign_id: int) -> Response:
        serializer = s.RollIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        key = data.get("idempotency_key") or request.headers.get("Idempotency-Key")
        play_session = None
        if data.get("play_session"):
            play_session = PlaySession.objects.filter(
                campaign=self.campaign, pk=data["play_session"]
            ).first()
            if play_session is None:
                raise Http404
        roll = services.roll_create(
            campaign=self.campaign,
            by=request.user,
            request=s.roll_request(data),
            character_id=data.get("character"),
            idempotency_key=(key or uuid.uuid4().hex)[:64],
            visibility=data["visibility"],
            play_session=play_session,
        )
        # The roll as stored (a replay's with its character and roller): nothing is read again.
        return Response(s.roll_out(roll), status=201 if roll.created else 200)


ROLL_IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    {"type": "string"},
    OpenApiParameter.HEADER,
    description="L'ETag du jet déjà lu : 304 sans corps si rien n'a changé depuis.",
)


def roll_etag(roll: Roll) -> str:
    """The ETag of a roll's answer, from what can change in it: its consequences (appended, never
    rewritten), its character's version (a rename moves it) and its roller's name."""
    character_version = roll.character.version if roll.character_id else 0
    roller = roll.rolled_by.get_username() if roll.rolled_by_id else ""
    shown = f"{len(roll.consequences)}.{character_version}.{roller}"
    return f'"{roll.pk}.{hashlib.sha256(shown.encode()).hexdigest()[:16]}"'


class RollDetail(TableView):
    """One roll with its full breakdown (if you may see it), its `ETag` in the header: sent back
    in `If-None-Match`, it is a 304 without a body while the roll has not changed."""

    queryset = Roll.objects.none()

    @extend_schema(
        parameters=[ROLL_IF_NONE_MATCH],
        responses={
            200: s.RollOut,
            304: OpenApiResponse(description="Le jet n'a pas changé depuis l'ETag envoyé."),
        },
    )
    def get(self, request: Request, campaign_id: int, pk: int) -> Response:
        roll = selectors.roll_get_for_user(campaign=self.campaign, user=request.user, pk=pk)
        if roll is None:
            raise Http404
        etag = roll_etag(roll)
        if etag_matches(request, etag):
            return Response(status=304, headers={"ETag": etag})
        return Response(s.roll_out(roll), headers={"ETag": etag})


class RollConsequence(TableView):
    """The Conteur applies a consequence of the roll: critical, fortune, fate or zone."""

    queryset = Roll.objects.none()
    input_serializer_class = s.ConsequenceIn
    output_serializer_class = s.EventOut

    @extend_schema(responses={201: s.EventOut})
    def post(self, request: Request, campaign_id: int, pk: int) -> Response:
        serializer = s.ConsequenceIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if selectors.roll_get_for_user(campaign=self.campaign, user=request.user, pk=pk) is None:
            raise Http404
        event = services.consequence_apply(
            campaign=self.campaign,
            by=request.user,
            roll_id=pk,
            kind=data["kind"],
            victim_id=data.get("victim"),
            mode=data["mode"],
            face=data.get("face"),
        )
        return Response(s.EventOut(event).data, status=201)


class TableLog(TableView):
    """The log as you may see it, newest first, with a `cursor`: `?after=<cursor>` returns only
    what is newer (at most 50 at a time; ask again with the new cursor for the rest). Poll it
    with the cursor to follow a session."""

    queryset = TableEvent.objects.none()
    output_serializer_class = s.LogOut
    validates_query = True

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after", ROW_ID_PARAMETER, description="Le curseur de la réponse précédente."
            ),
            OpenApiParameter("character", ROW_ID_PARAMETER, description="Un personnage."),
        ]
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        after = _int_param(request, "after")
        events = selectors.events_for_user(
            campaign=self.campaign,
            user=request.user,
            after=after,
            character_id=_int_param(request, "character"),
            limit=selectors.POLL_LIMIT,
        )
        cursor = events[0].pk if events else (after or 0)
        return Response(s.LogOut({"cursor": cursor, "results": events}).data)


class Odds(TableView):
    """Exact odds (success, critical success, critical failure) of a check before rolling it,
    with the dice the character's sheet adds and their cause. Same inputs as a roll."""

    queryset = Roll.objects.none()
    output_serializer_class = s.OddsOut
    validates_query = True

    @extend_schema(parameters=[s.CheckIn])
    def get(self, request: Request, campaign_id: int) -> Response:
        serializer = s.CheckIn(data=request.query_params)
        serializer.is_valid(raise_exception=True)
        character = None
        pk = serializer.validated_data.get("character")
        if pk is not None:
            characters = {
                c.pk: c
                for c in selectors.characters_for_roller(campaign=self.campaign, user=request.user)
            }
            character = characters.get(pk)
            if character is None:
                raise Http404
        declared = s.roll_request(serializer.validated_data)
        prepared = check_prepare(
            request=declared,
            character=character,
            state=rules_states.FURY if declared.fury else None,
            injuries=roller_injuries(character, declared.injuries),
        )
        odds = check_odds(prepared.check)
        return Response(
            s.OddsOut(
                {
                    "success": odds.success,
                    "critical_success": odds.critical_success,
                    "critical_failure": odds.critical_failure,
                    "mean": odds.mean,
                    "dice": prepared.check.dice_count,
                    "keep_highest": prepared.check.keep_highest,
                    "skill_level": prepared.skill_level,
                    "characteristic_value": prepared.characteristic_value,
                    "target": prepared.check.target,
                    "causes": [asdict(c) for c in prepared.causes],
                }
            ).data
        )


def _panel(view: TableView, request: Request):
    return selectors.morale_panel(campaign=view.campaign, user=request.user)


class Morale(TableView):
    """The group's Moral: hope and despair against capacity, Fatalité, each character's points
    and state (Galvanisé, Tourmenté, Calme from the rules engine)."""

    queryset = Roll.objects.none()
    output_serializer_class = s.MoraleOut

    def get(self, request: Request, campaign_id: int) -> Response:
        return Response(s.MoraleOut(_panel(self, request)).data)


class MoraleAction(TableView):
    """One Moral move (§6–§7): gains (Conteur), spends, exploits, special states. Atomic and
    logged; a refused move is a 400 with the rule's French reason and changes nothing."""

    queryset = Roll.objects.none()
    input_serializer_class = s.MoraleActionIn
    output_serializer_class = s.MoraleActionOut

    @extend_schema(responses={201: s.MoraleActionOut})
    def post(self, request: Request, campaign_id: int) -> Response:
        serializer = s.MoraleActionIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        change = services.morale_change(
            campaign=self.campaign,
            by=request.user,
            action=data["action"],
            character_id=data.get("character"),
            source=data["source"],
            taker_id=data.get("taker"),
            agreeing=data["agreeing"],
            state=data["state"],
            effect=data["effect"],
        )
        exploit = asdict(change.exploit) if change.exploit is not None else None
        return Response(
            s.MoraleActionOut(
                {"event": change.event, "morale": _panel(self, request), "exploit": exploit}
            ).data,
            status=201,
        )


class FortuneView(TableView):
    """A write of Fortune or Fatalité (§14): answered with its log line and the Moral."""

    queryset = Roll.objects.none()
    output_serializer_class = s.MoraleEventOut

    def validated(self) -> dict:
        serializer = self.input_serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def idempotency_key(self, data: dict) -> str:
        """The body's `idempotency_key`, else the header's, else a new one (no retry then)."""
        key = data.get("idempotency_key") or self.request.headers.get("Idempotency-Key")
        return (key or uuid.uuid4().hex)[:64]

    def answer(self, event) -> Response:
        """201 for the event just logged, 200 for a replay: the one already logged (docs/api.md,
        « Idempotency keys »)."""
        out = s.MoraleEventOut({"event": event, "morale": _panel(self, self.request)})
        return Response(out.data, status=201 if event.created else 200)


class FateSpend(FortuneView):
    """The Conteur spends Fatalité (§14): to worsen a situation or as maluses on a luck roll.
    Logged with its reason; more than the pool holds is a 400 in French and changes nothing. The
    same `Idempotency-Key` header (or `idempotency_key` field) again answers the spend already
    made (200) instead of a new one (201); with another request it is refused (422)."""

    input_serializer_class = s.FateSpendIn

    @extend_schema(parameters=[IDEMPOTENCY_KEY], responses=replay_responses(s.MoraleEventOut))
    def post(self, request: Request, campaign_id: int) -> Response:
        data = self.validated()
        event = fortune.fate_spend(
            campaign=self.campaign,
            by=request.user,
            points=data["points"],
            reason=data["reason"],
            visibility=data["visibility"],
            idempotency_key=self.idempotency_key(data),
        )
        return self.answer(event)


class FortuneRequest(FortuneView):
    """A player asks to spend Fortune points of its character, several at once (§14: with the
    Conteur's agreement): a pending request in the log and the Moral (`fortune_requests`),
    nothing spent yet. The same `Idempotency-Key` again answers the request already made (200)
    instead of a new one (201); with another request it is refused (422)."""

    input_serializer_class = s.FortuneRequestIn

    @extend_schema(parameters=[IDEMPOTENCY_KEY], responses=replay_responses(s.MoraleEventOut))
    def post(self, request: Request, campaign_id: int) -> Response:
        data = self.validated()
        event = fortune.fortune_request(
            campaign=self.campaign,
            by=request.user,
            character_id=data["character"],
            points=data["points"],
            reason=data["reason"],
            idempotency_key=self.idempotency_key(data),
        )
        return self.answer(event)


class FortuneAnswer(FortuneView):
    """The Conteur accepts (the points leave the sheet) or refuses a pending Fortune request
    (§14); logged. The same answer again answers the one already given (200), nothing spent
    twice."""

    input_serializer_class = s.FortuneAnswerIn

    @extend_schema(responses=replay_responses(s.MoraleEventOut, keyed=False))
    def post(self, request: Request, campaign_id: int, pk: int) -> Response:
        if not selectors.fortune_request_exists(campaign=self.campaign, pk=pk):
            raise Http404
        event = fortune.fortune_answer(
            campaign=self.campaign,
            by=request.user,
            request_id=pk,
            accept=self.validated()["accept"],
        )
        return self.answer(event)


class InjuryHeal(TableView):
    """The Conteur marks an injury healed (§8): its dice stop, a stomach wound frees its Agonie."""

    queryset = Roll.objects.none()
    output_serializer_class = s.EventOut

    @extend_schema(responses={201: s.EventOut})
    def post(self, request: Request, campaign_id: int, pk: int) -> Response:
        event = services.injury_heal(campaign=self.campaign, by=request.user, injury_id=pk)
        return Response(s.EventOut(event).data, status=201)


class ExhaustionChange(TableView):
    """The Conteur gives (+1) or removes (−1) one Épuisement point (§8), at the table or in a
    fight; logged. Épuisement 6 is death at once (a combatant's too)."""

    queryset = Roll.objects.none()
    output_serializer_class = s.EventOut
    input_serializer_class = s.ExhaustionIn

    @extend_schema(request=s.ExhaustionIn, responses={201: s.EventOut})
    def post(self, request: Request, campaign_id: int, character_id: int) -> Response:
        serializer = self.input_serializer_class(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = exhaustion.exhaustion_change(
            campaign=self.campaign,
            by=request.user,
            character_id=character_id,
            change=serializer.validated_data["change"],
        )
        return Response(s.EventOut(event).data, status=201)


class UsedInArc(TableView):
    """The characteristics and skills each character rolled during an arc (for XP, §10), from
    the roll log; every roll counts, secret ones included (only names of what was used)."""

    queryset = Roll.objects.none()
    output_serializer_class = s.UsedInArcOut
    pagination_class = None  # one row per character of the arc

    @extend_schema(responses=s.UsedInArcOut(many=True))
    def get(self, request: Request, campaign_id: int, arc_id: int) -> Response:
        arc = Arc.objects.filter(campaign=self.campaign, pk=arc_id).first()
        if arc is None:
            raise Http404
        used = selectors.used_in_arc(arc=arc)
        rows = [
            {
                "character": pk,
                "characteristics": sorted(u.characteristics),
                "skills": sorted(u.skills),
            }
            for pk, u in sorted(used.items())
        ]
        return Response(s.UsedInArcOut(rows, many=True).data)


class PlaySessionList(CampaignScopedList):
    """The campaign's play sessions, latest first; filter by arc or by dates."""

    api_tag = "Séances"
    api_descriptions = {
        "GET": "The campaign's play sessions, latest first; filter by arc or by dates.",
        "POST": "Schedule a play session (the Conteur), in an arc or not.",
    }
    queryset = PlaySession.objects.none()
    input_serializer_class = s.PlaySessionIn
    output_serializer_class = s.PlaySessionOut
    filterset_class = api_filters.PlaySessionFilter

    def rows(self):
        return selectors.play_sessions_for_campaign(campaign=self.campaign)

    def write(self, data: dict) -> PlaySession:
        entry = PlaySession(campaign=self.campaign, **data)
        return services.play_session_save(play_session=entry)


class PlaySessionDetail(CampaignScopedDetail):
    api_tag = "Séances"
    api_descriptions = {
        "GET": "A play session with its journal (Markdown).",
        "PATCH": "Change a play session or its journal (the Conteur): only the fields sent.",
        "DELETE": "Delete a play session (the Conteur).",
    }
    queryset = PlaySession.objects.none()
    input_serializer_class = s.PlaySessionIn
    output_serializer_class = s.PlaySessionOut
    rows = PlaySessionList.rows

    def save(self, entry: PlaySession) -> None:
        services.play_session_save(play_session=entry)
