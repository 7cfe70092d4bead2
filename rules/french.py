"""French wording shared by the engine's messages and the pages: elision, plurals, percentages.

`de("Adresse")` is « d'Adresse », `de("Force")` « de Force », `de("Histoire")` « d'Histoire »
(`que`, `le` and `elide` likewise): the one elision of the project. The engine, the services and
the pages all use it, the pages through the `de`, `que` and `le` template filters
(altherion/templatetags/french.py: `{% load french %}`). Plurals outside the engine go through
Django's ngettext; the engine, which knows no Django, uses `plural`.
"""

VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæ")
# Words whose h is aspirated (« le héros », « de Haches »): no elision before them. Any other h
# is taken for a mute one (« d'Histoire », « d'Harmonie », « l'Hydre »).
ASPIRATED_H = frozenset({
    "hache", "haches", "hachette", "haie", "haillon", "haine", "haïr", "halle", "hallebarde",
    "halte", "hamac", "hameau", "hanche", "handicap", "handicaps", "hangar", "hanté", "hantée",
    "harangue", "hardi", "hardie", "hardiesse", "hareng", "hargne", "haricot", "harnais", "harpe",
    "harpie", "hasard", "hâte", "haubert", "haut", "haute", "hautes", "hauts", "hauteur", "havre",
    "heaume", "hérisson", "héron", "héros", "hêtre", "heurt", "hibou", "hiboux", "hideux",
    "hideuse", "hiérarchie", "hobereau", "homard", "honte", "hoquet", "horde", "hors", "hotte",
    "houle", "housse", "hublot", "huée", "huit", "hurlement", "hussard", "hutte",
})  # fmt: skip


def elides(word: str) -> bool:
    """Whether « de », « que », « le »… elide before `word`: it starts with a vowel or a mute h,
    whatever its case (« d'Oskar », « d'Écoute », « d'Histoire », but « de Haches »)."""
    word = str(word).strip()
    first = word[:1].lower()
    if first in VOWELS:
        return True
    if first != "h":
        return False
    head = word.split(maxsplit=1)[0].lower().strip(",;:.!?'’")
    return head not in ASPIRATED_H


def elide(article: str, word: str) -> str:
    """`article` (« de », « que », « le », « la », « ne », « De »…) before `word`, elided as French
    wants: « d'Oskar », « qu'Aelis », « l'Épée », « De Brann »."""
    word = str(word)
    return f"{article[:-1]}'{word}" if elides(word) else f"{article} {word}"


def de(word: str) -> str:
    """« de » before `word`, elided before a vowel or a mute h: « d'Aelis », « de Brann »."""
    return elide("de", word)


def que(word: str) -> str:
    """« que » before `word`: « qu'Oskar », « que Brann »."""
    return elide("que", word)


def le(word: str) -> str:
    """« le » before `word`: « l'Hydre », « le Troll »."""
    return elide("le", word)


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
