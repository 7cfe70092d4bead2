"""The table's API keeps a member's campaign in the cache (campaigns/member_cache.py): a call with
a token after the first reads no membership, and any change to the membership, the campaign or
the user is read by the next call."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from campaigns import services as campaign_services
from campaigns.models import Membership
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key
from tests.sessions.test_lean_writes import (
    API_ROLL_STATEMENTS,
    membership_reads,
    plain_roll,
    rolls_url,
    sql,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("empty_cache")]


def token_client(user) -> APIClient:
    return APIClient(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")


def test_a_roll_after_the_first_reads_no_membership(player, campaign, aelis):
    client = token_client(player)
    first = client.post(
        rolls_url(campaign), plain_roll(aelis, idempotency_key=key()), format="json"
    )
    assert first.status_code == 201, first.json()
    with CaptureQueriesContext(connection) as queries:
        made = client.post(
            rolls_url(campaign), plain_roll(aelis, idempotency_key=key()), format="json"
        )
    assert made.status_code == 201, made.json()
    statements = sql(queries)
    assert membership_reads(statements) == []
    # Nor its roller's sheet: sessions/roller_cache.py (tests/sessions/test_roller_cache.py).
    assert len(statements) == API_ROLL_STATEMENTS - 2, "\n".join(statements)


def test_a_member_removed_is_a_404_at_the_next_call(player, campaign, aelis):
    client = token_client(player)
    log = f"/api/campaigns/{campaign.pk}/log/"
    assert client.get(log).status_code == 200
    assert client.get(log).status_code == 200  # from the cache
    campaign_services.membership_remove(
        membership=Membership.objects.get(campaign=campaign, user=player)
    )
    assert client.get(log).status_code == 404


def test_a_campaign_renamed_is_read_again_at_the_next_call(player, campaign, aelis):
    client = token_client(player)
    rolls = rolls_url(campaign)
    assert client.get(rolls).status_code == 200
    campaign_services.campaign_update(campaign=campaign, name="La Marche grise")
    with CaptureQueriesContext(connection) as after_the_change:
        assert client.get(rolls).status_code == 200
    with CaptureQueriesContext(connection) as next_one:
        assert client.get(rolls).status_code == 200
    assert len(membership_reads(sql(after_the_change))) == 1  # the counter moved: read again
    assert membership_reads(sql(next_one)) == []  # and kept under the new counter
