"""French wording shared by the engine's messages and the pages: elision, plurals, percentages.

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


def percent(probability: float | None) -> str:
    """A probability as a French percentage with one decimal, « 36,0 % »; exact odds are never
    shown as 0 when they are not (« < 0,1 % »)."""
    if probability is None:
        return ""
    shown = f"{100 * probability:.1f}".replace(".", ",")
    if probability > 0 and shown == "0,0":
        return "< 0,1 %"
    return f"{shown} %"
