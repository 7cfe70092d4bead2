"""The sheet page's forms to a screen reader (issue 16 §16, §17): no id twice on the page, every
label's `for` and every `aria-describedby` points at an element of the page, every input and
select has an accessible name, every edit link says what it edits, and the actions change the
content of the live region, never the region itself."""

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from characters.forms import DamageForm, HealForm, RestForm, StabiliseForm

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


class Audit(HTMLParser):
    """Ids, label targets, aria-describedby targets and the fields with no accessible name."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.label_for: list[str] = []
        self.described_by: list[str] = []
        self.fields: list[dict] = []  # inputs, selects and textareas, with `inside_label`
        self.edit_links: list[str | None] = []
        self.labels_open = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "label":
            self.labels_open += 1
            if attrs.get("for") is not None:
                self.label_for.append(attrs["for"])
        self.described_by += (attrs.get("aria-describedby") or "").split()
        if tag in ("input", "select", "textarea") and attrs.get("type") not in (
            "hidden",
            "submit",
            "button",
        ):
            self.fields.append({**attrs, "tag": tag, "inside_label": self.labels_open > 0})
        if tag == "a" and "editable" in (attrs.get("class") or "").split():
            self.edit_links.append(attrs.get("aria-label"))

    def handle_endtag(self, tag):
        if tag == "label":
            self.labels_open -= 1


def audit(html: str) -> Audit:
    found = Audit()
    found.feed(html)
    return found


def problems(html: str) -> list[str]:
    page = audit(html)
    ids = set(page.ids)
    found = [f"id {i!r} twice" for i in sorted(ids) if page.ids.count(i) > 1]
    found += [f"label for {i!r}: no such element" for i in page.label_for if i not in ids]
    found += [f"aria-describedby {i!r}: no such element" for i in page.described_by if i not in ids]
    for field in page.fields:
        named = (
            field["inside_label"]
            or field.get("aria-label")
            or field.get("aria-labelledby")
            or field.get("id") in page.label_for
        )
        if not named:
            found.append(f"{field['tag']} {field.get('name')!r} has no accessible name")
    return found


@pytest.fixture
def sheet_url(character):
    return reverse("characters:sheet", args=[character.pk])


def test_the_checks_can_fail():
    html = (
        '<form><select id="id_gauge" name="gauge"></select><select name="rank"></select></form>'
        '<form><label for="id_gauge">Constitution</label><select id="id_gauge"></select>'
        '<label for="id_points">Points</label>'
        '<input name="level" aria-describedby="id_level_helptext"></form>'
    )
    assert problems(html) == [
        "id 'id_gauge' twice",
        "label for 'id_points': no such element",
        "aria-describedby 'id_level_helptext': no such element",
        "select 'rank' has no accessible name",
        "input 'level' has no accessible name",
    ]


@pytest.mark.parametrize("query", ["", "?edit=strength", "?edit=notes", "?edit=species"])
def test_the_editors_sheet_has_unique_ids_and_named_fields(client, player, sheet_url, query):
    client.force_login(player)
    html = client.get(sheet_url + query).content.decode()
    assert problems(html) == []
    page = audit(html)
    # The four action forms and the two add forms each have their own fields on the page.
    for name in ("damage-gauge", "heal-gauge", "stabilise-gauge", "rest-rank"):
        assert f'name="{name}"' in html
    assert {"id_heal-gauge", "id_stabilise-gauge", "id_damage-gauge"} <= set(page.label_for)


def test_the_storytellers_and_a_readers_sheet_have_no_broken_reference(
    client, storyteller, other_player, sheet_url
):
    for user in (storyteller, other_player):
        client.force_login(user)
        assert problems(client.get(sheet_url).content.decode()) == []


def test_a_refused_edit_points_at_its_error(client, player, character):
    client.force_login(player)
    url = reverse("characters:field", args=[character.pk, "strength"])
    html = client.post(url, {"value": 99, "version": 1}, **HX).content.decode()
    assert 'aria-describedby="id_value_strength_error"' in html
    assert 'aria-invalid="true"' in html
    assert problems(html) == []


def test_a_refused_skill_points_at_its_error_and_its_help(client, player, character):
    client.force_login(player)
    url = reverse("characters:skill_add", args=[character.pk])
    body = {"skill-add-skill": "tir", "skill-add-level": 99, "skill-add-version": 1}
    html = client.post(url, body, **HX).content.decode()
    assert "id_skill-add-level_error" in audit(html).described_by
    assert "id_skill-add-expertises_helptext" in audit(html).described_by
    assert problems(html) == []
    assert not character.skills.filter(key="tir").exists()


def test_every_edit_link_says_what_it_edits_and_its_value(client, player, character, sheet_url):
    character.strength = 3
    character.save()
    client.force_login(player)
    links = audit(client.get(sheet_url).content.decode()).edit_links
    assert "Modifier Force : 3" in links
    assert "Modifier Vitalité (cicatrices) : 0" in links
    assert "Modifier Lignée (vide)" in links
    assert None not in links
    assert len(set(links)) == len(links)  # no two links read alike


def test_the_action_forms_read_their_prefixed_names(client, player, character):
    """The page posts `heal-gauge`, not `gauge`: an unprefixed body is refused, not applied."""
    character.energy_current = 5
    character.save()
    client.force_login(player)
    url = reverse("characters:heal", args=[character.pk])
    client.post(url, {"gauge": "energy", "points": 4}, **HX)
    character.refresh_from_db()
    assert character.energy_current == 5
    client.post(url, {"heal-gauge": "energy", "heal-points": 4}, **HX)
    character.refresh_from_db()
    assert character.energy_current == 9
    assert [form.prefix for form in (DamageForm(), RestForm(), HealForm(), StabiliseForm())] == [
        "damage",
        "rest",
        "heal",
        "stabilise",
    ]


def test_an_action_changes_the_live_regions_content_not_the_region(
    client, player, character, sheet_url
):
    client.force_login(player)
    page = client.get(sheet_url).content.decode()
    assert page.count('id="action-messages"') == 1
    assert 'hx-target="#action-messages" hx-swap="outerHTML"' not in page
    assert page.count('hx-target="#action-messages" hx-swap="innerHTML"') == 4
    url = reverse("characters:stabilise", args=[character.pk])
    response = client.post(url, {"stabilise-gauge": "vitality"}, **HX).content.decode()
    # The answer is the region's new content: the message, without a second region around it.
    assert 'id="action-messages"' not in response
    assert response.lstrip().startswith('<ul class="messages">')
