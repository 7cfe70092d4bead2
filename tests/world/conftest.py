"""The world's fixtures: the campaign personas, and a small world with hidden things."""

import pytest

from tests.campaign_fixtures import *  # noqa: F403 (fixtures)
from world.models import PageAudience, PageKind
from world.services import page_create

SECRET_BODY = (
    "La ville basse de [[Vael]] sent le sel.\n\n"
    ":::secret @aelis\n"
    "Le maire est un vampire.\n"
    ":::\n\n"
    ":::secret\n"
    "Sa crypte est sous la chapelle.\n"
    ":::\n"
)


@pytest.fixture
def make_page(campaign, storyteller):
    def make(title="Vael", kind=PageKind.PLACE, audience=PageAudience.EVERYONE, **fields):
        return page_create(
            campaign=campaign, by=storyteller, title=title, kind=kind, audience=audience, **fields
        )

    return make


@pytest.fixture
def town(make_page):
    return make_page(title="Vael", body="Un port de brume.", tags=["ville", "port"])


@pytest.fixture
def mayor(make_page):
    return make_page(title="Le maire Orso", kind=PageKind.NPC, body=SECRET_BODY)


@pytest.fixture
def hidden_page(make_page):
    return make_page(
        title="La Main Grise",
        kind=PageKind.FACTION,
        audience=PageAudience.STORYTELLER,
        body="Une guilde d'assassins qui tient [[Vael]].",
    )
