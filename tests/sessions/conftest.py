"""The campaign personas, clients and factories (tests/campaign_fixtures.py)."""

from tests.campaign_fixtures import *  # noqa: F403 (fixtures)
