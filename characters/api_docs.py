"""What the character API's schema says of each operation: its description (the view functions'
docstrings are for the code's readers) and the version headers of the sheet's writes."""

from drf_spectacular.utils import OpenApiExample

from common.api_schema import if_match

IF_MATCH = if_match(required=False)  # a write with a body may say its version in `version`
IF_MATCH_REQUIRED = if_match(required=True)  # a body-less write has only the header

# A sheet PATCH is one object: the fields to change by name, and the version read.
PATCH_EXAMPLES = [
    OpenApiExample(
        "Un champ",
        value={"karma": 3, "version": 12},
        request_only=True,
        media_type="application/json",
    ),
    OpenApiExample(
        "Plusieurs champs",
        value={"vitality_current": 9, "fragility": 1, "version": 12},
        request_only=True,
        media_type="application/json",
    ),
]

VERSIONED_WRITE = (
    "Say which version of the sheet you read: `If-Match` with the sheet's `ETag` "
    '(`"<version>.<fingerprint>"`, or just `"<version>"`) or the body\'s `version`. If someone '
    "else changed a field you write since that version, the write is refused with the current "
    "sheet, that field's value and who changed it: 412 when you sent If-Match, 409 when you sent "
    "`version`. Neither: 428. A version the sheet has not reached yet: 400."
)
ROW_REMOVAL = (
    "Say which version of the sheet you read with `If-Match` (the sheet's `ETag`, or "
    '`"<version>"`; 428 without it). If someone else changed this row since, 412 with the '
    "current sheet, the row's value and who changed it."
)

DESCRIPTIONS = {
    "characters_list": "The characters of your campaigns, by name (`?campaign=<id>`: one "
    "campaign's).",
    "characters_create": "Create a character in the campaign `campaign`, within its creation "
    "budget and by the creation wizard's rules; the Conteur may make it a player's (`owner`). "
    "Answers the sheet, its version in the `ETag` header.",
    "characters_retrieve": "The whole sheet with its derived values; the `ETag` header names "
    'this representation (`"<version>.<fingerprint>"`): send it back in `If-None-Match` for '
    "a 304 while nothing it shows has changed, or in `If-Match` to write.",
    "characters_partial_update": "Change fields of the sheet (private notes: their player and "
    "the Conteur).",
    "characters_destroy": "Delete the character: its player or the Conteur.",
    "characters_history_list": "Every change of the sheet: who, when, which field, the old and "
    "the new value (changes of private notes only for their readers).",
    "characters_skills_list": "The sheet's skills and forgotten domains, with their levels and "
    "expertises.",
    "characters_skills_create": "Add the skill (or forgotten domain) `key` to the sheet, or "
    "change it.",
    "characters_skills_update": "Set the skill `key` of the sheet: its level and expertises.",
    "characters_skills_destroy": f"Take the skill `key` off the sheet. {ROW_REMOVAL}",
    "characters_languages_list": "The languages the character speaks, with their levels and "
    "whether it writes them.",
    "characters_languages_create": "Add the language `key` to the sheet, or change it.",
    "characters_languages_update": "Set the language `key` of the sheet: its level and writing.",
    "characters_languages_destroy": f"Take the language `key` off the sheet. {ROW_REMOVAL}",
    "characters_entries_list": "The classes, branches, abilities, assets or flaws "
    "(`relation`) the character owns.",
    "characters_entries_update": "Replace the `relation` entries the character owns by `ids`, "
    "entries of the campaign's compendium.",
}


def description(operation_id: str, docstring: str, *, versioned: bool) -> str:
    """The operation's description: from DESCRIPTIONS, else the view's docstring; a versioned
    write says when it is 409, 412 or 428."""
    text = DESCRIPTIONS.get(operation_id) or docstring
    if versioned and ROW_REMOVAL not in text:
        text = f"{text}\n\n{VERSIONED_WRITE}"
    return text
