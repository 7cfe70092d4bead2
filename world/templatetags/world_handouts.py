"""{% load world_handouts %}{% page_handout_form %}: on a page of the world, the Conteur's form
to give this page, its image or one of its secrets to players (nothing for anyone else)."""

from django import template

from world.handout_views import give_form

register = template.Library()


@register.inclusion_tag("world/_page_handout.html", takes_context=True)
def page_handout_form(context) -> dict:
    page, campaign, request = context["page"], context["campaign"], context["request"]
    if not context.get("is_storyteller"):
        return {"show": False}
    return {
        "show": True,
        "style": True,  # once, with the page (an HTMX answer replaces only the section)
        "campaign": campaign,
        "page": page,
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "give_form": give_form(campaign=campaign, user=request.user, pages=[page]),
        "next": request.get_full_path(),
    }
