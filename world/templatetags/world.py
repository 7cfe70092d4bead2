"""`{% load world %}`: what lower apps' templates use to show the world (they never import it).

`{% world_markdown text campaign=campaign user=request.user %}` renders Markdown with its
`[[links]]` resolved for that reader (the séance journal uses it).
"""

from django import template
from django.utils.safestring import SafeString

from world.links import LinkResolver

register = template.Library()


@register.simple_tag
def world_markdown(text: str, *, campaign, user) -> SafeString:
    return LinkResolver.for_reader(campaign=campaign, user=user).html(text or "")
