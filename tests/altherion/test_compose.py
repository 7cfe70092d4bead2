"""docker-compose.yml run without Docker: the web service's own command and environment (compose's
`${VAR:-default}` interpolation done here) on the local PostgreSQL and Redis, behind the health
checks compose runs. Caddy is not run here: the proxy's check is run against the web tier, on the
path the Caddyfile gives it."""

import json
import re
import secrets
import shutil
import subprocess
import sys
import uuid
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from tests import web_tier
from tests.altherion.test_deploy import (
    BASE_DIR,
    free_port,
    http_get,
    server_environment,
    serving,
)
from tests.conftest import database_url_for_tests

COMPOSE_HOSTS = {
    "DATABASE_URL": "postgres",
    "CELERY_BROKER_URL": "redis",
    "REDIS_CACHE_URL": "redis",
    "REDIS_URL": "redis",
}


# --- compose's interpolation ------------------------------------------------------------------

_NAME = re.compile(r"[_a-zA-Z][_a-zA-Z0-9]*")


def interpolate(text: str, variables: Mapping[str, str]) -> str:
    """`text` as docker compose reads it: $$ → $, $NAME, ${NAME}, ${NAME:-default},
    ${NAME-default}, ${NAME:?error}, ${NAME?error}, ${NAME:+alt}, ${NAME+alt}, nested."""
    out, i = [], 0
    while i < len(text):
        if text.startswith("$$", i):
            out.append("$")
            i += 2
        elif text.startswith("${", i):
            end = _closing_brace(text, i + 2)
            out.append(_braced(text[i + 2 : end], variables))
            i = end + 1
        elif text[i] == "$" and (name := _NAME.match(text, i + 1)):
            out.append(variables.get(name.group(), ""))
            i = name.end()
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _closing_brace(text: str, start: int) -> int:
    depth = 1
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return i
    raise ValueError(f"unclosed ${{ in {text!r}")


def _braced(expression: str, variables: Mapping[str, str]) -> str:
    name = _NAME.match(expression)
    assert name, f"not a variable: ${{{expression}}}"
    operator, argument = re.match(r"(:?[-?+]|)(.*)", expression[name.end() :], re.DOTALL).groups()
    value = variables.get(name.group())
    is_set = value is not None
    set_and_non_empty = bool(value)
    present = set_and_non_empty if operator.startswith(":") else is_set
    if operator in {":-", "-"}:
        return value if present else interpolate(argument, variables)
    if operator in {":?", "?"}:
        if not present:
            raise ValueError(f"{name.group()}: {interpolate(argument, variables)}")
        return value
    if operator in {":+", "+"}:
        return interpolate(argument, variables) if present else ""
    return value or ""


def test_interpolation_reads_compose_syntax():
    variables = {"SET": "a", "EMPTY": ""}
    assert interpolate(
        "${SET:-b} ${EMPTY:-b} ${EMPTY-b} ${UNSET-b} $SET $$HOSTNAME", variables
    ) == ("a b  b a $HOSTNAME")
    assert interpolate("${UNSET:-1,${SET:-x}}", variables) == "1,a"
    assert interpolate("${SET:?no} ${SET:+y}${UNSET:+y}", variables) == "a y"
    with pytest.raises(ValueError, match="set SECRET_KEY"):
        interpolate("${SECRET_KEY:?set SECRET_KEY}", {})


def _compose(variables: Mapping[str, str]) -> dict:
    """docker-compose.yml with its anchors merged and every string interpolated."""

    def walk(node):
        if isinstance(node, str):
            return interpolate(node, variables)
        if isinstance(node, list):
            return [walk(item) for item in node]
        if isinstance(node, dict):
            return {key: walk(value) for key, value in node.items()}
        return node

    return walk(yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text()))


# --- the Caddyfile --------------------------------------------------------------------------


def _caddy_block(caddyfile: str, header: str) -> str:
    """The inside of the block opened by `header {` on a line of its own."""
    match = re.search(rf"^\s*{re.escape(header)} \{{\n", caddyfile, re.MULTILINE)
    assert match, f"no block {header!r} in the Caddyfile"
    return caddyfile[match.end() : _closing_brace(caddyfile, match.end())]


def test_caddy_proxies_the_site_and_its_health_check_to_the_web_tier():
    compose = _compose({"SECRET_KEY": "x"})
    caddyfile = (BASE_DIR / "deploy" / "Caddyfile").read_text()
    web = compose["services"]["web"]
    assert web["command"] == ["bin/web"]
    assert (web["environment"]["HOST"], web["environment"]["PORT"]) == ("0.0.0.0", "8000")
    assert web["environment"]["WEB_CONCURRENCY"] == "3" and web["expose"] == ["8000"]
    upstream = _caddy_block(caddyfile, "(web)")
    assert re.search(r"^\s*dynamic a web 8000 \{", upstream, re.MULTILINE)
    # Event streams reach the browser as they are written, never held in Caddy's buffer.
    assert re.search(r"^\s*flush_interval -1$", upstream, re.MULTILINE)
    # The public site, SITE_ADDRESS (the env var the caddy service passes, default localhost).
    assert compose["services"]["caddy"]["environment"]["SITE_ADDRESS"] == "localhost"
    assert "import web" in _caddy_block(caddyfile, "{$SITE_ADDRESS:localhost}")
    # No header_up touches X-Forwarded-Proto: Caddy's own value (it replaces a client's) is what
    # Django trusts.
    assert "X-Forwarded-Proto" not in re.sub(r"#.*", "", caddyfile)
    # The proxy's health check asks Caddy's loopback door, which proxies /healthz alone.
    check = compose["services"]["caddy"]["healthcheck"]["test"]
    url = urlsplit(check[-1])
    health_site = _caddy_block(caddyfile, f"http://{url.netloc}")
    assert f"bind {url.hostname}" in health_site
    assert "import web" in _caddy_block(health_site, f"handle {url.path}")


# --- the web service, run from its compose definition ----------------------------------------


def _local_services(environment: dict[str, str], broker: str) -> dict[str, str]:
    """The web service's environment, its database, broker, cache and push channel moved to the
    local ones."""
    for variable, host in COMPOSE_HOSTS.items():
        assert urlsplit(environment[variable]).hostname == host
    on_broker = urlsplit(broker)
    return {
        **environment,
        "DATABASE_URL": database_url_for_tests(),
        "CELERY_BROKER_URL": broker,
        "REDIS_CACHE_URL": on_broker._replace(path="/14").geturl(),
        "REDIS_URL": on_broker._replace(path="/13").geturl(),
    }


def _healthcheck(test: list[str], env: dict[str, str], old: str = "", new: str = "") -> int:
    """Run a compose health check (CMD or CMD-SHELL), `old` replaced by `new`; its exit code."""
    kind, *argv = test
    argv = [arg.replace(old, new) if old else arg for arg in argv]
    if kind == "CMD-SHELL":
        argv = ["sh", "-c", *argv]
    else:
        assert kind == "CMD"
        if argv[0] == "python":
            argv[0] = sys.executable
    bin_dir = str(Path(sys.executable).parent)
    env = {**env, "PATH": f"{bin_dir}:{env.get('PATH', '')}"}
    return subprocess.run(argv, cwd=BASE_DIR, env=env, timeout=30).returncode


@pytest.mark.services
def test_the_web_service_is_healthy_over_http_and_redirects_everything_else(
    postgres, redis_broker, tmp_path
):
    compose = _compose({"SECRET_KEY": secrets.token_urlsafe(50)})
    web, caddy = compose["services"]["web"], compose["services"]["caddy"]
    environment = {key: str(value) for key, value in web["environment"].items()}
    assert environment["DEBUG"] == "0" and environment["HTTPS"] == "1"
    assert environment["ALLOWED_HOSTS"] == "127.0.0.1,localhost"
    environment = _local_services(environment, redis_broker)

    # The image runs collectstatic when it is built (Dockerfile); here, into a temporary folder.
    static = {"STATIC_ROOT": str(tmp_path / "static")}
    env = server_environment(**environment, **static)
    web_tier.collect_static(env)

    # bin/web with the venv's python, on 127.0.0.1 and a free port rather than 0.0.0.0:8000.
    port = free_port()
    argv = [str(BASE_DIR / web["command"][0])]
    env = {**env, "PY": sys.executable, "HOST": "127.0.0.1", "PORT": str(port)}
    with serving(argv, port=port, env=env, log=tmp_path / "web.log"):
        here = f"127.0.0.1:{port}"
        web_check = _healthcheck(web["healthcheck"]["test"], env, "127.0.0.1:8000", here)
        # Caddy passes the request on as it came (Host included): the same request, to bin/web.
        caddy_check = caddy["healthcheck"]["test"]
        proxy_url = urlsplit(caddy_check[-1])
        if shutil.which(caddy_check[1]):
            proxy_check = _healthcheck(caddy_check, env, proxy_url.netloc, here)
        else:  # no wget here: the same request by hand
            proxy_check = 0 if http_get(port, proxy_url.path).status == 200 else 1
        health = http_get(port, "/healthz")
        plain = http_get(port, "/accounts/login/", Host="localhost")
        proxied = http_get(
            port, "/accounts/login/", Host="localhost", **{"X-Forwarded-Proto": "https"}
        )
        # A request line over gunicorn's own default (4094) reaches Django: the API's JSON 414.
        too_long = http_get(
            port,
            "/api/campaigns/?q=" + "x" * 5000,
            Host="localhost",
            **{"X-Forwarded-Proto": "https", "Accept": "application/json"},
        )

    log = (tmp_path / "web.log").read_text()
    assert web_check == 0, log
    assert proxy_check == 0, log
    # Three uvicorn workers (WEB_CONCURRENCY's default in compose), an access log.
    assert log.count("Booting worker") == 3 and "uvicorn_worker.UvicornWorker" in log
    assert "GET /healthz HTTP/1.1" in log
    assert health.status == 200
    assert json.loads(health.body) == {"status": "ok", "database": "ok", "broker": "ok"}
    assert plain.status == 301
    assert plain.getheader("Location") == "https://localhost/accounts/login/"
    assert proxied.status == 200
    assert "max-age=31536000" in proxied.getheader("Strict-Transport-Security")
    assert "Secure" in proxied.getheader("Set-Cookie")
    assert too_long.status == 414
    assert "application/json" in too_long.getheader("Content-Type")


@pytest.mark.services
def test_the_worker_health_check_answers_only_for_a_live_worker(postgres, redis_broker, tmp_path):
    compose = _compose({"SECRET_KEY": secrets.token_urlsafe(50)})
    worker = compose["services"]["worker"]
    environment = {key: str(value) for key, value in worker["environment"].items()}
    env = server_environment(**_local_services(environment, redis_broker))
    check = worker["healthcheck"]["test"]
    assert check[0] == "CMD-SHELL" and "$HOSTNAME" in check[1]

    # The container's hostname names the node; here a name, and a queue, of the test's own, so the
    # worker neither clashes with another nor takes other tests' tasks.
    node = f"health-{uuid.uuid4().hex[:8]}"
    argv = [sys.executable, "-m", *worker["command"], "-n", f"celery@{node}", "-Q", node]
    log = tmp_path / "worker.log"
    with log.open("w") as output:
        process = subprocess.Popen(argv, cwd=BASE_DIR, env=env, stdout=output, stderr=output)
        try:
            absent = _healthcheck(check, {**env, "HOSTNAME": f"{node}-absent"})
            for _ in range(10):
                if _healthcheck(check, {**env, "HOSTNAME": node}) == 0:
                    break
                assert process.poll() is None, log.read_text()
            else:
                pytest.fail(f"the worker never answered its health check:\n{log.read_text()}")
        finally:
            process.terminate()
            process.wait(timeout=30)
    assert absent != 0
