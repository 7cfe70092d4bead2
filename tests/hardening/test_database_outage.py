"""Issue 12's acceptance test: PostgreSQL goes away under load, then comes back.

The app runs as in production — a real gunicorn, DEBUG off — on a PostgreSQL cluster of the
test's own (never the machine's shared one on 5432, which the rest of the suite uses). While
threads write a sheet through the API and read pages and the API, the cluster is stopped for a few
seconds and started again. During the outage every answer is a 503 with `Retry-After` (JSON in the
API's error shape under /api/, the French page for a browser), never a 500; once the database is
back the app answers 200 again by itself; and no write answered 5xx was saved behind the client's
back: either it was not kept, or its retry — the very same change — gets 200 and is written once.
A page that polls through HTMX shows the connection banner during the outage and clears it after.
"""

import glob
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import Message
from http.cookies import SimpleCookie
from pathlib import Path

import pytest

from altherion.demo import DEMO_PASSWORD
from common.api_schema import tag_version
from tests.conftest import service_missing

pytestmark = pytest.mark.services

BASE_DIR = Path(__file__).resolve().parents[2]
PLAYER = "aelis"  # a demo player (altherion/demo.py) who owns a character of the demo campaign
UNAVAILABLE_PAGE = "Service momentanément indisponible"
BANNER_TEXT = "Connexion au serveur perdue, nouvel essai…"
SCREENSHOT = "/tmp/outage-banner.png"

REQUEST_TIMEOUT = 10  # seconds, every request
PACE = 0.15  # seconds between two requests of one reader
WRITE_PACE = 0.25  # seconds between two writes of one writer: WRITES_PER_FIELD last the whole run
WARM_UP = 1.5  # seconds of load before the outage
OUTAGE = 3.0  # seconds the database stays down
RECOVERY = 3.0  # seconds after the database is back within which every answer is a 2xx again
COOL_DOWN = RECOVERY + 2.0  # seconds of load after the database is back
WRITES_PER_FIELD = 40  # the API's history shows the latest 100 changes: all of these fit
WRITE_FIELDS = ("karma", "legend")  # one writer thread each: free numbers, no rule in the way


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- the private PostgreSQL cluster -----------------------------------------------------------


@dataclass
class Outage:
    """Monotonic times: the stop asked, the database down, the start asked, the database up."""

    stop_asked: float = 0.0
    down: float = 0.0
    start_asked: float = float("inf")
    up: float = float("inf")


class PrivatePostgres:
    """A PostgreSQL cluster in a temporary folder, on a free port, owned by `postgres` when the
    test runs as root (postgres refuses to run as root)."""

    def __init__(self, bindir: Path, root: Path):
        self.bindir = bindir
        self.root = root
        self.data = root / "data"
        self.port = free_port()
        self.as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/altherion"
        self.created_in = 0.0  # seconds initdb, the first start and createdb took

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        result = subprocess.run(
            [*self.as_owner, str(self.bindir / tool), *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if check and result.returncode:
            raise RuntimeError(f"{tool} {' '.join(args)}: {result.stdout}{result.stderr}")
        return result

    def create(self) -> None:
        started = time.monotonic()
        self._run(
            "initdb",
            *("-D", str(self.data), "-U", "postgres", "--auth=trust", "--encoding=UTF8"),
            *("--no-locale", "--no-sync", "--no-instructions"),
        )
        self.start()
        self._run(
            "createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "altherion"
        )
        self.created_in = time.monotonic() - started

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.root / "postgresql.log")
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", log, "-o", options, "-w", "-t", "30", "start"
        )

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop")

    def running(self) -> bool:
        return self._run("pg_ctl", "-D", str(self.data), "status", check=False).returncode == 0

    def ensure_running(self) -> None:
        if not self.running():
            self.start()

    @contextmanager
    def down(self) -> Iterator[Outage]:
        """Stop the cluster (connections cut, as `pg_ctl stop -m fast` does) for the `with`
        block, and start it again after it, whatever happened inside."""
        outage = Outage(stop_asked=time.monotonic())
        try:
            self.stop()
            outage.down = time.monotonic()
            yield outage
        finally:
            outage.start_asked = time.monotonic()
            self.ensure_running()
            outage.up = time.monotonic()

    def destroy(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self.stop(mode="immediate")


def _postgres_bindir() -> Path:
    found = sorted(
        (Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")),
        key=lambda bindir: int(bindir.parent.name) if bindir.parent.name.isdigit() else 0,
    )
    if not found:
        service_missing("PostgreSQL's server programs are not installed (/usr/lib/postgresql/*)")
    if os.geteuid() == 0 and (shutil.which("runuser") is None or _no_postgres_user()):
        service_missing("running as root needs the `postgres` user and runuser to run PostgreSQL")
    return found[-1]


def _no_postgres_user() -> bool:
    import pwd

    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return True
    return False


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    """A temporary folder the app and the cluster's owner can both reach; removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="altherion-outage-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def private_postgres(workdir) -> Iterator[PrivatePostgres]:
    bindir = _postgres_bindir()
    root = workdir / "pg"
    root.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, user="postgres", group="postgres")
    cluster = PrivatePostgres(bindir, root)
    try:
        cluster.create()
        yield cluster
    finally:
        cluster.destroy()


# --- HTTP: every request bounded, every answer recorded --------------------------------------


@dataclass
class Answer:
    kind: str  # "write", "api", "page" or "health"
    method: str
    path: str
    started: float
    ended: float
    status: int | None  # None: no answer at all (refused, reset, timed out)
    headers: Message
    body: bytes
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    def json(self):
        return json.loads(self.body)

    def text(self) -> str:
        return self.body.decode(errors="replace")

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} → {self.status or self.error} at {self.started:.2f}>"


@dataclass
class App:
    port: int
    log: Path
    token: str = ""
    session: str = ""
    campaign: int = 0
    character: int = 0
    timings: dict[str, float] = field(default_factory=dict)  # seconds each step of setup took

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(
        self, method: str, path: str, *, kind: str, headers=None, body: bytes | None = None
    ) -> Answer:
        started = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            data = response.read()
            return Answer(
                kind, method, path, started, time.monotonic(), response.status, response.msg, data
            )
        except (OSError, http.client.HTTPException) as error:
            return Answer(
                kind, method, path, started, time.monotonic(), None, Message(), b"", repr(error)
            )
        finally:
            connection.close()

    def api(self, method: str, path: str, *, kind: str = "api", data=None, headers=None) -> Answer:
        headers = {
            "Authorization": f"Token {self.token}",
            "Accept": "application/json",
            **({"Content-Type": "application/json"} if data is not None else {}),
            **(headers or {}),
        }
        body = None if data is None else json.dumps(data).encode()
        return self.request(method, path, kind=kind, headers=headers, body=body)

    def page(self, path: str) -> Answer:
        headers = {"Cookie": f"sessionid={self.session}", "Accept": "text/html"}
        return self.request("GET", path, kind="page", headers=headers)

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""


# collectstatic's compression would take longer than the rest of the test: WhiteNoise serves the
# static files from the apps' folders instead (as the other tests do), all else as in production.
OUTAGE_SETTINGS = """from altherion.settings import *  # noqa: F403

STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
"""


def _app_env(database_url: str, workdir: Path) -> dict[str, str]:
    """Production's variables (DEBUG off, a secret key, one allowed host) on the private cluster.
    Plain HTTP (HTTPS=0, as the Dockerfile's build step) and tasks in-process (no broker)."""
    dropped = {
        "DEBUG",
        "SECRET_KEY",
        "HTTPS",
        "SECURE_SSL_REDIRECT",
        "ALLOWED_HOSTS",
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "REDIS_CACHE_URL",
        "CONN_MAX_AGE",
        "DJANGO_SETTINGS_MODULE",
        "DJANGO_ALLOW_ASYNC_UNSAFE",
    }
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(
        DATABASE_URL=database_url,
        DEBUG="0",
        HTTPS="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        # The load is one user's: the per-user throttle would answer 429s, not the database.
        API_THROTTLE_USER="100000/min",
        LOG_LEVEL="WARNING",
        # altherion.settings, with the static files served from the apps' folders (OUTAGE_SETTINGS).
        DJANGO_SETTINGS_MODULE="outage_settings",
        PYTHONPATH=os.pathsep.join([str(workdir), str(BASE_DIR)]),
        PYTHONUNBUFFERED="1",
    )
    return env


# The schema, the demo, and the ids the test needs printed as the last line: one
# `manage.py shell -c`, so one start of Django.
SEED = f"""
import json
from django.core.management import call_command
from altherion.demo import demo_seed
call_command("migrate", interactive=False, verbosity=0)
from characters.models import Character
campaign = demo_seed()
character = Character.objects.get(campaign=campaign, owner__username={PLAYER!r})
print(json.dumps({{"campaign": campaign.pk, "character": character.pk}}))
"""


def _prepare(env: dict[str, str]) -> dict:
    """Migrate the private database and load the demo; returns the seed's ids."""
    seed = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SEED],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert seed.returncode == 0, seed.stdout + seed.stderr
    return json.loads(seed.stdout.strip().splitlines()[-1])


def _wait_until_serving(app: App, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, f"gunicorn exited:\n{app.log_tail()}"
        if app.request("GET", "/healthz", kind="api").status == 200:
            return
        time.sleep(0.2)
    pytest.fail(f"gunicorn did not answer /healthz within 30 s:\n{app.log_tail()}")


def _log_in(app: App) -> str:
    """The session cookie of the login form, filled as a browser would: GET for the CSRF
    cookie and field, then POST."""
    form = app.request("GET", "/accounts/login/", kind="page")
    assert form.status == 200, form
    csrf = SimpleCookie(form.headers.get("Set-Cookie", ""))["csrftoken"].value
    field_start = form.text().index('name="csrfmiddlewaretoken" value="') + 34
    middleware_token = form.text()[field_start : form.text().index('"', field_start)]
    body = urllib.parse.urlencode(
        {"username": PLAYER, "password": DEMO_PASSWORD, "csrfmiddlewaretoken": middleware_token}
    ).encode()
    answer = app.request(
        "POST",
        "/accounts/login/",
        kind="page",
        headers={
            "Cookie": f"csrftoken={csrf}",
            "Content-Type": "application/x-www-form-urlencoded",
        },
        body=body,
    )
    assert answer.status == 302, (answer, answer.text()[:500])
    cookies = SimpleCookie()
    for header in answer.headers.get_all("Set-Cookie") or []:
        cookies.load(header)
    return cookies["sessionid"].value


@pytest.fixture(scope="module")
def app(private_postgres, workdir) -> Iterator[App]:
    """gunicorn (2 workers × 4 threads) on the private cluster, with the demo loaded, the
    player's API token and a logged-in session; stopped afterwards, whatever happened."""
    (workdir / "outage_settings.py").write_text(OUTAGE_SETTINGS)
    env = _app_env(private_postgres.url, workdir)
    app = App(port=free_port(), log=workdir / "gunicorn.log")
    started = time.monotonic()
    # gunicorn boots while the schema is made: its first request comes after the seed.
    with app.log.open("w") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                *("-m", "gunicorn", "altherion.wsgi:application"),
                *("--bind", f"127.0.0.1:{app.port}", "--workers", "2", "--threads", "4"),
                *("--timeout", "30", "--graceful-timeout", "3"),
            ],
            cwd=BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the workers go with the master
        )
    try:
        ids = _prepare(env)
        app.campaign, app.character = ids["campaign"], ids["character"]
        app.timings["migrate and seed"] = time.monotonic() - started
        _wait_until_serving(app, process)
        app.timings["serving, from the start"] = time.monotonic() - started
        token = app.api(
            "POST", "/api/auth/token/", data={"username": PLAYER, "password": DEMO_PASSWORD}
        )
        assert token.status == 200, (token, token.body)
        app.token = token.json()["token"]
        app.session = _log_in(app)
        yield app
    finally:
        _stop_process_group(process)


def _stop_process_group(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)  # gunicorn's quick shutdown
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


# --- the load ----------------------------------------------------------------------------------


@dataclass
class Write:
    """One change a writer asked for, and what became of it."""

    field: str
    value: int
    version: int
    answer: Answer
    kept: bool | None = None  # answered 5xx: whether the sheet held the value once back
    retry: Answer | None = None  # answered 5xx: the same change sent again

    @property
    def saved(self) -> bool:
        return self.answer.ok or (self.retry is not None and self.retry.ok)


@dataclass
class Load:
    app: App
    stop: threading.Event = field(default_factory=threading.Event)
    answers: list[Answer] = field(default_factory=list)
    writes: list[Write] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def record(self, answer: Answer) -> Answer:
        self.answers.append(answer)  # list.append is atomic: the threads share the lists
        return answer

    def reader(self, call: Callable[[], Answer]) -> None:
        while not self.stop.is_set():
            self.record(call())
            time.sleep(PACE)

    def writer(self, field_name: str, version: int, start: int) -> None:
        """PATCH `field_name` with If-Match, a new value each time. After a 5xx (or no answer),
        wait for the database, see whether the sheet kept the value, then send the very same
        change again, as a client that lost its answer does."""
        path = f"/api/characters/{self.app.character}/"
        for value in range(start + 1, start + 1 + WRITES_PER_FIELD):
            if self.stop.is_set():
                return
            write = Write(field_name, value, version, self._patch(path, field_name, value, version))
            self.writes.append(write)
            if not write.answer.ok:
                if write.answer.status is not None and write.answer.status < 500:
                    self.problems.append(f"{write}: {write.answer.text()[:300]}")
                    return
                sheet = self._read_when_back(path)
                if sheet is None:
                    self.problems.append(f"{write}: the sheet could not be read again")
                    return
                write.kept = sheet[field_name] == value
                write.retry = self._patch(path, field_name, value, version)
                if not write.retry.ok:
                    self.problems.append(f"{write}: retry {write.retry.text()[:300]}")
                    return
            version = tag_version((write.retry or write.answer).headers["ETag"])
            time.sleep(WRITE_PACE)

    def _patch(self, path: str, field_name: str, value: int, version: int) -> Answer:
        return self.record(
            self.app.api(
                "PATCH",
                path,
                kind="write",
                data={field_name: value},
                headers={"If-Match": f'"{version}"'},
            )
        )

    def _read_when_back(self, path: str) -> dict | None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            answer = self.record(self.app.api("GET", path))
            if answer.ok:
                return answer.json()
            time.sleep(0.3)
        return None


@contextmanager
def load_on(app: App) -> Iterator[Load]:
    """Two writers and four readers (the API as JSON, the API asked for HTML as a browser
    would, a campaign page, /healthz) for the `with` block; all joined afterwards."""
    sheet = app.api("GET", f"/api/characters/{app.character}/")
    assert sheet.status == 200, sheet
    version = tag_version(sheet.headers["ETag"])
    load = Load(app)
    browser_accept = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    targets = [(load.writer, (name, version, sheet.json()[name])) for name in WRITE_FIELDS] + [
        (load.reader, (lambda: app.api("GET", f"/api/characters/{app.character}/"),)),
        (load.reader, (lambda: app.api("GET", "/api/campaigns/", headers=browser_accept),)),
        (load.reader, (lambda: app.page(f"/campaigns/{app.campaign}/"),)),
        (load.reader, (lambda: app.request("GET", "/healthz", kind="health"),)),
    ]
    threads = [threading.Thread(target=t, args=a, daemon=True) for t, a in targets]
    for thread in threads:
        thread.start()
    try:
        yield load
    finally:
        load.stop.set()
        for thread in threads:
            thread.join(timeout=2 * REQUEST_TIMEOUT + 30)
    assert not [t for t in threads if t.is_alive()], "a load thread did not stop"


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
