"""`rules/` imports nothing outside the standard library: no Django, no project app."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import rules

ROOT = Path(__file__).resolve().parents[2]


def test_rules_modules_import_neither_django_nor_the_apps():
    names = [m.name for m in pkgutil.iter_modules(rules.__path__) if m.name != "__main__"]
    assert {"check", "odds", "morale", "creation", "experience", "ellipse"} <= set(names)
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module('rules.' + name)\n"
        "banned = [m for m in sys.modules\n"
        "          if m.split('.')[0] in {'django', 'campaigns', 'characters', 'sessions',\n"
        "                                 'progression', 'common', 'altherion',\n"
        "                                 'rest_framework', 'icepool', 'numpy'}]\n"
        "print(','.join(banned))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == ""


def test_every_reading_points_at_one_named_place():
    import importlib
    import inspect

    from rules.readings import READINGS

    for section, _, target in READINGS:
        module_name, _, attribute = target.rpartition(".")
        module = importlib.import_module(module_name)
        assert hasattr(module, attribute), target
        obj = getattr(module, attribute)
        if callable(obj) and not isinstance(obj, type):
            doc = inspect.getdoc(obj) or ""
            source = inspect.getsource(obj)
            assert section in doc or "Reading" in doc or "Reading" in source, target
