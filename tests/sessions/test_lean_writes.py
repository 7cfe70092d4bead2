"""Lean writes (issue 15 §3): a roll costs a fixed, small number of SQL statements, and keeps
every guarantee it had — the table's lock, idempotency, versioned sheet writes.

The counts are every statement Django runs for the request, its own BEGIN and COMMIT included,
as a request runs in production (`transaction=True`: no test transaction around it, so no
savepoint is counted that a real request would not make). The API client is authenticated
without a statement (`force_authenticate`); a token adds one, a session cookie the user's.
"""

import threading

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models.signals import post_save
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.policy import campaign_get_for_member
from characters.models import Character, CharacterChange
from common import precompiled
from sessions import rolls, services, writes
from sessions import serializers as s
from sessions.checks import RollRequest
from sessions.models import MoralePool, Roll, TableEvent, TableEventKind
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key

LEAN = pytest.mark.django_db(transaction=True)
# On PostgreSQL the roll and its log line are one INSERT (common.precompiled.insert_pair).
PAIRED = 1 if connection.vendor == "postgresql" else 0
# A plain roll through the API: the access check, the roller read (with its key looked up and its
# skills), then on PostgreSQL one statement and no transaction around it: the table's lock (with
# the open arc), the roll and its log line (common.precompiled.insert_pair_locked); elsewhere
# BEGIN, the lock, the roll, its line, COMMIT.
API_ROLL_STATEMENTS = 3 if PAIRED else 7
# The page's POST also reads the user and loads the form's characters (with skills and
# injuries); the new row is rendered from the roll's log line in memory (sessions/views.py).
HTMX_ROLL_STATEMENTS = 12 - PAIRED


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def rolls_url(campaign):
    return reverse("sessions_api:roll-list", args=[campaign.pk])


def plain_roll(character, **extra):
    return {"character": character.pk, "characteristic": "strength", "skills": ["melee"], **extra}


def form_roll(character, **extra):
    return {
        "character": character.pk,
        "characteristic": "strength",
        "skills": ["melee"],
        "visibility": "public",
        "hope_source": "personal",
        "despair_source": "personal",
        **{name: 0 for name in ("complexity", "difficulty", "boon", "bane", "impact", "hope")},
        "idempotency_key": key(),
        **extra,
    }


def sql(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries]


def transaction_control(statements) -> list[str]:
    return [q for q in statements if q.split()[0] in {"SAVEPOINT", "RELEASE", "ROLLBACK"}]


def membership_reads(statements) -> list[str]:
    return [q for q in statements if 'FROM "campaigns_membership"' in q]


def reads_of_rolls(statements) -> list[str]:
    return [q for q in statements if q.startswith('SELECT "play_roll"')]


@LEAN
def test_an_api_roll_takes_its_few_statements_and_answers_what_it_stored(
    player, campaign, aelis, arc
):
    client = api(player)
    client.post(rolls_url(campaign), plain_roll(aelis, idempotency_key=key()), format="json")
    with CaptureQueriesContext(connection) as queries:
        made = client.post(
            rolls_url(campaign), plain_roll(aelis, idempotency_key=key()), format="json"
        )
    assert made.status_code == 201, made.json()
    statements = sql(queries)
    assert len(statements) == API_ROLL_STATEMENTS, "\n".join(statements)
    assert transaction_control(statements) == []  # no savepoint on the way
    assert len(membership_reads(statements)) == 1  # one access check
    assert reads_of_rolls(statements) == []  # the key looked up with the roller; no re-read
    stored = Roll.objects.select_related("character", "rolled_by").get(pk=made.json()["id"])
    assert made.json() == s.RollOut(stored).data  # the answer is the roll as stored
    assert stored.arc_id == arc.pk and stored.events.get().summary.startswith("Aelis : ")


@LEAN
def test_the_table_page_roll_is_counted_too(player_client, campaign, aelis):
    url = reverse("sessions:roll", args=[campaign.pk])
    player_client.post(url, form_roll(aelis), HTTP_HX_REQUEST="true")
    with CaptureQueriesContext(connection) as queries:
        response = player_client.post(url, form_roll(aelis), HTTP_HX_REQUEST="true")
    statements = sql(queries)
    assert response.status_code == 200 and b"Aelis" in response.content
    assert len(statements) <= HTMX_ROLL_STATEMENTS, "\n".join(statements)
    assert transaction_control(statements) == []
    assert len(membership_reads(statements)) == 1
    assert Roll.objects.count() == 2


@LEAN
def test_the_table_page_roll_without_htmx_redirects_with_its_summary(
    player_client, campaign, aelis
):
    url = reverse("sessions:roll", args=[campaign.pk])
    with CaptureQueriesContext(connection) as queries:
        response = player_client.post(url, form_roll(aelis), follow=False)
    assert response.status_code == 302
    assert transaction_control(sql(queries)) == []
    followed = player_client.get(response["Location"])
    assert "Aelis : Force + Mêlée" in followed.content.decode()


@LEAN
def test_the_same_key_again_answers_the_same_roll_in_six_statements(player, campaign, aelis):
    client = api(player)
    body = plain_roll(aelis, impact=2, idempotency_key=key())
    first = client.post(rolls_url(campaign), body, format="json")
    with CaptureQueriesContext(connection) as queries:
        again = client.post(rolls_url(campaign), body, format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()  # even though Impact is now spent: nothing rolled again
    statements = sql(queries)
    # access, BEGIN, the table's lock, the roller's (the key is used), the roll read, COMMIT
    assert len(statements) == 6, "\n".join(statements)
    aelis.refresh_from_db()
    assert aelis.impact_points == 0 and Roll.objects.count() == 1


@pytest.mark.django_db
def test_the_key_reused_for_another_roll_is_a_422_that_changes_nothing(player, campaign, aelis):
    client = api(player)
    body = plain_roll(aelis, impact=1, idempotency_key="tour-1")
    assert client.post(rolls_url(campaign), body, format="json").status_code == 201
    other = client.post(rolls_url(campaign), {**body, "characteristic": "agility"}, format="json")
    assert other.status_code == 422
    assert "déjà servi pour une autre requête" in other.json()["detail"]
    aelis.refresh_from_db()
    assert aelis.impact_points == 1 and Roll.objects.count() == 1


@LEAN
def test_a_roll_paid_with_impact_writes_the_sheet_with_a_version_bump(player, campaign, aelis):
    version = aelis.version
    made = api(player).post(
        rolls_url(campaign), plain_roll(aelis, impact=1, idempotency_key=key()), format="json"
    )
    assert made.status_code == 201, made.json()
    aelis.refresh_from_db()
    assert aelis.impact_points == 1 and aelis.version == version + 1
    change = CharacterChange.objects.get(character=aelis, version=aelis.version)
    assert (change.field, change.old_value, change.new_value) == ("impact_points", 2, 1)
    assert made.json()["inputs"]["impact"] == 1


@LEAN
def test_a_duplicate_the_lookup_misses_is_rolled_back_and_answers_the_first_roll(
    player, campaign, aelis, monkeypatch
):
    """The rare path: the key is stored by a request the lookup could not see (a duplicate sent
    at the same moment). The unique constraint refuses the second roll, everything it paid is
    rolled back, and the first roll answers."""
    client = api(player)
    body = plain_roll(aelis, impact=1, idempotency_key="double")
    first = client.post(rolls_url(campaign), body, format="json").json()
    looked_up = rolls.roll_existing
    missed = []

    def miss_once(**kwargs):
        if not missed:
            missed.append(True)
            return None
        return looked_up(**kwargs)

    monkeypatch.setattr(rolls, "roll_existing", miss_once)
    again = client.post(rolls_url(campaign), body, format="json")
    assert missed and again.status_code == 200 and again.json()["id"] == first["id"]
    aelis.refresh_from_db()
    assert aelis.impact_points == 1  # paid once
    assert Roll.objects.count() == 1 and TableEvent.objects.count() == 1


def four_copies_at_once(campaign, player, character, **paid) -> list[tuple[int, bool]]:
    """(pk, created) of four copies of one roll (one idempotency key) sent at the same moment."""
    barrier, same, results = threading.Barrier(4), key(), []

    def submit():
        try:
            barrier.wait()
            roll = services.roll_create(
                campaign=campaign_get_for_member(user=player, pk=campaign.pk),
                by=player,
                request=RollRequest(characteristic="strength", skills=("melee",), **paid),
                character_id=character.pk,
                idempotency_key=same,
            )
            results.append((roll.pk, roll.created))
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.mark.services
def test_a_double_submit_that_spends_the_last_impact_answers_one_roll(
    postgres, player, campaign, aelis
):
    """Four copies of the same roll at once, paying all the Impact left: the copies wait for the
    table's lock and find the first roll (none is refused for Impact the first one spent)."""
    results = four_copies_at_once(campaign, player, aelis, impact=2)
    assert len(results) == 4 and len({pk for pk, _ in results}) == 1
    assert sorted(created for _, created in results) == [False, False, False, True]
    aelis.refresh_from_db()
    assert aelis.impact_points == 0 and Roll.objects.count() == 1


def _pair(campaign, character, user, idempotency_key):
    roll = Roll(
        campaign=campaign,
        character=character,
        rolled_by=user,
        label="Saut du toit",
        characteristic="agility",
        skills=["athletics"],
        inputs={"dice": 3, "boon": 1},
        breakdown={"kept": [7, 9], "outcome_label": "Réussite"},
        outcome="success",
        total=16,
        target=12,
        margin=4,
        zone=True,
        idempotency_key=idempotency_key,
        request_digest="d" * 64,
    )
    line = writes.log_line(
        campaign_id=campaign.pk,
        kind=TableEventKind.ROLL,
        summary="Aelis : Agilité + Athlétisme → 16 contre 12",
        by=user,
        character=character,
        payload={"note": ["é", 1]},
    )
    return roll, line


def _stored(model, pk, *skipped):
    row = model.objects.get(pk=pk)
    return {
        f.attname: getattr(row, f.attname)
        for f in model._meta.concrete_fields
        if f.attname not in {"id", "created_at", *skipped}
    }


def test_a_roll_and_its_line_in_one_statement_are_stored_as_two_saves_store_them(
    postgres, player, campaign, aelis
):
    saved, saved_line = _pair(campaign, aelis, player, key())
    saved.save()
    saved_line.roll = saved
    saved_line.save()
    roll, line = _pair(campaign, aelis, player, key())
    signalled = []

    def on_save(sender, instance, created, **kwargs):
        signalled.append((sender, instance.pk is not None, created))

    post_save.connect(on_save, weak=False)
    try:
        with CaptureQueriesContext(connection) as queries:
            precompiled.insert_pair(roll, line, "roll")
    finally:
        post_save.disconnect(on_save)
    assert len(queries) == 1
    assert signalled == [(Roll, True, True), (TableEvent, True, True)]  # the poll's stamp moves
    assert line.roll_id == roll.pk == TableEvent.objects.get(pk=line.pk).roll_id
    assert _stored(Roll, roll.pk, "idempotency_key") == _stored(Roll, saved.pk, "idempotency_key")
    assert _stored(TableEvent, line.pk, "roll_id") == _stored(TableEvent, saved_line.pk, "roll_id")
    assert Roll.objects.get(pk=roll.pk).created_at == roll.created_at is not None


def test_a_pair_whose_roll_is_refused_stores_neither_row(postgres, player, campaign, aelis):
    first, first_line = _pair(campaign, aelis, player, key())
    precompiled.insert_pair(first, first_line, "roll")
    again, again_line = _pair(campaign, aelis, player, first.idempotency_key)
    with pytest.raises(IntegrityError), transaction.atomic():
        precompiled.insert_pair(again, again_line, "roll")
    assert (Roll.objects.count(), TableEvent.objects.count()) == (1, 1)


@pytest.mark.services
def test_a_double_submit_of_a_roll_that_pays_nothing_answers_one_roll(
    postgres, player, campaign, aelis
):
    """Four copies of a roll that pays nothing at once: its key is looked up without the table's
    lock, so the copies that missed the first roll fail on the key's unique constraint and
    answer the first roll; one roll and one log line are stored."""
    results = four_copies_at_once(campaign, player, aelis)
    assert len(results) == 4 and len({pk for pk, _ in results}) == 1
    assert sorted(created for _, created in results) == [False, False, False, True]
    assert Roll.objects.count() == 1 and TableEvent.objects.count() == 1


@LEAN
def test_the_table_lock_of_a_roll_that_pays_nothing_covers_only_its_insert(
    player, campaign, aelis, arc
):
    """The roller is read (no lock) and the dice rolled before the table's lock, which then
    covers only the roll's INSERT: on PostgreSQL the lock and both rows are one statement with no
    transaction around it, so the lock is held only while it runs; a table's rolls queue less."""
    client = api(player)
    client.post(rolls_url(campaign), plain_roll(aelis, idempotency_key=key()), format="json")
    with CaptureQueriesContext(connection) as queries:
        made = client.post(
            rolls_url(campaign), plain_roll(aelis, idempotency_key=key()), format="json"
        )
    assert made.status_code == 201
    statements = sql(queries)
    pool = [i for i, q in enumerate(statements) if 'FROM "play_moralepool"' in q]
    assert len(pool) == 1 and not any(
        "FOR UPDATE" in q for i, q in enumerate(statements) if i not in pool
    ), "\n".join(statements)  # the sheet is not locked
    if PAIRED:
        assert pool == [len(statements) - 1] and "BEGIN" not in statements
        assert statements[-1].startswith("WITH locked AS (SELECT")
        assert "FOR UPDATE), parent AS (INSERT INTO" in statements[-1]
    else:
        after = [q.split()[0] for q in statements[pool[0] + 1 :]]
        assert after == ["INSERT", "INSERT", "COMMIT"]
    stored = Roll.objects.get(pk=made.json()["id"])
    assert stored.arc_id == arc.pk and made.json()["arc"] == arc.pk
    assert stored.events.get().pk == TableEvent.objects.order_by("-pk").first().pk


@pytest.mark.services
def test_the_first_roll_of_a_table_makes_its_moral_row(postgres, player, campaign, aelis):
    """A table's first roll that pays nothing finds no Moral row to lock: it makes one and
    stores the roll under its lock."""
    MoralePool.objects.filter(campaign=campaign).delete()
    made = api(player).post(
        rolls_url(campaign), plain_roll(aelis, idempotency_key=key()), format="json"
    )
    assert made.status_code == 201
    assert MoralePool.objects.filter(campaign=campaign).count() == 1
    assert Roll.objects.count() == 1 and TableEvent.objects.count() == 1


def test_a_roll_and_its_line_stored_under_the_table_lock_are_stored_as_two_saves_store_them(
    postgres, player, campaign, aelis, arc
):
    saved, saved_line = _pair(campaign, aelis, player, key())
    saved.arc_id = arc.pk
    saved.save()
    saved_line.roll = saved
    saved_line.save()
    roll, line = _pair(campaign, aelis, player, key())
    MoralePool.objects.get_or_create(campaign=campaign)
    rolls.roll_stored(campaign, *_pair(campaign, aelis, player, key()))  # its SQL built
    with CaptureQueriesContext(connection) as queries:
        rolls.roll_stored(campaign, roll, line)
    assert len(queries) == 1
    assert roll.arc_id == arc.pk and line.roll_id == roll.pk
    assert _stored(Roll, roll.pk, "idempotency_key") == _stored(Roll, saved.pk, "idempotency_key")
    assert _stored(TableEvent, line.pk, "roll_id") == _stored(TableEvent, saved_line.pk, "roll_id")


def test_no_row_to_lock_stores_nothing(postgres, player, campaign, aelis):
    roll, line = _pair(campaign, aelis, player, key())
    MoralePool.objects.filter(campaign=campaign).delete()
    stored = precompiled.insert_pair_locked(
        rolls._POOL_FOR_ROLL, (campaign.pk,), {"arc_id": "open_arc_id"}, roll, line, "roll"
    )
    assert stored is False and roll.pk is None and line.pk is None
    assert Roll.objects.count() == 0 and TableEvent.objects.count() == 0


@pytest.mark.services
def test_a_roll_whose_character_is_deleted_meanwhile_is_refused_plainly(
    postgres, player, campaign, aelis, monkeypatch
):
    """A roll that pays nothing reads its roller without a lock: deleted between that read and
    the roll's INSERT, the roll is refused with the missing character named, and nothing is
    stored."""
    read = rolls.roller_read

    def read_then_deleted(*args, **kwargs):
        roller = read(*args, **kwargs)
        Character.objects.filter(pk=aelis.pk).delete()
        return roller

    monkeypatch.setattr(rolls, "roller_read", read_then_deleted)
    made = api(player).post(
        rolls_url(campaign), plain_roll(aelis, idempotency_key=key()), format="json"
    )
    assert made.status_code == 400, made.json()
    assert "character" in made.json()["errors"]
    assert Roll.objects.count() == 0 and TableEvent.objects.count() == 0
