"""The table bench's load generator: keep-alive HTTP clients in threads, spread over a few forked
processes so that one interpreter's lock does not queue the clients' own work into the latencies
they measure (the server then pays for what it does, not for the clients' GIL); and the CPU time
and resident memory a process tree used (the server's), and how busy the machine was, read from
/proc.
"""

from __future__ import annotations

import http.client
import math
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

CLIENT_PROCESSES = int(os.environ.get("BENCH_CLIENT_PROCESSES", "4"))


class Load:
    """`clients` keep-alive connections share `total` requests (or run `until` a monotonic
    time). With `interval`, each client asks every `interval` seconds at a fixed rate, as a
    page's timer does, from a random first moment within the first interval (pages are not
    opened all at once); without it, each asks again as soon as answered (a closed loop). With
    `settled`, each client's first request (the one that opens its connection, as a page's
    first poll follows the page itself) is sent but not counted: the figures are those of pages
    already open."""

    def __init__(
        self,
        port: int,
        clients: int,
        total: int,
        make_request,
        interval: float = 0.0,
        until: float | None = None,
        settled: bool = False,
    ):
        self.port, self.clients, self.total = port, clients, total
        self.make_request = make_request
        self.interval, self.until, self.settled = interval, until, settled

    def run(self) -> dict:
        """The load's figures, its throughput over the time its clients were sending: from the
        first client's start to the last one's end, without the forking of their processes
        (tens of milliseconds, a large share of a short load's time)."""
        processes = max(1, min(CLIENT_PROCESSES, self.clients))
        if processes == 1:
            parts = [self._run_clients(range(self.clients), self.total)]
        else:
            parts = self._run_forked(processes)
        # perf_counter is the system's monotonic clock on Linux: one time line for every process.
        wall = max(part.pop("ended") for part in parts) - min(part.pop("began") for part in parts)
        return summary(parts, wall)

    def _run_forked(self, processes: int) -> list[dict]:
        context = multiprocessing.get_context("fork")
        queue = context.SimpleQueue()

        def child(indexes, total):
            queue.put(self._run_clients(indexes, total))

        shares = [range(p, self.clients, processes) for p in range(processes)]
        children = [
            context.Process(target=child, args=(share, self.total // processes)) for share in shares
        ]
        for process in children:
            process.start()
        parts = [queue.get() for _ in children]
        for process in children:
            process.join()
        return parts

    def _run_clients(self, indexes, total: int) -> dict:
        state = {"left": total, "latencies": [], "errors": 0, "statuses": {}}
        lock = threading.Lock()
        threads = [
            threading.Thread(target=self._client, args=(index, state, lock)) for index in indexes
        ]
        state["began"] = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        state["ended"] = time.perf_counter()
        del state["left"]
        return state

    def _take(self, state: dict, lock) -> bool:
        if self.until is not None and time.monotonic() > self.until:
            return False
        with lock:
            if state["left"] <= 0:
                return False
            state["left"] -= 1
            return True

    def _next_tick(self, due: float) -> float:
        """The page's timer (htmx `every` with `hx-sync="this:drop"`): it fires at a fixed rate,
        and a tick that comes while an answer is awaited is dropped, not sent late."""
        now = time.monotonic()
        due += self.interval
        if due < now:
            due += math.ceil((now - due) / self.interval) * self.interval
        return due

    def _client(self, index: int, shared: dict, lock) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        state: dict = {}
        if self.interval:
            time.sleep(random.uniform(0, self.interval))
        due = time.monotonic()
        uncounted = self.settled
        while self._take(shared, lock):
            method, path, body, headers = self.make_request(index, state)
            start = time.perf_counter()
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                data = response.read()
            except OSError:
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                with lock:
                    shared["errors"] += 1
                continue
            elapsed = time.perf_counter() - start
            cursor = response.getheader("X-Table-Cursor")
            if cursor:
                state["after"] = int(cursor)  # as the page: the next poll asks from there
            if uncounted:
                uncounted = False
            else:
                self._count(shared, lock, elapsed, response.status, f"{method} {path}", data)
            if self.interval:
                due = self._next_tick(due)
                time.sleep(max(due - time.monotonic(), 0))
        conn.close()

    def _count(self, shared: dict, lock, elapsed: float, status: int, what: str, data) -> None:
        with lock:
            shared["latencies"].append(elapsed)
            statuses = shared["statuses"]
            statuses[status] = statuses.get(status, 0) + 1
            if status >= 400:
                shared["errors"] += 1
                if shared["errors"] <= 3:
                    print(f"  {what} → {status}: {data[:200]!r}")


def summary(parts: list[dict], wall: float) -> dict:
    """The figures of a load whose `parts` (each with its latencies in seconds, errors and
    statuses) took `wall` seconds: requests, req/s, p50 and p99 (ms), errors, statuses."""
    latencies = sorted(x for part in parts for x in part["latencies"])
    statuses: dict[int, int] = {}
    for part in parts:
        for status, count in part.get("statuses", {}).items():
            statuses[status] = statuses.get(status, 0) + count
    return {
        "requests": len(latencies),
        "rps": len(latencies) / wall,
        "p50": 1000 * statistics.median(latencies),
        "p99": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        "errors": sum(part["errors"] for part in parts),
        "statuses": statuses,
        "wall": wall,
        "latencies": latencies,
    }


def merged(runs: list[dict]) -> dict:
    """Several runs of one load, one after the other, as one: req/s over their summed time."""
    return summary(runs, sum(run["wall"] for run in runs))


def median_ratio(runs: list[dict], floors: list[dict]) -> float:
    """The median of each run's throughput over that of the floor run of the same round."""
    return statistics.median(
        run["rps"] / floor["rps"] for run, floor in zip(runs, floors, strict=True)
    )


def tree_cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process and its descendants (gunicorn's master and workers),
    from /proc; None where there is no /proc."""
    try:
        with open(f"/proc/{pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/task/{pid}/children") as file:
            children = [int(child) for child in file.read().split()]
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    own = sum(int(x) for x in fields[11:15]) / ticks  # utime, stime and waited children's
    return own + sum(tree_cpu_seconds(child) or 0.0 for child in children)


def machine_busy_seconds() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat (zeros without)."""
    try:
        with open("/proc/stat") as file:
            ticks = [int(x) for x in file.readline().split()[1:]]
    except OSError:
        return 0.0, 0.0
    idle = ticks[3] + ticks[4]  # idle, iowait
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(ticks) - idle) / hz, sum(ticks) / hz


def tree_rss_bytes(pid: int) -> int | None:
    """Resident memory of a process and its descendants (gunicorn's master and workers), from
    /proc; None where there is no /proc."""
    try:
        with open(f"/proc/{pid}/status") as file:
            rss = next(int(line.split()[1]) for line in file if line.startswith("VmRSS:"))
        with open(f"/proc/{pid}/task/{pid}/children") as file:
            children = [int(child) for child in file.read().split()]
    except (OSError, StopIteration):
        return None
    return 1024 * rss + sum(tree_rss_bytes(child) or 0 for child in children)


def recreate_database(admin_url: str, name: str, env: dict[str, str], root: Path) -> None:
    """Drop and create the bench's database `name`, then migrate it with `env`."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=root,
        env=env,
        check=True,
    )


def collect_static(tree: Path, env: dict[str, str]) -> None:
    """collectstatic, as `make run` does (bin/serve): production settings serve static files
    through its manifest, and without it every page answers 500."""
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=tree,
        env=env,
        check=True,
    )


def start_web(tree: Path, env: dict[str, str], port: int, workers: int, *args: str):
    """bin/web, the production web tier, from `tree` on 127.0.0.1:`port` (extra gunicorn `args`),
    returned once /healthz answers."""
    process = subprocess.Popen(
        [str(Path(tree) / "bin" / "web"), "--log-level", "warning", *args],
        cwd=tree,
        env={
            **env,
            "PY": sys.executable,
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "WEB_CONCURRENCY": str(workers),
        },
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit("bin/web did not start")
