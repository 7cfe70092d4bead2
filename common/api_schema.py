"""What every app's API documentation shares: the request and response headers, the refusals any
request may meet, and the constraints drf-spectacular leaves out of a serializer's schema.

`ApiSchema` (common/api_errors.py) applies them; views only name the headers they take.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

# A version as the sheet's ETag carries it: "12.<what else the representation shows>", or just
# "12" (a weak W/"12" is read the same). A write compares the version only.
VERSION_TAG = r'^(W/)?"[0-9]{1,18}(\.[0-9a-f]{1,32})?"$'


def tag_version(tag: str) -> int:
    """The version a tag matching VERSION_TAG carries."""
    return int(tag.strip().removeprefix("W/").strip('"').partition(".")[0])


# What Python's str.strip() removes (DRF trims text fields before refusing a blank one): \s and,
# beyond ECMAScript's \s, U+001C–U+001F and U+0085. NUL is refused by DRF's text fields too.
_NOT_BLANK_CHAR = r"[^\s\u0000\u001c-\u001f\u0085]"
NOT_BLANK = rf"^[^\u0000]*{_NOT_BLANK_CHAR}[^\u0000]*$"
NO_NUL = r"^[^\u0000]*$"


def if_match(*, required: bool) -> OpenApiParameter:
    """The `If-Match` header of a versioned sheet write."""
    description = (
        'La version lue : l\'ETag du détail de la fiche ("<version>.<empreinte>"), ou '
        '"<version>". Une écriture d\'un champ '
        "modifié depuis par quelqu'un d'autre est refusée en 412 avec la fiche à jour."
    )
    if not required:
        description += (
            " Sans cet en-tête, le champ `version` du corps dit la version lue (le conflit est "
            "alors un 409) ; sans l'un ni l'autre : 428."
        )
    else:
        description += " Sans lui : 428."
    return OpenApiParameter(
        "If-Match",
        {"type": "string", "pattern": VERSION_TAG},
        OpenApiParameter.HEADER,
        required=required,
        description=description,
    )


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    {"type": "string"},  # anything: what names no representation of the sheet gets the sheet
    OpenApiParameter.HEADER,
    description="L'ETag de la fiche déjà lue : 304 sans corps si rien n'a changé depuis.",
)

# An id in a query string, read as digits (0 names no row: an empty answer).
ROW_ID_PARAMETER = {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": 64, "pattern": NO_NUL},
    OpenApiParameter.HEADER,
    description=(
        "Une clé par action voulue (une UUID ; sur un jet, Fatalité ou Fortune, aussi le champ "
        "`idempotency_key`) : la même requête renvoyée avec la même clé n'agit pas deux fois et "
        "rend ce qui a déjà été fait, en 200 au lieu de 201 ; une autre requête avec cette clé "
        "est refusée (422). Sans clé, chaque requête est une nouvelle action."
    ),
)
REPLAYED = (
    "Rejeu : la même requête avec la même clé d'idempotence (ou la même réponse déjà donnée). "
    "Rien n'est refait ; la réponse est ce qui a été fait la première fois, tel qu'il est."
)


# Response headers, as `headers` objects of a response.
ETAG_HEADER = {
    "description": (
        'La fiche renvoyée, "<version>.<empreinte>" : à renvoyer en If-Match pour écrire, en '
        "If-None-Match pour relire (304 si rien de ce qu'elle montre n'a changé)."
    ),
    "schema": {"type": "string", "pattern": VERSION_TAG},
}
RETRY_AFTER_HEADER = {
    "description": "Le nombre de secondes à attendre avant de réessayer.",
    "schema": {"type": "string", "pattern": "^[0-9]+$"},
}


def etag(*codes: int) -> OpenApiParameter:
    """The `ETag` response header on the answers `codes` (the sheet's version)."""
    return OpenApiParameter(
        "ETag",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        response=list(codes),
        required=True,
        description=ETAG_HEADER["description"],
    )


# The refusals of any request, before a view reads it (each answered in the API's error shape).
TRANSPORT_ERRORS = {
    "405": "Méthode non prise en charge par cette adresse (l'en-tête `Allow` dit lesquelles).",
    "413": "Corps de requête trop volumineux (`DATA_UPLOAD_MAX_MEMORY_SIZE`, 1 Mio par défaut).",
    "414": "Adresse trop longue (chemin et paramètres) : envoyez moins de paramètres.",
    "415": "Type de contenu non pris en charge : envoyez `Content-Type: application/json`.",
    "503": "Base de données ou file de tâches momentanément indisponible : réessayez après "
    "les secondes de `Retry-After`.",
}


def request_field_constraints(field, schema: dict) -> None:
    """Add to a request field's `schema` the checks DRF makes that drf-spectacular leaves out:
    a text that may not be blank (nor hold NUL), a list without duplicates. (A text that may be
    blank gets its NUL pattern from `blank_text_constraint`, once drf-spectacular has mapped
    its validators: a pattern seen then would make it add a second, overlapping `oneOf` case.)"""
    if schema.get("readOnly"):
        return
    if isinstance(field, serializers.CharField) and schema.get("type") == "string":
        if "pattern" in schema or "format" in schema or "enum" in schema:
            return
        if not field.allow_blank:
            schema.setdefault("minLength", 1)
            schema["pattern"] = NOT_BLANK if field.trim_whitespace else NO_NUL
    if isinstance(field, serializers.ListField) and getattr(field, "unique_items", False):
        schema["uniqueItems"] = True


def blank_text_constraint(field, schema: dict) -> None:
    """A request text that may be blank still may not hold NUL (DRF refuses it)."""
    if (
        isinstance(field, serializers.CharField)
        and field.allow_blank
        and not field.read_only
        and schema.get("type") == "string"
        and not {"pattern", "format", "enum"} & set(schema)
    ):
        schema["pattern"] = NO_NUL
