import os
import secrets
import subprocess
import sys
from pathlib import Path

import yaml

BASE_DIR = Path(__file__).resolve().parents[2]


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
    result = _manage("check", DEBUG="0", ALLOWED_HOSTS="altherion.example.org")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_docker_compose_runs_the_production_shape():
    compose = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) >= {"web", "worker", "beat", "postgres", "redis"}
    assert "gunicorn" in " ".join(services["web"]["command"])
    assert "8000:8000" in [str(port) for port in services["web"]["ports"]]
    assert "worker" in services["worker"]["command"]
    assert "beat" in services["beat"]["command"]
    for name in ("web", "worker", "beat"):
        environment = services[name]["environment"]
        assert environment["DATABASE_URL"].startswith("postgres://")
        assert environment["CELERY_BROKER_URL"].startswith("redis://")
        assert environment["DEBUG"] == "0"
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("web", "postgres", "redis"):
        assert "test" in services[name]["healthcheck"]
    assert "pgdata" in compose["volumes"]
    assert any("pgdata:" in volume for volume in services["postgres"]["volumes"])
