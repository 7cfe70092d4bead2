"""Bench of the live pages (issue 40): how long a roll takes from its commit to N open pages.

Run from the repository root: `.venv/bin/python bench/push.py` (PostgreSQL on 127.0.0.1 as user
postgres, Redis on 127.0.0.1:6379). It recreates the database `altherion_bench_push` and seeds
BENCH_PUSH_PAGES' largest count of pages in tables of five (a campaign with its Conteur and four
players, their characters; each of the five users signed in with a session of their own: one open
page each), empties its Redis database (BENCH_REDIS_URL: the push channel and the shared cache,
as in production), then for each N of BENCH_PUSH_PAGES (100, 500, 1,000, 2,000):

- starts the production web tier anew: `bin/web` (gunicorn with uvicorn workers on
  `altherion.asgi`), WEB_CONCURRENCY=2, or the same gunicorn command where this tree has no
  bin/web yet; warms both workers with a few streams, then reads its memory (RSS, master and
  workers, from /proc);
- counts the PostgreSQL connections those warm-up streams held: a step that would leave fewer
  than PG_SPARE connections to PostgreSQL's other users is not run, and says why (each open
  stream holds one today; BENCH_PUSH_OWN_POSTGRES=1 runs the steps on a throwaway cluster with
  room for them, to measure the rest of the path);
- opens the N pages' streams, `GET /campaigns/<id>/live/?after=<newest event>` with the session
  cookie, from emulated pages: asyncio connections (stdlib only) spread over
  BENCH_PUSH_CLIENT_PROCESSES forked processes, that read each chunk as it comes and note its
  arrival (time.time()) before parsing the chunked body and the event lines in it;
- once every stream has said `retry:`, a driver (BENCH_PUSH_DRIVERS forked processes, Django set
  up on the same database and Redis) rolls for BENCH_PUSH_SECONDS one roll a second at each of
  the N/5 tables, the rolls spread evenly over each second, each by one of the table's players in
  turn, every fifth one of a table secret (visibility "storyteller": its roller and the Conteur
  only): `sessions.services.roll_create` through the ORM, as the table's POST calls it (not over
  HTTP: the server's CPU then goes to the streams alone). Each roll's commit time is taken by an
  on-commit callback registered before the roll's own (which publishes it on Redis; each web
  process draws the row when its streams need it), so the figure includes the publishing and
  the drawing;
- then waits until every page that may see a roll has it, or 5 s at most, and closes the pages.

Per N: p50, p95 and p99 of (arrival − commit) over every (roll, page that may see it) pair, the
pairs never received (lost), the secret rows received by a page of someone else than their roller
and the Conteur, or rows of another campaign (shown to the wrong page), the roll rate reached
(beside the rate asked: a driver that cannot keep up says so), the server's RSS per open page
(RSS with the N streams open, minus before they opened, over N), the PostgreSQL connections per
open page and their backends' private memory, those still open 1 s after the pages closed, and
where the CPU went while the driver rolled: the server's workers, the driver (per roll), the
clients, PostgreSQL, Redis, and the rest of the machine (other work), with the clients' event-loop
lag (how late a 10 ms timer fires: a client that lags would add its own delay to the figures).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import _load  # noqa: E402
from _load import machine_busy_seconds, tree_cpu_seconds, tree_rss_bytes  # noqa: E402
from _push_pages import Page, client_process  # noqa: E402
from _push_report import figures, held_row, markdown, report, row_of  # noqa: E402
from _report import emit  # noqa: E402

DB_NAME = "altherion_bench_push"
ADMIN_URL = os.environ.get("BENCH_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")
DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{DB_NAME}")
# The push channel (pub/sub) and the shared cache (sessions, the rows' fragments), as in
# production: one Redis database of the bench's own, emptied before the run.
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
SECRET_KEY = "bench-push-secret-key-0123456789-0123456789-0123456789"
PAGES = tuple(int(n) for n in os.environ.get("BENCH_PUSH_PAGES", "100,500,1000,2000").split(","))
from _push_report import SECONDS  # noqa: E402

WORKERS = 2  # WEB_CONCURRENCY: the production web tier's on this 2-core machine
CLIENT_PROCESSES = int(os.environ.get("BENCH_PUSH_CLIENT_PROCESSES", "2"))
DRIVERS = int(os.environ.get("BENCH_PUSH_DRIVERS", "2"))
# A throwaway PostgreSQL cluster of the bench's own with room for every page's connection,
# instead of BENCH_ADMIN_URL's (see bench/README.md: each open stream holds one).
OWN_POSTGRES = os.environ.get("BENCH_PUSH_OWN_POSTGRES", "0") == "1"
PLAYERS = 4  # and a Conteur: five open pages per table
SEATS = PLAYERS + 1
SECRET_EVERY = 5  # a table's every fifth roll is secret
GRACE = 5.0  # seconds after the last roll within which every page must have had it
# Connections a step leaves to whatever else uses PostgreSQL: a step that would take them is
# not run (the machine's PostgreSQL is shared with other work; so is production's).
PG_SPARE = 10
WARM_UP_STREAMS = 16  # opened and closed before the server's memory is read: both workers warm


def server_env() -> dict[str, str]:
    """The production settings (`altherion.settings`), on the bench's database and Redis."""
    return {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "REDIS_CACHE_URL": REDIS_URL,
        "SECRET_KEY": SECRET_KEY,
        "DEBUG": "0",
        "HTTPS": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "CELERY_BROKER_URL": "",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "altherion.settings",
        "PYTHONPATH": str(ROOT),
    }


def recreate_database() -> None:
    _load.recreate_database(ADMIN_URL, DB_NAME, server_env(), ROOT)


def seed(tables: int) -> list[dict]:
    """`tables` campaigns, each with a Conteur and four players, their characters, and one
    signed-in session per user (the Conteur's first): a table's five open pages."""
    os.environ.update(server_env())
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db import transaction
    from django.test import Client

    from campaigns.models import Membership, Role
    from campaigns.services import campaign_create
    from characters.models import Character, CharacterSkill
    from sessions.models import MoralePool

    cache.clear()  # the bench's Redis database: the recreated database reuses the ids it names
    users = get_user_model().objects
    seeded = []
    with transaction.atomic():
        for table in range(tables):
            # No password: the sessions are made signed in, and hashing 2,000 would take minutes.
            conteur = users.create_user(f"conteur{table}")
            campaign = campaign_create(creator=conteur, name=f"Table {table}")
            MoralePool.objects.create(campaign=campaign)
            players, characters = [], []
            for index in range(PLAYERS):
                user = users.create_user(f"joueur{table}-{index}")
                Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
                character = Character.objects.create(
                    campaign=campaign, owner=user, name=f"Héros {index}", exaltation=5, strength=4
                )
                CharacterSkill.objects.create(character=character, key="melee", level=4)
                players.append(user.pk)
                characters.append(character.pk)
            seeded.append(
                {
                    "campaign": campaign.pk,
                    "users": [conteur.pk, *players],
                    "characters": characters,
                }
            )

    def session_for(user_id: int) -> str:
        """A new signed-in session (one per open page), as the login form makes one."""
        browser = Client()
        browser.force_login(users.get(pk=user_id))
        return browser.cookies[settings.SESSION_COOKIE_NAME].value

    for table in seeded:
        table["sessions"] = [session_for(user_id) for user_id in table["users"]]
    return seeded


def newest_event() -> int:
    from sessions.models import TableEvent

    return TableEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    _load.collect_static(ROOT, server_env())
    return _load.start_web(ROOT, server_env(), port, WORKERS)


def stop_server(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def workers_of(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as file:
            return [int(child) for child in file.read().split()]
    except OSError:
        return []


# --- PostgreSQL: the connections the pages hold ---------------------------------------------------


def admin(sql: str, *params) -> list[tuple]:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        return conn.execute(sql, params).fetchall()


def pg_room() -> int:
    """How many more connections PostgreSQL accepts now: max_connections, less the superusers'
    reserve and every client connection open (other databases' and other work's included)."""
    ((limit, reserved, used),) = admin(
        "SELECT current_setting('max_connections')::int,"
        " current_setting('superuser_reserved_connections')::int,"
        " (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')"
    )
    return limit - reserved - used


def pg_backends() -> tuple[int, int]:
    """(connections open to the bench's database, their backends' private memory in bytes:
    RssAnon from /proc, 0 where it cannot be read)."""
    pids = [pid for (pid,) in admin("SELECT pid FROM pg_stat_activity WHERE datname = %s", DB_NAME)]
    return len(pids), sum(private_bytes(pid) for pid in pids)


def pg_postmaster() -> int | None:
    """PostgreSQL's postmaster (its CPU counts its backends' once they end), or None."""
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        (backend,) = conn.execute("SELECT pg_backend_pid()").fetchone()
        try:
            with open(f"/proc/{backend}/status") as file:
                return next(int(line.split()[1]) for line in file if line.startswith("PPid:"))
        except (OSError, StopIteration):
            return None


def redis_server() -> int | None:
    import redis

    try:
        return int(redis.Redis.from_url(REDIS_URL).info("server")["process_id"])
    except (redis.RedisError, KeyError, ValueError):
        return None


def private_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as file:
            return next(1024 * int(line.split()[1]) for line in file if line.startswith("RssAnon:"))
    except (OSError, StopIteration):
        return 0


@contextlib.contextmanager
def own_postgres(max_connections: int):
    """A throwaway PostgreSQL cluster (BENCH_PUSH_OWN_POSTGRES=1): initdb in a temporary folder,
    the packaged defaults but `max_connections`, on a free port of 127.0.0.1; yields its URL
    without a database name, and is stopped and removed afterwards."""
    bindir = subprocess.run(
        ["pg_config", "--bindir"], capture_output=True, text=True, check=True
    ).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="altherion-bench-push-pg-"))
    run_as = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        run_as = ["runuser", "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    data, port = folder / "data", free_port()
    quiet = {"stdout": subprocess.DEVNULL, "check": True}
    initdb = [f"{bindir}/initdb", "-D", str(data), "-U", "postgres", "--auth=trust"]
    subprocess.run([*run_as, *initdb, "--no-locale", "--encoding=UTF8"], **quiet)
    options = (
        f"-c port={port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={folder}"
        f" -c max_connections={max_connections}"
    )
    pg_ctl = [*run_as, f"{bindir}/pg_ctl", "-D", str(data), "-w"]
    subprocess.run([*pg_ctl, "-l", str(folder / "log"), "-o", options, "start"], **quiet)
    try:
        yield f"postgres://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run([*pg_ctl, "-m", "fast", "stop"], stdout=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)


# --- the emulated pages (a client process) -------------------------------------------------


def warm_up(port: int, tables: list[dict], after: int, while_open):
    """A few streams opened (so that each worker has imported and connected what its first
    stream needs before its memory is read): `while_open()` is called while they are, and what
    it returns is returned once they are closed again."""

    async def run():
        pages = [
            Page(i, tables[i % len(tables)]["campaign"], tables[i % len(tables)]["sessions"][0])
            for i in range(WARM_UP_STREAMS)
        ]
        stop, gate = asyncio.Event(), asyncio.Semaphore(WARM_UP_STREAMS)
        tasks = [asyncio.ensure_future(page.hold(port, after, gate, stop)) for page in pages]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(p.opened for p in pages):
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        found = while_open()
        stop.set()
        await asyncio.gather(*tasks)
        if not all(p.opened for p in pages):
            errors = "; ".join({p.error for p in pages if p.error})
            raise SystemExit(f"le serveur n'ouvre pas de flux : {errors}")
        return found

    return asyncio.run(run())


# --- the driver ---------------------------------------------------------------------------------


def schedule(tables: int, seconds: float) -> list[tuple[int, int, int, bool]]:
    """Every roll of the run, in order: (number k, table, player seat, secret). One roll a second
    per table, spread evenly over the second; a table's players take turns, and its every fifth
    roll is secret (the tables' fifth rolls at different seconds)."""
    rolls = []
    for k in range(int(tables * seconds)):
        table, turn = k % tables, k // tables
        secret = (turn + table) % SECRET_EVERY == SECRET_EVERY - 1
        rolls.append((k, table, 1 + (turn + table) % PLAYERS, secret))
    return rolls


def drive(tables: list[dict], rolls, started: float, rate: float, out) -> None:
    """Commit `rolls` (this driver's share of the schedule) from `started` (time.time()), roll k
    at started + k / rate, until SECONDS have passed; a late roll goes at once. Puts, per roll:
    (event id, table, roller's user id, secret, commit time, time the call returned, lateness)."""
    records: list[tuple] = []
    cpu = time.process_time()
    try:
        roll_all(tables, rolls, started, rate, records)
    finally:  # a driver that fails still answers: the bench reports what it committed
        out.put({"records": records, "cpu": time.process_time() - cpu})


def roll_all(tables: list[dict], rolls, started: float, rate: float, records) -> None:
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from campaigns.policy import campaign_get_for_member
    from sessions import services
    from sessions.checks import RollRequest
    from sessions.models import Visibility

    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=users_of(tables))}
    end = started + SECONDS
    for k, table, seat, secret in rolls:
        due = started + k / rate
        now = time.time()
        if now >= end:
            break
        if due > now:
            time.sleep(due - now)
        late = max(time.time() - due, 0.0)
        data = tables[table]
        user = users[data["users"][seat]]
        committed: list[float] = []
        with transaction.atomic():
            # Registered first, so it runs first after the COMMIT: before the roll's own
            # callback publishes it.
            transaction.on_commit(lambda committed=committed: committed.append(time.time()))
            roll = services.roll_create(
                campaign=campaign_get_for_member(user=user, pk=data["campaign"]),
                by=user,
                request=RollRequest(
                    characteristic="strength",
                    skills=("melee",),
                    complexity=random.randint(0, 2),
                    difficulty=random.randint(4, 16),
                ),
                character_id=data["characters"][seat - 1],
                idempotency_key=uuid.uuid4().hex,
                visibility=Visibility.STORYTELLER if secret else Visibility.PUBLIC,
                rng=random.Random(k),
            )
        returned = time.time()
        records.append((roll.log_event.pk, table, user.pk, secret, committed[0], returned, late))


def users_of(tables: list[dict]) -> list[int]:
    return [user for table in tables for user in table["users"]]


def warm_up_driver(tables: list[dict]) -> None:
    """A few rolls in this process before the drivers fork from it: they inherit the imports,
    and what a first roll compiles."""
    from multiprocessing import SimpleQueue

    out = SimpleQueue()
    drive(tables[:1], [(k, 0, 1 + k % PLAYERS, k % 2 == 1) for k in range(6)], time.time(), 50, out)
    out.get()


# --- one step: N open pages ---------------------------------------------------------------------


def step(pages: int, tables: list[dict], port: int) -> dict:
    """One step: the server started anew, warmed, and N pages open on it while the driver rolls;
    or, where PostgreSQL would run out of connections first, why the step was not run."""
    from django.db import connections

    tables = tables[: pages // SEATS]
    pages = len(tables) * SEATS
    server = start_server(port)
    try:
        after = newest_event()
        connections.close_all()  # this process's own, and the forked ones must not share it
        idle = pg_backends()[0]
        warm = warm_up(port, tables, after, lambda: pg_backends()[0])
        per_stream = max(warm - idle, 0) / WARM_UP_STREAMS
        time.sleep(0.5)
        room, needed = pg_room(), round(per_stream * pages) + DRIVERS
        if needed + PG_SPARE > room:
            return {
                "pages": pages,
                "tables": len(tables),
                "skipped": (
                    f"chaque flux ouvert tient {per_stream:.2g} connexion PostgreSQL : il en"
                    f" faudrait {needed} (et {PG_SPARE} laissées au reste), PostgreSQL n'en"
                    f" accepte plus que {room}"
                ),
            }
        return hold(server, pages, tables, port, after, idle)
    finally:
        stop_server(server)


def hold(
    server: subprocess.Popen, pages: int, tables: list[dict], port: int, after: int, idle: int
) -> dict:
    """The N pages held open while the driver rolls, and their figures (`idle`: the server's
    PostgreSQL connections before any stream opened)."""
    rss_before = tree_rss_bytes(server.pid) or 0
    pg_before = pg_backends()
    context = multiprocessing.get_context("fork")
    shares = [
        [
            Page(i, tables[i // SEATS]["campaign"], tables[i // SEATS]["sessions"][i % SEATS])
            for i in range(p, pages, CLIENT_PROCESSES)
        ]
        for p in range(CLIENT_PROCESSES)
    ]
    controls, clients = [], []
    for share in shares:
        mine, theirs = context.Pipe()
        process = context.Process(target=client_process, args=(share, port, after, theirs))
        process.start()
        controls.append(mine)
        clients.append(process)
    opened = [control.recv() for control in controls]
    time.sleep(1.0)  # the last streams' subscriptions settle
    rss_open, pg_open = tree_rss_bytes(server.pid) or 0, pg_backends()

    rate = float(len(tables))  # one roll a second per table
    rolls = schedule(len(tables), SECONDS)
    started = time.time() + 0.3
    out = context.SimpleQueue()
    drivers = [
        context.Process(target=drive, args=(tables, rolls[d::DRIVERS], started, rate, out))
        for d in range(DRIVERS)
    ]
    workers = workers_of(server.pid)
    others = {"postgres": pg_postmaster(), "redis": redis_server()}
    measured = [server.pid, *workers, *(pid for pid in others.values() if pid)]
    cpu_before = {pid: tree_cpu_seconds(pid) or 0.0 for pid in measured}
    busy_before, total_before = machine_busy_seconds()
    for control in controls:
        control.send("go")
    for driver in drivers:
        driver.start()
    driven = [out.get() for _ in drivers]
    for driver in drivers:
        driver.join()
    time.sleep(0.5)  # the drivers' PostgreSQL backends end, and their CPU is counted
    busy_after, total_after = machine_busy_seconds()
    cpu_after = {pid: tree_cpu_seconds(pid) or 0.0 for pid in measured}
    for control in controls:
        control.send("end")
    for control in controls:
        control.recv()
    window = time.time() - started

    records = sorted(r for part in driven for r in part["records"])
    seers = {r[0]: seers_of(r, tables) for r in records}
    expected = sum(len(pages_) for pages_ in seers.values())
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline:
        for control in controls:
            control.send("count")
        if sum(control.recv() for control in controls) >= expected:
            break
        time.sleep(0.1)
    rss_held = tree_rss_bytes(server.pid) or 0
    for control in controls:
        control.send("stop")
    results = [control.recv() for control in controls]
    for process in clients:
        process.join()
    time.sleep(1.0)  # the server has seen the pages go
    pg_left = pg_backends()[0]
    return figures(
        pages=pages,
        tables=tables,
        rate=rate,
        records=records,
        seers=seers,
        results=results,
        rss=(rss_before, rss_open, rss_held),
        pg={
            "per_page": (pg_open[0] - pg_before[0]) / pages,
            "kib": (pg_open[1] - pg_before[1]) / 1024 / pages,
            "left": pg_left - idle,
        },
        cpu={
            "server": cpu_after[server.pid] - cpu_before[server.pid],
            "workers": [cpu_after[w] - cpu_before[w] for w in workers],
            "driver": sum(part["cpu"] for part in driven),
            "clients": sum(r["cpu"] for r in results),
            **{
                name: (cpu_after[pid] - cpu_before[pid]) if pid else None
                for name, pid in others.items()
            },
            "busy": (busy_after - busy_before) / max(total_after - total_before, 1e-9),
            "window": window,
        },
        opened=(sum(o[1] for o in opened), max(o[2] for o in opened)),
    )


def seers_of(record: tuple, tables: list[dict]) -> set[int]:
    """The pages (indexes) that may see a roll: its table's Conteur, and its roller or, for a
    public roll, every player of the table."""
    _, table, roller, secret, *_ = record
    users = tables[table]["users"]
    return {
        table * SEATS + seat
        for seat, user in enumerate(users)
        if seat == 0 or not secret or user == roller
    }


def main() -> int:
    global ADMIN_URL, DATABASE_URL
    with contextlib.ExitStack() as stack:
        if OWN_POSTGRES:
            url = stack.enter_context(own_postgres(max(PAGES) + 100))
            ADMIN_URL, DATABASE_URL = f"{url}/postgres", f"{url}/{DB_NAME}"
        return run()


def run() -> int:
    try:
        recreate_database()
    except Exception as error:  # noqa: BLE001 - a missing PostgreSQL is reported, not raised
        print(f"PostgreSQL indisponible ({error}) : banc non lancé.")
        return 1
    began = time.monotonic()
    tables = seed(max(PAGES) // SEATS)
    print(f"{len(tables)} tables semées en {time.monotonic() - began:.0f} s")
    warm_up_driver(tables)
    ((limit,),) = admin("SELECT current_setting('max_connections')::int")
    print(
        f"serveur : bin/web, {WORKERS} workers ; {CLIENT_PROCESSES} processus de pages,"
        f" {DRIVERS} pilotes ; {SECONDS:g} s de jets par palier ; PostgreSQL"
        f" {'du banc' if OWN_POSTGRES else ADMIN_URL.rsplit('@', 1)[-1]},"
        f" max_connections {limit}"
    )
    rows = []
    for pages in PAGES:
        found = step(pages, tables, free_port())
        report(found)
        rows.append(found)
        emit(row_of(found))
    emit(held_row(rows))
    print(markdown(rows))
    failed = [f["pages"] for f in rows if f.get("leaked") or f.get("unopened")]
    if failed:
        print(f"Des rangs montrés à tort ou des flux jamais ouverts : {failed}.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
