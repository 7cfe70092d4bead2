"""The Conteur's screen (issue 14 §8): every combatant's gauges, scars, péril, Agonie and the
other tracks, special state, Finesse and Résilience points, the Moral and the turn order."""

import re

import pytest
from django.urls import reverse

from characters.models import Character
from sessions.combat import fights as combat
from sessions.models import Combatant, Encounter
from tests.altherion.test_french_pages import _Page, choice_keys, offending_words
from tests.sessions.fixtures import *  # noqa: F403 (fixtures)
from tests.sessions.fixtures import set_pool

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def screen_url(encounter) -> str:
    return reverse("sessions:combat_screen", args=[encounter.campaign_id, encounter.pk])


def start(encounter, initiatives: dict[str, int]) -> Encounter:
    for name, value in initiatives.items():
        Combatant.objects.filter(encounter=encounter, name=name).update(
            initiative=value, finesse_points=2
        )
    encounter.order = combat.round_order(list(encounter.combatants.order_by("pk")))
    encounter.status, encounter.round, encounter.turn = "running", 1, 1
    encounter.save()
    return encounter


@pytest.fixture
def running(campaign, storyteller, as_member, aelis, brann):
    """Aelis (14), a hidden Ombre (12), Brann (8): Aelis acts, Ombre comes next."""
    conteur = as_member(campaign, storyteller)
    encounter = combat.encounter_open(campaign=conteur, by=storyteller, name="Embuscade")
    combat.combatants_add(
        campaign=conteur,
        by=storyteller,
        encounter_id=encounter.pk,
        joining=combat.party_joining(conteur, [aelis.pk])
        + combat.quick_joining("Ombre", 3, 1, True)
        + combat.party_joining(conteur, [brann.pk]),
    )
    return start(encounter, {"Aelis": 14, "Ombre": 12, "Brann": 8})


def row_of(page: str, name: str) -> str:
    """The screen's table row of one combatant, as plain text."""
    match = re.search(rf'<tr class="fighter-row[^>]*>\s*<th scope="row">\s*<span class="name">'
                      rf"{name}</span>.*?</tr>", page, re.S)  # fmt: skip
    assert match, f"no row for {name}"
    return " ".join(re.sub(r"<[^>]+>", " ", match.group(0)).split()).replace(" /", "/")


def test_the_conteur_sees_every_combatant_with_its_tracks(
    campaign, running, storyteller_client, aelis, brann
):
    Character.objects.filter(pk=aelis.pk).update(
        vitality_current=0, vitality_scars=2, vitality_peril=True, agony=2, aggravation=1
    )
    Character.objects.filter(pk=brann.pk).update(
        special_state="fury", exhaustion=2, fragility=1, resilience_points=1
    )
    ombre = running.combatants.get(name="Ombre")
    ombre.profile = {
        **ombre.profile,
        "gauges": {
            **ombre.profile["gauges"],
            "vitality": {"maximum": 15, "current": 9, "scars": 1},
        },
    }
    ombre.save()
    set_pool(campaign, hope=2, despair=1, fate=3)

    page = storyteller_client.get(screen_url(running)).content.decode()

    assert "Écran du Conteur" in page
    aelis_row = row_of(page, "Aelis")
    assert "Vitalité 0/" in aelis_row and "2 cicatrices" in aelis_row and "péril" in aelis_row
    assert "Agonie 2" in aelis_row and "Aggravation 1" in aelis_row
    assert "agit" in aelis_row and "Finesse 2/" in aelis_row
    ombre_row = row_of(page, "Ombre")
    assert "caché" in ombre_row and "Vitalité 9/15" in ombre_row and "1 cicatrice" in ombre_row
    assert "PNJ" in ombre_row and "Épuisement —" in ombre_row
    brann_row = row_of(page, "Brann")
    assert "Acharnement" in brann_row and "Épuisement 2" in brann_row
    assert "Fragilité 1" in brann_row and "Résilience 1/" in brann_row and "En lice" in brann_row
    # The rows come in initiative order.
    assert page.index(">Aelis<") < page.index(">Ombre<") < page.index(">Brann<")
    # The round and who acts now and next; the Moral.
    assert 'data-screen="round">1<' in page
    assert 'data-screen="acting">Aelis<' in page and 'data-screen="next">Ombre<' in page
    assert 'data-screen="hope">2<' in page and 'data-screen="despair">1<' in page
    assert 'data-screen="fate">3<' in page


def test_a_defeated_combatant_is_skipped_in_the_order(campaign, running, storyteller_client):
    running.combatants.filter(name="Ombre").update(status="unconscious", unconscious_turns=2)
    page = storyteller_client.get(screen_url(running)).content.decode()
    assert 'data-screen="next">Brann<' in page
    assert "Inconscient" in row_of(page, "Ombre") and "2 tours" in row_of(page, "Ombre")


def test_players_and_outsiders_get_404(running, player_client, outsider_client):
    for client in (player_client, outsider_client):
        assert client.get(screen_url(running)).status_code == 404
        assert client.get(screen_url(running), **HTMX).status_code == 404


def test_another_campaigns_fight_is_404(running, storyteller_client, make_user):
    from campaigns.models import Campaign, Membership, Role

    other = Campaign.objects.create(name="Ailleurs")
    Membership.objects.create(campaign=other, user=make_user("autre"), role=Role.STORYTELLER)
    url = reverse("sessions:combat_screen", args=[other.pk, running.pk])
    assert storyteller_client.get(url).status_code == 404


def test_the_fragment_with_and_without_htmx(running, storyteller_client):
    page = storyteller_client.get(screen_url(running))
    assert page.status_code == 200 and "HX-Request" in page["Vary"]
    body = page.content.decode()
    # The table's poller (the same cheap poll view), and the body that refreshes on its events.
    assert 'id="table-poller"' in body and reverse("sessions:poll", args=[running.campaign_id])
    assert "combat-changed from:body, morale-changed from:body" in body
    fragment = storyteller_client.get(screen_url(running), **HTMX)
    assert fragment.status_code == 200 and "HX-Request" in fragment["Vary"]
    text = fragment.content.decode()
    assert text.lstrip().startswith('<div class="combat-screen"')
    assert "table-poller" not in text and "<html" not in text
    assert "Ombre" in text


def test_the_screen_follows_the_fight(campaign, running, storyteller_client):
    """After « next action » the poll triggers `combat-changed` and the fragment shows Ombre."""
    page = storyteller_client.get(screen_url(running)).content.decode()
    cursor = re.search(r'data-after="(\d+)"', page).group(1)
    poll = reverse("sessions:poll", args=[campaign.pk])
    assert storyteller_client.get(poll, {"after": cursor}, **HTMX).status_code == 204  # idle
    storyteller_client.post(reverse("sessions:combat_next", args=[campaign.pk, running.pk]),
                            {"turn": 1})  # fmt: skip
    news = storyteller_client.get(poll, {"after": cursor}, **HTMX)
    assert "combat-changed" in news["HX-Trigger"]
    fragment = storyteller_client.get(screen_url(running), **HTMX).content.decode()
    assert 'data-screen="acting">Ombre<' in fragment and 'data-screen="next">Brann<' in fragment


def test_an_ended_fight_shows_its_last_state(campaign, running, storyteller, as_member):
    conteur = as_member(campaign, storyteller)
    combat.encounter_end(campaign=conteur, by=storyteller, encounter_id=running.pk)
    from django.test import Client

    client = Client()
    client.force_login(storyteller)
    page = client.get(screen_url(running)).content.decode()
    assert "Combat terminé" in page and "au tour 1" in page
    assert "Ombre" in page and "Vitalité" in page
    assert 'data-screen="acting"' not in page


def test_a_fight_in_preparation(campaign, storyteller, as_member, storyteller_client):
    conteur = as_member(campaign, storyteller)
    encounter = combat.encounter_open(campaign=conteur, by=storyteller, name="Guet")
    page = storyteller_client.get(screen_url(encounter)).content.decode()
    assert "l'initiative n'est pas encore lancée" in page
    assert "Aucun combattant pour l'instant." in page


def test_linked_from_the_combat_page_and_the_tracker_for_the_conteur_only(
    campaign, running, storyteller_client, player_client
):
    url = screen_url(running)
    assert (
        url
        in storyteller_client.get(reverse("sessions:combat", args=[campaign.pk])).content.decode()
    )
    table = reverse("sessions:table", args=[campaign.pk])
    assert url in storyteller_client.get(table).content.decode()
    assert (
        url
        in storyteller_client.get(
            reverse("sessions:combat_tracker", args=[campaign.pk]), **HTMX
        ).content.decode()
    )
    assert url not in player_client.get(table).content.decode()


def test_the_screen_speaks_french(running, storyteller_client):
    keys = choice_keys() - {"table"}  # a history action's key, and French (« à la table »)
    for headers in ({}, HTMX):
        page = _Page()
        page.feed(storyteller_client.get(screen_url(running), **headers).content.decode())
        assert not offending_words(" ".join(page.text), keys)


@pytest.mark.parametrize("count", [2, 8])
def test_the_screen_costs_the_same_queries_whatever_the_number_of_combatants(
    campaign, storyteller, as_member, storyteller_client, aelis, brann, count,
    django_assert_max_num_queries,
):  # fmt: skip
    conteur = as_member(campaign, storyteller)
    encounter = combat.encounter_open(campaign=conteur, by=storyteller, name="Mêlée")
    joining = combat.party_joining(conteur, [aelis.pk, brann.pk])
    joining += combat.quick_joining("Brigand", 2, 2, True) * (count - 2)
    combat.combatants_add(
        campaign=conteur, by=storyteller, encounter_id=encounter.pk, joining=joining
    )
    assert encounter.combatants.count() == count
    start(encounter, {c.name: 10 + i for i, c in enumerate(encounter.combatants.all())})
    storyteller_client.get(screen_url(encounter))  # the session in the cache
    with django_assert_max_num_queries(QUERIES):
        assert storyteller_client.get(screen_url(encounter)).status_code == 200
    with django_assert_max_num_queries(QUERIES - 1):
        assert storyteller_client.get(screen_url(encounter), **HTMX).status_code == 200


QUERIES = 9  # the same bound for 2 and for 8 combatants (measured: 9 and 9)
