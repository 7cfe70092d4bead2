"""`{% fields %}` draws the roll form's fields as `sessions/_field.html` does, one include per
field (issue 15): the same HTML blank, bound with errors (escaped) and bound with good values."""

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string

from sessions.templatetags.table_tags import field_html
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_roll_form_html import _forms

pytestmark = pytest.mark.django_db


def test_each_field_is_the_include_s_html(aelis, brann):
    aelis.name = "Aelis <la Brune>"
    aelis.save()
    for form in _forms([aelis, brann]):
        if form.is_bound:
            assert not form.is_valid() or form.errors == {}
        for bound in form:
            included = render_to_string("sessions/_field.html", {"field": bound})
            assert field_html(bound) == included, bound.name


def test_the_tag_skips_a_field_the_form_has_not(aelis, brann):
    form = next(_forms([aelis, brann]))
    drawn = Template('{% load table_tags %}{% fields form "difficulty nothing label" %}').render(
        Context({"form": form})
    )
    assert drawn.count('<div class="field') == 2
    assert 'for="id_difficulty"' in drawn and 'for="id_label"' in drawn
