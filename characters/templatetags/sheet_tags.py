"""`{% sheet_field "strength" %}`: one field of the sheet, shown or edited in place;
`{% inline_field field %}`: a form field in its label. Both write their HTML as strings in the
cases a sheet repeats (issue 15 §2), not through a template per field."""

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.safestring import mark_safe
from django.utils.text import Truncator, capfirst
from django.utils.translation import gettext as _

from characters.fields import SHEET_FIELDS
from characters.forms import ENTRY_LABELS, FieldForm
from characters.sheet_page import KEY, page_urls
from characters.skill_rows import skill_rows as _skill_rows
from common import html_text
from rules import french

register = template.Library()


def display_value(character, spec) -> str:
    value = getattr(character, spec.name)
    if spec.kind == "bool":
        return _("oui") if value else _("non")
    if spec.kind == "choice":
        return dict(spec.choices).get(value, value)
    if spec.kind == "species":
        return value.name if value is not None else _("aucune")
    if value in ("", None):
        return "—"
    return value


def raw_value(character, spec):
    if spec.kind == "species":
        return character.species_id
    return getattr(character, spec.name)


def may_edit(character, spec) -> bool:
    if not getattr(character, "can_edit", False):
        return False
    if spec.storyteller_only and not character.viewer_is_storyteller:
        return False
    return not (spec.private and not character.can_see_private)


# `characters/_field.html` drawn without a template in the two cases a sheet shows ~46 times,
# byte for byte (a value, or a value behind its edit link); a field in edit mode or in conflict
# goes through the template.
SHOWN = '<span class="sheet-field" id="f-{name}" data-field="{name}">\n{value}\n\n</span>\n'
VALUE = '<span class="value">{}</span>'
EDIT_LINK = (
    '\n  <a class="editable" href="{sheet_url}?edit={name}#f-{name}"\n'
    '     hx-get="{field_url}" hx-target="closest section" hx-swap="outerHTML"\n'
    '     aria-label="{label}" title="{label}"><span class="value">{value}</span></a>\n'
)


@register.simple_tag(takes_context=True)
def sheet_field(context, name: str, label: str = ""):
    """One field of the sheet: its value, the link that edits it, or its form in edit mode."""
    character = context["character"]
    spec = SHEET_FIELDS[name]
    editable = may_edit(character, spec)
    form = None
    if editable and context.get("edit_field") == name:
        form = context.get("field_form")
        if form is None or form.spec.name != name:
            form = FieldForm(
                spec,
                initial={"value": raw_value(character, spec), "version": character.version},
                campaign=character.campaign,
            )
    conflict = context.get("conflict")
    if conflict is not None and conflict.field != name:
        conflict = None
    urls = page_urls(character)
    full_label = label or field_label(name)
    value = display_value(character, spec)
    shown = html_text.shown(value)
    if form is None and conflict is None:
        # format_html's output, each value escaped once, without its per-argument wrappers
        escaped = html_text.escape(name)
        if not editable:
            return mark_safe(SHOWN.format(name=escaped, value=VALUE.format(shown)))  # noqa: S308
        link = EDIT_LINK.format(
            sheet_url=html_text.escape(urls["sheet"]),
            field_url=html_text.escape(urls["field"].replace(KEY, name)),
            name=escaped,
            label=html_text.escape(edit_label(full_label, value)),
            value=shown,
        )
        return mark_safe(SHOWN.format(name=escaped, value=link))  # noqa: S308
    values = {
        "character": character,
        "sheet_url": urls["sheet"],
        "field_url": urls["field"].replace(KEY, name),
        "csrf_token": context.get("csrf_token"),
        "spec": spec,
        "name": name,
        "label": full_label,
        "edit_label": edit_label(full_label, value),
        "value": value,
        "editable": editable,
        "form": form,
        "conflict": conflict,
        "conflict_value": display_value(character, spec) if conflict else None,
    }
    template = context.template.engine.get_template("characters/_field.html")
    return template.render(context.new(values))


@register.simple_tag
def inline_field(field) -> str:
    """A form field inside its label, on one line; its help text and errors carry the ids that
    Django's `aria-describedby` points at (`<id>_helptext`, `<id>_error`)."""
    e = html_text.escape
    parts = [f"<label>{e(field.label)} {e(field)}</label>"]
    if field.help_text:
        parts.append(
            f'<small class="help" id="{e(field.auto_id)}_helptext">{e(field.help_text)}</small>'
        )
    if field.errors:
        errors = " ".join(e(error) for error in field.errors)
        parts.append(
            f'<span class="error" role="alert" id="{e(field.auto_id)}_error">{errors}</span>'
        )
    return mark_safe("".join(parts) + "\n")  # noqa: S308 (each part escaped above)


def edit_label(label: str, value) -> str:
    """An edit link's accessible name: what it edits and its value (« Modifier Force : 3 »)."""
    if value in ("—", ""):
        return _("Modifier %(label)s (vide)") % {"label": capfirst(label)}
    # An integer is short and plain: Truncator would give it back as it is.
    plain = type(value) is int
    text = str(value) if plain else Truncator(str(value).replace("\n", " ")).chars(40)
    return _("Modifier %(label)s : %(value)s") % {"label": capfirst(label), "value": text}


@register.simple_tag(takes_context=True)
def gauge_blocks(context, gauges) -> str:
    """Each gauge's block of the Constitutions section (`sheet.GaugeView`s): its numbers, its
    bars, its rest and its five fields, written without the template loop that drew ~60 nodes
    a gauge (tests/characters/test_gauge_blocks.py keeps that loop and compares)."""
    e, shown = html_text.escape, html_text.shown
    current, scars, ephemeral = _("Actuel"), _("Cicatrices"), _("Éphémère")
    parts = (
        ("current", current),
        ("scars", scars),
        ("ephemeral", ephemeral),
        ("stabilised", _("Stabilisé")),
        ("peril", _("Péril")),
    )
    blocks = []
    for view in gauges:
        key, gauge = e(view.key), view.gauge
        now, top = shown(gauge.current), shown(gauge.maximum)
        bars = " ".join(
            f'<label class="bar-label">{e(label)} <progress class="bar bar-{part}"'
            f' id="bar-{key}-{part}" max="{top}" value="{value}">{text}</progress></label>'
            for label, part, value, text in (
                (current, "current", now, f"{now} / {top}"),
                (scars, "scars", shown(gauge.scars), shown(gauge.scars)),
                (ephemeral, "ephemeral", shown(gauge.ephemeral), shown(gauge.ephemeral)),
            )
        )
        rest = _("%(column)s %(score)s · repos normal : +%(points)s") % {
            "column": shown(view.column_label),
            "score": shown(view.column_score),
            "points": shown(view.rest_points),
        }
        fields = " ".join(
            f"<dt>{e(word)}</dt><dd>{sheet_field(context, f'{view.key}_{part}')}</dd>"
            for part, word in parts
        )
        # A space where the template broke a line: between inline elements, one shows.
        blocks.append(
            f' <div class="gauge" id="gauge-{key}"> <h3>{shown(view.label)} '
            f'<span class="gauge-numbers"><span id="gauge-{key}-current">{now}</span> / '
            f'<span id="gauge-{key}-max">{top}</span></span></h3> <div class="bars"> {bars} </div>'
            f' <p class="help gauge-rest" id="gauge-{key}-rest">{rest}</p>'
            f' <dl class="pairs compact"> {fields} </dl> </div>'
        )
    return mark_safe("".join(blocks) + " ")  # noqa: S308 (every value above is escaped)


@register.filter
def percent(value) -> str:
    return french.percent(float(value))


@register.filter
def field_label(field: str) -> str:
    """A history row's field, in French (a gauge's current value is the gauge's name alone)."""
    if field == "character":  # the creation of the sheet
        return _("Personnage")
    if field.startswith("skills."):
        from rules.reference import SKILLS_BY_KEY

        key = field.removeprefix("skills.")
        skill = SKILLS_BY_KEY.get(key)
        return _("Compétence %(name)s") % {"name": skill.label if skill else key}
    if field.startswith("languages."):
        from rules.reference import LANGUAGES_BY_KEY

        key = field.removeprefix("languages.")
        lang = LANGUAGES_BY_KEY.get(key)
        return _("Langue %(name)s") % {"name": lang.label if lang else key}
    if field in ENTRY_LABELS:
        return str(ENTRY_LABELS[field])
    spec = SHEET_FIELDS.get(field)
    if spec is None:
        return field
    gauge, _sep, part = field.partition("_")
    if gauge in ("vitality", "energy", "confidence") and part != "current":
        from rules.reference import LABELS

        return f"{LABELS[gauge]} ({spec.label})"
    return str(spec.label)


@register.filter
def history_value(value) -> str:
    """A history value as text: entries by name, skills as level and expertises."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("oui") if value else _("non")
    if isinstance(value, list):
        return (
            ", ".join(v.get("name", str(v)) if isinstance(v, dict) else str(v) for v in value)
            or "—"
        )
    if isinstance(value, dict):
        if "name" in value:
            return value["name"]
        parts = [_("niveau %(level)s") % {"level": value.get("level")}]
        if value.get("expertises"):
            parts.append(", ".join(value["expertises"]))
        if value.get("writing"):
            parts.append(_("écriture"))
        return " · ".join(parts)
    return str(value)


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if mapping else None


@register.simple_tag(takes_context=True)
def skill_rows(context, items) -> str:
    """`<tr>` of each skill of a group, written by characters/skill_rows.py."""
    character = context["character"]
    words = {
        "save": _("Enregistrer"),
        "remove": _("Retirer"),
        "roll": _("Lancer"),
        "knowledge": _("savoir (pas de jet)"),
        "expertises": _("Expertises, séparées par des virgules"),
    }
    return _skill_rows(
        items,
        can_edit=character.can_edit,
        csrf=CsrfTokenNode().render(context),
        words=words,
        roll_url=f"{context['urls'].get('table', '')}?character={character.pk}",
    )
