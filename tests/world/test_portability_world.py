"""The world in a campaign's backup file: pages (hidden ones and secrets included: the file is
the whole campaign, written by the server's `export_campaign` command), their history, notes,
handouts and images come back from an import; a file written before the world existed still
imports."""

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from altherion.demo import demo_users_seed
from altherion.portability import SECTIONS, PortabilityError, campaign_export, campaign_import
from campaigns.demo import demo_campaign_seed
from campaigns.models import Campaign
from world.handouts import handout_give
from world.models import Handout, HandoutKind, Page, PageAudience, PageKind, PageNote
from world.services import note_save, page_create, page_update
from world.visibility import secret_blocks

pytestmark = pytest.mark.django_db

WORLD_KEYS = {"world_pages", "world_page_revisions", "world_page_notes", "world_handouts"}


def png_bytes(color="blue") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (3, 2), color).save(out, "PNG")
    return out.getvalue()


def world_played(campaign, users) -> None:
    """A small world: a town with a map, a hidden faction, a letter for Aelis, an NPC with a
    secret; an edit in the history, a note, and two handouts to Aelis."""
    conteur, aelis = users["conteur"], users["aelis"]
    town = page_create(
        campaign=campaign,
        by=conteur,
        title="Vael",
        kind=PageKind.PLACE,
        body="Un port de brume.",
        tags=["ville"],
        audience=PageAudience.EVERYONE,
        image=SimpleUploadedFile("vael.png", png_bytes()),
    )
    page_update(page=town, by=conteur, version=1, body="Un port noyé de brume, voir [[Orso]].")
    page_create(
        campaign=campaign,
        by=conteur,
        title="La Main Grise",
        kind=PageKind.FACTION,
        body="Une guilde d'assassins.",
    )
    page_create(
        campaign=campaign,
        by=conteur,
        title="Lettre",
        kind=PageKind.ITEM,
        body="Pour Aelis seule.",
        audience=PageAudience.CHOSEN,
        readers=[aelis],
    )
    orso = page_create(
        campaign=campaign,
        by=conteur,
        title="Orso",
        kind=PageKind.NPC,
        body="Le maire.\n\n:::secret\nLe maire est un vampire.\n:::\n",
        audience=PageAudience.EVERYONE,
    )
    note_save(page=town, user=aelis, text="Ne pas boire l'eau.")
    handout_give(page=town, by=conteur, kind=HandoutKind.IMAGE, recipients=[aelis])
    handout_give(
        page=orso,
        by=conteur,
        kind=HandoutKind.SECRET,
        recipients=[aelis],
        secret_key=secret_blocks(orso)[0].key,
    )


@pytest.fixture
def played(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    users = demo_users_seed()
    campaign = demo_campaign_seed(users=users)
    world_played(campaign, users)
    return campaign


def test_the_file_carries_the_whole_world_hidden_pages_and_secrets_included(played):
    data = campaign_export(campaign=played)

    assert {page["title"] for page in data["world_pages"]} == {
        "Vael",
        "La Main Grise",
        "Lettre",
        "Orso",
    }
    text = json.dumps(data)
    assert "assassins" in text and "vampire" in text
    letter = next(p for p in data["world_pages"] if p["title"] == "Lettre")
    assert letter["readers"] == ["aelis"]
    town = next(p for p in data["world_pages"] if p["title"] == "Vael")
    assert town["image"].startswith("data:image/png;base64,")
    assert len(data["world_page_revisions"]) == 5
    assert [h["recipients"] for h in data["world_handouts"]] == [["aelis"], ["aelis"]]


def test_the_world_comes_back_from_an_import_images_included(played):
    before = campaign_export(campaign=played)
    Campaign.objects.all().delete()
    get_user_model().objects.all().delete()
    assert not Page.objects.exists() and not Handout.objects.exists()

    copy = campaign_import(data=json.loads(json.dumps(before))).campaign

    after = campaign_export(campaign=copy)
    for key in WORLD_KEYS:
        assert after[key] == before[key], key
    town = Page.objects.get(campaign=copy, title="Vael")
    with town.image.open("rb") as image:
        assert image.read() == png_bytes()
    aelis = get_user_model().objects.get(username="aelis")
    assert list(Page.objects.get(title="Lettre").readers.all()) == [aelis]
    assert PageNote.objects.get(page=town).user == aelis
    assert Handout.objects.filter(recipients=aelis).count() == 2


def test_a_copy_beside_the_original_has_its_own_image_files(played):
    copy = campaign_import(data=campaign_export(campaign=played)).campaign
    original = Page.objects.get(campaign=played, title="Vael")
    copied = Page.objects.get(campaign=copy, title="Vael")
    assert copied.image.name != original.image.name
    assert copied.image.size == original.image.size


def test_a_file_without_the_world_still_imports(played):
    """A file as written before the world existed: today's export without the world's keys."""
    old = {k: v for k, v in campaign_export(campaign=played).items() if k not in WORLD_KEYS}

    copy = campaign_import(data=old).campaign

    assert not Page.objects.filter(campaign=copy).exists()
    after = campaign_export(campaign=copy)
    assert {k: after[k] for k in WORLD_KEYS} == {k: [] for k in WORLD_KEYS}
    assert {s.key for s in SECTIONS} - set(old) == WORLD_KEYS


def test_an_image_that_is_not_one_is_refused_and_nothing_is_imported(played):
    data = campaign_export(campaign=played)
    town = next(p for p in data["world_pages"] if p["title"] == "Vael")
    town["image"] = "data:image/png;base64,bm90IGFuIGltYWdl"  # "not an image"
    campaigns = Campaign.objects.count()

    with pytest.raises(PortabilityError, match="image"):
        campaign_import(data=data)

    assert Campaign.objects.count() == campaigns
