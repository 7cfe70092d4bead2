"""A roll's writes: a fixed, small number of SQL statements, and every guarantee — the table's
lock, idempotency, versioned sheet writes.

The counts are every statement Django runs for the request but transaction control (BEGIN and
COMMIT, which the backends log differently), as a request runs in production (`transaction=True`:
no test transaction around it). The API client is authenticated without a statement
(`force_authenticate`); a token adds one, a session cookie the user's.
"""

import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from campaigns.policy import campaign_get_for_member
from characters.models import CharacterChange
from sessions import rolls, services
from sessions import serializers as s
from sessions.checks import RollRequest
from sessions.models import MoralePool, Roll, TableEvent
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import key

LEAN = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_live_pages(settings):
    """The write's own statements: with a live page to tell (Redis, or a stream in this
    process), the new row is read once more after the commit to be drawn for them."""
    settings.PUSH_REDIS_URL = ""


# A plain roll through the API: the access check, the table's lock (with the open arc), the
# roller locked (its key looked up in the same statement), its skills, the roll, its log line.
API_ROLL_STATEMENTS = 6
# The page's POST also reads the user and loads the form's characters (with skills and
# injuries); the new row is rendered from the roll's log line in memory (sessions/views.py).
HTMX_ROLL_STATEMENTS = 12


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
    """The statements run, transaction control (BEGIN, COMMIT) left out."""
    return [
        q["sql"] for q in queries.captured_queries if q["sql"].split()[0] not in {"BEGIN", "COMMIT"}
    ]


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
    assert len([q for q in statements if "FOR UPDATE" in q]) == (
        2 if connection.features.has_select_for_update else 0
    )  # the table's lock, then the roller's
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
def test_the_same_key_again_answers_the_same_roll_in_five_statements(player, campaign, aelis):
    client = api(player)
    body = plain_roll(aelis, impact=2, idempotency_key=key())
    first = client.post(rolls_url(campaign), body, format="json")
    with CaptureQueriesContext(connection) as queries:
        again = client.post(rolls_url(campaign), body, format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()  # even though Impact is now spent: nothing rolled again
    statements = sql(queries)
    # access, the table's lock, the roller's (the key is used) and its skills, the roll read
    assert len(statements) == 5, "\n".join(statements)
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


@pytest.mark.services
def test_a_double_submit_of_a_roll_that_pays_nothing_answers_one_roll(
    postgres, player, campaign, aelis
):
    """Four copies of a roll that pays nothing at once: they queue on the table's lock, and the
    copies after the first find its roll; one roll and one log line are stored."""
    results = four_copies_at_once(campaign, player, aelis)
    assert len(results) == 4 and len({pk for pk, _ in results}) == 1
    assert sorted(created for _, created in results) == [False, False, False, True]
    assert Roll.objects.count() == 1 and TableEvent.objects.count() == 1


@LEAN
def test_the_first_roll_of_a_table_makes_its_moral_row(player, campaign, aelis):
    MoralePool.objects.filter(campaign=campaign).delete()
    made = api(player).post(
        rolls_url(campaign), plain_roll(aelis, idempotency_key=key()), format="json"
    )
    assert made.status_code == 201
    assert MoralePool.objects.filter(campaign=campaign).count() == 1
    assert Roll.objects.count() == 1 and TableEvent.objects.get().roll_id == made.json()["id"]
