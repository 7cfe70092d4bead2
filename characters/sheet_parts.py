"""The sheet page's body drawn part by part (issue 15): the header, each section, the skills, the
languages, the entries, the actions and the notes of `characters/sheet.html` are kept apart in
the page cache, each under what it shows, so that the first read after a write draws only the
parts the write changed — after a Karma edit, the Moral section — and takes the others as they
were drawn for an earlier version.

A part's key names the values it shows (`INPUTS`: the character's columns, `DERIVED` for every
value `sheet.derive` computes from them, its skills, languages or compendium entries) on top of
what every part depends on: the release, the language, the character, the viewer's rights, the
compendium's revision, the owner and the page's query (`page_cache.parts_key`). The version,
which forms and rows carry, is drawn as a placeholder and put in when the body is glued.
`tests/characters/test_sheet_parts.py` changes every field of the sheet, one at a time, and
checks that the page then equals one drawn from nothing.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.template import engines
from django.template.context import make_context

from characters import page_cache, sheet
from characters.fields import CONDITION_FIELDS
from characters.models import CHARACTERISTIC_FIELDS
from characters.sheet_page import sheet_context
from rules import reference

# Drawn where the version goes, put in when the body is glued: private-use characters, which
# escaping leaves as they are and no keyboard types.
VERSION_PLACEHOLDER = "\ue000sheet-version\ue000"
DERIVED = "derived"  # every value `sheet.derive` computes
SKILLS, LANGUAGES, ENTRIES = "skills", "languages", "entries"

_GAUGE_FIELDS = tuple(f"{gauge}_{attr}" for gauge in reference.GAUGES for attr in sheet.GAUGE_ATTRS)

# What each part shows, in the order of the body.
INPUTS: dict[str, tuple[str, ...]] = {
    "sheet-header": ("name",),
    "sec-identity": ("name", "species_id", "lineage"),
    "sec-characteristics": (*CHARACTERISTIC_FIELDS, "combativeness", "exaltation", DERIVED),
    "sec-gauges": (
        *_GAUGE_FIELDS,
        *(f"premice_{gauge}" for gauge in reference.GAUGES),
        DERIVED,
    ),
    "sec-pools": (*(f"{row}_points" for row in reference.ROWS), DERIVED),
    "sec-condition": (*CONDITION_FIELDS, DERIVED),
    "sec-morale": ("personal_hope", "personal_despair", "fortune", "karma", "legend", DERIVED),
    "sec-derived": (DERIVED,),
    # A skill's odds: its level, the characteristic asked for, Agonie and the states.
    "skills": (SKILLS, *CHARACTERISTIC_FIELDS, *CONDITION_FIELDS),
    "languages": (LANGUAGES,),
    "entries": (ENTRIES,),
    # The Conteur's objective button: the Impact points and score.
    "actions": ("impact_points", DERIVED),
    "sec-notes": ("notes", "private_notes"),
}
COLUMNS = (
    "sec-identity",
    "sec-characteristics",
    "sec-gauges",
    "sec-pools",
    "sec-condition",
    "sec-morale",
    "sec-derived",
)
AFTER_COLUMNS = ("skills", "languages", "entries", "actions", "sec-notes")


def _shown(character, name: str, derived: str):
    if name == DERIVED:
        return derived
    if name == SKILLS:
        return [(s.pk, s.kind, s.key, s.level, s.expertises) for s in character.skills.all()]
    if name == LANGUAGES:
        return [(row.pk, row.key, row.level, row.writing) for row in character.languages.all()]
    if name == ENTRIES:
        return sorted(character.entries.items())
    return getattr(character, name)


def part_keys(character, common: str, derived: sheet.Derived) -> dict[str, str]:
    """Each part's cache key: `common` (`page_cache.parts_key`) and what the part shows
    (`derived`: `sheet.derive(character)`)."""
    derived_text = repr(derived)
    keys = {}
    for part, names in INPUTS.items():
        shown = repr(tuple(_shown(character, name, derived_text) for name in names))
        digest = hashlib.sha256(shown.encode()).hexdigest()[:24]
        keys[part] = f"{common}:{part}:{digest}"
    return keys


def render_parts(request, character, names, derived: sheet.Derived) -> dict[str, str]:
    """The parts `names` of the sheet drawn in one template context, the version a placeholder
    (`derived`, computed once for the keys, is what the parts show)."""
    version, character.version = character.version, VERSION_PLACEHOLDER
    try:
        context = sheet_context(
            request, character, csrf_token=page_cache.CSRF_PLACEHOLDER, derived=derived
        )
        template = engines["django"].engine.get_template("characters/sheet.html")
        partials = template.extra_data["partials"]
        bound = make_context(context, request)
        with bound.bind_template(template):
            return {name: partials[name].render(bound) for name in names}
    finally:
        character.version = version


def glue(parts: dict[str, str], version: int) -> str:
    """The body from its parts, with the same markup between them as `sheet-body`."""
    body = (
        f'<article class="sheet" data-version="{version}">'
        + parts["sheet-header"]
        + '<div class="sheet-columns">'
        + "".join(parts[name] for name in COLUMNS)
        + "</div>"
        + "".join(parts[name] for name in AFTER_COLUMNS)
        + "</article>"
    )
    return body.replace(VERSION_PLACEHOLDER, str(version))


def body(request, character, common: str) -> str:
    """The sheet's body: the parts already drawn from the cache, the others drawn and kept (the
    debug server draws every part: templates change under it)."""
    derived = sheet.derive(character)
    keys = part_keys(character, common, derived)
    # From the shared cache alone: each process keeps its recent whole bodies in its memory
    # (common/content_cache.py), a part is only read when a body is drawn.
    found = {} if settings.DEBUG else cache.get_many(list(keys.values()))
    parts = {name: found[key] for name, key in keys.items() if key in found}
    missing = [name for name in keys if name not in parts]
    if missing:
        drawn = render_parts(request, character, missing, derived)
        if not settings.DEBUG:
            kept = {keys[name]: drawn[name] for name in missing}
            cache.set_many(kept, page_cache.TIMEOUT)
        parts.update(drawn)
    return glue(parts, character.version)
