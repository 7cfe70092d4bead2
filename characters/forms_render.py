"""The sheet forms' renderer: inputs, selects and textareas written as strings (issue 15).

Django's renderer draws every widget through templates — `input.html`, one `attrs.html` per
widget and per option, one `select_option.html` per option — which made most of a sheet's form
rendering. This one writes the same HTML (same names, ids, `aria-describedby`, `aria-invalid`,
the same escaping) straight from the widget's context; any other widget template goes to
Django's renderer as before. tests/characters/test_sheet_miss.py compares the two.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from django.forms.renderers import DjangoTemplates
from django.utils.safestring import SafeData

from common.html_text import shown as _shown

WIDGETS = "django/forms/widgets/"
# The widget templates that are `{% include "django/forms/widgets/input.html" %}` and no more.
INPUT_TEMPLATES = ("checkbox", "color", "date", "datetime", "email", "file", "hidden", "number")
INPUT_TEMPLATES += ("password", "search", "tel", "text", "time", "url")
OPTION_TEMPLATE = WIDGETS + "select_option.html"


def _formatted(value) -> str:
    """`{{ value|stringformat:'s' }}` in an autoescaped template."""
    return str(value) if isinstance(value, SafeData) else html.escape(str(value))


def _attrs(attrs: dict) -> str:
    """`attrs.html`: ` name="value"`, a bare ` name` for True, nothing for False."""
    return "".join(
        f" {_shown(name)}" if value is True else f' {_shown(name)}="{_formatted(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


def _input(widget: dict) -> str:
    value = "" if widget["value"] is None else f' value="{_formatted(widget["value"])}"'
    return (
        f'<input type="{_shown(widget["type"])}" name="{_shown(widget["name"])}"'
        f"{value}{_attrs(widget['attrs'])}>"
    )


def _select(widget: dict) -> str | None:
    parts = [f'<select name="{_shown(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, options, _index in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{_shown(group_name)}">')
        for option in options:
            if option["template_name"] != OPTION_TEMPLATE:
                return None  # a widget of its own: Django's templates draw it
            parts.append(
                f'\n  <option value="{_formatted(option["value"])}"{_attrs(option["attrs"])}>'
                f"{_shown(option['label'])}</option>\n"  # the option template's own last line
            )
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


def _textarea(widget: dict) -> str:
    value = _shown(widget["value"]) if widget["value"] else ""
    return (
        f'<textarea name="{_shown(widget["name"])}"{_attrs(widget["attrs"])}>\n{value}</textarea>'
    )


DRAWN: dict[str, Callable[[dict], str | None]] = {
    **{f"{WIDGETS}{name}.html": _input for name in INPUT_TEMPLATES},
    WIDGETS + "input.html": _input,
    WIDGETS + "select.html": _select,
    WIDGETS + "textarea.html": _textarea,
}


class SheetFormRenderer(DjangoTemplates):
    """Django's template renderer, but the widgets above are written without templates."""

    def render(self, template_name, context, request=None):
        draw = DRAWN.get(template_name)
        html = draw(context["widget"]) if draw is not None else None
        if html is None:
            return super().render(template_name, context, request=request)
        return html


RENDERER = SheetFormRenderer()
