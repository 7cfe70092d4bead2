"""`form|fields_named:"…"` picks the roll form's fields the page draws, in order, skipping one the
form has not; each is drawn by `sessions/_field.html` with its label, help and escaped errors."""

import pytest
from django.template import Context, Template

from sessions.forms import RollForm
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db

DRAWN = (
    "{% load table_tags %}{% for field in form|fields_named:names %}"
    '{% include "sessions/_field.html" %}{% endfor %}'
)


def _forms(characters):
    """The roll form blank, bound with bad values, and bound with good ones."""
    yield RollForm(characters=characters, storyteller=True)
    yield RollForm(
        {"character": "x", "characteristic": "<b>", "complexity": "99", "skills": ["nope"]},
        characters=characters,
    )
    yield RollForm(
        {"character": characters[0].pk, "characteristic": "strength", "complexity": "2"},
        characters=characters,
        storyteller=True,
    )


def draw(form, names: str) -> str:
    return Template(DRAWN).render(Context({"form": form, "names": names}))


def test_the_filter_skips_a_field_the_form_has_not(aelis, brann):
    form = next(_forms([aelis, brann]))
    drawn = draw(form, "difficulty nothing label")
    assert drawn.count('<div class="field') == 2
    assert drawn.index('for="id_difficulty"') < drawn.index('for="id_label"')


def test_a_field_with_errors_says_them_escaped(aelis, brann):
    aelis.name = "Aelis <la Brune>"
    aelis.save()
    form = list(_forms([aelis, brann]))[1]
    form.is_valid()
    drawn = draw(form, "character characteristic")
    assert drawn.count('class="field has-error"') == 2
    assert 'id="id_characteristic_error"' in drawn and "<b>" not in drawn
