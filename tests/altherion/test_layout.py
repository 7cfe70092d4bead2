"""The tree shows the architecture (issue 11): one Django app per idea of the game, each with its
own modules, and no room a monolith. The import arrows are checked by `lint-imports`."""

from pathlib import Path

import pytest
from django.apps import apps

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["altherion", "campaigns", "characters", "sessions", "progression", "common", "rules"]
MODULE_MAX_LINES = 600


def _modules():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


@pytest.mark.parametrize("path", list(_modules()), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_a_monolith(path):
    lines = len(path.read_text().splitlines())
    assert lines <= MODULE_MAX_LINES, f"{lines} lines: split it into named parts"


# The brief puts the whole table in `sessions` — rolls, Moral, log, consequences and combat — so
# that app is the largest; the bound still catches one app swallowing the others' ideas.
APP_SHARE_MAX = 0.40


def test_no_app_swallows_the_others_code():
    sizes = {
        package: sum(
            len(p.read_text().splitlines())
            for p in (ROOT / package).rglob("*.py")
            if "migrations" not in p.parts
        )
        for package in PACKAGES
    }
    total = sum(sizes.values())
    assert max(sizes.values()) <= APP_SHARE_MAX * total, sizes


@pytest.mark.parametrize("app", ["campaigns", "characters", "sessions", "progression"])
def test_each_app_has_its_own_rooms(app):
    for module in ("models", "services", "selectors", "views", "api", "urls", "api_urls"):
        assert (ROOT / app / f"{module}.py").exists(), f"{app}/{module}.py"
    assert (ROOT / "templates" / app).is_dir()
    assert (ROOT / "tests" / app).is_dir()


def test_the_session_app_does_not_take_django_sessions_label():
    assert apps.get_app_config("play").name == "sessions"
    assert apps.get_app_config("sessions").name == "django.contrib.sessions"
