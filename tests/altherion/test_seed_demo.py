from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_seed_demo_is_idempotent_and_prints_logins_that_work(django_user_model):
    call_command("seed_demo", stdout=StringIO())
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert django_user_model.objects.count() == 3
    for username in ("conteur", "aelis", "brann"):
        assert f"{username} / altherion-demo" in out.getvalue()
        assert authenticate(username=username, password="altherion-demo") is not None
