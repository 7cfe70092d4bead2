"""The WSGI entry point loads every view before the first request and takes what it loaded out of
the garbage collector's walks (altherion/wsgi.py, issue 15)."""

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
LOADED = """
import gc, sys
import altherion.wsgi
print(gc.get_freeze_count(), "sessions.api" in sys.modules, "characters.views" in sys.modules)
"""


def test_the_app_is_loaded_and_frozen_before_its_first_request():
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "altherion.settings"}
    environment.update(SECRET_KEY=settings.SECRET_KEY, DEBUG="0", HTTPS="0")
    done = subprocess.run(
        [sys.executable, "-c", LOADED], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    frozen, api_loaded, views_loaded = done.stdout.split()
    assert int(frozen) > 100_000 and api_loaded == views_loaded == "True"
