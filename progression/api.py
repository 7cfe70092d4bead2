"""The progression REST API (§10–§11): an arc's experience checklist and its award job, a
character's ledger, improvements, spending and trainings, ellipses and their advances, and
notifications. The same policy, services and rules as the pages (progression/views.py).

Every view inside a campaign enters it through `campaigns.policy` first: 404 for a non-member
(and for any id of another campaign), 403 for a player attempting the Conteur's action or
touching another player's character. Members read what the pages show them: the ledger, the
trainings and the ellipses. Background work (paying awards, advancing an ellipse) answers 202
with the job's status; repeating a request (a double POST, the same idempotency key) never pays
or advances twice — the services claim their work.
"""

from __future__ import annotations

import django_filters
from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.exceptions import APIException
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.api_filters import BoolFilter
from campaigns.models import Arc, Notification
from campaigns.policy import campaign_get_for_member, require_storyteller
from characters.models import Character
from common.api_errors import ApiErrorSerializer, ApiSchema
from common.api_views import RowsView
from common.parsers import JSONParser
from progression import awards, ellipses, experience, notifications, selectors, trainings
from progression import serializers as s
from progression.models import ArcAward, Ellipse, Training, XpEntry
from progression.services import new_key

ID_MAX = s.ID_MAX
EXTRA_ERRORS = {
    "403": "Action réservée au Conteur ou au joueur du personnage.",
    "409": "Conflit avec l'état de la ressource : la raison dans `detail`.",
}


class Conflict(APIException):
    """A request that does not fit the resource's state (correcting an arc never awarded)."""

    status_code = 409
    default_code = "conflict"


class ProgressionSchema(ApiSchema):
    """ApiSchema, plus 403 on the reads kept to a character's editors and 409 where a view
    declares it (`conflict_methods`)."""

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        codes = []
        if self.method == "GET" and getattr(self.view, "editor_reads", False):
            codes.append("403")
        if self.method in getattr(self.view, "conflict_methods", ()):
            codes.append("409")
        for code in codes:
            if code not in responses:
                responses[code] = self._get_response_for_code(ApiErrorSerializer, code)
                responses[code]["description"] = EXTRA_ERRORS[code]
        return dict(sorted(responses.items()))


# --- what every view shares, and every view inside a campaign -------------------------------


class ProgressionView(RowsView):
    """A progression view: its schema and tag, one serializer for the request body
    (`input_serializer_class`) and one for the answer (`output_serializer_class`), and the
    `rows()` a list shows. Subclasses set `queryset` (empty: it names the model for the
    schema)."""

    schema = ProgressionSchema()
    api_tag = "Progression"
    input_serializer_class = None
    output_serializer_class = None

    def validated(self) -> dict:
        """The request body, checked for shape by the input serializer (400 otherwise)."""
        serializer = self.input_serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)


class InCampaign(ProgressionView):
    """A view inside a campaign. `storyteller_reads`: only the Conteur reads; `storyteller_writes`
    (default): only the Conteur writes."""

    parser_classes = [JSONParser]
    filter_backends: list = []
    storyteller_reads = False
    storyteller_writes = True

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if any(value > ID_MAX for value in kwargs.values()):
            raise Http404  # larger than any row id: the database would refuse the number itself
        self.campaign = campaign_get_for_member(user=request.user, pk=kwargs["campaign_id"])
        self.enter(request, kwargs)
        writes = request.method not in SAFE_METHODS
        if self.storyteller_reads or (writes and self.storyteller_writes):
            require_storyteller(self.campaign)

    def enter(self, request, kwargs) -> None:
        """Load the objects of the URL (404 outside the campaign) before any 403."""


class OfCharacter(InCampaign):
    """A view of one character of the campaign. Its player and the Conteur write (and read, with
    `editor_reads`); other members read what the pages show them; other players get 403."""

    storyteller_writes = False
    editor_reads = False

    def enter(self, request, kwargs) -> None:
        self.character = selectors.character_get(campaign=self.campaign, pk=kwargs["character_id"])
        if request.method not in SAFE_METHODS or self.editor_reads:
            selectors.require_editor(
                campaign=self.campaign, character=self.character, user=request.user
            )


# --- the arc's experience: checklist, preview, award job ------------------------------------


def _preview(checklist: dict, names: dict[int, str]) -> list[dict]:
    return [
        {
            "character": pk,
            "name": names[pk],
            "total": award.total,
            "lines": awards.award_breakdown(award),
        }
        for pk, award in sorted(
            awards.checklist_awards(checklist).items(),
            key=lambda item: (names.get(item[0], ""), item[0]),
        )
        if pk in names
    ]


class ArcExperienceBase(InCampaign):
    api_tag = "Expérience"
    storyteller_reads = True
    queryset = Arc.objects.none()
    input_serializer_class = s.ChecklistIn
    output_serializer_class = s.ArcExperienceOut

    def enter(self, request, kwargs) -> None:
        self.arc = selectors.arc_get(campaign=self.campaign, pk=kwargs["arc_id"])

    def checklist(self) -> dict:
        """The request's checklist, in the services' shape."""
        return s.checklist_to_service(self.validated())

    def render(self, status: int = 200) -> Response:
        arc = self.arc
        award = ArcAward.objects.filter(arc=arc).first()
        characters = list(Character.objects.filter(campaign=self.campaign).only("pk", "name"))
        names = {c.pk: c.name for c in characters}
        checklist = (
            award.checklist if award else awards.default_checklist(arc=arc, characters=characters)
        )
        try:
            preview = _preview(checklist, names)
        except ValidationError:
            preview = []  # a default checklist the rules refuse: the Conteur fills it in
        data = {
            "arc": {"id": arc.pk, "title": arc.title, "act": arc.act, "status": arc.status},
            "checklist": s.checklist_from_service(checklist),
            "preview": preview,
            "award": award,  # AwardJobOut reads the job's own fields
        }
        return Response(s.ArcExperienceOut(data).data, status=status)


class ArcExperience(ArcExperienceBase):
    api_descriptions = {
        "GET": "The arc's end-of-arc checklist (a default one until confirmed), each character's "
        "award preview, and the award job's status, progress and summary.",
        "POST": "Close the arc with this checklist and pay the awards in the background (202). "
        "Posting again answers the same job: an arc is paid once (correct it with the "
        "correction action). Each character appears once in `characters` (400 otherwise).",
    }

    """GET: the arc's checklist (a default one until confirmed), each character's award preview,
    and the award job's status, progress and summary. POST: close the arc with this checklist
    and pay the awards in the background (202). Posting again returns the same job: an arc is
    paid once; correct it with `…/experience/correct/`."""

    def get(self, request: Request, campaign_id: int, arc_id: int) -> Response:
        return self.render()

    @extend_schema(responses={202: s.ArcExperienceOut})
    def post(self, request: Request, campaign_id: int, arc_id: int) -> Response:
        awards.arc_award_confirm(arc=self.arc, checklist=self.checklist(), by=request.user)
        self.arc.refresh_from_db()
        return self.render(status=202)


class ArcExperiencePreview(ArcExperienceBase):
    """Each character's award for a checklist, line by line from the rules engine (nothing is
    saved)."""

    output_serializer_class = s.AwardPreviewListOut

    def post(self, request: Request, campaign_id: int, arc_id: int) -> Response:
        data = self.validated()
        names = dict(Character.objects.filter(campaign=self.campaign).values_list("pk", "name"))
        if any(row["character"] not in names for row in data["characters"]):
            raise ValidationError({"characters": [_("Ce personnage n'est pas dans la campagne.")]})
        preview = _preview(s.checklist_to_service(data), names)
        return Response(s.AwardPreviewListOut({"preview": preview}).data)


class ArcExperienceCorrect(ArcExperienceBase):
    """Correct a closed arc's checklist: a new revision whose job writes correcting ledger
    entries (the difference per character), never rewriting what was paid. 409 if the arc's
    experience was never confirmed."""

    conflict_methods = ("POST",)

    @extend_schema(responses={202: s.ArcExperienceOut})
    def post(self, request: Request, campaign_id: int, arc_id: int) -> Response:
        checklist = self.checklist()
        award = ArcAward.objects.filter(arc=self.arc).first()
        if award is None:
            raise Conflict(
                _(
                    "L'expérience de cet arc n'a pas encore été attribuée : confirmez d'abord "
                    "la liste de fin d'arc."
                )
            )
        awards.arc_award_correct(award=award, checklist=checklist, by=request.user)
        return self.render(status=202)


# --- a character's ledger, improvements and spending ------------------------------------------


class LedgerPagination(PageNumberPagination):
    """A page of ledger entries, with the character's balance, reserved and available XP."""

    xp: dict[str, int]

    def get_paginated_response(self, data):
        response = super().get_paginated_response(data)
        response.data.update(self.xp)
        return response

    def get_paginated_response_schema(self, schema):
        paginated = super().get_paginated_response_schema(schema)
        paginated["properties"].update(
            {
                "balance": {"type": "integer", "description": "La somme du journal."},
                "reserved": {
                    "type": "integer",
                    "description": "L'XP tenue par les entraînements en file ou en cours.",
                },
                "available": {
                    "type": "integer",
                    "description": "Ce qui peut être dépensé : solde − réservé.",
                },
            }
        )
        paginated["required"] = [*paginated.get("required", []), "balance", "reserved", "available"]
        return paginated


class Ledger(OfCharacter, generics.ListAPIView):
    """The character's XP ledger, latest first, with its balance, reserved and available XP.
    Members read it (as on the page); only its player and the Conteur spend."""

    api_tag = "Expérience"
    queryset = XpEntry.objects.none()
    output_serializer_class = s.XpEntryOut
    pagination_class = LedgerPagination

    def rows(self):
        return XpEntry.objects.filter(character=self.character).order_by("-created_at", "-pk")

    def list(self, request: Request, *args, **kwargs) -> Response:
        balances = experience.xp_balances(character_ids=[self.character.pk])
        self.paginator.xp = balances[self.character.pk]
        return super().list(request, *args, **kwargs)


class Improvements(OfCharacter, generics.ListAPIView):
    """Every improvement the sheet can aim at, its XP cost, and whether it may be bought now;
    if not, the rules engine's reasons in French. For the character's player and the Conteur."""

    api_tag = "Expérience"
    editor_reads = True
    queryset = Character.objects.none()
    output_serializer_class = s.ImprovementOut

    def rows(self):
        return experience.spending_options(character=self.character)


class Spend(OfCharacter):
    """Spend XP now (§10: with a personal hope point, or at reception right after an arc) and
    apply the improvement. The same `key` twice is paid once (the first entry is returned).
    Refusals are 400 with the rules engine's reasons."""

    api_tag = "Expérience"
    queryset = XpEntry.objects.none()
    input_serializer_class = s.SpendIn
    output_serializer_class = s.XpEntryOut

    @extend_schema(responses={201: s.XpEntryOut})
    def post(self, request: Request, campaign_id: int, character_id: int) -> Response:
        entry = experience.xp_spend(character=self.character, by=request.user, **self.validated())
        return Response(s.XpEntryOut(entry).data, status=201)


# --- trainings -------------------------------------------------------------------------------


class OfTrainings(OfCharacter):
    api_tag = "Entraînements"
    queryset = Training.objects.none()
    output_serializer_class = s.TrainingOut

    def rows(self):
        return selectors.trainings_with_timers(
            character=self.character, today=self.campaign.in_game_day
        )

    def render(self, training: Training, status: int = 200) -> Response:
        """The training with its timer (computed over the character's whole queue)."""
        with_timer = {t.pk: t for t in self.rows()}[training.pk]
        return Response(s.TrainingOut(with_timer).data, status=status)


class Trainings(OfTrainings, generics.ListCreateAPIView):
    """GET: the character's trainings with their timers (members read them, as on the page).
    POST: queue one in the open ellipse; its XP is reserved now and charged when it finishes."""

    input_serializer_class = s.TrainingIn
    api_descriptions = {
        "GET": "The character's trainings with their timers (members read them, as on the page).",
        "POST": "Queue a training in the open ellipse; its XP is reserved now and charged when it "
        "finishes.",
    }

    def create(self, request: Request, *args, **kwargs) -> Response:
        data = self.validated()
        ellipse = selectors.ellipse_current(campaign=self.campaign)
        if ellipse is None:
            raise ValidationError(_("Il n'y a pas d'ellipse en cours pour s'entraîner."))
        training = trainings.training_queue(
            character=self.character, ellipse=ellipse, by=request.user, **data
        )
        return self.render(training, status=201)


class OfTraining(OfTrainings):
    def enter(self, request, kwargs) -> None:
        super().enter(request, kwargs)
        self.training = selectors.training_get(
            campaign=self.campaign, pk=kwargs["training_id"], character=self.character
        )


class TrainingCancel(OfTraining):
    """Cancel a queued or running training: its reserved XP is free again. Twice is harmless."""

    def post(self, request: Request, campaign_id: int, character_id: int, training_id: int):
        trainings.training_cancel(training=self.training)
        return self.render(self.training)


class TrainingTrainer(OfTraining):
    """The Conteur confirms (or not) the trainer the player chose: the timer's length follows."""

    storyteller_writes = True
    input_serializer_class = s.TrainerConfirmIn

    def post(self, request: Request, campaign_id: int, character_id: int, training_id: int):
        confirmed = self.validated()["confirmed"]
        trainings.training_confirm_trainer(training=self.training, confirmed=confirmed)
        return self.render(self.training)


# --- ellipses and advances ---------------------------------------------------------------------


class EllipseList(InCampaign, generics.ListCreateAPIView):
    """GET: the campaign's ellipses, latest first. POST (the Conteur): open one of `length_days`
    in-game days (its kind follows, §11), with an optional real-world deadline."""

    api_tag = "Ellipses"
    api_descriptions = {
        "GET": "The campaign's ellipses, latest first.",
        "POST": "Open an ellipse of `length_days` in-game days (the Conteur); its kind follows "
        "(§11), with an optional real-world deadline.",
    }
    queryset = Ellipse.objects.none()
    input_serializer_class = s.EllipseIn
    output_serializer_class = s.EllipseOut

    def rows(self):
        return Ellipse.objects.filter(campaign=self.campaign).order_by("-created_at", "-pk")

    def create(self, request: Request, *args, **kwargs) -> Response:
        ellipse = ellipses.ellipse_open(campaign=self.campaign, **self.validated())
        return Response(s.EllipseOut(ellipse).data, status=201)


class OfEllipse(InCampaign):
    api_tag = "Ellipses"
    queryset = Ellipse.objects.none()

    def enter(self, request, kwargs) -> None:
        self.ellipse = selectors.ellipse_get(campaign=self.campaign, pk=kwargs["ellipse_id"])


class EllipseDetail(OfEllipse):
    """An ellipse with its trainings' timers (days done and needed, the expected in-game day of
    completion), the last advances, and what this kind of ellipse allows."""

    output_serializer_class = s.EllipseDetailOut

    def get(self, request: Request, campaign_id: int, ellipse_id: int) -> Response:
        ellipse = self.ellipse
        in_ellipse = list(
            Training.objects.filter(ellipse=ellipse)
            .select_related("character")
            .order_by("character__name", "character_id", "position", "pk")
        )
        trainings.set_expected_days(in_ellipse, self.campaign.in_game_day)
        data = {
            **s.EllipseOut(ellipse).data,
            "in_game_day": self.campaign.in_game_day,
            "allowed_actions": ellipses.ellipse_allowed_actions(ellipse.kind),
            "trainings": s.EllipseTrainingOut(in_ellipse, many=True).data,
            "advances": s.AdvanceOut(ellipse.advances.all()[:10], many=True).data,
        }
        return Response(data)


class EllipseAdvance(OfEllipse):
    """Advance the ellipse by `days` in the background (202): timers move, trainings finish, the
    in-game date follows. The same `key` twice advances once."""

    input_serializer_class = s.AdvanceIn
    output_serializer_class = s.AdvanceOut
    closes = False

    @extend_schema(responses={202: s.AdvanceOut})
    def post(self, request: Request, campaign_id: int, ellipse_id: int) -> Response:
        data = self.validated()
        key = data.get("key") or new_key()
        advance = ellipses.advance_request(
            ellipse=self.ellipse,
            # Advance keys are unique across campaigns: scope the client's key to this ellipse.
            key=f"api:{self.ellipse.pk}:{key}",
            days=0 if self.closes else data["days"],
            closes=self.closes,
            by=request.user,
        )
        advance.refresh_from_db()
        return Response(s.AdvanceOut(advance).data, status=202)


class EllipseClose(EllipseAdvance):
    """End the ellipse in the background (202): trainings complete, ellipse XP and rest are
    granted. The same `key` twice closes once."""

    input_serializer_class = s.CloseIn
    closes = True

    @extend_schema(responses={202: s.AdvanceOut})
    def post(self, request: Request, campaign_id: int, ellipse_id: int) -> Response:
        return super().post(request, campaign_id, ellipse_id)


class EllipseXpTrainer(OfEllipse):
    """The Conteur confirms a character's trainer multiplier for the ellipse's XP (§11)."""

    input_serializer_class = s.XpTrainerIn
    output_serializer_class = s.EllipseOut

    def post(self, request: Request, campaign_id: int, ellipse_id: int) -> Response:
        data = self.validated()
        ellipse = ellipses.ellipse_set_xp_trainer(
            ellipse=self.ellipse,
            character_id=data["character"],
            trainer=data["trainer"],
            surcharge_weeks=data.get("surcharge_weeks"),
        )
        return Response(s.EllipseOut(ellipse).data)


# --- notifications ---------------------------------------------------------------------------


class NotificationFilter(django_filters.FilterSet):
    unread = BoolFilter(
        field_name="read_at", lookup_expr="isnull", label="Seulement les non lues (true)."
    )

    class Meta:
        model = Notification
        fields = ["unread"]


class NotificationList(ProgressionView, generics.ListAPIView):
    """Your notifications, latest first (`?unread=true`: only the unread ones)."""

    api_tag = "Notifications"
    queryset = Notification.objects.none()
    output_serializer_class = s.NotificationOut
    filterset_class = NotificationFilter

    def rows(self):
        return Notification.objects.filter(user=self.request.user).order_by("-created_at", "-pk")


class NotificationRead(ProgressionView):
    """Mark one of your notifications read (`notification`), or all of them."""

    parser_classes = [JSONParser]
    api_tag = "Notifications"
    queryset = Notification.objects.none()
    input_serializer_class = s.NotificationReadIn
    output_serializer_class = s.NotificationReadOut

    def post(self, request: Request) -> Response:
        pk = self.validated().get("notification")
        marked = notifications.notifications_mark_read(user=request.user, pk=pk)
        unread = notifications.unread_count(user=request.user)
        return Response(s.NotificationReadOut({"marked": marked, "unread": unread}).data)
