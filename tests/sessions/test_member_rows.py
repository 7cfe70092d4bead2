"""The Moral panel's members written by sessions/member_rows.py are the HTML of the template
loop they replace (kept below as it was): for the Conteur and for a player, members with
injuries, badges, every special state, Fortune to ask for, a request sent back with its errors,
and names that need escaping."""

import re
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.utils import translation

from sessions.forms import FortuneRequestForm
from sessions.selectors import MemberPanel

FORMER_LOOP = """{% load i18n table_tags %}{% url 'sessions:morale_act' campaign.pk as morale_act %}{% url 'sessions:fortune_request' campaign.pk as fortune_request %}<ul class="members">
          {% for m in panel.members %}
            <li class="member" data-character="{{ m.character.pk }}">
              <strong>{{ m.character.name }}</strong>
              <span class="personal">{% translate "espoir" %} <span data-personal="hope">{{ m.hope }}</span>/{{ m.cap }} · {% translate "désespoir" %} <span data-personal="despair">{{ m.despair }}</span>/{{ m.cap }} · {% translate "Fortune" %} <span data-personal="fortune">{{ m.fortune }}</span>/5</span>
              {% if m.state_label %}<span class="badge state">{{ m.state_label }}</span>{% endif %}
              {% if m.calm %}<span class="badge calm">{% translate "Calme" %}</span>{% endif %}
              {% if m.injuries %}
                <ul class="injury-list">
                  {% for injury in m.injuries %}
                    <li>{{ injury.label }}
                      {% if is_storyteller %}
                        <form method="post" action="{% url 'sessions:injury_heal' campaign.pk injury.pk %}" hx-post="{% url 'sessions:injury_heal' campaign.pk injury.pk %}" hx-target="#morale-panel" hx-swap="outerHTML" class="inline">
                          {% csrf_token %}<button type="submit" class="link-button">{% translate "Guérie" %}</button>
                        </form>
                      {% endif %}
                    </li>
                  {% endfor %}
                </ul>
              {% endif %}
              {% if m.mine or is_storyteller %}
                <div class="member-actions">
                  {% for action, label in "spend_hope:Dépenser 1 espoir|spend_despair:Dépenser 1 désespoir"|pairs %}
                    <form method="post" action="{{ morale_act }}" hx-post="{{ morale_act }}" hx-target="#morale-panel" hx-swap="outerHTML" class="inline">
                      {% csrf_token %}<input type="hidden" name="action" value="{{ action }}"><input type="hidden" name="character" value="{{ m.character.pk }}">
                      <select name="source" aria-label="{% translate 'Source' %}"><option value="group">{% translate "du groupe" %}</option><option value="personal">{% translate "personnel" %}</option></select>
                      <button type="submit" class="secondary" data-action="{{ action }}">{% translate label %}</button>
                    </form>
                  {% endfor %}
                  {% if m.mine and m.fortune %}
                    <form method="post" action="{{ fortune_request }}" hx-post="{{ fortune_request }}" hx-target="#morale-panel" hx-swap="outerHTML" class="inline fortune-request">
                      {% csrf_token %}{% fresh_idempotency_key as fortune_key %}<input type="hidden" name="idempotency_key" value="{% if fortune_form.character.value|stringformat:'s' == m.character.pk|stringformat:'s' %}{{ fortune_form.idempotency_key.value }}{% else %}{{ fortune_key }}{% endif %}"><input type="hidden" name="character" value="{{ m.character.pk }}">
                      <input type="number" name="points" min="1" max="{{ m.fortune }}" value="1" required aria-label="{% translate 'Points de Fortune' %}" class="points">
                      <input type="text" name="reason" maxlength="200" required placeholder="{% translate 'la chance au bon moment…' %}" aria-label="{% translate 'Pour quoi' %}">
                      <button type="submit" class="secondary">{% translate "Demander de la Fortune" %}</button>
                    </form>
                  {% endif %}
                  <details class="more"{% if m.state == "serenity" %} open{% endif %}>
                  <summary>{% translate "États spéciaux" %}{% if is_storyteller %} {% translate "et points personnels" %}{% endif %}</summary>
                  <form method="post" action="{{ morale_act }}" hx-post="{{ morale_act }}" hx-target="#morale-panel" hx-swap="outerHTML" class="inline">
                    {% csrf_token %}<input type="hidden" name="action" value="state_enter"><input type="hidden" name="character" value="{{ m.character.pk }}">
                    <select name="state" aria-label="{% translate 'État spécial' %}"><option value="fury">{% translate "Acharnement (1 désespoir)" %}</option><option value="blaze">{% translate "Flamboyance (1 espoir, Galvanisé)" %}</option><option value="serenity">{% translate "Apaisement (Calme)" %}</option></select>
                    <select name="source" aria-label="{% translate 'Source' %}"><option value="group">{% translate "du groupe" %}</option><option value="personal">{% translate "personnel" %}</option></select>
                    <button type="submit" class="secondary">{% translate "Entrer" %}</button>
                  </form>
                  {% if m.state == "serenity" %}
                    <form method="post" action="{{ morale_act }}" hx-post="{{ morale_act }}" hx-target="#morale-panel" hx-swap="outerHTML" class="inline">
                      {% csrf_token %}<input type="hidden" name="action" value="serenity_effect"><input type="hidden" name="character" value="{{ m.character.pk }}">
                      <select name="effect" aria-label="{% translate 'Effet' %}"><option value="hope">{% translate "effet d'espoir" %}</option><option value="despair">{% translate "effet de désespoir" %}</option></select>
                      <button type="submit" class="secondary">{% translate "Apaisement : user d'un effet" %}</button>
                    </form>
                  {% endif %}
                  {% if is_storyteller %}
                    {% for action, label in "gain_personal_hope:+1 espoir perso|gain_personal_despair:+1 désespoir perso"|pairs %}
                      <form method="post" action="{{ morale_act }}" hx-post="{{ morale_act }}" hx-target="#morale-panel" hx-swap="outerHTML" class="inline">
                        {% csrf_token %}<input type="hidden" name="action" value="{{ action }}"><input type="hidden" name="character" value="{{ m.character.pk }}">
                        <button type="submit" class="secondary">{% translate label %}</button>
                      </form>
                    {% endfor %}
                    {% if m.state and m.state != "none" and m.state != "comedown" %}
                      <form method="post" action="{{ morale_act }}" hx-post="{{ morale_act }}" hx-target="#morale-panel" hx-swap="outerHTML" class="inline">
                        {% csrf_token %}<input type="hidden" name="action" value="state_end"><input type="hidden" name="character" value="{{ m.character.pk }}">
                        <button type="submit" class="secondary">{% translate "Fin de l'état" %}</button>
                      </form>
                    {% endif %}
                  {% endif %}
                  </details>
                </div>
              {% endif %}
            </li>
          {% endfor %}
        </ul>"""
NEW = '{% load table_tags %}<ul class="members">{% member_rows panel %}</ul>'
CSRF = '<input type="hidden" name="csrfmiddlewaretoken" value="TOKEN">'


def member(pk, name, *, state="none", label="", mine=False, injuries=(), fortune=0, calm=False):
    wounds = [SimpleNamespace(pk=pk * 10 + i, label=w) for i, w in enumerate(injuries, 1)]
    character = SimpleNamespace(pk=pk, name=name)
    return MemberPanel(
        character=character,
        hope=pk,
        despair=pk + 1,
        cap=4,
        calm=calm,
        state=state,
        state_label=label,
        mine=mine,
        injuries=wounds,
        fortune=fortune,
    )


MEMBERS = [
    member(1, 'Aelis <la "Brave"> & co', mine=True, fortune=3, injuries=["Bras <cassé>"]),
    member(2, "Brann", state="serenity", label="Apaisement", calm=True, fortune=2),
    member(3, "Cyra", state="fury", label="Acharnement", injuries=["Œil", "Jambe"]),
    member(4, "Dov", state="comedown", label="Contrecoup", mine=True),
    member(5, "Eryn", mine=True, fortune=1, state="blaze", label="Flamboyance"),
]


def _flat(html: str) -> str:
    html = re.sub(r"[0-9a-f]{32}", "KEY", html)  # fresh idempotency keys
    # The template writes its own translated words as they are; the writer escapes them too, so
    # an apostrophe comes out as &#x27;: the same text on the page.
    html = html.replace("&#x27;", "'")
    return re.sub(r"\s+", " ", html).strip()  # a line break shows as a space, no more


def _drawn(template: str, **context) -> str:
    panel = SimpleNamespace(members=MEMBERS)
    values = {"panel": panel, "campaign": SimpleNamespace(pk=7), "csrf_token": "TOKEN"}
    with translation.override("fr"):
        return _flat(Template(template).render(Context({**values, **context})))


@pytest.mark.parametrize("storyteller", [True, False], ids=["Conteur", "joueur"])
def test_the_rows_are_the_former_loops(storyteller):
    assert _drawn(NEW, is_storyteller=storyteller) == _drawn(
        FORMER_LOOP, is_storyteller=storyteller
    )


def test_a_request_sent_back_keeps_its_key_for_its_member_only():
    sent = FortuneRequestForm({"character": "5", "points": "9", "idempotency_key": "k" * 32})
    sent.is_valid()
    new = _drawn(NEW, is_storyteller=False, fortune_form=sent)
    assert new == _drawn(FORMER_LOOP, is_storyteller=False, fortune_form=sent)
    assert new.count("k" * 32) == 1


def test_the_sample_shows_every_branch():
    html = _drawn(NEW, is_storyteller=True)
    for shown in ("injury-list", "badge calm", "badge state", "fortune-request", "serenity_effect"):
        assert shown in html
    assert "state_end" in html and "Aelis &lt;la &quot;Brave&quot;&gt; &amp; co" in html
