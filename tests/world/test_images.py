"""Page images: checked before they are stored, streamed only to members who may see the page."""

from io import BytesIO

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from world.images import IMAGE_MAX_BYTES
from world.models import PageAudience
from world.services import page_update

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def picture(name="carte.png", image_format="PNG", size=(8, 6)) -> SimpleUploadedFile:
    buffer = BytesIO()
    Image.new("RGB", size, (120, 40, 20)).save(buffer, image_format)
    return SimpleUploadedFile(name, buffer.getvalue(), content_type="image/png")


def image_url(page):
    return reverse("world:image", kwargs={"pk": page.campaign_id, "page_pk": page.pk})


def test_a_member_gets_the_image_streamed(make_page, player_client):
    page = make_page(title="Carte de Vael", image=picture())
    response = player_client.get(image_url(page))
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert Image.open(BytesIO(b"".join(response.streaming_content))).size == (8, 6)


def test_the_page_shows_its_image_through_the_checked_view(make_page, player_client):
    page = make_page(title="Carte de Vael", image=picture())
    html = player_client.get(reverse("world:page", args=[page.campaign_id, page.pk])).content
    assert f'src="{image_url(page)}"'.encode() in html
    assert page.image.name.encode() not in html  # the stored name is never shown


def test_the_stored_name_says_nothing_of_the_upload(make_page):
    page = make_page(title="Carte de Vael", image=picture(name="secret-du-maire.png"))
    assert "secret" not in page.image.name and page.image.name.endswith(".png")


def test_outsiders_and_players_on_a_hidden_page_get_404(make_page, player_client, outsider_client):
    hidden = make_page(title="Plan", audience=PageAudience.STORYTELLER, image=picture())
    public = make_page(title="Carte", image=picture())
    assert player_client.get(image_url(hidden)).status_code == 404
    assert outsider_client.get(image_url(public)).status_code == 404


def test_a_page_without_image_has_none_to_serve(town, player_client):
    assert player_client.get(image_url(town)).status_code == 404


@pytest.mark.parametrize("image_format", ["JPEG", "WEBP", "GIF"])
def test_other_image_types_are_kept(make_page, image_format):
    page = make_page(title="Sceau", image=picture(name="x.bin", image_format=image_format))
    assert page.image.name.rsplit(".", 1)[1] in {"jpg", "webp", "gif"}


def test_a_file_that_is_not_an_image_is_refused(make_page, media):
    fake = SimpleUploadedFile("carte.png", b"%PDF-1.4 not an image", content_type="image/png")
    with pytest.raises(ValidationError, match="pas une image"):
        make_page(title="Carte", image=fake)
    assert not any(media.rglob("*.*"))


def test_an_image_in_another_format_is_refused(make_page):
    with pytest.raises(ValidationError, match="Format d'image refusé"):
        make_page(title="Carte", image=picture(name="carte.bmp", image_format="BMP"))


def test_a_too_big_image_is_refused(make_page):
    big = SimpleUploadedFile("carte.png", b"0" * (IMAGE_MAX_BYTES + 1), content_type="image/png")
    with pytest.raises(ValidationError, match="Image trop lourde : 5 Mo au plus"):
        make_page(title="Carte", image=big)


def test_the_form_refuses_a_bad_upload_in_french(campaign, storyteller_client):
    fake = SimpleUploadedFile("carte.gif", b"GIF89a broken", content_type="image/gif")
    response = storyteller_client.post(
        reverse("world:create", kwargs={"pk": campaign.pk}),
        {"title": "Carte", "kind": "item", "audience": "everyone", "image": fake},
    )
    assert response.status_code == 200
    assert "pas une image lisible" in response.content.decode()


def test_replacing_and_removing_the_image(
    make_page, storyteller, media, django_capture_on_commit_callbacks
):
    page = make_page(title="Carte", image=picture())
    first = page.image.name
    with django_capture_on_commit_callbacks(execute=True):
        page = page_update(page=page, by=storyteller, version=1, image=picture(size=(3, 3)))
    assert page.image.name != first and not (media / first).exists()
    with django_capture_on_commit_callbacks(execute=True):
        page = page_update(page=page, by=storyteller, version=2, remove_image=True)
    assert not page.image and not any(media.rglob("*.png"))
