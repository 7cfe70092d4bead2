"""The campaign personas, clients and factories (tests/campaign_fixtures.py)."""

from tests.campaign_fixtures import *  # noqa: F403 (fixtures)
from tests.campaigns.webhook_receiver import receiver  # noqa: E402, F401 (fixture)
