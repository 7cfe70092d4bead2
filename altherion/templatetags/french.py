"""French elision for the templates, the engine's own helper (rules/french.py) as filters:
`{{ name|de }}` « d'Oskar », `{{ name|que }}` « qu'Aelis », `{{ name|le }}` « l'Hydre ».

In a `blocktranslate`, the elided preposition comes with the name in one variable:
`{% blocktranslate with of_name=name|de %}Défense {{ of_name }}{% endblocktranslate %}`.
"""

from django import template

from rules import french

register = template.Library()


@register.filter
def de(word) -> str:
    return french.de(word)


@register.filter
def que(word) -> str:
    return french.que(word)


@register.filter
def le(word) -> str:
    return french.le(word)
