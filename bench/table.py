"""Bench of the table: roll creation and the log's poll under 50 open pages, against a floor.

Run from the repository root: `.venv/bin/python bench/table.py` (PostgreSQL on 127.0.0.1 as user
postgres, or BENCH_DATABASE_URL). It recreates the database `altherion_bench_table`, seeds a
campaign (a Conteur, four players and their characters), empties the shared cache (Redis,
BENCH_REDIS_URL, as in production), starts the production web tier on 127.0.0.1 (bin/web: gunicorn
with 3 uvicorn workers, as docker-compose.yml runs it; BENCH_WORKERS) and runs
bounded closed-loop loads (bench/_load.py: client threads in a few forked processes):

- floor: GET /bench/floor — the sheet bench's floor (bench/_sheet_urls.py): the cheapest
  login-protected Django view, behind the same middleware and session authentication;
- rolls: POST /api/campaigns/<id>/rolls/ by the four players (token auth, server-side dice,
  Impact and Moral locking, one log event each);
- poll: GET /campaigns/<id>/table/poll/?after=<cursor> by 50 open pages (session cookies), each
  following its own cursor while a player keeps rolling, as the table page does.

After WARM_UP_REQUESTS unmeasured requests of each (the workers' first requests import what
the others reuse), the floor, the rolls and the poll loop take turns in BENCH_ROUNDS rounds (4);
each ratio to the
floor is the median of its rounds' ratios to the floor of the same round, so that a machine
whose speed drifts during the run moves both together. Prints req/s, p50 and p99 of each and
their ratios to the floor, then whether the server keeps
up with 50 pages polling every 1.5 s (capacity above the demand, p99 below the poll interval),
and the capacity row: the most open pages held, each step with the CPU each poll cost the
server and the clients. Before the loads, one roll POST and each kind of poll are measured
in-process (bench/_poll_cost.py): their SQL statements (for the roll every one Django runs,
BEGIN, COMMIT and the token's included) and their CPU time.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))  # the sheet bench's settings and floor view
import _load  # noqa: E402
from _load import Load, machine_busy_seconds, median_ratio, merged, tree_cpu_seconds  # noqa: E402
from _poll_cost import poll_costs  # noqa: E402
from _report import emit  # noqa: E402

DB_NAME = "altherion_bench_table"
ADMIN_URL = os.environ.get("BENCH_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")
DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{DB_NAME}")
# The shared cache, as in production (sessions, throttles, cached fragments): emptied before each
# run, since the recreated database reuses the ids its keys name.
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
SECRET_KEY = "bench-table-secret-key-0123456789-0123456789-0123456789"
OPEN_PAGES = 50
ROLLERS = 4
FLOOR_REQUESTS = 2000
ROLL_REQUESTS = 800  # 200 a round: in a shorter load, the tail (fewer clients busy) weighs
WARM_UP_REQUESTS = 100  # per load, before the rounds
POLL_REQUESTS = 3000
WORKERS = int(os.environ.get("BENCH_WORKERS", "3"))
# Per worker: 1 is gunicorn's sync worker, as in production (one connection per request, no
# keep-alive); above 1 its gthread worker, each thread with its own PostgreSQL connection. On
# two cores the sync workers held more pages: threads of one process queue on its GIL.
POLL_INTERVAL = 1.5  # seconds, as the table page polls
LIVE_SECONDS = 15  # the realistic phase: 50 pages polling every 1.5 s while a player rolls
# The capacity row: more and more open pages (each polling every 1.5 s) while one roll a second
# lands, public or secret; the most pages held with the poll's p99 within the target.
CAPACITY_STEPS = tuple(
    int(n) for n in os.environ.get("BENCH_PAGES", "100,200,300,400,500,600,700,800").split(",")
)
CAPACITY_SECONDS = float(os.environ.get("BENCH_CAPACITY_SECONDS", "9"))
CAPACITY_P99_MS = 250
# The floor, the rolls and the poll loop take turns in this many rounds (BENCH_ROUNDS).
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "4"))
ROLL_SAMPLES = 50  # roll POSTs measured in-process (statements, CPU), after a few to warm up


def server_env(tree: Path = ROOT) -> dict[str, str]:
    """The server's environment, its code from `tree` (this checkout unless bench/_ab.py says)."""
    return {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "REDIS_CACHE_URL": REDIS_URL,
        "SECRET_KEY": SECRET_KEY,
        "DEBUG": "0",
        "HTTPS": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        "CELERY_BROKER_URL": "",
        "DJANGO_SETTINGS_MODULE": "_sheet_settings",
        "PYTHONPATH": os.pathsep.join([str(Path(tree) / "bench"), str(tree)]),
    }


def recreate_database() -> None:
    _load.recreate_database(ADMIN_URL, DB_NAME, server_env(), ROOT)


def seed() -> dict:
    """A campaign with a Conteur and four players, their characters, tokens and sessions."""
    os.environ.update(server_env())
    import django

    django.setup()
    from django.core.cache import cache

    cache.clear()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from campaigns.models import Membership, Role
    from campaigns.services import campaign_create
    from characters.models import Character, CharacterSkill
    from sessions.models import MoralePool

    users = get_user_model().objects
    conteur = users.create_user("conteur", password="bench-password-123")
    campaign = campaign_create(creator=conteur, name="Banc d'essai")
    MoralePool.objects.create(campaign=campaign)
    players, characters = [], []
    for index in range(ROLLERS):
        user = users.create_user(f"joueur{index}", password="bench-password-123")
        Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        character = Character.objects.create(
            campaign=campaign, owner=user, name=f"Héros {index}", exaltation=5, strength=4
        )
        CharacterSkill.objects.create(character=character, key="melee", level=4)
        players.append(user)
        characters.append(character)

    def session_for(user) -> str:
        """A new signed-in session of `user` (one per open page), as the login form makes one."""
        browser = Client()
        browser.force_login(user)
        return browser.cookies[settings.SESSION_COOKIE_NAME].value

    everyone = [conteur, *players]
    return {
        "campaign": campaign.pk,
        "tokens": [Token.objects.create(user=u).key for u in players],
        "characters": [c.pk for c in characters],
        "sessions": [session_for(everyone[i % len(everyone)]) for i in range(OPEN_PAGES)],
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int, tree: Path = ROOT) -> subprocess.Popen:
    return _load.start_web(tree, server_env(tree), port, WORKERS, "--keep-alive", "30")


@contextlib.contextmanager
def rolling(port: int, roll):
    """One player rolling in the background, about 5 rolls a second, while the pages poll."""
    stop = threading.Event()

    def keep_rolling():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while not stop.is_set():
            method, path, body, headers = roll(0, {})
            conn.request(method, path, body=body, headers=headers)
            conn.getresponse().read()
            time.sleep(0.2)
        conn.close()

    roller = threading.Thread(target=keep_rolling)
    roller.start()
    try:
        yield
    finally:
        stop.set()
        roller.join()


def roll_cost(roll) -> dict:
    """One roll POST run in-process as the load sends it (the same body, its token): the SQL
    statements Django runs for it (BEGIN and COMMIT included) and its CPU time, the mean of
    ROLL_SAMPLES after a few to warm up."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    import altherion.wsgi  # noqa: F401 - set up as gunicorn's worker is (bench/_cost.py)

    client = Client(HTTP_HOST="127.0.0.1")
    statements, cpu = set(), []
    for index in range(-5, ROLL_SAMPLES):
        method, path, body, headers = roll(index, {})
        start = time.process_time()
        with CaptureQueriesContext(connection) as queries:
            response = client.generic(
                method,
                path,
                body,
                content_type=headers["Content-Type"],
                HTTP_AUTHORIZATION=headers["Authorization"],
            )
        elapsed = time.process_time() - start
        if response.status_code != 201:
            raise SystemExit(f"POST rolls/ → {response.status_code}: {response.content[:200]!r}")
        if index >= 0:
            statements.add(len(queries))
            cpu.append(elapsed)
    return {
        "statements": max(statements),
        "varies": len(statements) > 1,
        "ms": 1000 * statistics.mean(cpu),
    }


def cpu_shares(server: subprocess.Popen, run) -> tuple[dict, dict]:
    """`run()`'s result, and the CPU it cost: the server's (gunicorn's processes), the clients'
    (this bench and its forked clients) and the whole machine's busy share (PostgreSQL, Redis
    and anything else running included)."""
    before_server, before_all = tree_cpu_seconds(server.pid), tree_cpu_seconds(os.getpid())
    busy_before, total_before = machine_busy_seconds()
    result = run()
    after_server, after_all = tree_cpu_seconds(server.pid), tree_cpu_seconds(os.getpid())
    busy_after, total_after = machine_busy_seconds()
    if None in (before_server, after_server, before_all, after_all):
        return result, {}
    server_cpu = after_server - before_server
    return result, {
        "server": server_cpu,
        "clients": (after_all - before_all) - server_cpu,
        "busy": (busy_after - busy_before) / max(total_after - total_before, 1e-9),
    }


def pages_held(port: int, server: subprocess.Popen, data: dict, roll, newest_event) -> dict:
    """The most open table pages one server holds: for each step, `pages` threads poll every
    POLL_INTERVAL (each from its own cursor) for CAPACITY_SECONDS while one roll a second lands
    (every other one secret); the step holds if the polls' p99 stays within CAPACITY_P99_MS."""
    held: dict = {"pages": 0, "p99": 0.0, "steps": []}
    for pages in CAPACITY_STEPS:
        stop = threading.Event()

        def one_roll_a_second(stop=stop):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            turn = 0
            while not stop.is_set():
                method, path, body, headers = roll(turn, {})
                payload = json.loads(body)
                payload["visibility"] = "storyteller" if turn % 2 else "public"
                conn.request(method, path, body=json.dumps(payload), headers=headers)
                conn.getresponse().read()
                turn += 1
                stop.wait(1.0)
            conn.close()

        start_cursor = newest_event()

        def poll(index, state, start_cursor=start_cursor):
            after = state.setdefault("after", start_cursor)
            session = data["sessions"][index % len(data["sessions"])]
            headers = {"Cookie": f"sessionid={session}", "HX-Request": "true"}
            path = f"/campaigns/{data['campaign']}/table/poll/?after={after}"
            return "GET", path, None, headers

        roller = threading.Thread(target=one_roll_a_second)
        roller.start()
        until = time.monotonic() + CAPACITY_SECONDS
        load = Load(port, pages, 10**9, poll, interval=POLL_INTERVAL, until=until, settled=True)
        step, cpu = cpu_shares(server, load.run)
        stop.set()
        roller.join()
        ok = step["p99"] <= CAPACITY_P99_MS and not step["errors"]
        held["steps"].append((pages, step["p99"], ok))
        print(f"  {pages:4d} pages : p99 {step['p99']:.0f} ms, {step['rps']:.0f} req/s", end="")
        if cpu:
            per_poll = 1000 / max(step["requests"], 1)
            print(
                f", CPU par poll : serveur (jets compris) {cpu['server'] * per_poll:.1f} ms,"
                f" clients {cpu['clients'] * per_poll:.1f} ms ; machine occupée"
                f" {100 * cpu['busy']:.0f} %",
                end="",
            )
        print("" if ok else f" — au-delà de {CAPACITY_P99_MS} ms ou en erreur")
        if not ok:
            break
        held["pages"], held["p99"] = pages, step["p99"]
    return held


def requests_for(data: dict):
    """The floor's request and a roll's, as the loads send them (`seed()`'s campaign)."""

    def floor(index, state):
        return "GET", "/bench/floor", None, {"Cookie": f"sessionid={data['sessions'][index]}"}

    def roll(index, state):
        player = index % ROLLERS
        body = {
            "character": data["characters"][player],
            "characteristic": random.choice(["strength", "agility", "finesse"]),
            "skills": ["melee"],
            "complexity": random.randint(0, 4),
            "difficulty": random.randint(4, 16),
            "idempotency_key": uuid.uuid4().hex,
        }
        headers = {
            "Authorization": f"Token {data['tokens'][player]}",
            "Content-Type": "application/json",
        }
        return "POST", f"/api/campaigns/{data['campaign']}/rolls/", json.dumps(body), headers

    return floor, roll


def main() -> int:
    try:
        recreate_database()
    except Exception as error:  # noqa: BLE001 - a missing PostgreSQL is reported, not raised
        print(f"PostgreSQL indisponible ({error}) : banc non lancé.")
        return 1
    data = seed()
    from sessions.models import TableEvent

    def newest_event() -> int:
        last = TableEvent.objects.order_by("-id").values_list("id", flat=True).first()
        return last or 0

    port = free_port()
    server = start_server(port)
    campaign = data["campaign"]
    try:
        floor, roll = requests_for(data)

        def poll(index, state):
            # A page starts from the cursor it was rendered with: the newest event then.
            after = state.setdefault("after", opened_at[0])
            headers = {
                "Cookie": f"sessionid={data['sessions'][index]}",
                "HX-Request": "true",
            }
            path = f"/campaigns/{campaign}/table/poll/?after={after}"
            return "GET", path, None, headers

        cost = roll_cost(roll)
        polls = poll_costs(data, roll, newest_event)
        # The floor, the rolls and the poll in a loop take turns, ROUNDS times; each ratio is the
        # median of its rounds' ratios to the floor of the same round.
        runs: dict[str, list[dict]] = {"floor": [], "rolls": [], "poll": []}
        opened_at = [0]
        # Unmeasured: each worker's first requests import and build what the others then reuse.
        for clients, make_request in ((OPEN_PAGES, floor), (ROLLERS * 2, roll), (OPEN_PAGES, poll)):
            Load(port, clients, WARM_UP_REQUESTS, make_request).run()
        for _ in range(ROUNDS):
            runs["floor"].append(Load(port, OPEN_PAGES, FLOOR_REQUESTS // ROUNDS, floor).run())
            runs["rolls"].append(Load(port, ROLLERS * 2, ROLL_REQUESTS // ROUNDS, roll).run())
            with rolling(port, roll):
                opened_at[0] = newest_event()  # here: client threads never touch the database
                runs["poll"].append(Load(port, OPEN_PAGES, POLL_REQUESTS // ROUNDS, poll).run())
        results = {name: merged(parts) for name, parts in runs.items()}
        ratios = {name: median_ratio(runs[name], runs["floor"]) for name in ("rolls", "poll")}
        with rolling(port, roll):
            opened_at[0] = newest_event()
            until = time.monotonic() + LIVE_SECONDS
            live = Load(port, OPEN_PAGES, 10**9, poll, interval=POLL_INTERVAL, until=until)
            results["live"] = live.run()
        print(f"capacité : pages ouvertes (poll toutes les {POLL_INTERVAL} s, 1 jet par seconde)")
        held = pages_held(port, server, data, roll, newest_event)
    finally:
        server.terminate()
        server.wait(timeout=15)

    base = results["floor"]
    print(f"bin/web : {WORKERS} workers uvicorn, PostgreSQL {DB_NAME}")
    print(
        f"{'':38} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'débit/pl.':>10} {'p50/pl.':>8}"
        f" {'erreurs':>8}"
    )
    labels = {
        "floor": "plancher : /bench/floor (50 clients)",
        "rolls": f"jets : POST rolls/ ({ROLLERS * 2} clients)",
        "poll": f"poll, capacité ({OPEN_PAGES} pages, en boucle)",
        "live": f"poll réel ({OPEN_PAGES} pages, toutes les {POLL_INTERVAL} s)",
    }
    for name, result in results.items():
        ratio = ratios.get(name, result["rps"] / base["rps"])
        slower = result["p50"] / base["p50"]
        print(
            f"{labels[name]:38} {result['rps']:8.0f} {result['p50']:8.1f} {result['p99']:8.1f}"
            f" {ratio:10.3f} {slower:8.1f} {result['errors']:8d}"
        )
    floor_name = f"plancher ({OPEN_PAGES} clients)"
    names = {
        "floor": floor_name,
        "rolls": f"création d'un jet (API, {ROLLERS * 2} clients)",
        "poll": f"poll du journal ({OPEN_PAGES} pages, en boucle)",
        "live": f"poll du journal ({OPEN_PAGES} pages, toutes les {POLL_INTERVAL} s)",
    }
    emit(
        *(
            {
                "name": names[name],
                "floor": None if name == "floor" else floor_name,
                **{k: r[k] for k in ("rps", "p50", "p99", "errors")},
                **({"ratio": ratios[name]} if name in ratios else {}),
            }
            for name, r in results.items()
        )
    )
    varies = " (variable !)" if cost["varies"] else ""
    print(
        f"jet (en processus) : {cost['statements']} requêtes SQL par POST rolls/{varies} "
        f"(BEGIN, COMMIT et jeton compris), {cost['ms']:.1f} ms CPU"
    )
    emit(
        {
            "name": "création d'un jet (API, en processus, BEGIN/COMMIT et jeton compris)",
            "ms": cost["ms"],
            "queries": cost["statements"],
        }
    )
    for kind, figures in polls.items():
        name = kind if kind.startswith("page de la table") else f"poll du journal, {kind}"
        print(
            f"{name} (en processus) : {figures['ms']:.2f} ms CPU, {figures['queries']} requêtes SQL"
        )
        emit({"name": f"{name} (en processus)", **figures})
    emit(
        {
            "name": f"pages de table ouvertes tenues (p99 du poll ≤ {CAPACITY_P99_MS} ms)",
            "pages": held["pages"],
            "ms": held["p99"],
        }
    )
    needed = OPEN_PAGES / POLL_INTERVAL
    capacity = results["poll"]["rps"]
    live = results["live"]
    ok = (
        capacity >= needed
        and live["p99"] < 1000 * POLL_INTERVAL
        and not any(r["errors"] for r in results.values())
    )
    statuses = results["poll"]["statuses"]
    print(f"poll : réponses {dict(sorted(statuses.items()))} (204 = rien de neuf)")
    print(
        f"{OPEN_PAGES} pages toutes les {POLL_INTERVAL} s demandent {needed:.0f} req/s : "
        f"capacité {capacity:.0f} req/s ({capacity / needed:.1f}×), p99 réel "
        f"{live['p99']:.0f} ms < {1000 * POLL_INTERVAL:.0f} ms : {'atteint' if ok else 'MANQUÉ'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
