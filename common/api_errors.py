"""Every API error as JSON with a French sentence: `{"detail": "...", "errors": {field: [...]}}`.

`exception_handler` is DRF's EXCEPTION_HANDLER. It also takes the errors the rest of the code
raises — Django's ValidationError from services, Http404 and PermissionDenied from the campaign
policy — so views call services and the policy without translating their errors themselves.
`ApiSchema` documents that shape on every operation of the views that use it.
"""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.metadata import SimpleMetadata
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import set_rollback

from common.api_schema import (
    REPLAYED,
    RETRY_AFTER_HEADER,
    TRANSPORT_ERRORS,
    blank_text_constraint,
    request_field_constraints,
)

NON_FIELD = "non_field_errors"
# The scheme a client should use; sessions need no announcement (the browser has the cookie).
AUTHENTICATE_HEADER = "Token"


def exception_handler(exc, context):
    """The JSON response for `exc`, or None for an unexpected error (a 500, logged by Django)."""
    if isinstance(exc, DjangoValidationError):
        status = getattr(exc, "http_status", None)  # a service's own status (422), else 400
        exc = exceptions.ValidationError(as_serializer_error(exc))
        if status:
            exc.status_code = status
    elif isinstance(exc, Http404):
        # Django's own 404 messages are English and may name a model: say only that.
        exc = exceptions.NotFound(_("Introuvable."))
    elif isinstance(exc, DjangoPermissionDenied):
        message = str(exc.args[0]) if exc.args else _("Vous n'avez pas le droit de faire cela.")
        exc = exceptions.PermissionDenied(message)
    if not isinstance(exc, exceptions.APIException):
        return None

    headers = {}
    status = exc.status_code
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        # DRF answers 403 when the first authentication class (sessions) has no challenge to
        # offer; an anonymous client is unauthenticated, so it gets 401 and the Token scheme.
        status = 401
        headers["WWW-Authenticate"] = AUTHENTICATE_HEADER
    if getattr(exc, "wait", None):
        headers["Retry-After"] = str(int(exc.wait))

    errors = _field_errors(exc.detail) if isinstance(exc, exceptions.ValidationError) else {}
    body = {"detail": _detail(exc, errors), "errors": errors}
    set_rollback()
    return Response(body, status=status, headers=headers)


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
@permission_classes([AllowAny])
def not_found(request, *args, **kwargs):
    """Any /api/ address no route matches (`/api/campaigns/-1/`, `/api/nope/`): the API's JSON
    404, not the site's HTML page."""
    raise exceptions.NotFound(_("Introuvable."))


def _detail(exc, errors: dict[str, list[str]]) -> str:
    """One French sentence saying what went wrong."""
    if isinstance(exc, exceptions.ValidationError):
        messages = [(field, message) for field, items in errors.items() for message in items]
        if len(messages) == 1:
            field, message = messages[0]
            if field == NON_FIELD:
                return message
            return _("Champ « %(field)s » : %(message)s") % {"field": field, "message": message}
        if list(errors) == [NON_FIELD]:
            return errors[NON_FIELD][0]
        return _("Certaines données sont invalides : voyez le détail par champ.")
    if isinstance(exc, exceptions.NotAuthenticated):
        return _("Authentification requise.")
    if isinstance(exc, exceptions.AuthenticationFailed):
        return _("Authentification refusée : %(reason)s") % {"reason": _text(exc.detail)}
    if isinstance(exc, exceptions.NotFound):
        text = _text(exc.detail)
        return _("Introuvable.") if text in ("Not found.", _("Not found.")) else text
    if isinstance(exc, exceptions.PermissionDenied):
        text = _text(exc.detail)
        if text.startswith("CSRF Failed"):
            return _("Jeton CSRF manquant ou invalide : rechargez la page et réessayez.")
        if text == exceptions.PermissionDenied.default_detail:
            return _("Vous n'avez pas le droit de faire cela.")
        return text
    if isinstance(exc, exceptions.ParseError):
        return _("Corps de requête illisible : envoyez un objet JSON valide.")
    if isinstance(exc, exceptions.Throttled):
        if exc.wait:
            seconds = int(exc.wait)
            return ngettext(
                "Trop de requêtes : réessayez dans %(seconds)d seconde.",
                "Trop de requêtes : réessayez dans %(seconds)d secondes.",
                seconds,
            ) % {"seconds": seconds}
        return _("Trop de requêtes : réessayez plus tard.")
    return _text(exc.detail)


def _french(message) -> str:
    """DRF's messages come translated, except a few it writes in English without gettext."""
    text = str(message)
    if text == "No data provided":
        return _("Aucune donnée envoyée : le corps de la requête doit être un objet JSON.")
    return text


def _text(detail) -> str:
    if isinstance(detail, dict):
        detail = next(iter(detail.values()), "")
    if isinstance(detail, list):
        detail = detail[0] if detail else ""
    return str(detail)


def _field_errors(detail, prefix: str = "") -> dict[str, list[str]]:
    """Flatten DRF's nested error detail into {"field": [...], "species.0": [...]} lists."""
    if isinstance(detail, dict):
        result: dict[str, list[str]] = {}
        for key, value in detail.items():
            if key in (NON_FIELD, "__all__"):
                name = prefix or NON_FIELD
            else:
                name = f"{prefix}.{key}" if prefix else str(key)
            for field, messages in _field_errors(value, name).items():
                result.setdefault(field, []).extend(messages)
        return result
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return {prefix or NON_FIELD: [_french(item) for item in detail]}
        result = {}
        for index, item in enumerate(detail):
            sub = f"{prefix}.{index}" if prefix else str(index)
            for field, messages in _field_errors(item, sub).items():
                result.setdefault(field, []).extend(messages)
        return result
    return {prefix or NON_FIELD: [_french(detail)]}


class ApiMetadata(SimpleMetadata):
    """OPTIONS: what DRF says, with the request body described by the view's
    `input_serializer_class` — never a serializer guessed by `get_serializer()`."""

    def determine_actions(self, request, view):
        serializer_class = getattr(view, "input_serializer_class", None)
        if serializer_class is None:
            return {}
        return {
            method: self.get_serializer_info(serializer_class())
            for method in {"PUT", "POST", "PATCH"} & set(view.allowed_methods)
        }


# --- documentation ---------------------------------------------------------------------------


class ApiErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="Ce qui ne va pas, en une phrase.")
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Les messages par champ (`non_field_errors` pour la requête entière).",
    )


ERROR_DESCRIPTIONS = {
    "400": "Requête refusée : la raison dans `detail`, le détail par champ dans `errors`.",
    "401": "Authentification requise (session ou en-tête `Authorization: Token …`).",
    "403": "Action réservée au Conteur de la campagne (ou jeton CSRF manquant).",
    "404": "Introuvable, ou hors des campagnes dont vous êtes membre.",
    "422": "Clé d'idempotence déjà utilisée pour une autre requête : envoyez une nouvelle clé.",
    "429": "Trop de requêtes : attendez le nombre de secondes de l'en-tête `Retry-After`.",
    **TRANSPORT_ERRORS,
}


def replay_responses(serializer, *, keyed: bool = True) -> dict:
    """The answers of a write a retry may replay: 201 done now, 200 a replay of what was done
    (docs/api.md, « Idempotency keys »); with a key, 422 for that key sent with another request."""
    responses = {
        201: OpenApiResponse(serializer, description="Fait."),
        200: OpenApiResponse(serializer, description=REPLAYED),
    }
    if keyed:
        responses[422] = OpenApiResponse(ApiErrorSerializer, description=ERROR_DESCRIPTIONS["422"])
    return responses


def _without_fields(schema: dict, besides) -> dict:
    """What a body sending none of `schema`'s fields but `besides` is: a `not` of it says
    « at least one field », as one object (an `anyOf` of one `required` per field read as that
    many shapes). A field `{"not": {}}` may be absent only."""
    names = [name for name in schema.get("properties", {}) if name not in besides]
    return {"properties": {name: {"not": {}} for name in names}}


class ApiSchema(AutoSchema):
    """The schema of a view with `input_serializer_class` and `output_serializer_class`.

    Requests are documented with the input serializer and responses with the output one; every
    operation also lists the error responses this API can give, in the handler's shape. An
    operation's description is the view's `api_descriptions[method]` (docstrings are for the
    code's readers and may name its internals); request fields carry the checks DRF makes.
    """

    def get_description(self) -> str:
        descriptions = getattr(self.view, "api_descriptions", None) or {}
        return descriptions.get(self.method) or super().get_description()

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if direction == "request":
            request_field_constraints(field, schema)
        return schema

    def _map_basic_serializer(self, serializer, direction):
        # A body that must change something: at least one field besides those named.
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request":
            for name, field in serializer.fields.items():
                if name in schema.get("properties", {}):
                    blank_text_constraint(field, schema["properties"][name])
        besides = getattr(serializer, "requires_a_field_besides", None)
        if direction == "request" and besides is not None:
            schema["not"] = _without_fields(schema, besides)
        # A rule between fields its `validate()` checks, said in JSON Schema (`anyOf`…).
        extra = getattr(serializer, "request_schema_extra", None)
        if direction == "request" and extra:
            schema.update(extra)
        return schema

    def _get_parameters(self):
        # An optional query parameter sent empty (`?name=`) is read as absent everywhere here:
        # django-filter's filters, DRF's pagination and serializers, the views' own helpers —
        # but for a list, whose empty item is an item.
        parameters = super()._get_parameters()
        for parameter in parameters:
            if (
                parameter.get("in") == "query"
                and not parameter.get("required")
                and parameter.get("schema", {}).get("type") != "array"
            ):
                parameter["allowEmptyValue"] = True
        return parameters

    def get_request_serializer(self):
        serializer = getattr(self.view, "input_serializer_class", None)
        if self.method in ("POST", "PUT", "PATCH") and serializer is not None:
            return serializer
        return None

    def get_response_serializers(self):
        return getattr(self.view, "output_serializer_class", None)

    def _resolve_path_parameters(self, variables):
        # Django's <int:…> converter only matches digits: say so, or a client may send -1
        # and meet the HTML 404 of a URL that does not exist.
        parameters = super()._resolve_path_parameters(variables)
        for parameter in parameters:
            if parameter["schema"].get("type") == "integer":
                parameter["schema"]["minimum"] = 0
                parameter["schema"]["maximum"] = 2**63 - 1
        return parameters

    def get_tags(self) -> list[str]:
        tag = getattr(self.view, "api_tag", None)
        return [tag] if tag else super().get_tags()

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        codes = ["401", "404", "429"]  # every request counts against the API's throttles
        if self.method != "GET" or getattr(self.view, "storyteller_reads", False):
            codes.append("403")
        # Any write may be refused by a service's rule; a read, by its filters or query.
        if (
            self.method != "GET"
            or getattr(self.view, "filterset_class", None)
            or getattr(self.view, "validates_query", False)
        ):
            codes.append("400")
        codes += ["405", "414", "503"]
        if self.method in ("POST", "PUT", "PATCH"):
            codes += ["413", "415"]
        for code in sorted(codes):
            if code not in responses:
                responses[code] = self._get_response_for_code(ApiErrorSerializer, code)
                responses[code]["description"] = ERROR_DESCRIPTIONS[code]
        for code in ("429", "503"):
            if code in responses:
                responses[code].setdefault("headers", {})["Retry-After"] = RETRY_AFTER_HEADER
        return dict(sorted(responses.items()))
