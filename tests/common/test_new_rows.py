"""`new_row` gives the instance `Model(**values)` gives (common/new_rows.py)."""

import pytest

from common.new_rows import new_row
from sessions.models import Roll, TableEvent
from tests.character_fixtures import *  # noqa: F403 (fixtures: the sheet factories)

pytestmark = pytest.mark.django_db


def _state(row):
    values = {k: v for k, v in row.__dict__.items() if k != "_state"}
    return values, dict(row._state.fields_cache), row._state.adding, row._state.db


def test_a_new_row_is_the_instance_its_keywords_make(campaign, player, character):
    given = {
        "campaign": campaign,
        "play_session": None,
        "character": character,
        "label": "Crocheter",
        "rolled_by": player,
        "visibility": "public",
        "characteristic": "finesse",
        "skills": ["stealth"],
        "inputs": {"complexity": 2},
        "breakdown": {"dice": [3, 9]},
        "outcome": "success",
        "total": 14,
        "target": 12,
        "margin": 2,
        "zone": False,
        "idempotency_key": "k1",
        "request_digest": "d",
    }
    assert _state(new_row(Roll, **given)) == _state(Roll(**given))
    made = new_row(Roll, **given)
    assert made.character is character and made.rolled_by is player and made.arc_id is None
    line = {"campaign_id": campaign.pk, "kind": "roll", "actor": player, "character": None}
    assert _state(new_row(TableEvent, **line, summary="x")) == _state(
        TableEvent(**line, summary="x")
    )
    assert new_row(TableEvent, **line).payload == {} and new_row(TableEvent, **line).roll is None


def test_a_keyword_that_names_no_field_is_refused():
    with pytest.raises(TypeError, match="colour"):
        new_row(TableEvent, kind="roll", colour="red")
