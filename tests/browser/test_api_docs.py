"""Swagger UI at /api/docs/ lists every section of the API (issue 41, « the first evening »)."""

import pytest
from django.conf import settings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp/shots/apischema"


@pytest.mark.parametrize("width", [1280, 390])
def test_the_api_docs_show_every_section_and_open_one(new_page, width):
    names = [tag["name"] for tag in settings.SPECTACULAR_SETTINGS["TAGS"]]
    page = new_page()
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/api/docs/")
    sections = page.locator(".opblock-tag-section .opblock-tag")
    sections.first.wait_for()
    assert [text.strip() for text in page.locator(".opblock-tag > a span").all_inner_texts()] == (
        names
    )
    assert sections.count() == len(names)
    page.screenshot(path=f"{SHOTS}/docs-{width}.png", full_page=True)

    page.locator("#operations-tag-Personnages").click()
    patch = page.locator(".opblock-patch", has_text="/api/characters/{id}/")
    patch.wait_for()
    assert sections.count() == len(names)  # the others stay listed
    patch.locator(".opblock-summary-control").click()
    body = patch.locator(".opblock-section-request-body")
    body.wait_for()
    assert '"karma": 3' in body.inner_text()  # the example: one object, a field and the version
    body.get_by_role("tab", name="Schema").click()
    schema = body.locator(".model-box")
    schema.wait_for()
    assert "anyOf" not in schema.inner_text()
    body.scroll_into_view_if_needed()
    page.screenshot(path=f"{SHOTS}/docs-{width}-personnages.png")
