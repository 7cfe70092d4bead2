"""The demo's world: a town, three NPCs, a faction and one secret, linked from the journal of
the demo's current session; made once."""

import pytest
from django.contrib.auth import get_user_model

from altherion.demo import demo_seed
from sessions.models import PlaySession
from world.links import backlinks
from world.models import Page, PageKind
from world.search import search
from world.visibility import secret_blocks, visible_body

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_small_world_linked_from_its_journal():
    campaign = demo_seed(story=False)
    demo_seed(story=False)  # a second run changes nothing

    kinds = sorted(Page.objects.filter(campaign=campaign).values_list("kind", flat=True))
    assert kinds == sorted(
        [PageKind.PLACE, PageKind.NPC, PageKind.NPC, PageKind.NPC, PageKind.FACTION]
    )
    assert sum(len(secret_blocks(page)) for page in Page.objects.all()) == 1
    journal = PlaySession.objects.get(campaign=campaign, title="Arrivée à Vael")
    assert "[[Vael]]" in journal.notes and "[[Maëlle|" in journal.notes

    aelis = get_user_model().objects.get(username="aelis")
    town = Page.objects.get(title="Vael")
    cited_by = {(link.kind, link.title) for link in backlinks(page=town, user=aelis)}
    assert ("journal", "Arrivée à Vael") in cited_by
    mayor = Page.objects.get(title="Orso Vannier")
    assert "Confrérie lui paie" not in visible_body(page=mayor, user=aelis)
    assert search(user=aelis, campaign=campaign, q="échoué") == []
    conteur = get_user_model().objects.get(username="conteur")
    assert "lui paie" in visible_body(page=mayor, user=conteur)
