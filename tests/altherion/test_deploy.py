import contextlib
import http.client
import os
import re
import secrets
import socket
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import yaml

BASE_DIR = Path(__file__).resolve().parents[2]
# What the tests' own environment may hold that a server started here must not inherit.
SERVER_VARIABLES = {
    "DEBUG",
    "SECRET_KEY",
    "HTTPS",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "REDIS_CACHE_URL",
    "VAR_DIR",
    "STATIC_ROOT",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "REDIS_URL",
    "CONN_MAX_AGE",
    "HOST",
    "PORT",
    "WEB_CONCURRENCY",
    "ACCESS_LOG",
    "PY",
    "EMAIL_HOST",
    "EMAIL_PORT",
    # pytest-django's tests.settings: a server runs the project's own (its password hashers).
    "DJANGO_SETTINGS_MODULE",
}


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "HTTPS", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_variables():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="altherion.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_without_a_secret_key_fails_loudly():
    result = _manage(
        "check",
        DEBUG="0",
        ALLOWED_HOSTS="altherion.example.org",
        DATABASE_URL="postgres://altherion@127.0.0.1:5432/altherion",
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_docker_compose_runs_the_production_shape():
    compose = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) >= {"web", "worker", "beat", "postgres", "redis"}
    # The web tier, bin/web (the image copies bin/ with the rest of the checkout).
    assert services["web"]["command"] == ["bin/web"]
    assert "COPY . ." in (BASE_DIR / "Dockerfile").read_text()
    ignored = (BASE_DIR / ".dockerignore").read_text().split()
    assert "bin" not in ignored and ".venv" in ignored and "var" in ignored
    web_environment = services["web"]["environment"]
    assert web_environment["HOST"] == "0.0.0.0" and web_environment["PORT"] == "8000"
    assert web_environment["WEB_CONCURRENCY"] == "${WEB_CONCURRENCY:-3}"
    graceful = re.search(r"--graceful-timeout (\d+)", (BASE_DIR / "bin" / "web").read_text())
    assert int(services["web"]["stop_grace_period"].removesuffix("s")) > int(graceful.group(1))
    # Only Caddy is published: gunicorn trusts X-Forwarded-Proto, so no client may reach it.
    assert "ports" not in services["web"]
    published = [str(port) for name in services for port in services[name].get("ports", [])]
    assert sorted(published) == ["443:443", "443:443/udp", "80:80"]
    caddy = services["caddy"]
    assert caddy["image"] == "caddy:2"
    assert caddy["environment"]["SITE_ADDRESS"] == "${SITE_ADDRESS:-localhost}"
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in caddy["volumes"]
    assert (BASE_DIR / "deploy" / "Caddyfile").is_file()
    assert "caddy_data:/data" in caddy["volumes"] and "caddy_data" in compose["volumes"]
    assert caddy["depends_on"]["web"]["condition"] == "service_healthy"
    assert "worker" in services["worker"]["command"]
    assert "beat" in services["beat"]["command"]
    for name in ("web", "worker", "beat"):
        environment = services[name]["environment"]
        assert environment["DATABASE_URL"].startswith("postgres://")
        assert environment["CELERY_BROKER_URL"].startswith("redis://")
        # The push channel the event streams of every web worker share.
        assert environment["REDIS_URL"] == "redis://redis:6379/2"
        assert environment["DEBUG"] == "0"
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("web", "caddy", "worker", "postgres", "redis"):
        assert "test" in services[name]["healthcheck"]
    assert "pgdata" in compose["volumes"]
    assert any("pgdata:" in volume for volume in services["postgres"]["volumes"])


# --- a server in a subprocess: `make run`'s, and docker-compose's web (test_compose.py) ---------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def http_get(port: int, path: str, **headers: str) -> http.client.HTTPResponse:
    """One plain-HTTP GET to 127.0.0.1:port, redirects not followed; the body is read."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.body = response.read()
        return response
    finally:
        connection.close()


def server_environment(**variables: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if k not in SERVER_VARIABLES}
    return {**clean, "PYTHONUNBUFFERED": "1", **variables}


@contextlib.contextmanager
def serving(
    argv: list[str], *, port: int, env: dict[str, str], log: Path, timeout: float = 90
) -> Iterator[subprocess.Popen]:
    """Run argv (a server for 127.0.0.1:port) until it answers any HTTP request, then stop it."""
    with log.open("w") as output:
        process = subprocess.Popen(
            argv, cwd=BASE_DIR, env=env, stdout=output, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + timeout
            while True:
                assert process.poll() is None, f"the server exited:\n{log.read_text()}"
                assert time.monotonic() < deadline, f"no answer in {timeout} s:\n{log.read_text()}"
                try:
                    http_get(port, "/healthz")
                    break
                except OSError:
                    time.sleep(0.2)
            yield process
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# --- make run -------------------------------------------------------------------------------


def _make_recipe(target: str) -> str:
    """The recipe lines of one Makefile target."""
    makefile = (BASE_DIR / "Makefile").read_text()
    match = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert match, f"no {target} target in the Makefile"
    return match.group(1)


def test_make_run_serves_bin_serve_and_make_dev_the_debug_server():
    run, dev = _make_recipe("run"), _make_recipe("dev")
    assert "bin/serve" in run and "runserver" not in run
    assert "runserver" in dev and "DEBUG=1" in dev


def test_make_run_says_where_mail_goes(tmp_path):
    """bin/serve names the SMTP relay it sends through when EMAIL_HOST is set (the console case is
    in the test below, on a real server). The steps it runs are stubbed: only its words count."""
    stub = tmp_path / "py"
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    env = server_environment(PY=str(stub), EMAIL_HOST="smtp.exemple.fr", EMAIL_PORT="465")
    output = subprocess.run(
        [str(BASE_DIR / "bin" / "serve")], env=env, capture_output=True, text=True, timeout=30
    ).stdout
    assert (
        "Courriels (mots de passe oubliés, invitations) : envoyés par SMTP via smtp.exemple.fr:465."
        in output
    )
    assert "console" not in output


def test_make_run_serves_a_table_with_debug_off(tmp_path):
    """bin/serve, the command `make run` runs, on a free port and an empty SQLite database: it
    makes a key, migrates, loads the demo, prints its logins and serves through bin/web (gunicorn,
    one uvicorn worker) with DEBUG off: French error pages, static files collected and served by
    WhiteNoise."""
    port = free_port()
    env = server_environment(
        PY=sys.executable,
        HOST="127.0.0.1",
        PORT=str(port),
        VAR_DIR=str(tmp_path / "var"),
        STATIC_ROOT=str(tmp_path / "static"),
    )
    log = tmp_path / "serve.log"
    with serving([str(BASE_DIR / "bin" / "serve")], port=port, env=env, log=log):
        missing = http_get(port, "/nulle-part/")
        home = http_get(port, "/")
        scripts = re.findall(r'src="(/static/[^"]+\.js)"', home.body.decode())
        connection_js = next(s for s in scripts if s.startswith("/static/js/connection."))
        script = http_get(port, connection_js)
        unhashed = http_get(port, "/static/js/connection.js")
    output = log.read_text()

    assert "conteur / altherion-demo" in output and "aelis / altherion-demo" in output
    assert f"Altherion sur http://127.0.0.1:{port}/" in output
    assert (
        "Courriels (mots de passe oubliés, invitations) : écrits ici, dans cette console" in output
    )
    assert "Pour les envoyer : EMAIL_HOST=" in output
    assert "uvicorn_worker.UvicornWorker" in output and "runserver" not in output
    assert output.count("Booting worker") == 1
    key = tmp_path / "var" / "secret_key"
    assert len(key.read_text().strip()) >= 50
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert (tmp_path / "var" / "altherion.sqlite3").exists()
    # Threads read while one writes: the file is in WAL mode (kept in the file itself).
    with sqlite3.connect(tmp_path / "var" / "altherion.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"

    assert missing.status == 404
    page = missing.body.decode()
    assert "Page introuvable" in page
    assert "URLconf" not in page and "Django" not in page and "DEBUG" not in page
    assert home.status == 200
    # Hashed names: the manifest storage that DEBUG off selects, filled by collectstatic.
    assert re.fullmatch(r"/static/js/connection\.[0-9a-f]{12}\.js", connection_js)
    assert script.status == 200
    assert "immutable" in script.getheader("Cache-Control")
    assert "max-age=315360000" in script.getheader("Cache-Control")
    assert unhashed.status == 200 and "max-age=" in unhashed.getheader("Cache-Control")
    assert any(s.startswith("/static/django_htmx/htmx") for s in scripts)
