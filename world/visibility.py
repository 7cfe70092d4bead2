"""Who sees what of the world: the one place the rule lives.

A page is seen by the Conteur always, by every member when its audience is « Tous les membres »,
and by the members chosen when it is « Membres choisis »; a non-member sees nothing. Inside a
page the Markdown may hold secret blocks:

    :::secret @alice @bob
    Le maire est un vampire.
    :::

shown only to the Conteur and to the members named. Everything that shows a page (the page,
search, backlinks, the API, export, live events) asks this module.
"""

import hashlib
import re
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Role
from campaigns.policy import campaign_get_for_member, membership_get
from world.models import Page, PageAudience

SECRET_OPEN = re.compile(r"^[ \t]*:::[ \t]*secret\b(?P<names>[^\n]*)$", re.IGNORECASE)
SECRET_CLOSE = re.compile(r"^[ \t]*:::[ \t]*$")
MENTION = re.compile(r"@([\w.@+-]+)")


@dataclass(frozen=True)
class SecretBlock:
    """One `:::secret` block: its place in the body, a key that survives edits elsewhere on the
    page (a hash of its text), its Markdown text and the usernames it names (lower case)."""

    index: int
    key: str
    text: str
    usernames: tuple[str, ...]
    start: int  # first line (the `:::secret` line), counted from 0
    end: int  # line after the closing `:::` (an unclosed block runs to the end of the body)

    def shown_to(self, username: str) -> bool:
        return username.lower() in self.usernames


@dataclass(frozen=True)
class Segment:
    """A stretch of a body as one reader sees it: plain Markdown, or a secret block they may see."""

    text: str
    secret: SecretBlock | None = None


def secret_blocks(page_or_body: Page | str) -> list[SecretBlock]:
    """The secret blocks of a page (or of a Markdown text), in order."""
    body = page_or_body if isinstance(page_or_body, str) else page_or_body.body
    lines = body.splitlines()
    blocks: list[SecretBlock] = []
    row = 0
    while row < len(lines):
        opening = SECRET_OPEN.match(lines[row])
        if opening is None:
            row += 1
            continue
        close = next(
            (at for at in range(row + 1, len(lines)) if SECRET_CLOSE.match(lines[at])), None
        )
        end = len(lines) if close is None else close + 1
        text = "\n".join(lines[row + 1 : end if close is None else close]).strip("\n")
        names = tuple(name.lower() for name in MENTION.findall(opening.group("names")))
        key = hashlib.sha256(text.encode()).hexdigest()[:12]
        blocks.append(SecretBlock(len(blocks), key, text, names, row, end))
        row = end
    return blocks


def is_storyteller_of(*, user, campaign_id: int) -> bool:
    membership = membership_get(user=user, campaign_id=campaign_id)
    return membership is not None and membership.role == Role.STORYTELLER


def pages_for(*, user, campaign: Campaign) -> QuerySet[Page]:
    """The campaign's pages this user may see (none for a non-member)."""
    membership = membership_get(user=user, campaign_id=campaign.pk)
    pages = Page.objects.filter(campaign_id=campaign.pk)
    if membership is None:
        return pages.none()
    if membership.role == Role.STORYTELLER:
        return pages
    chosen = Exists(Page.readers.through.objects.filter(page_id=OuterRef("pk"), user_id=user.pk))
    return pages.filter(Q(audience=PageAudience.EVERYONE) | Q(chosen, audience=PageAudience.CHOSEN))


def page_get_for_member(*, user, campaign_id: int, pk: int) -> Page:
    """The page with `.campaign.membership` set; 404 for a non-member and for a page the member
    may not see (whether it exists is never told)."""
    campaign = campaign_get_for_member(user=user, pk=campaign_id)
    page = pages_for(user=user, campaign=campaign).filter(pk=pk).first()
    if page is None:
        raise Http404(_("Page introuvable."))
    page.campaign = campaign
    return page


def may_see_page(*, user, page: Page) -> bool:
    return pages_for(user=user, campaign=page.campaign).filter(pk=page.pk).exists()


def _may_read_secret(*, user, page: Page, block: SecretBlock, storyteller: bool) -> bool:
    return storyteller or (user.is_authenticated and block.shown_to(user.get_username()))


def _storyteller(user, page: Page, storyteller: bool | None) -> bool:
    if storyteller is None:
        return is_storyteller_of(user=user, campaign_id=page.campaign_id)
    return storyteller


def visible_segments(*, page: Page, user, storyteller: bool | None = None) -> list[Segment]:
    """The body cut into plain stretches and the secret blocks this user may read (the others are
    left out, with their `:::` lines). `storyteller`, when the caller knows it, saves a query."""
    storyteller = _storyteller(user, page, storyteller)
    lines = page.body.splitlines()
    segments: list[Segment] = []
    row = 0
    for block in secret_blocks(page):
        if block.start > row:
            segments.append(Segment("\n".join(lines[row : block.start])))
        if _may_read_secret(user=user, page=page, block=block, storyteller=storyteller):
            segments.append(Segment(block.text, block))
        row = block.end
    if row < len(lines):
        segments.append(Segment("\n".join(lines[row:])))
    return segments


def visible_body(*, page: Page, user, storyteller: bool | None = None) -> str:
    """The Markdown with the secret blocks this user may not see removed (the Conteur's and a
    named member's secret blocks stay, fences included)."""
    storyteller = _storyteller(user, page, storyteller)
    lines = page.body.splitlines()
    for block in reversed(secret_blocks(page)):
        if not _may_read_secret(user=user, page=page, block=block, storyteller=storyteller):
            del lines[block.start : block.end]
    return "\n".join(lines)


def public_text(body: str) -> str:
    """The body with every secret block taken out: what any reader of the page may see."""
    lines = body.splitlines()
    for block in reversed(secret_blocks(body)):
        del lines[block.start : block.end]
    return "\n".join(lines)
