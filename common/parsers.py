"""The API's JSON parser: DRF's, refusing with a French 400 what it would turn into a 500.

Python's decoder raises RecursionError on deeply nested bodies, and accepts `"\\ud800"` escapes
that yield strings no database or encoder can take (a lone UTF-16 surrogate).
"""

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 64  # no body of this API nests deeper than a handful of levels


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as error:
            raise ParseError(_too_deep()) from error
        _check(data, depth=0)
        return data


def _too_deep() -> str:
    return _("Corps de requête trop imbriqué (plus de %(depth)d niveaux).") % {"depth": MAX_DEPTH}


def _check(value, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise ParseError(_too_deep())
    if isinstance(value, str):
        if not is_encodable(value):
            raise ParseError(
                _("Corps de requête invalide : un texte contient un caractère Unicode isolé.")
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            _check(key, depth + 1)
            _check(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check(item, depth + 1)


def is_encodable(text: str) -> bool:
    """Whether `text` can be written as UTF-8 (False for a lone surrogate such as '\\ud800')."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
