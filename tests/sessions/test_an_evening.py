"""Issue 13's « done when »: a player plays a whole evening through the API — an Acharnement
entered with the group's despair and ended by the Conteur, an Agonie lost on a rest after bad sleep,
a Fatalité gained and spent by the Conteur — and no number is ever edited by hand.

RULES.md §7: Acharnement « End: +1 Fragilité, enter Descente ». §8: Agonie is « lost after a rest if
stable ». §4: « Sleeping or eating badly makes restoration harder ». §5: a despair option gives
« every character gains 1 Fortune and the Conteur 1 Fatalité »; §14: Fatalité is « spent to worsen
a situation at the right moment ».
"""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from characters.models import Character, CharacterChange
from sessions.models import MoralePool, TableEvent
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key

pytestmark = pytest.mark.django_db


def client(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


def table(name, campaign):
    return reverse(f"sessions_api:{name}", args=[campaign.pk])


def sheet(character, action):
    return f"/api/characters/{character.pk}/{action}/"


def version(character) -> int:
    return Character.objects.get(pk=character.pk).version


def ok(response, status=(200, 201)):
    assert response.status_code in status, response.json()
    return response.json()


def test_an_evening_played_without_editing_a_number(storyteller, player, campaign, aelis, brann):
    conteur, joueur = client(storyteller), client(player)
    gain_despair = {"action": "gain_despair", "idempotency_key": key()}
    ok(conteur.post(table("morale-action", campaign), gain_despair, format="json"))

    # Under stress Aelis spends the group's despair to enter Acharnement with her roll.
    ok(joueur.post(table("roll-list", campaign), {
        "character": aelis.pk, "characteristic": "strength", "skills": ["melee"],
        "difficulty": 8, "fury": True, "despair_source": "group", "idempotency_key": key(),
    }, format="json"))  # fmt: skip
    aelis.refresh_from_db()
    assert aelis.special_state == "fury"

    # A blow takes her Vitalité to 0: Agonie and péril; she is stabilised.
    hit = {"gauge": "vitality", "amount": aelis.vitality_current, "version": version(aelis)}
    ok(joueur.post(sheet(aelis, "damage"), hit, format="json"))
    ok(joueur.post(sheet(aelis, "stabilise"), {"gauge": "vitality", "version": version(aelis)},
                   format="json"))  # fmt: skip
    aelis.refresh_from_db()
    assert aelis.agony == 1 and aelis.vitality_stabilised

    # The scene is over: the Conteur ends the Acharnement.
    ended = {"action": "state_end", "character": aelis.pk, "idempotency_key": key()}
    ok(conteur.post(table("morale-action", campaign), ended, format="json"))
    aelis.refresh_from_db()
    assert (aelis.special_state, aelis.fragility) == ("comedown", 1)

    # A night in the rain: a rest one rank harder, and the stable Agonie is lost.
    rest = ok(joueur.post(sheet(aelis, "rest"), {"slept_badly": True, "version": version(aelis)},
                          format="json"))  # fmt: skip
    assert rest["notes"][0].startswith("Repos Difficile (mal dormi)")
    aelis.refresh_from_db()
    assert aelis.agony == 0

    # Despair again; Aelis turns it into Fortune for all and a Fatalité for the Conteur …
    ok(conteur.post(table("morale-action", campaign), {**gain_despair, "idempotency_key": key()},
                    format="json"))  # fmt: skip
    ok(joueur.post(table("roll-list", campaign), {
        "character": aelis.pk, "characteristic": "strength", "fortune_fate": True,
        "despair_source": "group", "idempotency_key": key(),
    }, format="json"))  # fmt: skip
    assert MoralePool.objects.get(campaign=campaign).fate == 1
    # … which the Conteur spends when the bridge gives way.
    spent = ok(conteur.post(table("fate-spend", campaign),
                            {"points": 1, "reason": "le pont cède"},
                            HTTP_IDEMPOTENCY_KEY=key(), format="json"))  # fmt: skip
    assert spent["morale"]["fate"] == 0
    assert TableEvent.objects.filter(summary__contains="le pont cède").exists()

    # Every change of the sheet came from an action of the game, none from a hand edit.
    actions = set(CharacterChange.objects.filter(character=aelis).values_list("action", flat=True))
    assert "edit" not in actions and {"damage", "stabilise", "rest", "table"} <= actions
