"""Small filters of the table page: percentages, labels of the rules' keys, loops, and the
short sentence a screen reader hears for a row of the log."""

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.html_text import escape
from rules import french, reference
from sessions.checks import characteristic_label as _characteristic_label
from sessions.checks import skill_label as _skill_label
from sessions.forms import fresh_key
from sessions.member_rows import member_rows as _member_rows

register = template.Library()

MODIFIER_LABELS = {"characteristic": "Caractéristique", "hope": "Espoir", "expertise": "Expertise"}


@register.filter
def percent(value: float) -> str:
    return french.percent(value)


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


@register.simple_tag
def fields(form, names: str) -> str:
    """The fields of `form` named in `names` that it has, each in its wrapper: the HTML of
    `sessions/_field.html`, written here rather than included once per field (issue 15)."""
    return mark_safe("".join(field_html(form[n]) for n in names.split() if n in form.fields))  # noqa: S308


def field_html(bound) -> str:
    """`{% include "sessions/_field.html" %}` of one bound field (tests/sessions/test_fields_tag.py)."""
    errors = bound.errors
    checkbox = getattr(bound.field.widget, "input_type", None) == "checkbox"
    help_text = ""
    if bound.help_text:
        help_text = (
            f'<small class="help" id="{escape(bound.auto_id)}_helptext">'
            f"{escape(bound.help_text)}</small>"
        )
    shown_errors = ""
    if errors:
        paragraphs = "".join(f"<p>{escape(e)}</p>" for e in errors)
        shown_errors = f'<div class="error" id="{escape(bound.auto_id)}_error">{paragraphs}</div>'
    return (
        f'<div class="field{" has-error" if errors else ""}{" checkbox" if checkbox else ""}">\n'
        f'  <label for="{escape(bound.id_for_label)}">{escape(bound.label)}</label>\n'
        f"  {bound}\n"
        f"  {help_text}\n"
        f"  {shown_errors}\n"
        f"</div>\n"
    )


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


@register.simple_tag(takes_context=True)
def member_rows(context, panel) -> str:
    """The Moral panel's `<li>` of each member, written by sessions/member_rows.py."""
    return _member_rows(
        panel.members,
        storyteller=bool(context.get("is_storyteller")),
        campaign_pk=context["campaign"].pk,
        csrf=CsrfTokenNode().render(context),
        fortune_form=context.get("fortune_form"),
    )
