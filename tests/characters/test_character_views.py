"""The sheet page: reading, in-place edits with derived values swapped back, conflicts, actions."""

from html import unescape

import pytest
from django.urls import reverse

from characters.models import CharacterChange, CharacterSkill
from rules import french, reference
from rules import sheet as rules_sheet
from rules.check import Check
from rules.odds import check_odds

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def sheet_url(character):
    return reverse("characters:sheet", args=[character.pk])


def field_url(character, field):
    return reverse("characters:field", args=[character.pk, field])


def scores_with(character, **changes):
    values = {name: getattr(character, name) for name in reference.CHARACTERISTICS}
    values.update(changes)
    return rules_sheet.sheet_scores(rules_sheet.Characteristics(**values))


# --- who sees what --------------------------------------------------------------------------


def test_owner_reads_an_editable_sheet(client, player, character):
    character.private_notes = "Craint les loups."
    character.save()
    client.force_login(player)
    response = client.get(sheet_url(character))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Aelis" in body
    assert field_url(character, "strength") in body
    assert "Craint les loups." in body


def test_other_member_reads_without_edit_links_or_private_notes(client, other_player, character):
    character.private_notes = "Craint les loups."
    character.save()
    client.force_login(other_player)
    response = client.get(sheet_url(character))
    assert response.status_code == 200
    body = response.content.decode()
    assert "lecture seule" in body
    assert field_url(character, "strength") not in body
    assert "Craint les loups." not in body


def test_storyteller_sees_private_notes_and_edits(client, storyteller, character):
    character.private_notes = "Craint les loups."
    character.save()
    client.force_login(storyteller)
    body = client.get(sheet_url(character)).content.decode()
    assert "Craint les loups." in body
    assert field_url(character, "exaltation") in body


def test_outsider_gets_404_everywhere(client, outsider, character):
    client.force_login(outsider)
    assert client.get(sheet_url(character)).status_code == 404
    response = client.post(field_url(character, "strength"), {"value": 3, "version": 1})
    assert response.status_code == 404
    assert client.get(reverse("characters:history", args=[character.pk])).status_code == 404


def test_anonymous_is_sent_to_login(client, character):
    response = client.get(sheet_url(character))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_reader_cannot_edit(client, other_player, character):
    client.force_login(other_player)
    response = client.post(field_url(character, "strength"), {"value": 3, "version": 1}, **HX)
    assert response.status_code == 403
    character.refresh_from_db()
    assert character.strength == 2


# --- in-place edits -------------------------------------------------------------------------


def test_clicking_a_field_returns_its_section_in_edit_mode(client, player, character):
    client.force_login(player)
    response = client.get(field_url(character, "strength"), **HX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="sec-characteristics"')
    assert 'name="value"' in body and 'name="version" value="1"' in body
    assert "HX-Request" in response["Vary"]
    # Without JavaScript the same link opens the field on the full page.
    response = client.get(field_url(character, "strength"))
    assert response.status_code == 302
    assert "?edit=strength" in response["Location"]
    page = client.get(response["Location"]).content.decode()
    assert 'id="id_value_strength"' in page


def test_editing_strength_swaps_back_scores_might_harmony_and_vitality_rest(
    client, player, character
):
    client.force_login(player)
    before = scores_with(character)
    response = client.post(field_url(character, "strength"), {"value": 8, "version": 1}, **HX)
    assert response.status_code == 200
    body = response.content.decode()
    after = scores_with(character, strength=8)
    assert after.columns["body"] != before.columns["body"] and after.might != before.might
    assert f'<td class="score" id="score-body">{after.columns["body"]}</td>' in body
    assert f'<dd id="might">{after.might}</dd>' in body
    assert f'<dd id="harmony">{after.harmony}</dd>' in body
    # The gauges section comes back out of band, with Vitalité's restoration from Puissance.
    assert '<section id="sec-gauges" class="card sheet-block" hx-swap-oob="true"' in body
    assert f"Corps {after.columns['body']} · repos normal : +{after.might}" in body
    assert 'id="bar-vitality-current"' in body
    character.refresh_from_db()
    assert (character.strength, character.version) == (8, 2)


def test_a_plain_post_saves_and_redirects(client, player, character):
    client.force_login(player)
    response = client.post(field_url(character, "karma"), {"value": 3, "version": 1})
    assert response.status_code == 302
    character.refresh_from_db()
    assert character.karma == 3


def test_shape_errors_come_back_with_status_200_and_change_nothing(client, player, character):
    client.force_login(player)
    response = client.post(field_url(character, "fortune"), {"value": 9, "version": 1}, **HX)
    assert response.status_code == 200
    assert "inférieure ou égale à 5" in response.content.decode()
    character.refresh_from_db()
    assert character.fortune == 0


def test_rules_errors_are_shown_in_french_next_to_the_field(client, player, character):
    client.force_login(player)
    response = client.post(field_url(character, "personal_hope"), {"value": 3, "version": 1}, **HX)
    assert response.status_code == 200
    assert "L&#x27;espoir personnel ne peut dépasser 1." in response.content.decode()
    character.refresh_from_db()
    assert character.personal_hope == 0


def test_a_stale_edit_shows_who_changed_the_field_and_its_current_value(
    client, player, storyteller, character
):
    client.force_login(storyteller)
    client.post(field_url(character, "strength"), {"value": 4, "version": 1}, **HX)
    client.force_login(player)
    response = client.post(field_url(character, "strength"), {"value": 6, "version": 1}, **HX)
    assert response.status_code == 200
    assert "Modifié entre-temps par conteur : valeur actuelle 4." in response.content.decode()
    character.refresh_from_db()
    assert character.strength == 4
    # A stale edit of another field still goes through.
    response = client.post(field_url(character, "karma"), {"value": 2, "version": 1}, **HX)
    character.refresh_from_db()
    assert character.karma == 2


def test_exaltation_is_edited_by_the_storyteller_only(client, player, storyteller, character):
    client.force_login(player)
    response = client.post(field_url(character, "exaltation"), {"value": 2, "version": 1}, **HX)
    assert response.status_code == 403
    client.force_login(storyteller)
    client.post(field_url(character, "exaltation"), {"value": 2, "version": 1}, **HX)
    character.refresh_from_db()
    assert character.exaltation == 2


# --- skills, odds and languages --------------------------------------------------------------


def test_each_rolled_skill_shows_the_exact_odds_of_the_chosen_check(client, player, character):
    client.force_login(player)
    params = {"part": "skills", "characteristic": "agility", "complexity": 1, "difficulty": 12}
    response = client.get(sheet_url(character), params, **HX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="skills"')
    odds = check_odds(Check(skill=2, complexity=1, characteristic=2, difficulty=12))
    assert french.percent(odds.success) in body
    assert french.percent(odds.critical_failure) in body


def test_skill_level_and_expertises_are_saved_from_the_row(client, player, character):
    client.force_login(player)
    url = reverse("characters:skill", args=[character.pk, "melee"])
    response = client.post(url, {"level": 4, "expertises": "Haches, Lances", "version": 1}, **HX)
    assert response.status_code == 200
    row = character.skills.get(key="melee")
    assert (row.level, row.expertises) == (4, ["Haches", "Lances"])


def test_adding_a_skill_and_a_language(client, player, character):
    client.force_login(player)
    client.post(
        reverse("characters:skill_add", args=[character.pk]),
        {"skill-add-skill": "tir", "skill-add-level": 1, "skill-add-expertises": ""}
        | {"skill-add-version": 1},
        **HX,
    )
    assert character.skills.filter(key="tir", level=1).exists()
    client.post(
        reverse("characters:language", args=[character.pk, "new"]),
        {"language-add-language": "central", "language-add-level": 3}
        | {"language-add-writing": "on", "language-add-version": 2},
        **HX,
    )
    assert character.languages.filter(key="central", level=3, writing=True).exists()


# --- actions --------------------------------------------------------------------------------


def test_damage_then_stabilise_then_rest_go_through_the_rules_and_the_history(
    client, storyteller, character
):
    client.force_login(storyteller)
    url = reverse("characters:damage", args=[character.pk])
    body = {"damage-gauge": "vitality", "damage-amount": 20, "damage-scars": 0}
    response = client.post(url, body, **HX)
    assert response.status_code == 200
    character.refresh_from_db()
    assert (character.vitality_current, character.vitality_peril, character.agony) == (0, True, 1)
    assert "Vitalité en péril" in response.content.decode()
    stabilise = reverse("characters:stabilise", args=[character.pk])
    client.post(stabilise, {"stabilise-gauge": "vitality"}, **HX)
    character.refresh_from_db()
    assert (character.vitality_stabilised, character.vitality_peril) == (True, False)
    client.post(reverse("characters:rest", args=[character.pk]), {"rest-rank": "normal"})
    character.refresh_from_db()
    might = scores_with(character).might
    assert character.vitality_current == might
    assert character.agony == 0  # lost after a full rest when stable
    actions = set(CharacterChange.objects.values_list("action", flat=True))
    assert actions == {"damage", "stabilise", "rest"}


def test_ephemeral_points_absorb_damage_first(client, player, character):
    character.vitality_ephemeral = 5
    character.save()
    client.force_login(player)
    client.post(
        reverse("characters:damage", args=[character.pk]),
        {"damage-gauge": "vitality", "damage-amount": 7, "damage-scars": 1},
    )
    character.refresh_from_db()
    assert (character.vitality_ephemeral, character.vitality_current) == (0, 13)
    assert character.vitality_scars == 1


# --- history --------------------------------------------------------------------------------


def test_history_lists_changes_and_the_storyteller_restores(client, player, storyteller, character):
    client.force_login(player)
    client.post(field_url(character, "karma"), {"value": 7, "version": 1})
    response = client.get(reverse("characters:history", args=[character.pk]))
    body = response.content.decode()
    assert "Karma" in body and "0 → 7" in body and "aelis" in body
    assert "Restaurer" not in body
    change = CharacterChange.objects.get()
    restore = reverse("characters:history_restore", args=[character.pk, change.pk])
    assert client.post(restore).status_code == 403
    client.force_login(storyteller)
    assert client.post(restore).status_code == 302
    character.refresh_from_db()
    assert character.karma == 0


def test_restoring_an_empty_value_says_so(client, player, storyteller, character):
    """A lineage first written from nothing: its history and restore button say « (vide) »,
    not « Restaurer «  » »; the button empties it again."""
    client.force_login(player)
    client.post(field_url(character, "lineage"), {"value": "Maison d'Ambre", "version": 1})
    client.force_login(storyteller)
    body = unescape(client.get(reverse("characters:history", args=[character.pk])).content.decode())
    assert "(vide) → Maison d'Ambre" in body
    assert "Restaurer (vide)" in body
    assert "« »" not in " ".join(body.split())
    change = CharacterChange.objects.get()
    client.post(reverse("characters:history_restore", args=[character.pk, change.pk]))
    character.refresh_from_db()
    assert character.lineage == ""
    body = unescape(client.get(reverse("characters:history", args=[character.pk])).content.decode())
    assert "Maison d'Ambre → (vide)" in body and "Restaurer « Maison d'Ambre »" in body


def test_private_note_changes_are_hidden_from_other_members(
    client, player, other_player, character
):
    client.force_login(player)
    client.post(field_url(character, "private_notes"), {"value": "secret", "version": 1})
    client.force_login(other_player)
    body = client.get(reverse("characters:history", args=[character.pk])).content.decode()
    assert "secret" not in body


# --- constant queries -----------------------------------------------------------------------


def _grow(character, player, skills: int, changes: int):
    keys = [s.key for s in reference.SKILLS][:skills]
    CharacterSkill.objects.bulk_create(
        CharacterSkill(character=character, key=k, level=1) for k in keys
    )
    CharacterChange.objects.bulk_create(
        CharacterChange(character=character, version=1, field="karma", by=player)
        for _ in range(changes)
    )


@pytest.mark.parametrize("page", ["sheet", "history"])
def test_page_queries_do_not_grow_with_skills_or_history(
    client, player, make_character, django_assert_max_num_queries, page
):
    small = make_character(name="Petit")
    big = make_character(name="Grand")
    _grow(small, player, skills=1, changes=1)
    _grow(big, player, skills=20, changes=50)
    client.force_login(player)
    url = reverse(f"characters:{page}", args=[small.pk])
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as small_queries:
        assert client.get(url).status_code == 200
    with django_assert_max_num_queries(len(small_queries)):
        assert client.get(reverse(f"characters:{page}", args=[big.pk])).status_code == 200


def test_the_campaign_dashboard_lists_sheets_and_offers_creation(client, player, character):
    client.force_login(player)
    response = client.get(reverse("campaigns:dashboard", args=[character.campaign_id]))
    body = response.content.decode()
    assert sheet_url(character) in body
    assert reverse("characters:create", args=[character.campaign_id]) in body
    assert "Créer un personnage" in body


def test_deleting_asks_first_and_only_the_editors_may(client, player, other_player, character):
    url = reverse("characters:delete", args=[character.pk])
    client.force_login(other_player)
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    client.force_login(player)
    response = client.get(url)
    assert "Supprimer définitivement" in response.content.decode()
    assert client.post(url).status_code == 302
    assert not type(character).objects.filter(pk=character.pk).exists()


def test_healing_never_goes_above_the_maximum(client, player, character):
    character.energy_current = 5
    character.save()
    client.force_login(player)
    url = reverse("characters:heal", args=[character.pk])
    response = client.post(url, {"heal-gauge": "energy", "heal-points": 40}, **HX)
    assert "Énergie : 5 → 15." in response.content.decode()
    character.refresh_from_db()
    assert character.energy_current == 15
    assert CharacterChange.objects.get().action == "heal"


def test_each_rollable_skill_links_to_the_roll_form_prefilled(client, storyteller, campaign):
    from characters.models import Character, CharacterSkill

    character = Character.objects.create(campaign=campaign, owner=storyteller, name="Ysolde")
    CharacterSkill.objects.create(character=character, key="melee", level=3)
    client.force_login(storyteller)
    body = client.get(reverse("characters:sheet", args=[character.pk])).content.decode()
    table = reverse("sessions:table", args=[campaign.pk])
    assert f'href="{table}?character={character.pk}&amp;skill=melee"' in body


def test_the_sheet_refuses_a_blank_name_and_keeps_the_old_one(client, player, character):
    client.force_login(player)
    response = client.post(field_url(character, "name"), {"value": "", "version": 1}, **HX)
    assert response.status_code == 200
    assert "Ce champ est obligatoire." in response.content.decode()
    character.refresh_from_db()
    assert (character.name, character.version) == ("Aelis", 1)


def test_names_after_de_are_elided_before_a_mute_h(make_character, client, player):
    """« Expertises d'Histoire », « Niveau d'Histoire »: a skill starting with a mute h."""
    oskar = make_character(name="Oskar", skills=[("histoire", 2)])
    client.force_login(player)
    body = unescape(client.get(sheet_url(oskar)).content.decode())
    assert "Expertises d'Histoire" in body and "Niveau d'Histoire" in body
    assert "de Histoire" not in body
    history = unescape(client.get(reverse("characters:history", args=[oskar.pk])).content.decode())
    assert "Historique d'Oskar" in history
