"""The signed-in user read from the shared cache (CachedUserBackend, issue 15): a page after the
first loads no user row, and nothing of what signs a session out is lost — a password changed
elsewhere, an account closed or deleted."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from altherion.auth_backends import user_cache_key

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]

User = get_user_model()


@pytest.fixture
def aelis():
    return User.objects.create_user("aelis", password="mot-de-passe-solide-42")


def signed_in(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def home(browser):
    return browser.get(reverse("home"))


def user_rows(queries) -> list[str]:
    table = User._meta.db_table
    return [q["sql"] for q in queries.captured_queries if f'FROM "{table}"' in q["sql"]]


def test_a_page_after_the_first_loads_no_user_row(aelis, django_assert_max_num_queries):
    browser = signed_in(aelis)
    with django_assert_max_num_queries(50) as first:
        assert home(browser).status_code == 200
    with django_assert_max_num_queries(50) as second:
        assert home(browser).status_code == 200
    assert len(user_rows(first)) == 1
    assert user_rows(second) == []
    assert home(browser).context["user"] == aelis


def test_a_password_changed_elsewhere_signs_the_other_browsers_out(aelis):
    phone, laptop = signed_in(aelis), signed_in(aelis)
    assert home(phone).status_code == home(laptop).status_code == 200  # both users cached
    answer = laptop.post(
        reverse("password_change"),
        {
            "old_password": "mot-de-passe-solide-42",
            "new_password1": "un-autre-secret-solide-43",
            "new_password2": "un-autre-secret-solide-43",
        },
    )
    assert answer.status_code == 302
    assert home(laptop).context["user"].is_authenticated  # the browser that changed it stays in
    assert not home(phone).context["user"].is_authenticated


def test_a_closed_account_is_signed_out_at_its_next_page(aelis):
    browser = signed_in(aelis)
    home(browser)
    aelis.is_active = False
    aelis.save()
    assert not home(browser).context["user"].is_authenticated


def test_a_deleted_account_is_signed_out_at_its_next_page(aelis):
    browser = signed_in(aelis)
    home(browser)
    User.objects.filter(pk=aelis.pk).delete()
    assert not home(browser).context["user"].is_authenticated


def test_a_renamed_account_shows_its_new_name_at_once(aelis):
    browser = signed_in(aelis)
    home(browser)
    aelis.username = "aelis-la-brune"
    aelis.save()
    assert home(browser).context["user"].username == "aelis-la-brune"


def api_get(key: str):
    return Client().get(
        "/api/campaigns/", HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT="application/json"
    )


def test_an_api_request_after_the_first_loads_neither_token_nor_user(
    aelis, django_assert_max_num_queries
):
    key = Token.objects.create(user=aelis).key
    with django_assert_max_num_queries(50) as first:
        assert api_get(key).status_code == 200
    with django_assert_max_num_queries(50) as second:
        assert api_get(key).status_code == 200
    tokens = [q["sql"] for q in first.captured_queries if 'FROM "authtoken_token"' in q["sql"]]
    assert len(tokens) == 1
    assert not [q for q in second.captured_queries if 'FROM "authtoken_token"' in q["sql"]]
    assert user_rows(second) == []


def test_a_revoked_token_is_refused_at_once(aelis):
    key = Token.objects.create(user=aelis).key
    assert api_get(key).status_code == 200
    Token.objects.filter(user=aelis).delete()  # as the profile page's « Révoquer »
    assert api_get(key).status_code == 401


def test_a_closed_accounts_token_is_refused_at_once(aelis):
    key = Token.objects.create(user=aelis).key
    assert api_get(key).status_code == 200
    aelis.is_active = False
    aelis.save()
    refused = api_get(key)
    assert refused.status_code == 401


def test_a_token_seen_before_is_read_with_its_user_in_one_round_trip(aelis, cache_reads):
    key = Token.objects.create(user=aelis).key
    assert api_get(key).status_code == 200
    reads = cache_reads()
    assert api_get(key).status_code == 200
    with_token = [keys for keys in reads if any(k.startswith("auth-token:") for k in keys)]
    assert len(with_token) == 1 and user_cache_key(aelis.pk) in with_token[0]
    assert sum(user_cache_key(aelis.pk) in keys for keys in reads) == 1


def test_a_token_regenerated_elsewhere_is_refused_here_at_once(aelis):
    """This process saw the token (it remembers whose it is); another process regenerates it:
    the old key is refused at the next request, the new one accepted."""
    old = Token.objects.create(user=aelis).key
    assert api_get(old).status_code == 200
    Token.objects.filter(user=aelis).delete()  # as the profile page's « Régénérer »
    new = Token.objects.create(user=aelis).key
    assert api_get(old).status_code == 401
    assert api_get(new).status_code == 200
