from django import template
from django.utils.safestring import SafeString

from campaigns.markdown import markdown_to_html
from campaigns.models import CHARACTERISTICS

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text: str) -> SafeString:
    """{{ session.notes|markdown }}: Markdown rendered, then sanitised (campaigns.markdown)."""
    return markdown_to_html(text or "")


NAV_SECTIONS = {
    "dashboard": "dashboard",
    "members": "members",
    "member_remove": "members",
    "hand_over": "members",
    "leave": "members",
    "invitations": "invitations",
    "invitation_create": "invitations",
    "settings": "settings",
    "compendium": "compendium",
    "entry_create": "compendium",
    "entry_edit": "compendium",
    "entry_delete": "compendium",
}


@register.filter
def nav_section(url_name: str | None) -> str:
    """The campaign menu entry a page belongs to, for aria-current."""
    if not url_name:
        return ""
    if url_name.startswith("arc_"):
        return "arcs"
    if url_name.startswith("session_"):
        return "sessions"
    return NAV_SECTIONS.get(url_name, "")


@register.filter
def favourite_labels(species) -> list[str]:
    """The French names of a species' favourite characteristics, in the grid's order."""
    favourites = set(species.favourite_characteristics or [])
    return [str(label) for name, label in CHARACTERISTICS if name in favourites]


@register.filter
def modifier_labels(species) -> list[tuple[str, int]]:
    """(French name, bonus or malus) for each characteristic the species modifies."""
    modifiers = species.modifiers or {}
    return [(str(label), modifiers[name]) for name, label in CHARACTERISTICS if modifiers.get(name)]
