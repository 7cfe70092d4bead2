"""French wording shared by the engine's messages and the pages: elision and plurals.

`de("Adresse")` is « d'Adresse », `de("Force")` « de Force »; the pages use the same through the
`de` template filter (altherion/templatetags/french.py). Plurals outside the engine go through
Django's ngettext; the engine, which knows no Django, uses `plural`.
"""

VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæ")


def _elides(word: str) -> bool:
    """Whether « de »/« le » elide before `word` (a vowel; an h is left alone: aspirated ones are
    common in names)."""
    return bool(word) and word[0].lower() in VOWELS


def de(word: str) -> str:
    """« de » before `word`, elided before a vowel: « d'Aelis », « de Brann »."""
    word = str(word)
    return f"d'{word}" if _elides(word) else f"de {word}"


def plural(count: int, singular: str, plural_form: str) -> str:
    """The French form for `count`: singular for 0 and 1 (French counts 0 as singular).

    Kept: the engine's own messages call it (rules/creation.py, rules/morale.py); the app uses
    Django's ngettext instead."""
    return singular if abs(count) < 2 else plural_form
