"""One request's in-process cost for the benches: its mean CPU time and its SQL statements, in
a process set up as a web process is (`altherion/wsgi.py`: every view imported, then what is
loaded taken out of the garbage collector's walks), so that a figure is what gunicorn's worker
pays, not a development shell's full collections of the whole app."""

from __future__ import annotations

import statistics
import time

WARM_UP = 5


def request_cost(request, *, samples: int, before=None, status: int = 200) -> dict:
    """{"ms": mean CPU ms, "queries": most statements seen} of `request()` over `samples` runs
    after WARM_UP unmeasured ones; `before()`, when given, runs untimed before each."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    import altherion.wsgi  # noqa: F401 - set up once, as gunicorn's worker is

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
