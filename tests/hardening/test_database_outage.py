"""Issue 12's acceptance test: PostgreSQL goes away under load, then comes back.

The app runs as in production — a real gunicorn, DEBUG off, its cache each worker's memory or
a shared Redis — on a PostgreSQL cluster of the test's own (never the machine's shared one on
5432, which the rest of the suite uses). While threads write a sheet through the API and read pages and the API, the cluster is stopped for a few
seconds and started again. During the outage every answer is a 503 with `Retry-After` (JSON in the
API's error shape under /api/, the French page for a browser), never a 500; once the database is
back the app answers 200 again by itself; and no write answered 5xx was saved behind the client's
back: either it was not kept, or its retry — the very same change — gets 200 and is written once.
A page that polls through HTMX shows the connection banner during the outage and clears it after.
"""

import time

import pytest

from altherion.demo import DEMO_PASSWORD
from tests.hardening.outage_harness import (
    BANNER_TEXT,
    COOL_DOWN,
    OUTAGE,
    PLAYER,
    RECOVERY,
    SCREENSHOT,
    UNAVAILABLE_PAGE,
    WARM_UP,
    WRITE_FIELDS,
    Answer,
    App,
    Load,
    Outage,
    Write,
    load_on,
    private_cluster,
    served_app,
    shared_cache_url,
    temporary_workdir,
)

pytestmark = pytest.mark.services


@pytest.fixture(scope="module", params=["memory", "redis"], ids=["worker-memory", "shared-redis"])
def cache(request):
    """The app's cache: each gunicorn worker's own memory, or one Redis for both, as in
    production (then a read can be answered from the caches alone: it must say 503 too)."""
    return shared_cache_url() if request.param == "redis" else None


@pytest.fixture(scope="module")
def workdir(cache):
    with temporary_workdir() as path:
        yield path


@pytest.fixture(scope="module")
def private_postgres(workdir):
    with private_cluster(workdir) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def app(private_postgres, workdir, cache):
    with served_app(private_postgres, workdir, cache) as served:
        yield served


# --- the tests ---------------------------------------------------------------------------------


def test_postgresql_going_away_under_load_is_503s_then_200s_and_no_write_saved_behind_a_5xx(
    app, private_postgres
):
    private_postgres.ensure_running()
    with load_on(app) as load:
        time.sleep(WARM_UP)
        with private_postgres.down() as outage:
            time.sleep(OUTAGE)
        time.sleep(COOL_DOWN)

    answers = load.answers
    assert not load.problems, load.problems
    assert not [a for a in answers if a.status is None], "requests without an answer"
    _every_failure_is_a_503_that_says_to_retry([a for a in answers if a.kind != "health"])
    _health_says_whether_the_database_answers([a for a in answers if a.kind == "health"])
    _the_outage_was_seen(answers, outage)
    recovery = _the_app_recovers_by_itself(answers, outage)
    _no_write_lost_or_doubled(app, load.writes)
    print(_summary(private_postgres, app, load, outage, recovery))


def _summary(cluster, app: App, load: Load, outage: Outage, recovery: dict[str, str]) -> str:
    """The timings and counts of the run, for the log (`pytest -s`)."""
    setup = [f"cluster {cluster.created_in:.1f} s"]
    setup += [f"{step} {seconds:.1f} s" for step, seconds in app.timings.items()]
    failed = [w for w in load.writes if w.kept is not None]
    return (
        f"\nsetup: {', '.join(setup)}\n"
        f"outage: stop {outage.down - outage.stop_asked:.2f} s, down"
        f" {outage.start_asked - outage.down:.2f} s, start {outage.up - outage.start_asked:.2f} s;"
        f" first 2xx after the start was asked: {recovery}\n"
        f"answers: {len(load.answers)}, {sum(a.status == 503 for a in load.answers)} of them 503;"
        f" writes: {len(load.writes)}, all saved once; {len(failed)} answered 5xx,"
        f" {sum(bool(w.kept) for w in failed)} of those kept, every retry answered 200"
    )


def _every_failure_is_a_503_that_says_to_retry(answers: list[Answer]) -> None:
    """No 500, no missing answer: each failure is a 503 with Retry-After — JSON in the API's
    error shape under /api/ (even to a client that accepts HTML), the French page elsewhere."""
    failures = [a for a in answers if not a.ok]
    assert not [a for a in failures if a.status != 503], [
        (a, a.text()[:300]) for a in failures if a.status != 503
    ]
    for answer in failures:
        assert answer.headers.get("Retry-After", "").isdigit(), answer
        assert int(answer.headers["Retry-After"]) > 0, answer
        if answer.path.startswith("/api/"):
            assert answer.headers.get("Content-Type") == "application/json", (answer, answer.body)
            body = answer.json()
            assert set(body) == {"detail", "errors"} and body["errors"] == {}, body
            assert "indisponible" in body["detail"], body
        else:
            assert answer.headers.get("Content-Type", "").startswith("text/html"), answer
            assert UNAVAILABLE_PAGE in answer.text(), answer.text()[:500]
            assert "Traceback" not in answer.text() and "psycopg" not in answer.text()


def _health_says_whether_the_database_answers(answers: list[Answer]) -> None:
    """/healthz is for probes, not people: JSON, 503 and `"database": "down"` in the outage."""
    for answer in answers:
        assert answer.status in (200, 503), answer
        assert answer.headers.get("Content-Type") == "application/json", answer
        assert answer.json()["database"] == ("ok" if answer.ok else "down"), answer.json()


def _the_outage_was_seen(answers: list[Answer], outage: Outage) -> None:
    """While the database was down, everything answered 503; each kind of request saw it."""
    during = [a for a in answers if a.started >= outage.down and a.ended <= outage.start_asked]
    assert during, "no request ran while the database was down"
    assert all(a.status == 503 for a in during), [a for a in during if a.status != 503]
    assert {a.kind for a in during} >= {"api", "page", "health"}, during
    assert any(a.kind == "write" and a.status == 503 for a in answers), "no write saw the outage"


def _the_app_recovers_by_itself(answers: list[Answer], outage: Outage) -> dict[str, str]:
    """Within RECOVERY seconds of the database's return every answer is a 2xx again; returns
    how long after the start was asked each kind of request got its first 2xx."""
    settled = outage.up + RECOVERY
    late = [a for a in answers if a.started >= settled]
    assert {a.kind for a in late} >= {"api", "page", "write", "health"}, late
    assert all(a.ok for a in late), [a for a in late if not a.ok]
    first = {}
    for kind in ("api", "page", "write"):
        ok = [a.ended for a in answers if a.kind == kind and a.ok and a.started >= outage.down]
        first[kind] = f"{min(ok) - outage.start_asked:.2f} s"
    return first


def _no_write_lost_or_doubled(app: App, writes: list[Write]) -> None:
    """Every write was saved in the end, once: the history holds each field's values in the
    order they were asked, and the sheet the last of them."""
    assert all(w.saved for w in writes), [w for w in writes if not w.saved]
    for write in writes:
        if write.retry is not None:
            # Kept or not, the very same change sent again is a 200, never a conflict.
            assert write.retry.status == 200, (write, write.retry.text()[:300])
    history = app.api("GET", f"/api/characters/{app.character}/history/")
    assert history.status == 200, history
    changes = history.json()
    assert len(changes) < 100, "the history page is full: it may hide changes"
    sheet = app.api("GET", f"/api/characters/{app.character}/").json()
    for name in WRITE_FIELDS:
        asked = [w.value for w in writes if w.field == name]
        recorded = [
            c["new_value"]
            for c in sorted(changes, key=lambda c: c["version"])
            if c["field"] == name
        ]
        assert recorded == asked, (name, asked, recorded)
        assert all(c["by"] == PLAYER for c in changes if c["field"] == name)
        assert sheet[name] == asked[-1], (name, sheet[name], asked[-1])


@pytest.mark.browser
def test_a_polling_page_shows_the_connection_banner_while_postgresql_is_down(
    app, private_postgres, browser
):
    from playwright.sync_api import expect

    private_postgres.ensure_running()
    context = browser.new_context(base_url=app.url, locale="fr-FR")
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        polls = []
        page.on("response", lambda r: polls.append(r.status) if "/table/poll/" in r.url else None)
        page.goto("/accounts/login/")
        page.get_by_label("Nom d’utilisateur").fill(PLAYER)
        page.get_by_label("Mot de passe").fill(DEMO_PASSWORD)
        page.get_by_role("button", name="Se connecter").click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        page.goto(f"/campaigns/{app.campaign}/table/")
        expect(page.locator("#table-poller")).to_be_attached()
        banner = page.locator("#connection-status")
        expect(banner).to_be_hidden()

        with private_postgres.down() as outage:
            # The table polls every 1.5 s: its next poll meets the outage.
            expect(banner).to_be_visible(timeout=6_000)
            expect(banner).to_have_text(BANNER_TEXT)
            shown = time.monotonic() - outage.down
            page.screenshot(path=SCREENSHOT)
        expect(banner).to_be_hidden(timeout=8_000)
        cleared = time.monotonic() - outage.up
    finally:
        context.close()
    assert 503 in polls and 500 not in polls, polls
    print(f"\nbanner shown {shown:.2f} s after the stop, cleared {cleared:.2f} s after the start")
