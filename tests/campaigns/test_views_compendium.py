import pytest
from django.urls import reverse

from campaigns.models import Ability, Asset, Branch, CharacterClass, Species

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name, campaign, *args):
    return reverse(f"campaigns:{name}", args=[campaign.pk, *args])


SPECIES = {
    "name": "Ondin",
    "description": "Peuple des rivières.",
    "innate_abilities": "Respire sous l'eau.",
    "favourites": ["agility", "wisdom"],
    "modifier_agility": 2,
    "modifier_strength": -1,
    "modifier_will": 0,
}


def test_players_read_the_compendium_without_editing_it(campaign, compendium, player_client):
    body = player_client.get(url("compendium", campaign)).content.decode()
    for name in ("Sylvain", "Guerrier", "Gardien", "Coup puissant", "Ambidextre", "Borgne"):
        assert name in body
    assert "Favorites : Agilité" in body
    assert "Vigueur -1" in body and "Agilité +1" in body
    assert "Modifier" not in body and "Ajouter une espèce" not in body
    assert "Charger les exemples" not in body


def test_an_empty_compendium_says_what_to_do(campaign, storyteller_client, player_client):
    assert (
        "Chargez les exemples"
        in storyteller_client.get(url("compendium", campaign)).content.decode()
    )
    assert (
        "le Conteur le remplira" in player_client.get(url("compendium", campaign)).content.decode()
    )


def test_the_conteur_loads_the_examples(campaign, storyteller_client):
    response = storyteller_client.post(url("compendium_examples", campaign), follow=True)
    body = response.content.decode()
    assert "entrées d&#x27;exemple ajoutées" in body
    assert "Nain des roches" in body and "Élémentaliste" in body
    again = storyteller_client.post(url("compendium_examples", campaign), follow=True)
    assert "déjà tous dans le compendium" in again.content.decode()


def test_add_a_species_without_javascript(campaign, storyteller_client):
    response = storyteller_client.post(url("entry_create", campaign, "species"), SPECIES)
    assert response.url == url("compendium", campaign) + "#species"
    species = Species.objects.get(name="Ondin")
    assert species.favourite_characteristics == ["agility", "wisdom"]
    assert species.modifiers == {"strength": -1, "agility": 2}  # zeros are not stored


def test_add_an_entry_with_htmx_returns_its_row(campaign, storyteller_client):
    response = storyteller_client.post(url("entry_create", campaign, "species"), SPECIES, **HTMX)
    body = response.content.decode()
    species = Species.objects.get(name="Ondin")
    assert body.strip().startswith(f'<li class="entry" id="species-{species.pk}">')
    assert "Agilité +2" in body and "Force -1" in body
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"modifier_agility": 4}, "inférieure ou égale à 3"),
        ({"modifier_vigor": -5}, "supérieure ou égale à -3"),
        ({"favourites": ["luck"]}, "Sélectionnez un choix valide"),
        ({"name": "Sylvain"}, "existe déjà dans le compendium"),
    ],
)
def test_a_bad_species_comes_back_in_place_with_its_error(
    campaign, compendium, storyteller_client, change, message
):
    response = storyteller_client.post(
        url("entry_create", campaign, "species"), {**SPECIES, **change}, **HTMX
    )
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#new-species"
    assert message in response.content.decode()
    assert Species.objects.count() == 1


def test_edit_a_row_in_place(campaign, compendium, storyteller_client):
    asset = compendium["assets"]
    form_row = storyteller_client.get(url("entry_edit", campaign, "assets", asset.pk), **HTMX)
    body = form_row.content.decode()
    assert body.strip().startswith(f'<li class="entry editing" id="assets-{asset.pk}">')
    assert f'id="id_assets_{asset.pk}_name"' in body  # ids unique among the page's forms
    response = storyteller_client.post(
        url("entry_edit", campaign, "assets", asset.pk),
        {"name": "Ambidextre", "cost": 5, "description": "Deux mains."},
        **HTMX,
    )
    assert "5 points" in response.content.decode()
    asset.refresh_from_db()
    assert asset.cost == 5


def test_edit_without_javascript_is_a_page(campaign, compendium, storyteller_client):
    ability = compendium["abilities"]
    page = storyteller_client.get(url("entry_edit", campaign, "abilities", ability.pk))
    assert "<!doctype html>" in page.content.decode()
    response = storyteller_client.post(
        url("entry_edit", campaign, "abilities", ability.pk),
        {"name": "Coup puissant", "character_class": "", "tier": "supreme", "cost": 50},
    )
    assert response.url == url("compendium", campaign) + "#abilities"
    ability.refresh_from_db()
    assert (ability.character_class, ability.tier, ability.cost) == (None, "supreme", 50)


def test_delete_with_htmx_removes_the_row(campaign, compendium, storyteller_client):
    flaw = compendium["flaws"]
    response = storyteller_client.post(url("entry_delete", campaign, "flaws", flaw.pk), **HTMX)
    assert response.status_code == 200 and response.content == b""
    assert not type(flaw).objects.filter(pk=flaw.pk).exists()


def test_delete_without_javascript_asks_first(campaign, compendium, storyteller_client):
    species = compendium["species"]
    confirm = storyteller_client.get(url("entry_delete", campaign, "species", species.pk))
    assert "Supprimer « Sylvain » ?" in confirm.content.decode()
    assert Species.objects.filter(pk=species.pk).exists()
    storyteller_client.post(url("entry_delete", campaign, "species", species.pk))
    assert not Species.objects.filter(pk=species.pk).exists()


def test_a_class_lists_its_branches(campaign, compendium, player_client):
    body = player_client.get(url("compendium", campaign)).content.decode()
    assert "Branches : Gardien" in body


def test_branches_only_offer_the_campaigns_classes(campaign, other_campaign, compendium,
                                                    storyteller_client):  # fmt: skip
    foreign = CharacterClass.objects.create(campaign=other_campaign, name="Étrangère")
    page = storyteller_client.get(url("entry_create", campaign, "branches")).content.decode()
    assert "Guerrier" in page and "Étrangère" not in page
    response = storyteller_client.post(
        url("entry_create", campaign, "branches"), {"character_class": foreign.pk, "name": "X"}
    )
    assert response.status_code == 200
    assert not Branch.objects.filter(name="X").exists()


def test_entries_of_another_campaign_are_not_found(campaign, other_campaign, storyteller_client):
    foreign = Asset.objects.create(campaign=other_campaign, name="Secret")
    for name in ("entry_edit", "entry_delete"):
        assert storyteller_client.get(url(name, campaign, "assets", foreign.pk)).status_code == 404
        assert storyteller_client.post(url(name, campaign, "assets", foreign.pk)).status_code == 404
    assert Asset.objects.filter(pk=foreign.pk).exists()


def test_an_unknown_section_is_not_found(campaign, storyteller_client):
    assert storyteller_client.get(url("entry_create", campaign, "dragons")).status_code == 404


def test_a_player_cannot_change_the_compendium(campaign, compendium, player_client):
    ability = compendium["abilities"]
    response = player_client.post(
        url("entry_edit", campaign, "abilities", ability.pk),
        {"name": "Volé", "tier": "founding", "cost": 1},
    )
    assert response.status_code == 403
    assert Ability.objects.get(pk=ability.pk).name == "Coup puissant"


def test_the_conteur_adds_a_spell_with_its_energy_cost(campaign, storyteller_client, player_client):
    """RULES §15 Reading (cost): a spell's Énergie cost is given by its compendium entry."""
    data = {"name": "Trait de feu", "spell_points": 2, "energy_cost": 3, "description": ""}
    response = storyteller_client.post(url("entry_create", campaign, "spells"), data)
    assert response.url == url("compendium", campaign) + "#spells"
    body = player_client.get(url("compendium", campaign)).content.decode()
    assert "Trait de feu" in body and "3 points d'Énergie" in body
    api = storyteller_client.get(f"/api/campaigns/{campaign.pk}/compendium/spells/").json()
    assert api["results"][0]["energy_cost"] == 3
