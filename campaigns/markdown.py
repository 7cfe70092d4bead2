"""Journal notes in Markdown, rendered to HTML that cannot run anything.

Markdown lets raw HTML through, so its output is sanitised by nh3 with a short allow-list: no
scripts, no event attributes, no styles; links keep only href (http, https, mailto) and get
rel="noopener noreferrer nofollow".
"""

import markdown as markdown_lib
import nh3
from django.utils.safestring import SafeString, mark_safe

ALLOWED_TAGS = {
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "b", "i", "del",
    "blockquote", "code", "pre", "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th",
    "td",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href"}}
URL_SCHEMES = {"http", "https", "mailto"}


def markdown_to_html(text: str) -> SafeString:
    """Safe HTML for a Markdown text (empty string for empty text)."""
    if not text:
        return mark_safe("")
    html = markdown_lib.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
    )
    return mark_safe(clean)  # noqa: S308 — sanitised by nh3 just above
