"""`make bench` — the character sheet page and the API detail under concurrent load.

Starts gunicorn on 127.0.0.1 (a free port) against PostgreSQL `altherion_bench` (recreated),
seeds a campaign with a character of 20 skills and 50 history rows, then loads three URLs with a
bounded pool of Python threads (http.client, keep-alive): a minimal login-protected Django view
(the floor), the sheet page and the API detail — read-only, then mixed: one request in 20 is the
Conteur's write of the sheet through the API, and a read started after a write answered that
shows an older version counts as an error (a cache keyed on the wrong thing cannot pass).
The shared cache is Redis, as in production (BENCH_REDIS_URL, emptied first), so the workers
share what one of them rendered. Before the loads, the reads of an unchanged sheet, after a
write and with the cache emptied, and a PATCH, are measured in-process (bench/_sheet_cost.py):
CPU time and SQL statements.
The five loads take turns in BENCH_ROUNDS rounds (4) of BENCH_SECONDS / rounds each, and each
ratio to the floor is the median of its rounds' ratios to the floor of the same round.
Prints requests/s, p50 and p99 of each and the ratios to the floor. Settings: BENCH_SECONDS (8),
BENCH_ROUNDS (4), BENCH_CONCURRENCY (8), BENCH_WORKERS (2), BENCH_DATABASE_URL
(postgres://postgres@127.0.0.1:5432/altherion_bench), BENCH_REDIS_URL (redis://127.0.0.1:6379/12).
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _load import median_ratio, merged, start_web, summary  # noqa: E402
from _report import emit  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
SECONDS = float(os.environ.get("BENCH_SECONDS", "8"))
# Each load runs in ROUNDS slices of SECONDS / ROUNDS, the five loads taking turns, and each ratio
# is the median of its rounds' ratios to the floor of the same round: a machine whose speed
# drifts during the run (a shared host) moves the floor and the target together.
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "4"))
CONCURRENCY = int(os.environ.get("BENCH_CONCURRENCY", "8"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))
MAX_REQUESTS = 20_000  # per target: the load is bounded whatever the machine
DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/altherion_bench"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")

SEED = r"""
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from campaigns.models import Membership, Role
from campaigns.services import campaign_create
from characters.models import Character, CharacterChange, CharacterSkill
from rules import reference

User = get_user_model()
storyteller = User.objects.create_user("conteur", password="bench-password-42")
player = User.objects.create_user("aelis", password="bench-password-42")
campaign = campaign_create(creator=storyteller, name="Bench")
Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
character = Character.objects.create(campaign=campaign, owner=player, name="Aelis")
CharacterSkill.objects.bulk_create(
    CharacterSkill(character=character, key=s.key, level=3, expertises=["Une"])
    for s in reference.SKILLS[:20]
)
CharacterChange.objects.bulk_create(
    CharacterChange(character=character, version=1, field="karma", old_value=0, new_value=1, by=player)
    for _ in range(50)
)
browser = Client()
browser.force_login(player)  # a signed-in session, as the login form makes one
print("BENCH-SEED " + json.dumps({
    "character": character.pk,
    "session": browser.cookies[settings.SESSION_COOKIE_NAME].value,
    "token": Token.objects.create(user=player).key,
    "writer": Token.objects.create(user=storyteller).key,
}))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def environment() -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "REDIS_CACHE_URL": REDIS_URL,
        "SECRET_KEY": "bench-only-secret-key-0123456789-0123456789-0123456789",
        "DEBUG": "0",
        "HTTPS": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "_sheet_settings",
        "PYTHONPATH": os.pathsep.join([str(ROOT / "bench"), str(ROOT)]),
    }


def recreate_database() -> None:
    """A new database, and an empty cache: the recreated database reuses the ids its keys name."""
    import psycopg
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()

    url = urlparse(DATABASE_URL)
    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def manage(*args: str, env) -> str:
    result = subprocess.run(
        [PYTHON, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode:
        sys.stderr.write(result.stdout + result.stderr)
        raise SystemExit(f"manage.py {args[0]} failed")
    return result.stdout


class Writer:
    """The mixed load's other client: the Conteur writing the sheet through the API, one write
    at a time; `written` is the newest version a write was answered with."""

    def __init__(self, port: int, character: int, token: str) -> None:
        self.port, self.character, self.token = port, character, token
        self.lock = threading.Lock()
        self.written = 0
        self.count = 0

    def write(self) -> bool:
        with self.lock:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            headers = {"Authorization": f"Token {self.token}", "Accept": "application/json"}
            conn.request("GET", f"/api/characters/{self.character}/", headers=headers)
            current = json.loads(conn.getresponse().read())
            self.count += 1
            body = json.dumps({"karma": self.count % 10, "version": current["version"]})
            headers["Content-Type"] = "application/json"
            conn.request("PATCH", f"/api/characters/{self.character}/", body, headers)
            response = conn.getresponse()
            answer = json.loads(response.read())
            conn.close()
            if response.status != 200:
                return False
            self.written = max(self.written, answer["version"])
            return True


def shown_version(body: bytes) -> int:
    """The sheet version a page (data-version) or an API answer ("version") shows."""
    text = body.decode()
    if text.startswith("{"):
        return json.loads(text)["version"]
    marker = 'data-version="'
    at = text.index(marker) + len(marker)
    return int(text[at : text.index('"', at)])


def load(
    port: int, path: str, headers: dict[str, str], writer: Writer | None = None, seconds=SECONDS
) -> dict[str, float]:
    """Hit `path` from CONCURRENCY threads for `seconds` (at most MAX_REQUESTS in all); with a
    `writer`, one request in 20 is a write and every read is checked against the last one."""
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    budget = [MAX_REQUESTS]

    def worker() -> None:
        nonlocal errors
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        bad = 0
        while time.monotonic() < stop_at:
            with lock:
                if budget[0] <= 0:
                    break
                budget[0] -= 1
                turn = budget[0]
            start = time.perf_counter()
            if writer is not None and turn % 20 == 0:
                bad += not writer.write()
                mine.append(time.perf_counter() - start)
                continue
            expected = writer.written if writer is not None else 0
            try:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                body = response.read()
                if response.status != 200:
                    bad += 1
                elif writer is not None and shown_version(body) < expected:
                    bad += 1  # a stale page: a write was answered before this read began
            except (OSError, http.client.HTTPException):
                bad += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            mine.append(time.perf_counter() - start)
        conn.close()
        with lock:
            latencies.extend(mine)
            errors += bad

    for _ in range(10):  # warm up: connections, caches, the first template compile
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", path, headers=headers)
        status = conn.getresponse()
        status.read()
        if status.status != 200:
            raise SystemExit(f"{path} answered {status.status} during warm-up")
        conn.close()
    started = time.monotonic()
    stop_at = started + seconds  # after the warm-up: each slice loads for `seconds`
    threads = [threading.Thread(target=worker) for _ in range(CONCURRENCY)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return summary([{"latencies": latencies, "errors": errors}], time.monotonic() - started)


def in_rounds(port: int, targets: list[tuple]) -> dict[str, dict[str, float]]:
    """Each target's load in ROUNDS turns (`targets[0]` the floor): label → requests, errors,
    req/s, p50 and p99 over all its rounds, and `ratio`, the median of its rounds' throughput
    ratios to the floor of the same round."""
    slices: dict[str, list[dict]] = {label: [] for label, *_ in targets}
    for _ in range(ROUNDS):
        for label, path, headers, *write in targets:
            slices[label].append(load(port, path, headers, *write, seconds=SECONDS / ROUNDS))
    floors = slices[targets[0][0]]
    return {
        label: {**merged(rounds), "ratio": median_ratio(rounds, floors)}
        for label, rounds in slices.items()
    }


def browser_cookies(port: int, seed: dict) -> str:
    """The cookies a browser sends once it has opened the sheet: its session, and the CSRF
    cookie the first page set (the sheet's forms carry a token made from it)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    session = f"sessionid={seed['session']}"
    conn.request("GET", f"/characters/{seed['character']}/", headers={"Cookie": session})
    answer = conn.getresponse()
    answer.read()
    conn.close()
    csrf = [
        value.split(";", 1)[0]
        for name, value in answer.getheaders()
        if name.lower() == "set-cookie" and value.startswith("csrftoken=")
    ]
    return "; ".join([session, *csrf])


def main() -> int:
    env = environment()
    recreate_database()
    manage("migrate", "--noinput", env=env)
    seed_out = manage("shell", "-c", SEED, env=env)
    seed = json.loads(seed_out.split("BENCH-SEED ", 1)[1].splitlines()[0])
    cost_out = manage("shell", "-c", f"import _sheet_cost; _sheet_cost.main({seed!r})", env=env)
    costs = json.loads(cost_out.split("BENCH-COST ", 1)[1].splitlines()[0])
    for kind, figures in costs.items():
        print(
            f"{kind} (en processus) : {figures['ms']:.2f} ms CPU, {figures['queries']} requêtes SQL"
        )
        emit({"name": f"{kind} (en processus)", **figures})
    port = free_port()
    gunicorn = start_web(ROOT, env, port, WORKERS)  # the production web tier
    try:
        cookie = {"Cookie": browser_cookies(port, seed)}
        targets = [
            ("floor (minimal view)", "/bench/floor", cookie),
            ("sheet page", f"/characters/{seed['character']}/", cookie),
            (
                "API detail",
                f"/api/characters/{seed['character']}/",
                {"Authorization": f"Token {seed['token']}", "Accept": "application/json"},
            ),
        ]
        print(
            f"gunicorn {WORKERS} workers · {CONCURRENCY} concurrent clients · {SECONDS:g} s each"
            f" · PostgreSQL · character with 20 skills and 50 history rows"
        )
        print(f"{'target':<22}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}")
        writer = Writer(port, seed["character"], seed["writer"])
        mixed = [
            (f"{label} (mixed)", path, headers, writer) for label, path, headers in targets[1:]
        ]
        results = in_rounds(port, [*targets, *mixed])
        for label, result in results.items():
            print(
                f"{label:<22}{result['rps']:>10.1f}{result['p50']:>10.1f}"
                f"{result['p99']:>10.1f}{result['errors']:>8}"
            )
        floor = results["floor (minimal view)"]
        floor_name = f"plancher ({CONCURRENCY} clients)"
        names = {
            "floor (minimal view)": floor_name,
            "sheet page": "page de la fiche",
            "API detail": "API : détail de la fiche",
            "sheet page (mixed)": "page de la fiche, 1 écriture sur 20",
            "API detail (mixed)": "API : détail, 1 écriture sur 20",
        }
        emit(
            *(
                {
                    "name": names[label],
                    "floor": None if label == "floor (minimal view)" else floor_name,
                    **{k: r[k] for k in ("rps", "p50", "p99", "errors")},
                    **({} if label == "floor (minimal view)" else {"ratio": r["ratio"]}),
                }
                for label, r in results.items()
            )
        )
        for label in ("sheet page", "API detail", "sheet page (mixed)", "API detail (mixed)"):
            result = results[label]
            print(
                f"ratio {label}/floor: throughput {result['ratio']:.3f}× (median of {ROUNDS}"
                f" rounds), "
                f"p50 {result['p50'] / floor['p50']:.1f}×, p99 {result['p99'] / floor['p99']:.1f}×"
            )
        return 1 if any(r["errors"] for r in results.values()) else 0
    finally:
        gunicorn.terminate()
        try:
            gunicorn.wait(timeout=15)
        except subprocess.TimeoutExpired:
            gunicorn.kill()


if __name__ == "__main__":
    sys.exit(main())
