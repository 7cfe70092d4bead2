"""The grapple, free-yourself, let-go and get-up forms of the tracker (issue 14 §4), with and
without HTMX."""

import pytest

from sessions.models import Combatant, Encounter, TableEvent
from tests.dice import sevens
from tests.sessions.combat_fixtures import HTMX, running_fight, url
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(campaign, storyteller, as_member, aelis, brann):
    """A running fight: Aelis (14) acts, then a visible Loup (10), then Brann (8)."""
    conteur = as_member(campaign, storyteller)
    return running_fight(
        conteur, storyteller, aelis, brann, name="Rixe", each={"finesse_points": 2}
    )


def grapple_data(target, turn=1, **extra):
    data = {
        "turn": turn,
        "idempotency_key": "g1",
        "target": target.pk,
        "grapple": "embrace",
        "characteristic": "strength",
        "distance": 1,
        "complexity": 0,
        "difficulty": 0,
        **extra,
    }
    return {"back": "table", **{f"grapple-{k}": v for k, v in data.items()}}


def test_a_player_holds_brann_who_cannot_defend_then_tries_to_break_free(
    campaign, running, player_client, client_for, other_player, outsider, monkeypatch
):
    # Dice that always show 7: the grapple lands, Brann's Agilité 2 + 7 misses Aelis's 11.
    monkeypatch.setattr("rules.check.system_rng", sevens)
    table = url(campaign, "table")
    mine = player_client.get(table).content.decode()
    assert "Tenter une prise avec Aelis" in mine and "Étreinte" in mine
    brann = Combatant.objects.get(name="Brann")
    assert (
        client_for(outsider)
        .post(url(campaign, "combat_grapple", running.pk), grapple_data(brann), **HTMX)
        .status_code
        == 404
    )
    response = player_client.post(
        url(campaign, "combat_grapple", running.pk), grapple_data(brann), **HTMX
    )
    assert response.status_code == 200 and "table-poll" in response["HX-Trigger"]
    assert "tente une Étreinte sur" in response.content.decode()
    pending = Encounter.objects.get().pending_attack
    done = client_for(other_player).post(
        url(campaign, "combat_defend", running.pk),
        {"attack": pending["id"], "defence": "none", "complexity": 0, "critical": "table"},
    )
    assert done.status_code == 302
    assert Combatant.objects.get(name="Brann").held_by == Combatant.objects.get(name="Aelis")
    theirs = client_for(other_player).get(table).content.decode()
    assert "dans l&#x27;étreinte d&#x27;Aelis" in theirs or "dans l'étreinte d'Aelis" in theirs

    # Brann's action (the Loup is skipped): only « Se libérer ».
    Combatant.objects.filter(name="Loup").update(status="defeated")
    encounter = Encounter.objects.get()
    encounter.position, encounter.turn = 2, encounter.turn + 1
    encounter.save()
    theirs = client_for(other_player).get(table).content.decode()
    assert "Se libérer" in theirs and "Attaquer avec Brann" not in theirs
    assert "Forcer une régénération" not in theirs
    escaped = client_for(other_player).post(
        url(campaign, "combat_escape", running.pk),
        {
            "turn": encounter.turn,
            "idempotency_key": "e1",
            "characteristic": "agility",
            "complexity": 0,
        },
        **HTMX,
    )
    assert escaped.status_code == 200 and 'role="alert"' not in escaped.content.decode()
    line = TableEvent.objects.filter(kind="combat").order_by("-pk")[1].summary
    assert line == "Brann ne parvient pas à se libérer de l'étreinte d'Aelis (9 contre 11)."
    encounter.refresh_from_db()
    assert encounter.position != 2 or encounter.round == 2  # the action ended


def test_the_holder_lets_go_and_someone_down_gets_up(
    campaign, running, player_client, client_for, other_player, storyteller_client
):
    aelis, brann = Combatant.objects.get(name="Aelis"), Combatant.objects.get(name="Brann")
    Combatant.objects.filter(pk=brann.pk).update(held_by=aelis, hold={"total": 9})
    mine = player_client.get(url(campaign, "table")).content.decode()
    assert "Aelis relâche Brann" in mine
    assert (
        "Aelis relâche Brann"
        not in client_for(other_player).get(url(campaign, "table")).content.decode()
    )
    refused = client_for(other_player).post(
        url(campaign, "combatant_release", running.pk, brann.pk), **HTMX
    )
    assert "Seuls le Conteur et le joueur d&#x27;Aelis" in refused.content.decode()
    released = player_client.post(url(campaign, "combatant_release", running.pk, brann.pk))
    assert released.status_code == 302 and Combatant.objects.get(pk=brann.pk).held_by is None

    Combatant.objects.filter(pk=aelis.pk).update(prone=True)
    mine = player_client.get(url(campaign, "table")).content.decode()
    assert "à terre" in mine and "Aelis se relève" in mine
    up = player_client.post(url(campaign, "combatant_stand_up", running.pk, aelis.pk), **HTMX)
    assert up.status_code == 200 and not Combatant.objects.get(pk=aelis.pk).prone
