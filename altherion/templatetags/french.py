"""`{{ name|de }}`: « de » before a name, elided before a vowel (« d'Aelis », « de Brann »)."""

from django import template

from rules import french

register = template.Library()


@register.filter
def de(word) -> str:
    return french.de(word)
