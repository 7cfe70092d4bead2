"""The campaign personas, clients and factories (tests/campaign_fixtures.py), and API clients
signed in as each persona."""

import pytest
from rest_framework.test import APIClient

from tests.campaign_fixtures import *  # noqa: F403 (fixtures)


@pytest.fixture
def clients(storyteller, player, other_player, outsider):
    def signed_in(user):
        client = APIClient()
        client.force_login(user)
        return client

    return {
        "anonymous": APIClient(),
        "outsider": signed_in(outsider),
        "other": signed_in(other_player),
        "player": signed_in(player),
        "storyteller": signed_in(storyteller),
    }
