"""One request's in-process cost for the benches: its mean CPU time and its SQL statements, in
a process set up as a web process is (`altherion.wsgi` imported, as gunicorn's worker imports
it), so that a figure is what the worker pays, not what a development shell adds."""

from __future__ import annotations

import statistics
import time

WARM_UP = 5


def request_cost(request, *, samples: int, before=None, status: int | tuple = 200) -> dict:
    """{"ms": mean CPU ms, "queries": most statements seen} of `request()` over `samples` runs
    after WARM_UP unmeasured ones; `before()`, when given, runs untimed before each; an answer
    whose status is not `status` (or one of them) stops the bench."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    import altherion.wsgi  # noqa: F401 - set up once, as gunicorn's worker is

    expected = (status,) if isinstance(status, int) else status
    cpu, statements = [], set()
    for index in range(-WARM_UP, samples):
        if before:
            before()
        start = time.process_time()
        with CaptureQueriesContext(connection) as queries:
            answer = request()
        elapsed = time.process_time() - start
        if answer.status_code not in expected:
            raise SystemExit(f"{answer.status_code} ({status} attendu) : {answer.content[:200]!r}")
        if index >= 0:
            cpu.append(elapsed)
            statements.add(len(queries))
    return {"ms": 1000 * statistics.mean(cpu), "queries": max(statements)}
