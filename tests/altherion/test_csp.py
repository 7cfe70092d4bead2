import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
INLINE_HANDLER = re.compile(r"\s(on[a-z]+|hx-on[:\w-]*)\s*=", re.IGNORECASE)


def assert_csp_safe(body: str) -> None:
    assert not INLINE_SCRIPT.search(body), "inline <script> in the page"
    assert not INLINE_HANDLER.search(body), "inline event handler in the page"


def test_pages_send_a_strict_content_security_policy(client, player):
    client.force_login(player)
    response = client.get(reverse("home"))
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "object-src 'none'" in policy
    assert "frame-ancestors 'none'" in policy


@pytest.mark.parametrize("name", ["home", "login", "signup", "password_change"])
def test_account_pages_have_no_inline_script(client, player, name):
    client.force_login(player)
    assert_csp_safe(client.get(reverse(name)).content.decode())


def test_swagger_ui_loads_its_script_from_this_site(client, player):
    client.force_login(player)
    body = client.get(reverse("api-docs")).content.decode()
    assert_csp_safe(body)
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in body
    assert "cdn" not in body.lower()
