"""Character factories (tests/character_fixtures.py); every test starts with an empty cache."""

import pytest
from django.core.cache import cache

from tests.character_fixtures import *  # noqa: F403 (fixtures)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test's rolled-back rows give their ids to the next test's: a page or a detail kept
    under (id, version) by one test must not answer another's."""
    cache.clear()
    yield
    cache.clear()
