"""Two versions of the code, the roll against the floor, in the same run: a paired comparison.

`.venv/bin/python bench/_ab.py OLD_TREE NEW_TREE` (not one of `make bench`'s benches; two
checkouts, e.g. `git worktree add /tmp/old <commit>`): starts gunicorn from each tree, as the
table bench starts it, on its database and seed (bench/table.py), then BENCH_ROUNDS times (8)
the floor and the rolls of one server, then of the other, in alternating order. Prints each
version's ratio of the rolls' throughput to its floor's (the median of its rounds), its
server's CPU per roll, and the new version's ratio over the old one's round by round: the
machine's speed drifts by far more than a change moves the ratio between two runs, and both
servers here share each moment of it.
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import table  # noqa: E402
from _load import Load, tree_cpu_seconds  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "8"))
FLOOR_REQUESTS, ROLL_REQUESTS = 500, 200


def main(old: str, new: str) -> int:
    table.recreate_database()
    data = table.seed()
    floor, roll = table.requests_for(data)
    servers = {}
    for name, tree in (("old", old), ("new", new)):
        port = table.free_port()
        servers[name] = table.start_server(port, Path(tree)), port
    figures = {name: {"ratios": [], "cpu": []} for name in servers}
    try:
        for _server, port in servers.values():
            Load(port, table.OPEN_PAGES, table.WARM_UP_REQUESTS, floor).run()
            Load(port, table.ROLLERS * 2, table.WARM_UP_REQUESTS, roll).run()
        for round_ in range(ROUNDS):
            order = list(servers.items())
            for name, (server, port) in order if round_ % 2 == 0 else reversed(order):
                floor_rps = Load(port, table.OPEN_PAGES, FLOOR_REQUESTS, floor).run()["rps"]
                before = tree_cpu_seconds(server.pid) or 0.0
                roll_rps = Load(port, table.ROLLERS * 2, ROLL_REQUESTS, roll).run()["rps"]
                cpu = (tree_cpu_seconds(server.pid) or 0.0) - before
                figures[name]["ratios"].append(roll_rps / floor_rps)
                figures[name]["cpu"].append(1000 * cpu / ROLL_REQUESTS)
    finally:
        for server, _port in servers.values():
            server.terminate()
            server.wait()
    for name, found in figures.items():
        ratio, cpu = statistics.median(found["ratios"]), statistics.median(found["cpu"])
        print(f"{name} : jets / plancher {ratio:.3f}, CPU du serveur par jet {cpu:.2f} ms")
    paired = [
        n / o for o, n in zip(figures["old"]["ratios"], figures["new"]["ratios"], strict=True)
    ]
    rounds = ", ".join(f"{p:.3f}" for p in paired)
    print(f"nouveau / ancien, tour par tour : {rounds} ; médiane {statistics.median(paired):.3f}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    raise SystemExit(main(sys.argv[1], sys.argv[2]))
