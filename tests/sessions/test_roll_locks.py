"""A roll's two locking reads (sessions/rolls.py): the Moral row with the campaign's open arc
(made on the table's first use), and the roller with its skills and whether this user's key
already stored a roll."""

import pytest
from django.db import transaction

from campaigns.models import Arc
from sessions import rolls
from sessions.models import MoralePool
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.test_views import stored_roll

pytestmark = pytest.mark.django_db


def test_the_moral_row_comes_with_the_open_arc(campaign):
    MoralePool.objects.filter(campaign=campaign).delete()
    with transaction.atomic():
        made = rolls.pool_for_roll(campaign)  # the table's first use makes it
        assert (made.hope, made.open_arc_id) == (0, None)
    MoralePool.objects.filter(campaign=campaign).update(hope=2)
    with transaction.atomic():
        pool = rolls.pool_for_roll(campaign)
        assert (pool.pk, pool.hope, pool.open_arc_id) == (made.pk, 2, None)
    arc = Arc.objects.create(campaign=campaign, title="Le phare")
    with transaction.atomic():
        assert rolls.pool_for_roll(campaign).open_arc_id == arc.pk


def test_the_roller_comes_with_whether_the_key_was_used(campaign, player, other_player, aelis):
    roll = stored_roll(campaign, player, aelis)
    with transaction.atomic():
        again = rolls.roller_locked(campaign, aelis.pk, by=player, key=roll.idempotency_key)
        fresh = rolls.roller_locked(campaign, aelis.pk, by=player, key="une autre clé")
        other = rolls.roller_locked(campaign, aelis.pk, by=other_player, key=roll.idempotency_key)
        assert again.pk == aelis.pk and again.name == "Aelis"
        assert [(k.key, k.level) for k in again.skills.all()] == [("melee", 3), ("sport", 1)]
        assert (again.key_used, fresh.key_used, other.key_used) == (True, False, False)
        assert rolls.roller_locked(campaign, aelis.pk + 999, by=player, key="x") is None
        assert rolls.roller_locked(campaign, 2**70, by=player, key="x") is None
