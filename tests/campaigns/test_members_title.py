"""The members page's title is text, for a player as for the Conteur (issue 16 §17): no markup
of the page's body (the « Quitter la campagne » link) inside <title>."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("persona", ["player", "storyteller"])
def test_the_members_title_is_plain_text(client, campaign, persona, request):
    client.force_login(request.getfixturevalue(persona))
    html = client.get(reverse("campaigns:members", args=[campaign.pk])).content.decode()
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert title == "Membres · Les Brumes d&#x27;Emeshar · Altherion"
    if persona == "player":  # the link is still on the page, once, in its body
        assert html.count("Quitter la campagne") == 1
