"""The Moral panel's members (a loop of `sessions/page.html#morale`): for the Conteur and for a
player, members with injuries, badges, every special state, Fortune to ask for, a request sent
back with its errors, and names that need escaping."""

import re
from types import SimpleNamespace

from django.template.loader import render_to_string
from django.utils import translation

from sessions.forms import FortuneRequestForm
from sessions.selectors import MemberPanel


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


def _drawn(**context) -> str:
    panel = SimpleNamespace(
        members=MEMBERS, capacity=5, hope=0, despair=0, room=5, fate=0, fortune_requests=[]
    )
    values = {"panel": panel, "campaign": SimpleNamespace(pk=7), "csrf_token": "TOKEN"}
    with translation.override("fr"):
        html = render_to_string("sessions/page.html#morale", {**values, **context})
    return re.sub(r"\s+", " ", html)


def _member(html: str, pk: int) -> str:
    return html.split(f'data-character="{pk}"', 1)[1].split('<li class="member"', 1)[0]


def test_the_storyteller_gets_every_members_controls():
    html = _drawn(is_storyteller=True)
    for shown in ("injury-list", "badge calm", "badge state", "serenity_effect", "state_end"):
        assert shown in html
    assert html.count('<li class="member"') == len(MEMBERS)
    assert all('class="member-actions"' in _member(html, m.character.pk) for m in MEMBERS)
    assert "/campaigns/7/table/injuries/32/heal/" in _member(html, 3)  # Cyra's Jambe
    assert "Aelis &lt;la &quot;Brave&quot;&gt; &amp; co" in html and "Bras &lt;cassé&gt;" in html


def test_a_player_acts_for_their_own_characters_only():
    html = _drawn(is_storyteller=False)
    assert [
        m.character.pk for m in MEMBERS if 'class="member-actions"' in _member(html, m.character.pk)
    ] == [1, 4, 5]
    assert "Guérie" not in html and "state_end" not in html
    assert 'class="inline fortune-request"' in _member(html, 1)
    assert 'max="3"' in _member(html, 1)
    assert "fortune-request" not in _member(html, 4)  # no Fortune to ask for


def test_a_request_sent_back_keeps_its_key_for_its_member_only():
    sent = FortuneRequestForm({"character": "5", "points": "9", "idempotency_key": "k" * 32})
    sent.is_valid()
    html = _drawn(is_storyteller=False, fortune_form=sent)
    assert html.count("k" * 32) == 1 and "k" * 32 in _member(html, 5)
    keys = re.findall(r'name="idempotency_key" value="([^"]+)"', _member(html, 1))
    assert len(keys) == 1 and keys[0] != "k" * 32
