"""What signs a session or a token out, at its next request, whichever process made the change:
a password changed (Django's session hash), an account closed or deleted, a token revoked or
regenerated. Nothing of the user is kept between requests (issue 38)."""

import os
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db

User = get_user_model()
PASSWORD = "mot-de-passe-solide-42"


@pytest.fixture
def aelis():
    return User.objects.create_user("aelis", password=PASSWORD)


def signed_in(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def home(browser):
    return browser.get(reverse("home"))


def test_a_password_changed_elsewhere_signs_the_other_browsers_out(aelis):
    phone, laptop = signed_in(aelis), signed_in(aelis)
    assert home(phone).status_code == home(laptop).status_code == 200
    answer = laptop.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "un-autre-secret-solide-43",
            "new_password2": "un-autre-secret-solide-43",
        },
    )
    assert answer.status_code == 302
    assert home(laptop).context["user"].is_authenticated  # the browser that changed it stays in
    assert not home(phone).context["user"].is_authenticated


def test_a_password_changed_by_another_process_signs_the_session_out(aelis):
    """Another worker's write reaches this one only through the database (no signal runs here):
    an UPDATE no model method sees stands for it."""
    browser = signed_in(aelis)
    assert home(browser).context["user"].is_authenticated
    User.objects.filter(pk=aelis.pk).update(password=make_password("un-autre-secret-solide-43"))
    assert not home(browser).context["user"].is_authenticated


def test_a_closed_account_is_signed_out_at_its_next_page(aelis):
    browser = signed_in(aelis)
    home(browser)
    User.objects.filter(pk=aelis.pk).update(is_active=False)
    assert not home(browser).context["user"].is_authenticated


def test_a_deleted_account_is_signed_out_at_its_next_page(aelis):
    browser = signed_in(aelis)
    home(browser)
    User.objects.filter(pk=aelis.pk).delete()
    assert not home(browser).context["user"].is_authenticated


def test_a_renamed_account_shows_its_new_name_at_once(aelis):
    browser = signed_in(aelis)
    home(browser)
    User.objects.filter(pk=aelis.pk).update(username="aelis-la-brune")
    assert home(browser).context["user"].username == "aelis-la-brune"


def api_get(key: str):
    return Client().get(
        "/api/campaigns/", HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT="application/json"
    )


def test_a_revoked_token_is_refused_at_once(aelis):
    key = Token.objects.create(user=aelis).key
    assert api_get(key).status_code == 200
    Token.objects.filter(user=aelis).delete()  # as the profile page's « Révoquer »
    assert api_get(key).status_code == 401


def test_a_closed_accounts_token_is_refused_at_once(aelis):
    key = Token.objects.create(user=aelis).key
    assert api_get(key).status_code == 200
    User.objects.filter(pk=aelis.pk).update(is_active=False)
    assert api_get(key).status_code == 401


def test_a_regenerated_token_replaces_the_old_one_at_once(aelis):
    old = Token.objects.create(user=aelis).key
    assert api_get(old).status_code == 200
    Token.objects.filter(user=aelis).delete()  # as the profile page's « Régénérer »
    new = Token.objects.create(user=aelis).key
    assert api_get(old).status_code == 401
    assert api_get(new).status_code == 200


def test_a_signed_in_page_reads_its_user_in_one_query(aelis, django_assert_max_num_queries):
    browser = signed_in(aelis)
    home(browser)
    with django_assert_max_num_queries(50) as queries:
        assert home(browser).status_code == 200
    table = User._meta.db_table
    assert len([q for q in queries.captured_queries if f'FROM "{table}"' in q["sql"]]) == 1


# A second server process: it answers "is this session signed in?" once, waits for a line on its
# input, then answers again — in between, the test process changes the password.
WORKER = """
import sys, django
django.setup()
from django.test.utils import setup_test_environment
setup_test_environment()
from django.test import Client
client = Client()
client.cookies["sessionid"] = sys.argv[1]
def signed_in():
    return client.get("/").context["user"].is_authenticated
print(signed_in(), flush=True)
sys.stdin.readline()
print(signed_in(), flush=True)
"""


def test_a_password_changed_in_one_process_signs_the_session_out_in_another(postgres):
    """Two server processes and no shared cache: the one that did not change the password still
    signs the old session out at its next request."""
    from django.conf import settings

    from tests.conftest import BASE_DIR, database_url_for_tests

    aelis = User.objects.create_user("aelis", password=PASSWORD)
    browser = signed_in(aelis)
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "altherion.settings",
        "DATABASE_URL": database_url_for_tests(),
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "1",  # static files without a manifest, as the tests'
        "HTTPS": "0",
        "REDIS_CACHE_URL": "",
        "CONN_MAX_AGE": "0",
    }
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER, browser.cookies["sessionid"].value],
        cwd=BASE_DIR,
        env=environment,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert worker.stdout.readline().strip() == "True"
        aelis.set_password("un-autre-secret-solide-43")
        aelis.save()
        worker.stdin.write("\n")
        worker.stdin.flush()
        assert worker.stdout.readline().strip() == "False"
    finally:
        worker.kill()
        worker.wait()
