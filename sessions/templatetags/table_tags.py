"""Small filters of the table page: percentages, labels of the rules' keys, loops."""

from django import template

from rules import reference
from sessions.checks import characteristic_label as _characteristic_label
from sessions.checks import skill_label as _skill_label

register = template.Library()

MODIFIER_LABELS = {"characteristic": "Caractéristique", "hope": "Espoir", "expertise": "Expertise"}


@register.filter
def percent(value: float) -> str:
    """A probability as a French percentage with one decimal (exact odds: never rounded to 0)."""
    if value is None:
        return ""
    shown = f"{100 * value:.1f}".replace(".", ",")
    if value > 0 and shown == "0,0":
        return "< 0,1 %"
    return f"{shown} %"


@register.filter
def characteristic_label(key: str) -> str:
    return _characteristic_label(key)


@register.filter
def skill_labels(keys) -> str:
    return " / ".join(_skill_label(k) for k in keys or [])


@register.filter
def modifier_label(source: str) -> str:
    return MODIFIER_LABELS.get(source, reference.LABELS.get(source, source))


@register.filter
def split(value: str) -> list[str]:
    return value.split()


@register.filter
def pairs(value: str) -> list[tuple[str, str]]:
    """ "a:Label A|b:Label B" → [("a", "Label A"), ("b", "Label B")] for small button lists."""
    return [tuple(item.split(":", 1)) for item in value.split("|")]


@register.filter
def field(form, name: str):
    return form[name] if name in form.fields else None


@register.filter
def times(count: int) -> range:
    return range(count or 0)


@register.filter
def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"
