"""The table's roll form drawn without a template per widget (characters.forms_render, issue 15):
the same HTML as Django's own renderer, blank, bound with errors and bound with good values."""

import pytest
from django.forms.renderers import DjangoTemplates

from characters.forms_render import RENDERER
from sessions.forms import RollForm
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


def _forms(characters):
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


def test_the_roll_forms_widgets_are_django_s_own_html(aelis, brann):
    aelis.name = "Aelis <la Brune>"
    aelis.save()
    django_renderer = DjangoTemplates()
    for form in _forms([aelis, brann]):
        assert form.renderer is RENDERER
        if form.is_bound:
            form.is_valid()  # the errors drawn too
        ours = [str(field) for field in form]
        form.renderer = django_renderer
        assert ours == [str(field) for field in form]
