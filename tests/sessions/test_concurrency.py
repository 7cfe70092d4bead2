"""16 clients hammer the same Moral pool against PostgreSQL: nothing is lost or duplicated.

The final state must equal the rules engine replaying, in log order, the moves that were accepted.
"""

import random
import threading
from collections import Counter

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection

from campaigns.policy import campaign_get_for_member
from characters.models import Character
from rules import morale as rules_morale
from sessions import morale, services
from sessions.checks import RollRequest
from sessions.models import MoralePool, Roll, TableEvent, TableEventKind
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key

pytestmark = pytest.mark.services

CLIENTS = 16
OPERATIONS = 2_000
ACTIONS = [
    morale.GAIN_HOPE,
    morale.GAIN_DESPAIR,
    morale.SPEND_HOPE,
    morale.SPEND_DESPAIR,
    morale.GAIN_PERSONAL_HOPE,
    morale.GAIN_PERSONAL_DESPAIR,
]


def _replay(members, events):
    """Apply each logged move with rules.morale, from an empty Moral."""
    state = rules_morale.Morale(
        members=tuple(rules_morale.Member(key=c.name, exaltation=c.exaltation) for c in members)
    )
    fragility = Counter()
    for event in events:
        move = event.payload["move"]
        action, who, source = move["action"], move["character"], move["source"]
        if action == morale.GAIN_HOPE:
            state, produced = rules_morale.gain_hope(state, move["taker"])
        elif action == morale.GAIN_DESPAIR:
            state, produced = rules_morale.gain_despair(state, move["taker"])
        elif action == morale.SPEND_HOPE:
            state, produced = rules_morale.spend_hope(state, who, source)
        elif action == morale.SPEND_DESPAIR:
            state, produced = rules_morale.spend_despair(state, who, source)
        elif action == morale.GAIN_PERSONAL_HOPE:
            state, produced = rules_morale.gain_personal_hope(state, who)
        else:
            state, produced = rules_morale.gain_personal_despair(state, who)
        assert [e.to_dict() for e in produced] == event.payload["events"]
        assert not rules_morale.morale_violations(state)
        fragility.update(e.member for e in produced if e.kind == "fragility")
    return state, fragility


def test_sixteen_clients_hammer_the_moral_pool(
    postgres, campaign, storyteller, player, aelis, brann
):
    characters = [aelis, brann]
    per_client = OPERATIONS // CLIENTS
    accepted = Counter()
    refused = Counter()
    lock = threading.Lock()
    barrier = threading.Barrier(CLIENTS)

    def client(index):
        rng = random.Random(index)
        try:
            barrier.wait()
            user = storyteller if index % 2 else player
            campaign_seen = campaign_get_for_member(user=user, pk=campaign.pk)
            for _ in range(per_client):
                action = rng.choice(ACTIONS)
                character = rng.choice(characters)
                kwargs = (
                    {"character_id": character.pk}
                    if action not in (morale.GAIN_HOPE, morale.GAIN_DESPAIR)
                    else {}
                )
                if action in (morale.SPEND_HOPE, morale.SPEND_DESPAIR):
                    kwargs["source"] = rng.choice(["group", "personal"])
                if action == morale.GAIN_HOPE and rng.random() < 0.5:
                    kwargs["taker_id"] = character.pk
                try:
                    services.morale_change(campaign=campaign_seen, by=user, action=action, **kwargs)
                except (ValidationError, PermissionDenied):
                    with lock:
                        refused[action] += 1
                else:
                    with lock:
                        accepted[action] += 1
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    assert not any(t.is_alive() for t in threads)
    assert sum(accepted.values()) + sum(refused.values()) == OPERATIONS
    events = list(TableEvent.objects.filter(kind=TableEventKind.MORALE).order_by("id"))
    assert len(events) == sum(accepted.values())
    assert accepted[morale.SPEND_HOPE] and accepted[morale.GAIN_DESPAIR]  # a real mix happened

    state, fragility = _replay(characters, events)
    pool = MoralePool.objects.get(campaign=campaign)
    assert (pool.hope, pool.despair) == (state.hope, state.despair)
    assert pool.hope + pool.despair <= 2
    for character in Character.objects.filter(pk__in=[aelis.pk, brann.pk]):
        member = state.member(character.name)
        assert (character.personal_hope, character.personal_despair) == (
            member.hope,
            member.despair,
        )
        assert character.personal_hope <= member.cap and character.personal_despair <= member.cap
        assert character.fragility == min(fragility[character.name], 6)


def test_a_double_submit_stores_one_roll(postgres, campaign, player, aelis):
    barrier = threading.Barrier(4)
    same = key()
    results = []

    def submit():
        try:
            barrier.wait()
            seen = campaign_get_for_member(user=player, pk=campaign.pk)
            results.append(
                services.roll_create(
                    campaign=seen,
                    by=player,
                    request=RollRequest(characteristic="strength", skills=("melee",), impact=1),
                    character_id=aelis.pk,
                    idempotency_key=same,
                ).pk
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(set(results)) == 1 and len(results) == 4
    assert Roll.objects.count() == 1
    aelis.refresh_from_db()
    assert aelis.impact_points == 1
