"""Every page speaks French (issue 16 §1): a walk over every page and fragment a Conteur and a
player reach on a played campaign, failing on a code key (a TextChoices value, a rules key) or
an English word in the visible text."""

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.apps import apps
from django.test import Client

from rules import french, reference
from tests.played_campaign import played_campaign_seed

pytestmark = pytest.mark.django_db

# The keys of every choice set the pages show, and the rules engine's multiplier keys.
KEYS_ALSO_FRENCH = {
    "correction", "ellipse", "zone", "public", "import", "action", "expert", "combat", "table",
    "place", "note", "faction", "page", "image", "secret", "sent",
}  # fmt: skip
ENGLISH_WORDS = {
    "the", "and", "your", "you", "with", "must", "password", "characters", "field", "required",
    "please", "enter", "valid", "close", "save", "cancel", "delete", "edit", "submit", "search",
    "next", "previous", "free", "hours", "days", "weeks", "months", "years", "none", "true",
    "false", "null", "yes", "this", "least", "create", "update", "character", "user",
}  # fmt: skip
# Proper names and code the pages show on purpose (the API's header, in a <code>).
ALLOWED = {"Altherion", "Authorization", "Token", "API", "Markdown", "JSON"}
SKIPPED_PREFIXES = ("/static/", "/admin/", "/api/", "/accounts/logout/")
PAGE_LIMIT = 400


def choice_keys() -> set[str]:
    keys = set()
    for model in apps.get_models():
        for field in model._meta.get_fields():
            choices = getattr(field, "choices", None)
            if not choices or model._meta.app_label in {"auth", "admin", "contenttypes"}:
                continue
            for value, _label in field.flatchoices:
                if isinstance(value, str) and value:
                    keys.add(value)
    keys |= set(reference.LENGTH_MULTIPLIERS) | set(reference.TRAINER_MULTIPLIERS)
    return {k for k in keys if re.fullmatch(r"[a-z_]+", k)} - KEYS_ALSO_FRENCH


class _Page(HTMLParser):
    """The visible text (and the titles, labels and placeholders a reader sees) and the links."""

    SHOWN_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")

    def __init__(self):
        super().__init__()
        self.text: list[str] = []
        self.links: list[tuple[str, bool]] = []  # (address, fetched by htmx)
        self.hidden_depth = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in {"script", "style", "template"}:
            self.hidden_depth += 1
        if attrs.get("href"):
            self.links.append((attrs["href"], False))
        if attrs.get("hx-get"):
            self.links.append((attrs["hx-get"], True))
        for name in self.SHOWN_ATTRIBUTES:
            if attrs.get(name):
                self.text.append(attrs[name])
        if tag == "input" and attrs.get("type") in {"submit", "button"} and attrs.get("value"):
            self.text.append(attrs["value"])

    def handle_endtag(self, tag):
        if tag in {"script", "style", "template"} and self.hidden_depth:
            self.hidden_depth -= 1

    def handle_data(self, data):
        if not self.hidden_depth:
            self.text.append(data)


# French grammar (§2): « d'Adresse », not « de Adresse »; plurals from ngettext, not « point(s) »;
# a label never repeated in its own parentheses (« Vitalité (Vitalité) »).
BAD_FRENCH = [
    re.compile(r"\b[dD]e [AEIOUYÉÈÊÀÂÎÔaeiouyéèêàâîô]\w*"),
    re.compile(r"\w\(s\)"),
    re.compile(r"\breste -\d"),
    re.compile(r"\b(\w+) \(\1\)"),
]


# « de » before a mute h elides too (« d'Histoire »), an aspirated one does not (« de Haches »).
DE_H = re.compile(r"\b[dD]e ([Hh]\w*)")


def offending_words(text: str, keys: set[str]) -> set[str]:
    text = " ".join(text.split())
    found = {match.group(0) for pattern in BAD_FRENCH for match in pattern.finditer(text)}
    found |= {m.group(0) for m in DE_H.finditer(text) if french.elides(m.group(1))}
    for word in re.findall(r"[A-Za-z_]+", text):
        if word in ALLOWED:
            continue
        if word in keys or word.lower() in ENGLISH_WORDS:
            found.add(word)
    return found


def walk(client: Client, start: str) -> dict[str, set[str]]:
    """GET every same-site page and fragment reachable from `start`; returns the offending words
    by address."""
    keys = choice_keys()
    seen, queue, problems = set(), [(start, False)], {}
    while queue and len(seen) < PAGE_LIMIT:
        url, htmx = queue.pop(0)
        # One visit per page: its other query strings (filters, pages) show the same words.
        if (url.split("?")[0], htmx) in seen:
            continue
        seen.add((url.split("?")[0], htmx))
        response = client.get(url, headers={"HX-Request": "true"} if htmx else {})
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        page = _Page()
        page.feed(response.content.decode())
        words = offending_words(" ".join(page.text), keys)
        if words:
            problems[url + (" (htmx)" if htmx else "")] = words
        for link, by_htmx in page.links:
            address = urlsplit(urljoin(url, link))
            if address.netloc or not address.path.startswith("/"):
                continue
            if address.path.startswith(SKIPPED_PREFIXES):
                continue
            target = address.path + (f"?{address.query}" if address.query else "")
            if (address.path, by_htmx) not in seen:
                queue.append((target, by_htmx))
    return problems


@pytest.fixture
def played(settings):
    return played_campaign_seed()


def test_the_offending_word_finder_sees_keys_and_english():
    keys = choice_keys()
    assert offending_words("Durée de l'arc (days) : ×2", keys) == {"days"}
    assert offending_words("×5 (peak) Fermer", keys) == {"peak"}
    assert offending_words("Vitalité (Création) · Close", keys) == {"Close"}
    assert offending_words("Les Brumes d'Emeshar · Altherion", keys) == set()
    assert offending_words("Expertises de Adresse · 3 point(s)", keys) == {"de Adresse", "t(s)"}
    assert offending_words("Expertises de Histoire · Maîtrise de Haches", keys) == {"de Histoire"}
    assert offending_words("Vitalité (Vitalité) · reste -5", keys) == {
        "Vitalité (Vitalité)",
        "reste -5",
    }


@pytest.mark.parametrize("persona", ["storyteller", "player"])
def test_every_page_speaks_french(played, persona):
    user = played.storyteller if persona == "storyteller" else played.players[0]
    client = Client()
    client.force_login(user)
    problems = walk(client, f"/campaigns/{played.campaign.pk}/")
    assert problems == {}


def test_a_closed_ellipse_says_fermee(played):
    client = Client()
    client.force_login(played.players[0])
    body = client.get(f"/campaigns/{played.campaign.pk}/ellipses/").content.decode()
    assert "Fermée" in body and "Fermer" not in body


def test_history_rows_name_the_field_once_in_french():
    from characters.templatetags.sheet_tags import field_label

    assert field_label("character") == "Personnage"
    assert field_label("vitality_current") == "Vitalité"
    assert field_label("vitality_scars") == "Vitalité (cicatrices)"


def test_names_are_elided_after_de():
    from altherion.templatetags.french import de, le, que

    assert de("Aelis") == "d'Aelis" and de("Écoute") == "d'Écoute" and de("Brann") == "de Brann"
    assert (
        de("Histoire") == "d'Histoire" and que("Oskar") == "qu'Oskar" and le("Hydre") == "l'Hydre"
    )
