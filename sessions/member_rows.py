"""The Moral panel's members written as strings (issue 15): each member's row holds up to eight
small forms (spend, Fortune, special states, the Conteur's points), and the template loop drew
them at ~1.5 ms a member — most of the Conteur's table page. The same markup as the loop it
replaces in `sessions/page.html` (tests/sessions/test_member_rows.py keeps that loop and
compares), the same escaping."""

from __future__ import annotations

import uuid

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from common.html_text import escape as e
from common.html_text import shown

SPENDS = (("spend_hope", "Dépenser 1 espoir"), ("spend_despair", "Dépenser 1 désespoir"))
GAINS = (("gain_personal_hope", "+1 espoir perso"), ("gain_personal_despair", "+1 désespoir perso"))


def member_rows(
    members, *, storyteller: bool, campaign_pk: int, csrf: str, fortune_form=None
) -> SafeString:
    """The `<li class="member">` of each member of `selectors.morale_panel`, as `storyteller`
    sees them or as a player does (their own with its actions); `csrf` the forms' token input,
    `fortune_form` a Fortune request sent back with its errors (its key is kept)."""
    urls = {
        "act": e(reverse("sessions:morale_act", args=[campaign_pk])),
        "fortune": e(reverse("sessions:fortune_request", args=[campaign_pk])),
        "campaign": campaign_pk,
    }
    source = (
        f'<select name="source" aria-label="{e(_("Source"))}"><option value="group">'
        f'{e(_("du groupe"))}</option><option value="personal">{e(_("personnel"))}</option>'
        f"</select>"
    )
    return mark_safe(  # noqa: S308 (every value below is escaped)
        "".join(_member(m, storyteller, urls, csrf, source, fortune_form) for m in members)
    )


def _form(url: str, csrf: str, inner: str, css: str = "inline") -> str:
    return (
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="#morale-panel"'
        f' hx-swap="outerHTML" class="{css}">{csrf}{inner}</form>'
    )


def _hidden(name: str, value) -> str:
    return f'<input type="hidden" name="{name}" value="{shown(value)}">'


def _member(m, storyteller: bool, urls: dict, csrf: str, source: str, fortune_form) -> str:
    pk = shown(m.character.pk)
    badges = f'<span class="badge state">{shown(m.state_label)}</span>' if m.state_label else ""
    if m.calm:
        badges += f'<span class="badge calm">{e(_("Calme"))}</span>'
    cap = shown(m.cap)
    return (
        f'<li class="member" data-character="{pk}"><strong>{shown(m.character.name)}</strong>'
        f'<span class="personal">{e(_("espoir"))} <span data-personal="hope">{shown(m.hope)}'
        f'</span>/{cap} · {e(_("désespoir"))} <span data-personal="despair">'
        f"{shown(m.despair)}</span>/{cap} · {e(_('Fortune'))} "
        f'<span data-personal="fortune">{shown(m.fortune)}</span>/5</span>{badges}'
        f"{_injuries(m, storyteller, urls, csrf)}"
        f"{_actions(m, pk, storyteller, urls, csrf, source, fortune_form)}</li>"
    )


def _injuries(m, storyteller: bool, urls: dict, csrf: str) -> str:
    if not m.injuries:
        return ""
    items = []
    for injury in m.injuries:
        heal = ""
        if storyteller:
            url = e(reverse("sessions:injury_heal", args=[urls["campaign"], injury.pk]))
            button = f'<button type="submit" class="link-button">{e(_("Guérie"))}</button>'
            heal = _form(url, csrf, button)
        items.append(f"<li>{shown(injury.label)} {heal}</li>")
    return f'<ul class="injury-list">{"".join(items)}</ul>'


def _actions(m, pk: str, storyteller: bool, urls: dict, csrf: str, source: str, form) -> str:
    if not (m.mine or storyteller):
        return ""
    act, who = urls["act"], _hidden("character", m.character.pk)
    parts = [
        _form(
            act,
            csrf,
            f"{_hidden('action', action)}{who}{source}"
            f'<button type="submit" class="secondary" data-action="{action}">{e(_(label))}'
            f"</button>",
        )
        for action, label in SPENDS
    ]
    if m.mine and m.fortune:
        parts.append(_fortune_request(m, who, urls, csrf, form))
    summary = e(_("États spéciaux"))
    if storyteller:
        summary += f" {e(_('et points personnels'))}"
    opened = " open" if m.state == "serenity" else ""
    parts.append(f'<details class="more"{opened}><summary>{summary}</summary>')
    states = "".join(
        f'<option value="{value}">{e(label)}</option>'
        for value, label in (
            ("fury", _("Acharnement (1 désespoir)")),
            ("blaze", _("Flamboyance (1 espoir, Galvanisé)")),
            ("serenity", _("Apaisement (Calme)")),
        )
    )
    parts.append(
        _form(
            act,
            csrf,
            f'{_hidden("action", "state_enter")}{who}<select name="state" aria-label='
            f'"{e(_("État spécial"))}">{states}</select>{source}'
            f'<button type="submit" class="secondary">{e(_("Entrer"))}</button>',
        )
    )
    if m.state == "serenity":
        hope, despair = e(_("effet d'espoir")), e(_("effet de désespoir"))
        effect = e(_("Apaisement : user d'un effet"))
        parts.append(
            _form(
                act,
                csrf,
                f'{_hidden("action", "serenity_effect")}{who}<select name="effect" aria-label='
                f'"{e(_("Effet"))}"><option value="hope">{hope}</option>'
                f'<option value="despair">{despair}</option></select>'
                f'<button type="submit" class="secondary">{effect}</button>',
            )
        )
    if storyteller:
        parts.extend(
            _form(
                act,
                csrf,
                f"{_hidden('action', action)}{who}"
                f'<button type="submit" class="secondary">{e(_(label))}</button>',
            )
            for action, label in GAINS
        )
        if m.state and m.state not in ("none", "comedown"):
            end = e(_("Fin de l'état"))
            parts.append(
                _form(
                    act,
                    csrf,
                    f"{_hidden('action', 'state_end')}{who}"
                    f'<button type="submit" class="secondary">{end}</button>',
                )
            )
    parts.append("</details>")
    return f'<div class="member-actions">{"".join(parts)}</div>'


def _fortune_request(m, who: str, urls: dict, csrf: str, form) -> str:
    """A request of Fortune: its key the one of the request sent back with errors for this
    member, else a fresh one."""
    if form is not None and f"{form['character'].value()}" == f"{m.character.pk}":
        key = form["idempotency_key"].value()
    else:
        key = uuid.uuid4().hex
    return _form(
        urls["fortune"],
        csrf,
        f"{_hidden('idempotency_key', key)}{who}"
        f'<input type="number" name="points" min="1" max="{shown(m.fortune)}" value="1" required'
        f' aria-label="{e(_("Points de Fortune"))}" class="points">'
        f'<input type="text" name="reason" maxlength="200" required'
        f' placeholder="{e(_("la chance au bon moment…"))}" aria-label="{e(_("Pour quoi"))}">'
        f'<button type="submit" class="secondary">{e(_("Demander de la Fortune"))}</button>',
        css="inline fortune-request",
    )
