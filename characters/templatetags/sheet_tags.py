"""`{% sheet_field "strength" %}`: one field of the sheet, shown or edited in place;
`{% inline_field field %}`: a form field in its label; the filters that name history rows."""

from django import template
from django.utils.text import Truncator, capfirst
from django.utils.translation import gettext as _

from characters.fields import SHEET_FIELDS
from characters.forms import ENTRY_LABELS, FieldForm
from characters.sheet_page import page_urls, with_key
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


@register.inclusion_tag("characters/_field.html", takes_context=True)
def sheet_field(context, name: str, label: str = "") -> dict:
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
    return {
        "character": character,
        "sheet_url": urls["sheet"],
        "field_url": with_key(urls["field"], name),
        "csrf_token": context.get("csrf_token"),
        "name": name,
        "label": full_label,
        "edit_label": edit_label(full_label, value),
        "value": value,
        "editable": editable,
        "form": form,
        "conflict": conflict,
    }


@register.inclusion_tag("characters/_inline_field.html")
def inline_field(field) -> dict:
    """A form field inside its label, on one line; its help text and errors carry the ids that
    Django's `aria-describedby` points at (`<id>_helptext`, `<id>_error`)."""
    return {"field": field}


def edit_label(label: str, value) -> str:
    """An edit link's accessible name: what it edits and its value (« Modifier Force : 3 »)."""
    if value in ("—", ""):
        return _("Modifier %(label)s (vide)") % {"label": capfirst(label)}
    # An integer is short and plain: Truncator would give it back as it is.
    plain = type(value) is int
    text = str(value) if plain else Truncator(str(value).replace("\n", " ")).chars(40)
    return _("Modifier %(label)s : %(value)s") % {"label": capfirst(label), "value": text}


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


def is_blank(value) -> bool:
    """Whether a history value held nothing: no value, an empty text, no entries."""
    if isinstance(value, str):
        return not value.strip()
    return value is None or value == [] or value == {}


register.filter("is_blank", is_blank)


@register.filter
def history_value(value) -> str:
    """A history value as text: entries by name, skills as level and expertises; « (vide) » for
    nothing, rather than a blank a reader cannot see."""
    if is_blank(value):
        return _("(vide)")
    if isinstance(value, bool):
        return _("oui") if value else _("non")
    if isinstance(value, list):
        return ", ".join(v.get("name", str(v)) if isinstance(v, dict) else str(v) for v in value)
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
