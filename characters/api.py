"""The character REST API: the same selectors, services and version checks as the pages.

Every sheet carries a version, sent in the `ETag` of its detail (`"<version>.<fingerprint>"`, the
fingerprint naming what else the representation shows: `api_detail.sheet_tag`). A read whose If-None-Match
names it gets a 304; a detail's JSON is kept in Django's cache under that tag. A write says
which version it was read at, with that tag (or `"<version>"`) in If-Match, or a `version` field;
a stale write of a field someone else changed in the meantime is refused — 412 (If-Match) or 409
(version field) — with the current sheet, the field's current value and who changed it. Writes of different fields both succeed.

A write's answer is read and serialized inside its transaction: once the write commits, nothing
is left to do that could fail and answer an error for a change that was saved (issue 12 §8).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import exceptions, serializers, status
from rest_framework.decorators import api_view, parser_classes, schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error

from campaigns.models import Membership
from campaigns.policy import campaign_get_for_member, is_storyteller
from characters import api_detail, condition, creation, selectors, services
from characters import serializers as s
from characters.api_docs import IF_MATCH, IF_MATCH_REQUIRED, PATCH_EXAMPLES, description
from characters.models import Character, SkillKind
from common.api_errors import ERROR_DESCRIPTIONS, ApiErrorSerializer, ApiSchema
from common.api_schema import IF_NONE_MATCH, ROW_ID_PARAMETER, VERSION_TAG, etag, tag_version
from common.parsers import JSONParser
from common.transactions import without_atomic

PRECONDITION_REQUIRED = 428
ID_MAX = 2**63 - 1
TAG = ["Personnages"]
CONFLICT = inline_serializer(
    "SheetConflictOut",
    fields={
        "detail": serializers.CharField(),
        "field": serializers.CharField(),
        "current_value": serializers.JSONField(),
        "changed_by": serializers.CharField(),
        "changed_at": serializers.DateTimeField(),
        "version": serializers.IntegerField(),
        "character": s.CharacterOut(),
    },
)
WRITE_RESPONSES = {
    200: s.CharacterOut,
    409: CONFLICT,
    412: CONFLICT,
    428: OpenApiResponse(
        ApiErrorSerializer, description="Version manquante : champ « version » ou If-Match."
    ),
}
ACTION_RESPONSES = {**WRITE_RESPONSES, 200: s.CharacterActionOut}
NOT_MODIFIED = "La fiche n'a pas changé depuis l'ETag envoyé en If-None-Match."
BAD_FILTER = OpenApiResponse(ApiErrorSerializer, description=ERROR_DESCRIPTIONS["400"])


def endpoint(methods: list[str]):
    """`api_view` documented by `ApiSchema`: every operation lists the API's error answers. The
    body is JSON, as the schema says (another type is 415)."""

    def wrap(view):
        return api_view(methods)(parser_classes([JSONParser])(schema(ApiSchema())(view)))

    return wrap


def doc(method: str, operation_id: str, **kwargs):
    """extend_schema for one method of a function view, described by `api_docs`; an answer with
    the sheet declares its `ETag`."""
    if method in ("PATCH", "PUT", "POST", "DELETE") and "parameters" not in kwargs:
        kwargs["parameters"] = [IF_MATCH_REQUIRED if method == "DELETE" else IF_MATCH]
    responses = kwargs.get("responses") or {}
    sheet_codes = [code for code, answer in responses.items() if _answers_the_sheet(answer)]
    if sheet_codes:
        kwargs["parameters"] = [*kwargs.get("parameters", []), etag(*sheet_codes)]

    def decorate(view):
        docstring = inspect.cleandoc(view.cls.__doc__ or "")
        text = description(operation_id, docstring, versioned=412 in responses)
        return extend_schema(
            methods=[method], operation_id=operation_id, tags=TAG, description=text, **kwargs
        )(view)

    return decorate


def _answers_the_sheet(answer) -> bool:
    """Whether a documented answer is the sheet (with its ETag): the sheet, a conflict, an action."""
    return answer is s.CharacterOut or answer is CONFLICT or answer is s.CharacterActionOut


def _django_errors(error: DjangoValidationError) -> exceptions.ValidationError:
    return exceptions.ValidationError(as_serializer_error(error))


def _validated(serializer_class, request: Request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _body(request: Request) -> dict:
    """The request's JSON object (a list, a string or a number is refused)."""
    if not isinstance(request.data, dict):
        raise exceptions.ValidationError(
            {"non_field_errors": [_("Envoyez un objet JSON (des champs entre accolades).")]}
        )
    return request.data


def _row_id(value, field: str, message: str) -> int:
    """An id sent in a body: a whole number in the database's range, else a 400 on `field`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= ID_MAX:
        raise exceptions.ValidationError({field: [message]})
    return value


def _body_version(request: Request) -> dict:
    """`{"version": …}` of a body-less write (DELETE): If-Match or an integer `version`."""
    version = _body(request).get("version") if request.data else None
    if version is not None:
        _row_id(version, "version", _("La version est un nombre entier positif."))
    return {"version": version}


def _viewer(request: Request, pk: int):
    return selectors.character_get_for_viewer(user=request.user, pk=pk)


def _editor(request: Request, pk: int):
    return selectors.character_get_for_editor(user=request.user, pk=pk)


def _detail(request: Request, pk: int, *, status_code: int = 200, extra: dict | None = None):
    """The sheet as this viewer sees it, read now (a write's answer, never from the cache)."""
    character = selectors.character_get_for_sheet(user=request.user, pk=pk)
    return _sheet(character, status_code=status_code, extra=extra)


def _sheet(character, *, status_code: int = 200, extra: dict | None = None) -> Response:
    """The answer with a sheet loaded as `selectors.character_get_for_sheet` loads it."""
    data = s.character_out(selectors.character_load_rows(character))
    body = {**(extra or {}), "character": data} if extra else data
    response = Response(body, status=status_code)
    response["ETag"] = api_detail.sheet_tag(character)
    return response


def _version(request: Request, data: dict) -> tuple[int, bool]:
    """(version read, whether it came from If-Match). Without either, the write gets 428."""
    header = request.headers.get("If-Match")
    if header is not None:  # sent, even empty: it must be the version tag the schema documents
        if re.fullmatch(VERSION_TAG, header.strip()) is None:
            raise exceptions.ValidationError(
                {
                    "If-Match": [
                        _('En-tête If-Match invalide : attendu l\'ETag de la fiche ou "<version>".')
                    ]
                }
            )
        return tag_version(header), True
    if data.get("version") is None:
        raise _PreconditionRequired()
    return data["version"], False


class _PreconditionRequired(exceptions.APIException):
    status_code = PRECONDITION_REQUIRED
    default_detail = gettext_lazy(
        "Indiquez la version lue : champ « version » ou en-tête If-Match."
    )
    default_code = "precondition_required"


def _write(
    request: Request, pk: int, data: dict, call, *, notes: bool = False, loads: bool = False
) -> Response:
    """Run a versioned service call and answer with the sheet (or the conflict); with `notes`,
    `{"notes": <what the call returned>, "character": <the sheet>}`; with `loads`, the call
    returns the sheet itself, loaded as `selectors.character_get_for_sheet` loads it.

    The sheet is read in the write's transaction, after the write: the commit is the last thing
    that touches the database, so a committed write is never answered with an error. Any error
    leaves that transaction and rolls it back whole: the calls run their services
    `without_atomic` (no savepoint to guard them)."""
    version, if_match = _version(request, data)
    try:
        with transaction.atomic():
            result = call(version)
            if loads:
                return _sheet(result)
            return _detail(request, pk, extra={"notes": result} if notes else None)
    except services.SheetConflict as conflict:
        extra = {
            "detail": str(conflict),
            "field": conflict.field,
            "current_value": conflict.current_value,
            "changed_by": conflict.by_name,
            "changed_at": conflict.at,
            "version": conflict.version,
        }
        code = status.HTTP_412_PRECONDITION_FAILED if if_match else status.HTTP_409_CONFLICT
        return _detail(request, pk, status_code=code, extra=extra)  # nothing was written
    except DjangoValidationError as error:
        raise _django_errors(error) from error


def _created(request: Request, create, *, warnings: bool = False) -> Response:
    """201 with the sheet `create()` made, read in the same transaction (see `_write`); with
    `warnings`, the sheet's `warnings` too (the creation's French sentences: points unspent)."""
    try:
        with transaction.atomic():
            character = create()
            response = _detail(request, character.pk, status_code=201)
    except DjangoValidationError as error:
        raise _django_errors(error) from error
    if warnings:
        response.data = {**response.data, "warnings": list(character.unspent)}
    return response


# --- characters -----------------------------------------------------------------------------


@doc(
    "GET",
    "characters_list",
    responses={200: s.CharacterSummaryOut(many=True), 400: BAD_FILTER},
    parameters=[OpenApiParameter("campaign", ROW_ID_PARAMETER, description="Une campagne.")],
)
@doc(
    "POST",
    "characters_create",
    request=s.CreationIn,
    responses={201: s.CreatedOut},
    parameters=[],
)
@endpoint(["GET", "POST"])
def character_list(request: Request) -> Response:
    """GET: the characters of your campaigns (?campaign=<id> to filter). POST: create one within
    the campaign's creation budget (`campaign` id in the body; the Conteur may set `owner`)."""
    if request.method == "GET":
        queryset = selectors.characters_for_user(user=request.user).order_by("name", "pk")
        campaign = request.query_params.get("campaign")
        if campaign:
            if not (campaign.isascii() and campaign.isdigit()) or int(campaign) > ID_MAX:
                raise exceptions.ValidationError({"campaign": ["Identifiant invalide."]})
            queryset = queryset.filter(campaign_id=int(campaign))
        return Response(s.CharacterSummaryOut(queryset, many=True).data)
    campaign_id = _row_id(
        _body(request).get("campaign"), "campaign", _("Indiquez la campagne (identifiant).")
    )
    campaign = campaign_get_for_member(user=request.user, pk=campaign_id)
    owner = _owner(request, campaign)
    data = _validated(s.CreationIn, request)
    data.pop("campaign"), data.pop("owner", None)  # read above: the sheet is the rest
    # Points left unspent are accepted here (a script cannot be asked), and said in `warnings`.
    return _created(
        request,
        lambda: creation.character_create(
            campaign=campaign, owner=owner, by=request.user, data=data, accept_unspent=True
        ),
        warnings=True,
    )


def _owner(request: Request, campaign):
    owner_id = _body(request).get("owner")
    if owner_id is None or owner_id == request.user.pk:
        return request.user
    owner_id = _row_id(owner_id, "owner", _("Indiquez le joueur (identifiant)."))
    if not is_storyteller(campaign):
        raise PermissionDenied(_("Seul le Conteur peut créer un personnage pour un autre joueur."))
    membership = Membership.objects.filter(campaign=campaign, user_id=owner_id).first()
    if membership is None:
        # The campaign's members decide, as a service would: a Django error (400, same shape).
        raise DjangoValidationError({"owner": [_("Ce joueur n'est pas membre de la campagne.")]})
    return membership.user


@doc(
    "GET",
    "characters_retrieve",
    responses={200: s.CharacterOut, 304: OpenApiResponse(description=NOT_MODIFIED)},
    parameters=[IF_NONE_MATCH],
)
@doc(
    "PATCH",
    "characters_partial_update",
    request=s.CharacterPatchIn,
    responses=WRITE_RESPONSES,
    examples=PATCH_EXAMPLES,
)
@doc("DELETE", "characters_destroy", responses={204: None}, parameters=[])
@endpoint(["GET", "PATCH", "DELETE"])
def character_detail(request: Request, pk: int) -> Response:
    """GET: the whole sheet with its derived values (304 on a matching If-None-Match). PATCH:
    change fields, with If-Match or `version`. DELETE: the owner or the Conteur removes the
    character."""
    if request.method == "GET":
        return api_detail.cached_detail(request, pk)
    if request.method == "DELETE":
        services.character_delete(character=_editor(request, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)
    editor = selectors.character_get_for_editor(
        user=request.user, pk=pk, queryset=Character.objects.all()
    )
    data = _validated(s.CharacterPatchIn, request)
    changes = {k: v for k, v in data.items() if k != "version"}
    if not changes:
        raise exceptions.ValidationError({"non_field_errors": [_("Aucun champ à modifier.")]})
    storyteller = editor.viewer_is_storyteller

    def update(version: int):
        character = without_atomic(services.character_update)(
            character=pk, changes=changes, version=version, by=request.user, storyteller=storyteller
        )
        return selectors.character_sheet_after_write(
            character, user=request.user, storyteller=storyteller
        )

    return _write(request, pk, data, update, loads=True)


@doc("GET", "characters_history_list", responses={200: s.ChangeOut(many=True)})
@endpoint(["GET"])
def character_history(request: Request, pk: int) -> Response:
    character = _viewer(request, pk)
    changes = selectors.character_history(character=character)
    if not character.can_see_private:
        changes = [c for c in changes if c.field != "private_notes"]
    return Response(s.ChangeOut(changes, many=True).data)


# --- skills and languages: two sub-resources of rows kept by key, written once ---------------


@dataclass(frozen=True)
class RowResource:
    """A sheet's rows kept by key (its skills, its languages) as an API sub-resource."""

    relation: str  # the sheet's related rows: "skills" or "languages"
    row_out: type[serializers.Serializer]
    row_in: type[serializers.Serializer]
    missing_key: str  # the 400 of a POST that names no row
    save: Callable[..., Any]  # the service adding or changing one row
    remove: Callable[..., Any]  # the service taking one off
    values: Callable[[Any, str, dict], dict]  # the save service's values, from the body


def _skill_values(character, key: str, data: dict) -> dict:
    """A skill on the sheet keeps its kind; a new one is a skill unless the body says otherwise."""
    existing = next((r for r in character.skills.all() if r.key == key), None)
    kind = existing.kind if existing else data.get("kind", SkillKind.SKILL)
    return {"kind": kind, "level": data["level"], "expertises": data.get("expertises")}


def _language_values(character, key: str, data: dict) -> dict:
    return {"level": data["level"], "writing": data["writing"]}


SKILLS = RowResource(
    relation="skills",
    row_out=s.SkillOut,
    row_in=s.SkillIn,
    missing_key=gettext_lazy("Indiquez la compétence."),
    save=services.character_skill_set,
    remove=services.character_skill_remove,
    values=_skill_values,
)
LANGUAGES = RowResource(
    relation="languages",
    row_out=s.LanguageOut,
    row_in=s.LanguageIn,
    missing_key=gettext_lazy("Indiquez la langue."),
    save=services.character_language_set,
    remove=services.character_language_remove,
    values=_language_values,
)


def _row_list(resource: RowResource, request: Request, pk: int) -> Response:
    """GET: the sheet's rows. POST: add or change the one the body names (`key`)."""
    if request.method == "GET":
        rows = getattr(_viewer(request, pk), resource.relation).all()
        return Response(resource.row_out(rows, many=True).data)
    character = _editor(request, pk)
    data = _validated(resource.row_in, request)
    if not data.get("key"):
        raise exceptions.ValidationError({"key": [resource.missing_key]})
    return _row_save(resource, request, pk, character, data["key"], data)


def _row_detail(resource: RowResource, request: Request, pk: int, key: str) -> Response:
    """PUT: set the row `key`. DELETE: take it off the sheet."""
    character = _editor(request, pk)
    if request.method == "DELETE":
        return _write(
            request,
            pk,
            _body_version(request),
            lambda version: without_atomic(resource.remove)(
                character=character, key=key, version=version, by=request.user
            ),
        )
    return _row_save(resource, request, pk, character, key, _validated(resource.row_in, request))


def _row_save(
    resource: RowResource, request: Request, pk: int, character, key: str, data: dict
) -> Response:
    values = resource.values(character, key, data)
    return _write(
        request,
        pk,
        data,
        lambda version: without_atomic(resource.save)(
            character=character, key=key, version=version, by=request.user, **values
        ),
    )


@doc("GET", "characters_skills_list", responses={200: s.SkillOut(many=True)})
@doc("POST", "characters_skills_create", request=s.SkillCreateIn, responses=WRITE_RESPONSES)
@endpoint(["GET", "POST"])
def skill_list(request: Request, pk: int) -> Response:
    """GET: the sheet's skills and forgotten domains. POST: add or change one (`key`)."""
    return _row_list(SKILLS, request, pk)


@doc("PUT", "characters_skills_update", request=s.SkillIn, responses=WRITE_RESPONSES)
@doc("DELETE", "characters_skills_destroy", request=None, responses=WRITE_RESPONSES)
@endpoint(["PUT", "DELETE"])
def skill_detail(request: Request, pk: int, key: str) -> Response:
    return _row_detail(SKILLS, request, pk, key)


@doc("GET", "characters_languages_list", responses={200: s.LanguageOut(many=True)})
@doc("POST", "characters_languages_create", request=s.LanguageCreateIn, responses=WRITE_RESPONSES)
@endpoint(["GET", "POST"])
def language_list(request: Request, pk: int) -> Response:
    return _row_list(LANGUAGES, request, pk)


@doc("PUT", "characters_languages_update", request=s.LanguageIn, responses=WRITE_RESPONSES)
@doc("DELETE", "characters_languages_destroy", request=None, responses=WRITE_RESPONSES)
@endpoint(["PUT", "DELETE"])
def language_detail(request: Request, pk: int, key: str) -> Response:
    return _row_detail(LANGUAGES, request, pk, key)


@doc("GET", "characters_entries_list", responses={200: s.EntryOut(many=True)})
@doc("PUT", "characters_entries_update", request=s.EntriesIn, responses=WRITE_RESPONSES)
@endpoint(["GET", "PUT"])
def entries(request: Request, pk: int, relation: str) -> Response:
    """The classes, branches, abilities, assets or flaws the character owns (PUT replaces)."""
    if relation not in services.COMPENDIUM_MODELS:
        raise Http404
    if request.method == "GET":
        owned = getattr(_viewer(request, pk), relation).all()
        return Response(s.EntryOut(owned, many=True).data)
    character = _editor(request, pk)
    data = _validated(s.EntriesIn, request)
    return _write(
        request,
        pk,
        data,
        lambda version: without_atomic(services.character_entries_set)(
            character=character,
            relation=relation,
            ids=data["ids"],
            version=version,
            by=request.user,
        ),
    )


# --- damage, rest and care (§3, §4, §8): the pages' actions, versioned like any sheet write ---


def _action(request: Request, pk: int, body: type[serializers.Serializer], service) -> Response:
    """POST: `service` on the sheet with the body's fields (checked by `body`, the rest by the
    service, as for the page's form); answers its French notes and the sheet."""
    character = _editor(request, pk)
    data = _validated(body, request)
    fields = {name: value for name, value in data.items() if name != "version"}

    def run(version: int):
        return without_atomic(service)(
            character=character, by=request.user, version=version, **fields
        )

    return _write(request, pk, data, run, notes=True)


@doc("POST", "characters_damage", request=s.DamageIn, responses=ACTION_RESPONSES)
@endpoint(["POST"])
def damage(request: Request, pk: int) -> Response:
    """Deal `amount` damage to a gauge, ephemeral points first, `scars` of it serious (§3); a
    Vitalité brought to 0 gives Agonie and péril (§8)."""
    return _action(request, pk, s.DamageIn, condition.character_damage)


@doc("POST", "characters_rest", request=s.RestIn, responses=ACTION_RESPONSES)
@endpoint(["POST"])
def rest(request: Request, pk: int) -> Response:
    """Take a rest (§4): its rank is `rank` (Normale by default) one harder for `slept_badly`,
    one harder for `ate_badly`, one easier for `whole_day_of_rest`; a recorded, unhealed rib-cage
    injury makes Vitalité and Énergie one rank harder. Every gauge restored by the rules,
    Résilience back after a rest without scars or wounds, a full rest clears Aggravation and
    Descente (§7, §8)."""
    return _action(request, pk, s.RestIn, condition.character_rest)


@doc("POST", "characters_objective", request=s.ObjectiveIn, responses=ACTION_RESPONSES)
@endpoint(["POST"])
def objective(request: Request, pk: int) -> Response:
    """The Conteur only: an important objective is reached or a new one appears (§1), every Impact
    point comes back, up to the Impact score."""
    if not _editor(request, pk).viewer_is_storyteller:
        raise PermissionDenied(_("Seul le Conteur annonce qu'un objectif est atteint."))
    return _action(request, pk, s.ObjectiveIn, condition.character_objective_reached)


@doc("POST", "characters_heal", request=s.HealIn, responses=ACTION_RESPONSES)
@endpoint(["POST"])
def heal(request: Request, pk: int) -> Response:
    """Restore `points` to a gauge (care, a healing spell's result), never above its maximum."""
    return _action(request, pk, s.HealIn, condition.character_heal)


@doc("POST", "characters_stabilise", request=s.StabiliseIn, responses=ACTION_RESPONSES)
@endpoint(["POST"])
def stabilise(request: Request, pk: int) -> Response:
    """Stabilise a gauge after care (§3, §8): it leaves péril."""
    return _action(request, pk, s.StabiliseIn, condition.character_stabilise)


# --- export and import ----------------------------------------------------------------------


@doc("GET", "characters_export", responses={200: OpenApiTypes.OBJECT})
@endpoint(["GET"])
def character_export(request: Request, pk: int) -> Response:
    """The sheet as JSON, to import elsewhere: nothing is lost on the way back."""
    character = _viewer(request, pk)
    data = creation.character_export(character)
    if not character.can_see_private:
        data.pop("private_notes", None)
    response = Response(data)
    response["Content-Disposition"] = f'attachment; filename="personnage-{character.pk}.json"'
    return response


@doc(
    "POST",
    "characters_import",
    request=s.CharacterImportIn,
    responses={201: s.CharacterOut},
    parameters=[],
)
@endpoint(["POST"])
def character_import(request: Request, campaign_id: int) -> Response:
    """A new character of yours in this campaign from an exported sheet."""
    if campaign_id > ID_MAX:
        raise Http404  # larger than any row id: the database would refuse the number itself
    campaign = campaign_get_for_member(user=request.user, pk=campaign_id)
    owner = _owner(request, campaign)
    payload = _body(request).get("character", request.data)
    if not isinstance(payload, dict):
        raise exceptions.ValidationError({"character": [_("La fiche exportée est un objet JSON.")]})
    return _created(
        request,
        lambda: creation.character_import(
            campaign=campaign, owner=owner, by=request.user, data=dict(payload)
        ),
    )
