"""PostgreSQL plans a repeated statement once per connection (altherion/settings.py,
DB_PREPARE_THRESHOLD): the sheet's probe, asked by every read the probe cache cannot answer, is
prepared after a few reads and then run without being planned again."""

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse

from characters import probe_cache

pytestmark = pytest.mark.services


def prepared_probes() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements"
            " WHERE statement LIKE %s AND statement LIKE %s",
            ["%campaigns_membership%", '%"characters_character"."version"%'],
        )
        return cursor.fetchone()[0]


def test_the_sheet_probe_is_planned_once_per_connection(postgres, client, player, character):
    client.force_login(player)
    url = reverse("characters:sheet", args=[character.pk])
    assert prepared_probes() == 0
    for _ in range(settings.PREPARE_THRESHOLD + 1):
        probe_cache.sheet_moved(character.pk)  # the probe's kept row spent: it asks again
        assert client.get(url).status_code == 200
    assert prepared_probes() == 1
    assert "Aelis" in client.get(url).content.decode()  # and the prepared probe answers
