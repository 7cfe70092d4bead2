"""The sheet's gauge blocks written by `{% gauge_blocks %}` are the HTML of the template loop
they replace (kept below as it was): for the owner who edits, for another player who reads, and
with one of the gauge's fields in edit mode."""

import re

import pytest
from django.template import Context, Template
from django.test import RequestFactory

from characters.selectors import character_get_for_sheet
from characters.sheet_page import sheet_context

pytestmark = pytest.mark.django_db

FORMER_LOOP = """    {% for view in derived.gauges %}
      <div class="gauge" id="gauge-{{ view.key }}">
        <h3>{{ view.label }} <span class="gauge-numbers"><span id="gauge-{{ view.key }}-current">{{ view.gauge.current }}</span> / <span id="gauge-{{ view.key }}-max">{{ view.gauge.maximum }}</span></span></h3>
        <div class="bars">
          <label class="bar-label">{% translate "Actuel" %} <progress class="bar bar-current" id="bar-{{ view.key }}-current" max="{{ view.gauge.maximum }}" value="{{ view.gauge.current }}">{{ view.gauge.current }} / {{ view.gauge.maximum }}</progress></label>
          <label class="bar-label">{% translate "Cicatrices" %} <progress class="bar bar-scars" id="bar-{{ view.key }}-scars" max="{{ view.gauge.maximum }}" value="{{ view.gauge.scars }}">{{ view.gauge.scars }}</progress></label>
          <label class="bar-label">{% translate "Éphémère" %} <progress class="bar bar-ephemeral" id="bar-{{ view.key }}-ephemeral" max="{{ view.gauge.maximum }}" value="{{ view.gauge.ephemeral }}">{{ view.gauge.ephemeral }}</progress></label>
        </div>
        <p class="help gauge-rest" id="gauge-{{ view.key }}-rest">{% blocktranslate with column=view.column_label score=view.column_score points=view.rest_points %}{{ column }} {{ score }} · repos normal : +{{ points }}{% endblocktranslate %}</p>
        {% with current_name=view.key|add:"_current" scars_name=view.key|add:"_scars" eph_name=view.key|add:"_ephemeral" stab_name=view.key|add:"_stabilised" peril_name=view.key|add:"_peril" %}
        <dl class="pairs compact">
          <dt>{% translate "Actuel" %}</dt><dd>{% sheet_field current_name %}</dd>
          <dt>{% translate "Cicatrices" %}</dt><dd>{% sheet_field scars_name %}</dd>
          <dt>{% translate "Éphémère" %}</dt><dd>{% sheet_field eph_name %}</dd>
          <dt>{% translate "Stabilisé" %}</dt><dd>{% sheet_field stab_name %}</dd>
          <dt>{% translate "Péril" %}</dt><dd>{% sheet_field peril_name %}</dd>
        </dl>
        {% endwith %}
      </div>
    {% endfor %}
"""


def _flat(html: str) -> str:
    html = html.replace("&#x27;", "'")  # a translated word: the template writes it as it is
    return re.sub(r"\s+", " ", html).strip()  # a line break shows as a space, no more


def _drawn(user, character, template: str, edit: str = "") -> str:
    request = RequestFactory().get("/", {"edit": edit} if edit else {})
    request.user = user
    loaded = character_get_for_sheet(user=user, pk=character.pk)
    context = {**sheet_context(request, loaded), "csrf_token": "jeton"}
    drawn = Template("{% load i18n sheet_tags %}" + template)
    return _flat(drawn.render(Context(context)))


@pytest.mark.parametrize(
    ("persona", "edit"),
    [("player", ""), ("other_player", ""), ("player", "vitality_scars"), ("player", "karma")],
)
def test_the_blocks_are_the_former_loop_s_html(request, persona, edit, make_character):
    character = make_character(vitality_current=3, vitality_scars=2, energy_ephemeral=1)
    user = request.getfixturevalue(persona)
    ours = _drawn(user, character, "{% gauge_blocks derived.gauges %}", edit)
    assert ours == _drawn(user, character, FORMER_LOOP, edit)
    assert ours.count('class="gauge"') == 3 and "repos normal" in ours
    assert ("editable" in ours) is (persona == "player")
    assert ('name="value"' in ours) is (edit == "vitality_scars")
