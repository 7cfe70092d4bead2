"""The sheet's skills table rows written as strings (issue 15 §2): a sheet repeats the row for
every skill, and the template engine drew each one's ~40 nodes at ~0.2 ms a row. Same markup as
the loop it replaces in `characters/sheet.html` (tests/characters/test_skill_rows.py keeps that
loop and compares), the same escaping."""

from __future__ import annotations

from urllib.parse import quote

from django.utils.safestring import SafeString, mark_safe

from common.html_text import escape as e
from rules import french


def _expertises(row) -> str:
    return ", ".join(e(x) for x in row.expertises or [])


def _odds_cells(odds, knowledge: str) -> str:
    if not odds:
        return f'<td colspan="3" class="help">{knowledge}</td>'
    return "".join(
        f'<td class="odds">{e(french.percent(float(v)))}</td>'
        for v in (odds.success, odds.critical_success, odds.critical_failure)
    )


def _edit_cells(item, csrf: str, words: dict) -> str:
    row, url, pk, level = item["row"], e(item["url"]), e(item["id"]), e(item["level"])
    expertises = _expertises(row)
    return (
        f'<td colspan="2" class="no-print">'
        f'<form class="row-form" method="post" action="{url}" hx-post="{url}"'
        f' hx-target="#skills" hx-swap="outerHTML">'
        f'{csrf}<input type="hidden" name="version" value="{e(item["version"])}">'
        f'<label class="visually-hidden" for="skill-level-{pk}">{e(item["level_label"])}</label>'
        f'<input id="skill-level-{pk}" class="num" type="number" name="level" min="0" max="10"'
        f' value="{level}">'
        f'<label class="visually-hidden" for="skill-exp-{pk}">{e(item["expertises_label"])}'
        f"</label>"
        f'<input id="skill-exp-{pk}" type="text" name="expertises" value="{expertises}"'
        f' placeholder="{words["expertises"]}">'
        f'<button type="submit" class="small secondary">{words["save"]}</button>'
        f"</form></td>"
        f'<td class="print-only">{level}</td>'
        f'<td class="print-only">{expertises or "—"}</td>'
    )


def _actions(item, csrf: str, words: dict, roll_url: str) -> str:
    url = e(item["url"])
    roll = ""
    if item["odds"]:
        href = f"{roll_url}&amp;skill={e(quote(str(item['row'].key), safe='/'))}"
        roll = f'<a class="small button secondary" href="{href}">{words["roll"]}</a>'
    return (
        f'<td class="no-print">{roll}'
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="#skills"'
        f' hx-swap="outerHTML" data-confirm="{e(item["remove_confirm"])}">'
        f'{csrf}<input type="hidden" name="version" value="{e(item["version"])}">'
        f'<input type="hidden" name="level" value="{e(item["level"])}">'
        f'<input type="hidden" name="remove" value="1">'
        f'<button type="submit" class="small secondary">{words["remove"]}</button>'
        f"</form></td>"
    )


def skill_rows(
    items: list[dict], *, can_edit: bool, csrf: str, words: dict, roll_url: str
) -> SafeString:
    """The `<tr>` of each skill of a group (`characters.sheet_page.skill_groups`' items):
    `csrf` the form's token input, `words` the row's translated words (save, remove, roll,
    knowledge, expertises), `roll_url` the table's URL with the character chosen."""
    rows = []
    # What every row repeats, escaped once.
    words = {name: e(word) for name, word in words.items()}
    roll_url = e(roll_url)
    for item in items:
        row = item["row"]
        if can_edit:
            cells = _edit_cells(item, csrf, words)
        else:
            cells = f"<td>{e(item['level'])}</td><td>{_expertises(row) or '—'}</td>"
        cells += _odds_cells(item["odds"], words["knowledge"])
        if can_edit:
            cells += _actions(item, csrf, words, roll_url)
        rows.append(
            f'<tr id="skill-{e(item["id"])}"><th scope="row">{e(row.label)}</th>{cells}</tr>'
        )
    return mark_safe("\n".join(rows))  # noqa: S308 (every value above is escaped)
