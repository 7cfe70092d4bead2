"""The sheet's skill rows written by characters/skill_rows.py are the HTML of the template loop
they replace (kept below as it was), for the player who edits and for one who reads, with a
knowledge skill (no odds) and expertises that need escaping."""

import re

import pytest
from django.template import Context, Template
from django.test import RequestFactory

from characters.models import CharacterSkill
from characters.selectors import character_get_for_sheet
from characters.sheet_page import sheet_context

pytestmark = pytest.mark.django_db

WORDS = (
    '{% translate "Enregistrer" as t_save %}{% translate "Retirer" as t_remove %}'
    '{% translate "Lancer" as t_roll %}{% translate "savoir (pas de jet)" as t_knowledge %}'
    '{% translate "Expertises, séparées par des virgules" as t_expertises %}'
)
FORMER_LOOP = """<tbody>{% for item in group.skills %}{% with row=item.row odds=item.odds %}
<tr id="skill-{{ item.id }}">
  <th scope="row">{{ row.label }}</th>
  {% if character.can_edit %}
    <td colspan="2" class="no-print">
      <form class="row-form" method="post" action="{{ item.url }}"
            hx-post="{{ item.url }}" hx-target="#skills" hx-swap="outerHTML">
        {% csrf_token %}<input type="hidden" name="version" value="{{ item.version }}">
        <label class="visually-hidden" for="skill-level-{{ item.id }}">{{ item.level_label }}</label>
        <input id="skill-level-{{ item.id }}" class="num" type="number" name="level" min="0" max="10" value="{{ item.level }}">
        <label class="visually-hidden" for="skill-exp-{{ item.id }}">{{ item.expertises_label }}</label>
        <input id="skill-exp-{{ item.id }}" type="text" name="expertises" value="{{ row.expertises|join:', ' }}" placeholder="{{ t_expertises }}">
        <button type="submit" class="small secondary">{{ t_save }}</button>
      </form>
    </td>
    <td class="print-only">{{ item.level }}</td><td class="print-only">{{ row.expertises|join:", "|default:"—" }}</td>
  {% else %}
    <td>{{ item.level }}</td><td>{{ row.expertises|join:", "|default:"—" }}</td>
  {% endif %}
  {% if odds %}
    <td class="odds">{{ odds.success|percent }}</td><td class="odds">{{ odds.critical_success|percent }}</td><td class="odds">{{ odds.critical_failure|percent }}</td>
  {% else %}<td colspan="3" class="help">{{ t_knowledge }}</td>{% endif %}
  {% if character.can_edit %}<td class="no-print">
    {% if odds %}<a class="small button secondary" href="{{ urls.table }}?character={{ character.pk }}&amp;skill={{ row.key|urlencode }}">{{ t_roll }}</a>{% endif %}
    <form method="post" action="{{ item.url }}" hx-post="{{ item.url }}" hx-target="#skills" hx-swap="outerHTML" data-confirm="{{ item.remove_confirm }}">
      {% csrf_token %}<input type="hidden" name="version" value="{{ item.version }}"><input type="hidden" name="level" value="{{ item.level }}"><input type="hidden" name="remove" value="1">
      <button type="submit" class="small secondary">{{ t_remove }}</button>
    </form>
  </td>{% endif %}
</tr>
{% endwith %}
{% endfor %}</tbody>"""


def _flat(html: str) -> str:
    return re.sub(r"> <", "><", re.sub(r"\s+", " ", html)).strip()


def _groups_drawn(user, character, template: str) -> list[str]:
    request = RequestFactory().get("/")
    request.user = user
    loaded = character_get_for_sheet(user=user, pk=character.pk)
    context = {**sheet_context(request, loaded), "csrf_token": "jeton"}
    drawn = Template("{% load i18n sheet_tags %}" + WORDS + template)
    return [
        _flat(drawn.render(Context({**context, "group": group})))
        for group in context["skill_groups"]()  # built when first asked for
    ]


@pytest.mark.parametrize("persona", ["player", "other_player"])
def test_the_rows_are_the_former_loop_s_html(request, persona, make_character):
    character = make_character()
    CharacterSkill.objects.create(
        character=character, key="melee", level=3, expertises=["Lames", "<b>Dagues</b> & co"]
    )
    CharacterSkill.objects.create(character=character, key="history", level=2)  # never rolled
    CharacterSkill.objects.create(
        character=character, key="Runes <anciennes>", kind="forgotten_domain", level=1
    )
    user = request.getfixturevalue(persona)
    ours = _groups_drawn(user, character, "<tbody>{% skill_rows group.skills %}</tbody>")
    former = _groups_drawn(user, character, FORMER_LOOP)
    assert ours == former
    rows = "".join(ours)
    assert rows.count("<tr ") == 3 and "&lt;b&gt;Dagues&lt;/b&gt; &amp; co" in rows
    assert ("Enregistrer" in rows) is (persona == "player")
