"""The Moral panel's members written as strings (issue 15): each member's row holds up to eight
small forms (spend, Fortune, special states, the Conteur's points), and the template loop drew
them at ~1.5 ms a member — most of the Conteur's table page. The same markup as the loop it
replaces in `sessions/page.html`, a space where the template breaks a line (between inline
controls a space shows), the same escaping: tests/sessions/test_member_rows.py keeps that loop
and compares."""

from __future__ import annotations

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from common.html_text import escape as e
from common.html_text import shown
from sessions.forms import fresh_key

SPENDS = (("spend_hope", "Dépenser 1 espoir"), ("spend_despair", "Dépenser 1 désespoir"))
GAINS = (("gain_personal_hope", "+1 espoir perso"), ("gain_personal_despair", "+1 désespoir perso"))


def member_rows(
    members, *, storyteller: bool, campaign_pk: int, csrf: str, fortune_form=None
) -> SafeString:
    """The `<li class="member">` of each member of `selectors.morale_panel`, as `storyteller`
    sees them or as a player does (their own with its actions); `csrf` the forms' token input,
    `fortune_form` a Fortune request sent back with its errors (its key is kept)."""
    page = {
        "act": e(reverse("sessions:morale_act", args=[campaign_pk])),
        "fortune": e(reverse("sessions:fortune_request", args=[campaign_pk])),
        "campaign": campaign_pk,
        "csrf": csrf,
        "source": _select(
            "source", _("Source"), (("group", _("du groupe")), ("personal", _("personnel")))
        ),
    }
    rows = "".join(f" {_member(m, storyteller, page, fortune_form)}" for m in members)
    return mark_safe(f"{rows} ")  # noqa: S308 (every value below is escaped)


def _select(name: str, label: str, options) -> str:
    listed = "".join(f'<option value="{value}">{e(text)}</option>' for value, text in options)
    return f'<select name="{name}" aria-label="{e(label)}">{listed}</select>'


def _form(page: dict, url: str, hidden: str, *controls: str, css: str = "inline") -> str:
    """A panel form: its token and hidden inputs together, each control on a line of its own."""
    return (
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="#morale-panel"'
        f' hx-swap="outerHTML" class="{css}"> {page["csrf"]}{hidden} {" ".join(controls)} </form>'
    )


def _hidden(name: str, value) -> str:
    return f'<input type="hidden" name="{name}" value="{shown(value)}">'


def _button(text: str, action: str = "") -> str:
    data = f' data-action="{action}"' if action else ""
    return f'<button type="submit" class="secondary"{data}>{e(text)}</button>'


def _member(m, storyteller: bool, page: dict, fortune_form) -> str:
    pk, cap = shown(m.character.pk), shown(m.cap)
    parts = [
        f'<li class="member" data-character="{pk}">',
        f"<strong>{shown(m.character.name)}</strong>",
        f'<span class="personal">{e(_("espoir"))} <span data-personal="hope">{shown(m.hope)}'
        f'</span>/{cap} · {e(_("désespoir"))} <span data-personal="despair">'
        f"{shown(m.despair)}</span>/{cap} · {e(_('Fortune'))} "
        f'<span data-personal="fortune">{shown(m.fortune)}</span>/5</span>',
    ]
    if m.state_label:
        parts.append(f'<span class="badge state">{shown(m.state_label)}</span>')
    if m.calm:
        parts.append(f'<span class="badge calm">{e(_("Calme"))}</span>')
    if m.injuries:
        parts.append(_injuries(m, storyteller, page))
    if m.mine or storyteller:
        parts.append(_actions(m, storyteller, page, fortune_form))
    parts.append("</li>")
    return " ".join(parts)


def _injuries(m, storyteller: bool, page: dict) -> str:
    items = []
    for injury in m.injuries:
        heal = ""
        if storyteller:
            url = e(reverse("sessions:injury_heal", args=[page["campaign"], injury.pk]))
            button = f'<button type="submit" class="link-button">{e(_("Guérie"))}</button>'
            heal = f" {_form(page, url, button)}"  # the button right after the token
        items.append(f"<li>{shown(injury.label)}{heal} </li>")
    return f'<ul class="injury-list"> {" ".join(items)} </ul>'


def _actions(m, storyteller: bool, page: dict, fortune_form) -> str:
    act, who = page["act"], _hidden("character", m.character.pk)
    parts = [
        _form(page, act, _hidden("action", action) + who, page["source"], _button(_(label), action))
        for action, label in SPENDS
    ]
    if m.mine and m.fortune:
        parts.append(_fortune_request(m, who, page, fortune_form))
    summary = e(_("États spéciaux"))
    if storyteller:
        summary += f" {e(_('et points personnels'))}"
    opened = " open" if m.state == "serenity" else ""
    parts.append(f'<details class="more"{opened}> <summary>{summary}</summary>')
    states = _select(
        "state",
        _("État spécial"),
        (
            ("fury", _("Acharnement (1 désespoir)")),
            ("blaze", _("Flamboyance (1 espoir, Galvanisé)")),
            ("serenity", _("Apaisement (Calme)")),
        ),
    )
    enter = _hidden("action", "state_enter") + who
    parts.append(_form(page, act, enter, states, page["source"], _button(_("Entrer"))))
    if m.state == "serenity":
        effects = _select(
            "effect",
            _("Effet"),
            (("hope", _("effet d'espoir")), ("despair", _("effet de désespoir"))),
        )
        effect = _hidden("action", "serenity_effect") + who
        parts.append(_form(page, act, effect, effects, _button(_("Apaisement : user d'un effet"))))
    if storyteller:
        parts.extend(
            _form(page, act, _hidden("action", action) + who, _button(_(label)))
            for action, label in GAINS
        )
        if m.state and m.state not in ("none", "comedown"):
            ended = _hidden("action", "state_end") + who
            parts.append(_form(page, act, ended, _button(_("Fin de l'état"))))
    parts.append("</details>")
    return f'<div class="member-actions"> {" ".join(parts)} </div>'


def _fortune_request(m, who: str, page: dict, form) -> str:
    """A request of Fortune: its key the one of the request sent back with errors for this
    member, else a fresh one."""
    if form is not None and f"{form['character'].value()}" == f"{m.character.pk}":
        key = form["idempotency_key"].value()
    else:
        key = fresh_key()
    return _form(
        page,
        page["fortune"],
        _hidden("idempotency_key", key) + who,
        f'<input type="number" name="points" min="1" max="{shown(m.fortune)}" value="1" required'
        f' aria-label="{e(_("Points de Fortune"))}" class="points">',
        f'<input type="text" name="reason" maxlength="200" required'
        f' placeholder="{e(_("la chance au bon moment…"))}" aria-label="{e(_("Pour quoi"))}">',
        f'<button type="submit" class="secondary">{e(_("Demander de la Fortune"))}</button>',
        css="inline fortune-request",
    )
