"""HTML written as strings (issue 15): Django's `conditional_escape`, and `{{ value }}`'s
`conditional_escape(localize(value))`, giving the same characters without their per-call
wrappers (`keep_lazy`'s look at every argument, `localize`'s format lookups). The sheet and the
table write several hundred values a page this way (characters/skill_rows.py,
characters/forms_render.py, the sheet's and the table's tags)."""

from __future__ import annotations

import html

from django.conf import settings
from django.utils.formats import localize
from django.utils.functional import Promise


def escape(text) -> str:
    """`conditional_escape(text)`: safe text as it is, any other escaped."""
    if isinstance(text, Promise):
        text = str(text)
    if hasattr(text, "__html__"):
        return text.__html__()
    return html.escape(str(text))


def shown(value) -> str:
    """`{{ value }}` in an autoescaped template: a text escaped, an integer as its digits unless
    thousands are separated, anything else localized then escaped."""
    kind = type(value)
    if kind is str:
        return html.escape(value)
    if kind is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return escape(localize(value))
