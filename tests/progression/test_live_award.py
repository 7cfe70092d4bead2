"""A job finished by a Celery worker reaches a page held by another process (issue 40): the arc's
experience paid by a real worker, its notification pushed through Redis to the player's event
stream on bin/web, read as an API client reads it (token, `text/event-stream`)."""

import http.client
import queue
import threading
from urllib.parse import urlsplit

import pytest
from django.db import transaction
from rest_framework.authtoken.models import Token

from campaigns.models import Arc
from characters.models import Character
from progression import awards

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

GROUP = {"danger": 3, "ending": "none", "length": "weeks"}


def follow(url: str, token: str, path: str) -> queue.Queue:
    """An API client holding the stream in a thread: each line it reads, in order."""
    lines: queue.Queue = queue.Queue()
    address = urlsplit(url)

    def read():
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
        connection.request("GET", path, headers={"Authorization": f"Token {token}"})
        response = connection.getresponse()
        lines.put(f"status {response.status} {response.getheader('Content-Type')}")
        while True:
            line = response.fp.readline()
            if not line:
                return
            lines.put(line.decode().rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()
    return lines


def wait_for(lines: queue.Queue, wanted: str, seconds: float = 30) -> list[str]:
    seen = []
    while wanted not in seen:
        seen.append(lines.get(timeout=seconds))
    return seen


def test_an_award_paid_by_a_worker_reaches_the_players_stream(
    web_server, celery_worker, campaign, storyteller, player
):
    hero = Character.objects.create(campaign=campaign, owner=player, name="Aelis")
    token = Token.objects.create(user=player).key
    lines = follow(web_server.url, token, f"/api/campaigns/{campaign.pk}/stream/")
    assert wait_for(lines, "retry: 2000")[0] == "status 200 text/event-stream"

    arc = Arc.objects.create(campaign=campaign, title="Arc", length_unit="weeks")
    with transaction.atomic():
        awards.arc_award_confirm(
            arc=arc,
            checklist={"group": GROUP, "characters": {str(hero.pk): {"bounty": ["took_part"]}}},
            by=storyteller,
        )
    wait_for(lines, "event: notifications")
