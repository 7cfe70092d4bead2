"""What the sheet page and its fragments are drawn from: one context built from a character
loaded by `selectors.character_get_for_sheet`, with the skills grouped and their odds, and every
URL of the page reversed once (a row's URL is its template's with the key put in)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.urls import get_script_prefix, reverse
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from characters import condition, sheet
from characters.forms import (
    DamageForm,
    HealForm,
    LanguageAddForm,
    OddsForm,
    RestForm,
    SkillAddForm,
    StabiliseForm,
)
from common.form_html import form_html
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
    version = str(character.version)
    for row in character.skills.all():
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
                # Numbers as text: the row repeats them, and each {{ number }} is localized.
                "id": str(row.pk),
                "level": str(row.level),
                "version": version,
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
    """The context of `characters/sheet.html` and of every partial of it. What costs something
    to build (derived values, odds, forms) is built when a template first asks for it: a page
    drawn part by part (characters/sheet_parts.py) often draws one section alone."""
    odds_form = lazy(lambda: OddsForm(request.GET if "complexity" in request.GET else None))
    urls = page_urls(character)
    languages = list(character.languages.all())
    context = {
        "character": character,
        "campaign": character.campaign,
        "derived": lazy(lambda: sheet.derive(character)),
        "odds_form": odds_form,
        "skill_groups": lazy(lambda: skill_groups(character, odds_form().values())),
        "languages": [(row, with_key(urls["language"], row.key)) for row in languages],
        "urls": urls,
        "edit_field": request.GET.get("edit", ""),
        "sections": SECTIONS,
    }
    if character.can_edit:
        owned = {row.key for row in character.skills.all()}
        version = character.version
        context.update(
            skill_add_form=lazy(lambda: SkillAddForm(owned=owned, initial={"version": version})),
            language_add_form=lazy(
                lambda: _language_add_form(character, {row.key for row in languages})
            ),
            damage_fields=lazy(lambda: action_fields(DamageForm)),
            rest_fields=lazy(lambda: action_fields(RestForm)),
            stabilise_fields=lazy(lambda: action_fields(StabiliseForm)),
            heal_fields=lazy(lambda: action_fields(HealForm)),
        )
    if character.viewer_is_storyteller:
        context["objective_gain"] = lazy(lambda: condition.objective_impact_gain(character))
    context.update(extra)
    return context


def action_fields(form_class) -> SafeString:
    """The fields of an action's empty form (damage, rest, heal, stabilise), as `_form.html`
    writes them: the same for every sheet, so drawn once per process and language."""
    if settings.DEBUG:  # the debug server's templates and catalogues change under it
        return form_html(form_class())
    return _action_fields(form_class, get_language())


@functools.lru_cache(maxsize=64)
def _action_fields(form_class, language: str) -> SafeString:
    return form_html(form_class())


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
