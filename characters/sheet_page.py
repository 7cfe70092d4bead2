"""What the sheet page and its fragments are drawn from: one context built from a character
loaded by `selectors.character_get_for_sheet`, with the skills grouped and their odds, and every
URL of the page reversed once (a row's URL is its template's with the key put in).

Everything that reads rows or computes is built when a template first asks for it: a page whose
body comes from the fragment cache reads no skill, language or entry."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlencode

from django.conf import settings
from django.urls import get_script_prefix, reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from characters import condition, selectors, sheet
from characters.forms import (
    DamageForm,
    HealForm,
    LanguageAddForm,
    OddsForm,
    RestForm,
    SkillAddForm,
    StabiliseForm,
)
from rules import french, reference
from rules import states as rules_states

SECTIONS = (
    "identity",
    "characteristics",
    "gauges",
    "pools",
    "condition",
    "morale",
    "derived",
    "notes",
)
# The page's links and forms that take the character alone.
CHARACTER_URLS = {
    "sheet": "characters:sheet",
    "history": "characters:history",
    "export": "characters_api:export",
    "delete": "characters:delete",
    "entries": "characters:entries",
    "skill_add": "characters:skill_add",
    "damage": "characters:damage",
    "rest": "characters:rest",
    "heal": "characters:heal",
    "stabilise": "characters:stabilise",
    "objective": "characters:objective",
}
KEY = "__key__"


def page_urls(character) -> dict[str, str]:
    """The sheet's URLs: `field`, `skill` and `language` carry a `__key__` placeholder."""
    return _reversed(get_script_prefix(), character.pk, character.campaign_id)


@functools.lru_cache(maxsize=4096)
def _reversed(script_prefix: str, pk: int, campaign_id: int) -> dict[str, str]:
    """Reversed once per process and sheet (a sheet's URLs never change; the script prefix, which
    they start with, is part of the key). Read only: every caller gets the same dict."""
    urls = {name: reverse(view, args=[pk]) for name, view in CHARACTER_URLS.items()}
    urls["field"] = reverse("characters:field", args=[pk, KEY])
    urls["skill"] = reverse("characters:skill", args=[pk, KEY])
    urls["language"] = reverse("characters:language", args=[pk, KEY])
    urls["language_new"] = urls["language"].replace(KEY, "new")
    urls["table"] = reverse("sessions:table", args=[campaign_id])
    return urls


def with_key(url: str, key: str) -> str:
    return url.replace(KEY, quote(key, safe=""))


def skill_groups(character, odds_values: dict) -> list[dict]:
    """Skills by category, each rolled skill with the exact odds of the chosen check."""
    cond = sheet.condition(character)
    agony = rules_states.effective_agony(character.agony, cond.state)
    boon = rules_states.boon_dice(cond)
    bane = rules_states.bane_dice(cond)
    characteristic = getattr(character, odds_values["characteristic"])
    groups = {key: [] for key in ("combat", "practical", "theoretical", "forgotten_domain")}
    skill_url = page_urls(character)["skill"]
    for row in selectors.character_load_rows(character).skills.all():
        ref = row.reference
        odds = None
        if ref is None or ref.rolled:
            odds = sheet.skill_odds(
                level=row.level,
                characteristic=characteristic,
                complexity=odds_values["complexity"],
                difficulty=odds_values["difficulty"],
                agony=agony,
                boon=boon,
                bane=bane,
            )
        of_name = french.de(row.label)
        groups[row.category].append(
            {
                "row": row,
                "odds": odds,
                "url": with_key(skill_url, row.key),
                "level_label": _("Niveau %(of_name)s") % {"of_name": of_name},
                "expertises_label": _("Expertises %(of_name)s") % {"of_name": of_name},
                "remove_confirm": _("Retirer %(name)s de la fiche ?") % {"name": row.label},
            }
        )
    labels = {
        "combat": _("Combat"),
        "practical": _("Pratiques"),
        "theoretical": _("Théoriques"),
        "forgotten_domain": _("Domaines oubliés"),
    }
    return [{"key": k, "label": labels[k], "skills": v} for k, v in groups.items()]


def sheet_context(request, character, **extra) -> dict:
    """The context of `characters/sheet.html` and of every partial of it."""
    odds_form = lazy(lambda: OddsForm(request.GET if "complexity" in request.GET else None))
    urls = page_urls(character)
    rows = lazy(lambda: selectors.character_load_rows(character))
    skills = lazy(lambda: list(rows().skills.all()))
    languages = lazy(lambda: list(rows().languages.all()))
    context = {
        "character": character,
        "campaign": character.campaign,
        "derived": lazy(lambda: sheet.derive(character)),
        "odds_form": odds_form,
        "skills": skills,
        "skill_groups": lazy(lambda: skill_groups(character, odds_form().values())),
        "languages": lazy(
            lambda: [(row, with_key(urls["language"], row.key)) for row in languages()]
        ),
        "entries": lazy(lambda: rows().entries),
        "urls": urls,
        "edit_field": request.GET.get("edit", ""),
        "sections": SECTIONS,
    }
    if character.can_edit:
        version = character.version
        context.update(
            skill_add_form=lazy(
                lambda: SkillAddForm(
                    owned={row.key for row in skills()}, initial={"version": version}
                )
            ),
            language_add_form=lazy(
                lambda: _language_add_form(character, {row.key for row in languages()})
            ),
            damage_form=DamageForm,
            rest_form=RestForm,
            stabilise_form=StabiliseForm,
            heal_form=HealForm,
        )
    if character.viewer_is_storyteller:
        context["objective_gain"] = lazy(lambda: condition.objective_impact_gain(character))
    context.update(extra)
    return context


def lazy(build: Callable[[], Any]) -> Callable[[], Any]:
    """A context value built the first time it is asked for, then kept: a template calls the
    callables it finds in its context."""
    return functools.cache(build)


def _language_add_form(character, owned) -> LanguageAddForm:
    form = LanguageAddForm(initial={"version": character.version, "level": 1})
    form.fields["language"].choices = [
        (lang.key, lang.label) for lang in reference.LANGUAGES if lang.key not in owned
    ]
    return form


# A kept body is never stale (its key names the versions it shows): the timeout only frees room.
SHEET_CACHE_TIMEOUT = 24 * 3600
# The page's query arguments that change the body (the others, e.g. a cache-buster, do not).
QUERY_KEYS = ("edit", "characteristic", "complexity", "difficulty")


def sheet_shown(request, character) -> str | None:
    """What the sheet's body shows, as text: the key of its cached fragment and of the page's
    ETag — the character's version, its campaign's compendium revision, its owner, the viewer's
    rights, the language and the page's query. An editor's body carries forms with a CSRF token
    of this browser's secret, so it is kept per secret (its cookie); None (not cached) while the
    browser has none yet."""
    csrf = ""
    if character.can_edit:
        cookie = request.COOKIES.get(settings.CSRF_COOKIE_NAME)
        if not cookie:
            return None
        csrf = hashlib.sha256(cookie.encode()).hexdigest()[:16]
    rights = (
        "storyteller"
        if character.viewer_is_storyteller
        else "editor"
        if character.can_edit
        else "reader"
    )
    query = urlencode([(key, request.GET[key]) for key in QUERY_KEYS if key in request.GET])
    shown = (
        character.pk,
        character.version,
        character.campaign.revision,
        character.owner.get_username(),
        rights,
        get_language(),
        query,
        csrf,
    )
    return ":".join(str(part) for part in shown)
