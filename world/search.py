"""One search box over the world's pages, the compendium and the séance journals.

On PostgreSQL: full-text search with the French configuration (plurals and conjugations through
its stemmer) over text passed through `unaccent` (the extension migration 0001 installs), so
« forêts » finds « foret » and « forêt ». On the embedded SQLite: every word must appear
(`icontains`, which ignores case for ASCII letters only, and not accents).

A player searches only the pages they may see, and in them only the text outside secret blocks
(`Page.public_text`): a hit never shows, nor is found through, a secret's words.
"""

import re
import unicodedata
from dataclasses import dataclass

from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector
from django.db import connection
from django.db.models import F, Func, Q, QuerySet, TextField, Value
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import Ability, Asset, Branch, Campaign, CharacterClass, Flaw, Species
from campaigns.policy import membership_get
from sessions.models import PlaySession
from world.visibility import is_storyteller_of, pages_for

QUERY_LENGTH = 200
PER_KIND = 20
SNIPPET_HALF = 90
# Each compendium section: its model, the anchor of its section on the compendium page, its label.
COMPENDIUM = (
    (Species, "species", gettext_lazy("Espèce")),
    (CharacterClass, "classes", gettext_lazy("Classe")),
    (Branch, "branches", gettext_lazy("Branche")),
    (Ability, "abilities", gettext_lazy("Aptitude")),
    (Asset, "assets", gettext_lazy("Atout")),
    (Flaw, "flaws", gettext_lazy("Handicap")),
)


@dataclass(frozen=True)
class Hit:
    kind: str  # "page", "compendium" or "journal"
    kind_label: str
    title: str
    url: str
    snippet: str
    rank: float = 0.0


def folded(text: str) -> str:
    """Lower case without accents, one character for one (so positions still match the text)."""
    return "".join(unicodedata.normalize("NFKD", char)[:1].lower()[:1] or char for char in text)


def snippet(text: str, q: str) -> str:
    """A short plain excerpt of `text` around the first word of the query found in it."""
    plain = " ".join(re.sub(r"[\[\]*_#>`|]|:::secret|:::", " ", text).split())
    haystack = folded(plain)
    at = -1
    for word in (folded(word) for word in re.findall(r"\w{3,}", q)):
        for length in range(len(word), 3, -1):  # « forêts » still points at « forêt »
            at = haystack.find(word[:length])
            if at >= 0:
                break
        if at >= 0:
            break
    start = max(at - SNIPPET_HALF, 0) if at >= 0 else 0
    excerpt = plain[start : start + 2 * SNIPPET_HALF]
    return (
        ("… " if start else "") + excerpt + (" …" if start + 2 * SNIPPET_HALF < len(plain) else "")
    )


def _unaccent(expression):
    return Func(expression, function="unaccent", output_field=TextField())


def _ranked(rows: QuerySet, q: str, title: str, text: str) -> QuerySet:
    """PostgreSQL: the rows matching the query, best first, with `.rank`."""
    vector = SearchVector(_unaccent(F(title)), weight="A", config="french") + SearchVector(
        _unaccent(F(text)), weight="B", config="french"
    )
    query = SearchQuery(_unaccent(Value(q)), config="french", search_type="websearch")
    return (
        rows.annotate(document=vector, rank=SearchRank(vector, query))
        .filter(document=query)
        .order_by("-rank", "pk")[:PER_KIND]
    )


def _matching(rows: QuerySet, q: str, title: str, text: str) -> list:
    if connection.vendor == "postgresql":
        return list(_ranked(rows, q, title, text))
    words = q.split() or [q]
    condition = Q()
    for word in words:
        condition &= Q(**{f"{title}__icontains": word}) | Q(**{f"{text}__icontains": word})
    return list(rows.filter(condition).order_by("pk")[:PER_KIND])


def search(*, user, campaign: Campaign, q: str) -> list[Hit]:
    """What the member may see matching the query: pages, compendium entries, séance journals,
    best first (on PostgreSQL; pages, then compendium, then journals on SQLite)."""
    q = " ".join((q or "").split())[:QUERY_LENGTH]
    if not q or membership_get(user=user, campaign_id=campaign.pk) is None:
        return []
    visible = pages_for(user=user, campaign=campaign)
    text = "body" if is_storyteller_of(user=user, campaign_id=campaign.pk) else "public_text"
    hits = [
        Hit(
            "page",
            page.get_kind_display(),
            page.title,
            reverse("world:page", kwargs={"pk": campaign.pk, "page_pk": page.pk}),
            snippet(getattr(page, text), q),
            getattr(page, "rank", 0.0),
        )
        for page in _matching(visible, q, "title", text)
    ]
    compendium_url = reverse("campaigns:compendium", kwargs={"pk": campaign.pk})
    for model, anchor, label in COMPENDIUM:
        rows = model.objects.filter(campaign_id=campaign.pk)
        hits += [
            Hit(
                "compendium",
                str(label),
                entry.name,
                f"{compendium_url}#{anchor}",
                snippet(entry.description, q),
                getattr(entry, "rank", 0.0),
            )
            for entry in _matching(rows, q, "name", "description")
        ]
    journals = PlaySession.objects.filter(campaign_id=campaign.pk)
    hits += [
        Hit(
            "journal",
            _("Journal de séance"),
            play_session.title,
            reverse("sessions:detail", kwargs={"pk": campaign.pk, "session_pk": play_session.pk}),
            snippet(play_session.notes, q),
            getattr(play_session, "rank", 0.0),
        )
        for play_session in _matching(journals, q, "title", "notes")
    ]
    if connection.vendor == "postgresql":
        hits.sort(key=lambda hit: -hit.rank)
    return hits
