"""`[[Nom de la page]]` and `[[Nom|texte]]` links, the Markdown they render to, and backlinks.

A link to a page the reader may see becomes a link to it; a link to a missing page offers its
creation to the Conteur; for a player a missing page and a hidden page read the same, as plain
text, so a link never tells that a hidden page exists.
"""

import re
from dataclasses import dataclass
from urllib.parse import urlencode

import markdown as markdown_lib
import nh3
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaigns.markdown import ALLOWED_ATTRIBUTES, ALLOWED_TAGS, URL_SCHEMES
from campaigns.models import Campaign
from sessions.models import PlaySession
from world.models import Page
from world.visibility import Segment, is_storyteller_of, pages_for, visible_body, visible_segments

LINK = re.compile(r"\[\[(?P<title>[^\[\]|\n]+?)(?:\|(?P<text>[^\[\]\n]+?))?\]\]")
MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()>#+\-.!|~])")
LINK_ATTRIBUTES = {**ALLOWED_ATTRIBUTES, "a": {"href", "title"}}


def title_key(title: str) -> str:
    """A title as links compare it: spaces squeezed, case ignored."""
    return " ".join(title.split()).casefold()


def link_titles(text: str) -> set[str]:
    """The title keys a Markdown text links to."""
    return {title_key(found.group("title")) for found in LINK.finditer(text or "")}


def _escaped(text: str) -> str:
    return MARKDOWN_SPECIALS.sub(r"\\\1", text).replace("<", "&lt;")


def _escaped_title(text: str) -> str:
    return text.replace("\\", "").replace('"', "'")


@dataclass
class LinkResolver:
    """Turns `[[…]]` into Markdown for one reader of one campaign (one query for all titles)."""

    campaign: Campaign
    storyteller: bool
    pages: dict[str, int]

    @classmethod
    def for_reader(cls, *, campaign: Campaign, user) -> "LinkResolver":
        visible = pages_for(user=user, campaign=campaign).values_list("pk", "title")
        return cls(
            campaign=campaign,
            storyteller=is_storyteller_of(user=user, campaign_id=campaign.pk),
            pages={title_key(title): pk for pk, title in visible},
        )

    def _link(self, found: re.Match) -> str:
        title = " ".join(found.group("title").split())
        text = _escaped(" ".join((found.group("text") or title).split()))
        pk = self.pages.get(title_key(title))
        if pk is not None:
            url = reverse("world:page", kwargs={"pk": self.campaign.pk, "page_pk": pk})
            return f"[{text}]({url})"
        if self.storyteller:
            url = reverse("world:create", kwargs={"pk": self.campaign.pk})
            url += "?" + urlencode({"title": title})
            hint = _escaped_title(_("Page à créer : « %(title)s »") % {"title": title})
            return f'[{text}]({url} "{hint}")'
        return text

    def markdown(self, text: str) -> str:
        return LINK.sub(self._link, text or "")

    def html(self, text: str) -> SafeString:
        """Safe HTML for a Markdown text with its links resolved (sanitised by nh3)."""
        if not text:
            return mark_safe("")
        html = markdown_lib.markdown(
            self.markdown(text), extensions=["tables", "sane_lists"], output_format="html"
        )
        clean = nh3.clean(
            html,
            tags=ALLOWED_TAGS,
            attributes=LINK_ATTRIBUTES,
            url_schemes=URL_SCHEMES,
            link_rel="noopener noreferrer nofollow",
        )
        return mark_safe(clean)  # noqa: S308 — sanitised by nh3 just above


@dataclass(frozen=True)
class RenderedPart:
    """A stretch of a page as HTML, and the secret block it shows (None for plain text)."""

    html: SafeString
    secret: object | None = None


def page_parts(*, page: Page, user) -> list[RenderedPart]:
    """The page's body as this user may read it, stretch by stretch, links resolved."""
    resolver = LinkResolver.for_reader(campaign=page.campaign, user=user)
    segments: list[Segment] = visible_segments(
        page=page, user=user, storyteller=resolver.storyteller
    )
    return [RenderedPart(resolver.html(segment.text), segment.secret) for segment in segments]


@dataclass(frozen=True)
class Backlink:
    kind: str  # "page" or "journal"
    title: str
    url: str


def backlinks(*, page: Page, user) -> list[Backlink]:
    """The pages and séance journals citing the page, only those the user may see, and never
    through a secret block the user may not read. Empty when the user may not see the page."""
    visible = pages_for(user=user, campaign=page.campaign)
    if not visible.filter(pk=page.pk).exists():
        return []
    key = title_key(page.title)
    storyteller = is_storyteller_of(user=user, campaign_id=page.campaign_id)
    found: list[Backlink] = []
    for citing in visible.exclude(pk=page.pk).filter(body__contains="[["):
        if key in link_titles(visible_body(page=citing, user=user, storyteller=storyteller)):
            url = reverse("world:page", kwargs={"pk": page.campaign_id, "page_pk": citing.pk})
            found.append(Backlink("page", citing.title, url))
    journals = PlaySession.objects.filter(campaign_id=page.campaign_id, notes__contains="[[")
    for play_session in journals:
        if key in link_titles(play_session.notes):
            url = reverse(
                "sessions:detail", kwargs={"pk": page.campaign_id, "session_pk": play_session.pk}
            )
            found.append(Backlink("journal", play_session.title, url))
    return found
