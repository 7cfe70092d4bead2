"""One request's in-process cost for the benches: its mean CPU time and its SQL statements."""

from __future__ import annotations

import statistics
import time

WARM_UP = 5


def request_cost(request, *, samples: int, before=None, status: int = 200) -> dict:
    """{"ms": mean CPU ms, "queries": most statements seen} of `request()` over `samples` runs
    after WARM_UP unmeasured ones; `before()`, when given, runs untimed before each."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cpu, statements = [], set()
    for index in range(-WARM_UP, samples):
        if before:
            before()
        start = time.process_time()
        with CaptureQueriesContext(connection) as queries:
            answer = request()
        elapsed = time.process_time() - start
        if answer.status_code != status:
            raise SystemExit(f"{answer.status_code} ({status} attendu) : {answer.content[:200]!r}")
        if index >= 0:
            cpu.append(elapsed)
            statements.add(len(queries))
    return {"ms": 1000 * statistics.mean(cpu), "queries": max(statements)}
