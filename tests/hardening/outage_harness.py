"""The harness of the database outage test (tests/hardening/test_database_outage.py): a private
PostgreSQL cluster the test may stop and start, the app served by a real gunicorn on it, and a
load of readers and writers whose every answer is recorded."""

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


@contextmanager
def temporary_workdir() -> Iterator[Path]:
    """A temporary folder the app and the cluster's owner can both reach; removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="altherion-outage-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextmanager
def private_cluster(workdir: Path) -> Iterator[PrivatePostgres]:
    """A PostgreSQL cluster of the test's own under `workdir`, removed afterwards."""
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
        # Its pages follow the table by polling, as a page whose event stream is down does: an
        # open stream holds no database connection, so only a request meets the outage.
        LIVE_PUSH="0",
        LIVE_POLL_SECONDS="1.5",
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


def shared_cache_url() -> str:
    """A database of the test broker's Redis for the app's cache, emptied."""
    import redis
    from django.conf import settings

    if not settings.CELERY_BROKER_URL:
        service_missing("no Redis is configured (set CELERY_BROKER_URL=redis://…)")
    url = settings.CELERY_BROKER_URL.rsplit("/", 1)[0] + "/10"
    try:
        redis.Redis.from_url(url).flushdb()
    except redis.RedisError as error:
        service_missing(f"the Redis at {url} does not answer ({error})")
    return url


@contextmanager
def served_app(
    private_postgres: PrivatePostgres, workdir: Path, cache_url: str | None = None
) -> Iterator[App]:
    """bin/web (2 uvicorn workers) on the private cluster, with the demo loaded, the
    player's API token and a logged-in session; stopped afterwards, whatever happened. Its cache
    is each worker's memory, or the Redis at `cache_url` that both share (production's shape)."""
    (workdir / "outage_settings.py").write_text(OUTAGE_SETTINGS)
    env = _app_env(private_postgres.url, workdir)
    if cache_url:
        env["REDIS_CACHE_URL"] = cache_url
    app = App(port=free_port(), log=workdir / "gunicorn.log")
    started = time.monotonic()
    # gunicorn boots while the schema is made: its first request comes after the seed.
    with app.log.open("w") as log:
        process = subprocess.Popen(
            [str(BASE_DIR / "bin" / "web"), "--timeout", "30", "--graceful-timeout", "3"],
            cwd=BASE_DIR,
            env={
                **env,
                "PY": sys.executable,
                "HOST": "127.0.0.1",
                "PORT": str(app.port),
                "WEB_CONCURRENCY": "2",
            },
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
