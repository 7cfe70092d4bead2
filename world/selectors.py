"""Reads of the world, through visibility.py: the index, a member's note, a page's history."""

from dataclasses import dataclass

from campaigns.models import Campaign
from world.models import Page, PageKind, PageNote, PageRevision
from world.visibility import may_see_page, pages_for


@dataclass(frozen=True)
class KindGroup:
    kind: str
    label: str
    pages: list[Page]


@dataclass(frozen=True)
class WorldIndex:
    groups: list[KindGroup]
    tags: list[str]
    count: int


def world_index(*, user, campaign: Campaign, kind: str = "", tag: str = "") -> WorldIndex:
    """The pages the member may see, grouped by kind in PageKind's order, with every tag in use
    (of the visible pages only), filtered by kind and tag when given."""
    pages = list(pages_for(user=user, campaign=campaign).defer("body", "public_text"))
    tags = sorted({page_tag for page in pages for page_tag in page.tags})
    if kind:
        pages = [page for page in pages if page.kind == kind]
    if tag:
        pages = [page for page in pages if tag in page.tags]
    groups = [
        KindGroup(value, label, [page for page in pages if page.kind == value])
        for value, label in PageKind.choices
    ]
    return WorldIndex([group for group in groups if group.pages], tags, len(pages))


def note_for(*, page: Page, user) -> PageNote | None:
    return PageNote.objects.filter(page=page, user=user).first()


def page_history(*, page: Page) -> list[PageRevision]:
    return list(page.revisions.select_related("saved_by"))


def notes_of(*, user) -> list[PageNote]:
    """The member's own notes, on the pages they may still see (a page hidden since, or a campaign
    left, keeps its note out of sight: its title is not theirs to learn)."""
    notes = PageNote.objects.filter(user=user).exclude(text="").select_related("page__campaign")
    return [note for note in notes.order_by("page__campaign__name", "page__title") if _sees(note)]


def _sees(note: PageNote) -> bool:
    return may_see_page(user=note.user, page=note.page)
