"""The spell form of the tracker (issue 14 §5, issue 39 item 24): the panel, the preview, the
incantation begun, then resolved at the caster's next slot, with and without HTMX."""

import pytest

from characters.models import Character
from sessions.models import Combatant, Encounter, Roll, TableEvent
from tests.sessions.combat_fixtures import HTMX, running_fight, url
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(campaign, storyteller, as_member, aelis, brann):
    """Aelis (14, two actions) acts, then a visible Loup (10), then Brann (8), then Aelis."""
    conteur = as_member(campaign, storyteller)
    return running_fight(
        conteur,
        storyteller,
        aelis,
        brann,
        name="Crypte",
        each={"finesse_points": 2},
        aelis_combativeness=2,
    )


def spell_data(**extra):
    return {
        "turn": 1,
        "idempotency_key": "sp1",
        "kind": "healing",
        "name": "Main de lumière",
        "spell_points": 2,
        "target": Combatant.objects.get(name="Brann").pk,
        "gauge": "vitality",
        "targets": 1,
        "characteristic": "power",
        "skill": "sorcellerie",
        "complexity": 0,
        "difficulty": 0,
        "focus": 1,
        "gestures": 0,
        "words": 0,
        "components": 0,
        "back": "table",
        **extra,
    }


def test_the_acting_player_sees_the_spell_panel_and_the_form(
    campaign, running, player_client, client_for, other_player
):
    table = player_client.get(url(campaign, "table")).content.decode()
    assert 'data-combat="spell"' in table and "Lancer un sort avec Aelis" in table
    assert (
        'data-combat="spell"'
        not in client_for(other_player).get(url(campaign, "table")).content.decode()
    )
    fragment = player_client.get(url(campaign, "combat_spell", running.pk), **HTMX).content.decode()
    assert "<html" not in fragment and 'name="focus"' in fragment and "Incanter" in fragment
    page = player_client.get(url(campaign, "combat_spell", running.pk)).content.decode()
    assert "<html" in page and "Points du sort" in page  # without JavaScript: a page


def test_the_healing_preview_shows_difficulty_and_complexity(
    campaign, running, player_client, brann
):
    """RULES §15: difficulty = wounds to heal; complexity by scars (+1 Résilience at 0)."""
    Character.objects.filter(pk=brann.pk).update(
        vitality_current=5, vitality_scars=1, resilience_points=0
    )
    preview = url(campaign, "combat_spell_preview", running.pk)
    data = {k: v for k, v in spell_data().items() if k not in ("turn", "idempotency_key")}
    html = player_client.get(preview, data, **HTMX).content.decode()
    from characters.sheet import gauges

    wounds = gauges(Character.objects.get(pk=brann.pk))["vitality"].wounds
    assert f'data-spell="difficulty">{wounds}<' in html
    assert 'data-spell="complexity">3<' in html and "+1 Résilience à 0" in html
    assert "+1 dé de surpuissance" in html and "1 action encore à venir ce tour" in html
    too_much = player_client.get(preview, {**data, "focus": 2}, **HTMX).content.decode()
    assert "il n&#x27;en reste qu&#x27;un ce tour" in too_much
    assert not Roll.objects.exists()
    # Without JavaScript, « Calculer » posts to the cast with preview=1: the page, nothing cast.
    page = player_client.post(
        url(campaign, "combat_spell_cast", running.pk), {**spell_data(), "preview": "1"}
    ).content.decode()
    assert 'data-spell="complexity">3<' in page and not Roll.objects.exists()


def test_casting_with_htmx_begins_logs_and_passes_the_turn(campaign, running, player_client):
    cast = url(campaign, "combat_spell_cast", running.pk)
    response = player_client.post(cast, spell_data(energy_cost=2), **HTMX)
    assert response.status_code == 200 and "table-poll" in response.headers["HX-Trigger"]
    assert not Roll.objects.exists()  # it resolves next round
    line = TableEvent.objects.get(payload__spell__key="sp1")
    assert "Aelis commence à incanter « Main de lumière » sur Brann" in line.summary
    assert "2 points d'Énergie payés" in line.summary
    encounter = Encounter.objects.get()
    assert encounter.turn == 2
    assert encounter.order[encounter.position]["combatant"] == Combatant.objects.get(name="Loup").pk
    again = player_client.post(cast, spell_data(), **HTMX)  # a double click: the same cast
    assert (
        again.status_code == 200
        and TableEvent.objects.filter(payload__spell__key="sp1").count() == 1
    )


def test_item_24_at_its_next_slot_the_caster_can_only_resolve_the_spell(
    campaign, running, player_client, client_for, storyteller
):
    """RULES §15 Reading (incantation): it resolves at the caster's first slot of the next
    round; the form then offers only « Achever l'incantation »."""
    player_client.post(url(campaign, "combat_spell_cast", running.pk), spell_data(), **HTMX)
    conteur = client_for(storyteller)
    while True:
        encounter = Encounter.objects.get()
        acting = Combatant.objects.get(pk=encounter.order[encounter.position]["combatant"])
        if encounter.round == 2 and acting.name == "Aelis":
            break
        conteur.post(url(campaign, "combat_next", running.pk), {"turn": encounter.turn})
    form = player_client.get(url(campaign, "combat_spell", running.pk), **HTMX).content.decode()
    assert "Achever l'incantation" in form and 'name="focus"' not in form
    resolve = url(campaign, "combat_spell_resolve", running.pk)
    response = player_client.post(resolve, {"turn": encounter.turn, "back": "table"})
    assert response.status_code == 302 and Roll.objects.count() == 1
    assert "se résout" in TableEvent.objects.filter(payload__spell__state="resolved").get().summary
    assert not Combatant.objects.get(name="Aelis").incantation


def test_a_refused_cast_says_why_in_french(
    campaign, running, player_client, client_for, other_player
):
    cast = url(campaign, "combat_spell_cast", running.pk)
    html = player_client.post(cast, spell_data(focus=2), **HTMX).content.decode()
    assert "il n&#x27;en reste qu&#x27;un ce tour" in html and not Roll.objects.exists()
    html = client_for(other_player).post(cast, spell_data(), **HTMX).content.decode()
    assert "Seuls le Conteur et le joueur dont c&#x27;est le tour" in html
    response = player_client.post(cast, spell_data(turn=0))  # without HTMX: back to the table
    assert response.status_code == 302 and not Roll.objects.exists()
    assert not Combatant.objects.get(name="Aelis").incantation


def test_non_members_get_404(campaign, running, outsider_client):
    assert outsider_client.get(url(campaign, "combat_spell", running.pk)).status_code == 404
    assert outsider_client.get(url(campaign, "combat_spell_preview", running.pk)).status_code == 404
    assert (
        outsider_client.post(
            url(campaign, "combat_spell_cast", running.pk), spell_data()
        ).status_code
        == 404
    )


def test_item_24_a_held_caster_is_told_its_spell_is_lost(
    campaign, running, player_client, client_for, storyteller
):
    """RULES §15 Reading (incantation): a caster held loses the spell; the form says so and
    lets its player give it up (the log says why), its slot its own again."""
    player_client.post(url(campaign, "combat_spell_cast", running.pk), spell_data(), **HTMX)
    conteur = client_for(storyteller)
    while True:
        encounter = Encounter.objects.get()
        acting = Combatant.objects.get(pk=encounter.order[encounter.position]["combatant"])
        if encounter.round == 2 and acting.name == "Aelis":
            break
        conteur.post(url(campaign, "combat_next", running.pk), {"turn": encounter.turn})
    Combatant.objects.filter(name="Aelis").update(held_by=Combatant.objects.get(name="Loup"))
    form = player_client.get(url(campaign, "combat_spell", running.pk), **HTMX).content.decode()
    assert "Aelis est tenu : son sort est perdu." in form and "Abandonner le sort" in form
    resolve = url(campaign, "combat_spell_resolve", running.pk)
    player_client.post(resolve, {"turn": encounter.turn, "back": "table"})
    assert TableEvent.objects.filter(summary="Aelis est tenu : son sort est perdu.").exists()
    assert not Combatant.objects.get(name="Aelis").incantation and not Roll.objects.exists()
    assert Encounter.objects.get().turn == encounter.turn  # no step taken: Aelis still acts
