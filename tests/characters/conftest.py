"""Character factories (tests/character_fixtures.py)."""

from tests.character_fixtures import *  # noqa: F403 (fixtures)
