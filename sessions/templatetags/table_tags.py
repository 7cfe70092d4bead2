"""Small filters of the table page: percentages, labels of the rules' keys, loops, and the
short sentence a screen reader hears for a row of the log."""

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules import french, reference
from sessions import checks
from sessions.forms import fresh_key

register = template.Library()

MODIFIER_LABELS = {"characteristic": "Caractéristique", "hope": "Espoir", "expertise": "Expertise"}


@register.filter
def percent(value: float) -> str:
    return french.percent(value)


@register.filter
def characteristic_label(key: str) -> str:
    return checks.characteristic_label(key)


@register.filter
def skill_labels(keys) -> str:
    return " / ".join(checks.skill_label(k) for k in keys or [])


@register.filter
def modifier_label(source: str) -> str:
    return MODIFIER_LABELS.get(source, reference.LABELS.get(source, source))


@register.filter
def pairs(value: str) -> list[tuple[str, str]]:
    """ "a:Label A|b:Label B" → [("a", "Label A"), ("b", "Label B")] for small button lists."""
    return [tuple(item.split(":", 1)) for item in value.split("|")]


@register.filter
def fields_named(form, names: str) -> list:
    """The bound fields of `form` named in `names` (space-separated) that it has, in that order:
    the roll form draws each with `sessions/_field.html`."""
    return [form[name] for name in names.split() if name in form.fields]


@register.filter
def times(count: int) -> range:
    return range(count or 0)


@register.filter
def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


@register.filter
def roll_sentence(event) -> str:
    """What a row of the log says in one breath, « Aelis : 12 contre 6, réussite »: the row's
    announcement, and the result under « Lancer ». Other events already are a sentence."""
    roll = getattr(event, "roll", None)
    if event.kind != "roll" or roll is None:
        return event.summary
    who = event.character.name if event.character_id else (roll.label or _("PNJ"))
    if event.visibility != "public":
        who = _("%(who)s (secret)") % {"who": who}
    breakdown = roll.breakdown or {}
    outcome = str(breakdown.get("outcome_label") or roll.outcome).lower()
    if breakdown.get("narrow_success"):
        outcome = _("%(outcome)s de justesse") % {"outcome": outcome}
    sentence = _("%(who)s : %(total)s contre %(target)s, %(outcome)s") % {
        "who": who,
        "total": roll.total,
        "target": roll.target,
        "outcome": outcome,
    }
    return sentence + (_(", Zone !") if roll.zone else "")


@register.filter
def pool_text(panel) -> str:
    """The Moral pool's pips in words, for the gauge's text alternative."""
    room = ngettext("%(n)s place libre", "%(n)s places libres", panel.room) % {"n": panel.room}
    return _(
        "Moral du groupe : %(hope)s espoir, %(despair)s désespoir, %(room)s sur %(capacity)s"
    ) % {
        "hope": panel.hope,
        "despair": panel.despair,
        "room": room,
        "capacity": panel.capacity,
    }


@register.simple_tag
def fresh_idempotency_key() -> str:
    """A fresh idempotency key for a form the page renders (one per write wanted)."""
    return fresh_key()
