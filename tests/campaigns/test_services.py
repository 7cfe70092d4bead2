from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.utils import timezone

from campaigns import compendium_examples
from campaigns.demo import demo_campaign_seed
from campaigns.models import (
    Ability,
    Arc,
    ArcStatus,
    Branch,
    Campaign,
    CharacterClass,
    Invitation,
    Membership,
    Role,
    Species,
)
from campaigns.services import (
    arc_close,
    arc_reopen,
    campaign_create,
    campaign_update,
    compendium_examples_load,
    entry_save,
    invitation_accept,
    invitation_create,
    invitation_problem,
    invitation_revoke,
    membership_remove,
    storyteller_hand_over,
)
from sessions.demo import demo_sessions_seed
from sessions.models import PlaySession

pytestmark = pytest.mark.django_db


def test_the_creator_of_a_campaign_is_its_conteur_with_the_default_budget(storyteller):
    campaign = campaign_create(creator=storyteller, name="Nouvelle table")
    assert campaign.creation_budget == 75
    assert campaign.tier == "heritage"
    membership = Membership.objects.get(campaign=campaign)
    assert (membership.user, membership.role) == (storyteller, Role.STORYTELLER)


@pytest.mark.parametrize("budget", [0, 1001])
def test_an_absurd_creation_budget_is_refused_and_changes_nothing(campaign, budget):
    with pytest.raises(ValidationError) as error:
        campaign_update(campaign=campaign, creation_budget=budget)
    assert "creation_budget" in error.value.message_dict
    campaign.refresh_from_db()
    assert campaign.creation_budget == 75


def test_the_database_itself_refuses_an_absurd_budget(campaign):
    with pytest.raises(IntegrityError):
        Campaign.objects.filter(pk=campaign.pk).update(creation_budget=5000)


# --- members --------------------------------------------------------------------------------


def test_hand_over_swaps_the_roles(campaign, storyteller, player):
    target = Membership.objects.get(campaign=campaign, user=player)
    storyteller_hand_over(campaign=campaign, to=target)
    roles = dict(Membership.objects.filter(campaign=campaign).values_list("user__username", "role"))
    assert roles == {"conteur": "player", "aelis": "storyteller", "brann": "player"}


def test_handing_over_to_the_conteur_is_refused(campaign, storyteller):
    own = Membership.objects.get(campaign=campaign, user=storyteller)
    with pytest.raises(ValidationError, match="déjà le Conteur"):
        storyteller_hand_over(campaign=campaign, to=own)


def test_a_second_conteur_is_refused_by_the_database(campaign, player):
    with pytest.raises(IntegrityError):
        Membership.objects.filter(campaign=campaign, user=player).update(role=Role.STORYTELLER)


def test_the_conteur_cannot_be_removed(campaign, storyteller):
    own = Membership.objects.get(campaign=campaign, user=storyteller)
    with pytest.raises(ValidationError, match="confiez d'abord le rôle"):
        membership_remove(membership=own)
    assert Membership.objects.filter(pk=own.pk).exists()


def test_removing_a_player_removes_the_membership(campaign, player_membership):
    membership_remove(membership=player_membership)
    assert not Membership.objects.filter(pk=player_membership.pk).exists()


# --- invitations ----------------------------------------------------------------------------


def test_an_invitation_lets_an_outsider_join_as_a_player_and_counts_a_use(invitation, outsider):
    membership = invitation_accept(token=invitation.token, user=outsider)
    assert membership.role == Role.PLAYER
    invitation.refresh_from_db()
    assert invitation.uses == 1


@pytest.mark.parametrize(
    ("days", "max_uses", "field"), [(0, 5, "days"), (91, 5, "days"), (7, 0, "max_uses")]
)
def test_invitation_bounds(campaign, storyteller, days, max_uses, field):
    with pytest.raises(ValidationError) as error:
        invitation_create(campaign=campaign, by=storyteller, days=days, max_uses=max_uses)
    assert field in error.value.message_dict
    assert not Invitation.objects.exists()


def test_invitation_tokens_are_long_and_distinct(campaign, storyteller):
    tokens = {invitation_create(campaign=campaign, by=storyteller).token for _ in range(5)}
    assert len(tokens) == 5
    assert all(len(token) >= 32 for token in tokens)


def expire(invitation):
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )


def use_up(invitation):
    Invitation.objects.filter(pk=invitation.pk).update(uses=invitation.max_uses)


@pytest.mark.parametrize(
    ("spoil", "message", "state"),
    [
        (expire, "a expiré", "expired"),
        (lambda invitation: invitation_revoke(invitation=invitation), "révoqué", "revoked"),
        (use_up, "autant de fois que permis", "used_up"),
    ],
    ids=["expired", "revoked", "used-up"],
)
def test_an_unusable_invitation_is_refused_with_its_reason(
    invitation, outsider, spoil, message, state
):
    spoil(invitation)
    invitation.refresh_from_db()
    assert invitation.state == state
    with pytest.raises(ValidationError, match=message):
        invitation_accept(token=invitation.token, user=outsider)
    assert not Membership.objects.filter(user=outsider).exists()


def test_a_member_cannot_use_an_invitation_twice(invitation, player):
    with pytest.raises(ValidationError, match="déjà membre"):
        invitation_accept(token=invitation.token, user=player)
    invitation.refresh_from_db()
    assert invitation.uses == 0


def test_the_conteur_is_told_the_link_is_for_the_players(invitation, storyteller):
    assert "ce lien est pour vos joueurs" in invitation_problem(invitation, user=storyteller)
    with pytest.raises(ValidationError):
        invitation_accept(token=invitation.token, user=storyteller)


def test_an_unknown_token_is_refused(outsider):
    with pytest.raises(ValidationError, match="n'existe pas"):
        invitation_accept(token="pas-un-jeton", user=outsider)


def test_the_last_use_of_an_invitation_fills_it(campaign, storyteller, outsider, make_user):
    invitation = invitation_create(campaign=campaign, by=storyteller, max_uses=1)
    invitation_accept(token=invitation.token, user=outsider)
    with pytest.raises(ValidationError, match="autant de fois"):
        invitation_accept(token=invitation.token, user=make_user("retardataire"))


def test_revoking_twice_keeps_the_first_date(invitation):
    first = invitation_revoke(invitation=invitation).revoked_at
    assert invitation_revoke(invitation=invitation).revoked_at == first


# --- arcs, sessions, compendium -------------------------------------------------------------


def test_closing_and_reopening_an_arc(arc):
    arc_close(arc=arc)
    assert arc.status == ArcStatus.CLOSED and arc.closed_at is not None
    closed_at = arc.closed_at
    arc_close(arc=arc)
    assert arc.closed_at == closed_at
    arc_reopen(arc=arc)
    assert arc.status == ArcStatus.OPEN and arc.closed_at is None


def test_a_closed_arc_without_closing_date_is_refused_by_the_database(arc):
    with pytest.raises(IntegrityError):
        Arc.objects.filter(pk=arc.pk).update(status=ArcStatus.CLOSED)


def test_a_session_cannot_belong_to_another_campaigns_arc(campaign, other_campaign, make_arc):
    foreign_arc = make_arc(other_campaign)
    session = PlaySession(
        campaign=campaign, arc=foreign_arc, title="Mauvais arc", scheduled_at=timezone.now()
    )
    with pytest.raises(ValidationError) as error:
        entry_save(entry=session)
    assert "arc" in error.value.message_dict


def test_a_branch_or_ability_cannot_use_another_campaigns_class(campaign, other_campaign):
    foreign = CharacterClass.objects.create(campaign=other_campaign, name="Étrangère")
    with pytest.raises(ValidationError):
        entry_save(entry=Branch(campaign=campaign, character_class=foreign, name="B"))
    with pytest.raises(ValidationError):
        entry_save(entry=Ability(campaign=campaign, character_class=foreign, name="A"))


def test_compendium_names_are_unique_per_campaign(campaign, other_campaign):
    entry_save(entry=Species(campaign=campaign, name="Humain"))
    with pytest.raises(ValidationError, match="existe déjà"):
        entry_save(entry=Species(campaign=campaign, name="Humain"))
    entry_save(entry=Species(campaign=other_campaign, name="Humain"))  # another campaign: fine


@pytest.mark.parametrize(
    ("favourites", "modifiers"),
    [
        (["luck"], {}),
        (["will", "will"], {}),
        ([], {"strength": 4}),
        ([], {"strength": -4}),
        ([], {"charm": 1}),
        ([], {"strength": "1"}),
        ("will", {}),
    ],
)
def test_species_characteristics_are_checked(campaign, favourites, modifiers):
    species = Species(
        campaign=campaign,
        name="Bizarre",
        favourite_characteristics=favourites,
        modifiers=modifiers,
    )
    with pytest.raises(ValidationError):
        entry_save(entry=species)
    assert not Species.objects.exists()


def test_the_example_compendium_loads_once(campaign):
    added = compendium_examples_load(campaign=campaign)
    expected = (
        len(compendium_examples.SPECIES)
        + len(compendium_examples.CLASSES)
        + sum(len(data["branches"]) for data in compendium_examples.CLASSES)
        + len(compendium_examples.ABILITIES)
        + len(compendium_examples.ASSETS)
        + len(compendium_examples.FLAWS)
    )
    assert added == expected
    assert compendium_examples_load(campaign=campaign) == 0
    assert Species.objects.filter(campaign=campaign).count() == len(compendium_examples.SPECIES)
    assert Ability.objects.get(name="Coup puissant").character_class.name == "Guerrier"
    assert Ability.objects.get(name="Souffle des anciens").character_class is None


def test_the_examples_keep_what_the_conteur_changed(campaign):
    entry_save(entry=Species(campaign=campaign, name="Humain", description="À ma façon"))
    compendium_examples_load(campaign=campaign)
    assert Species.objects.get(campaign=campaign, name="Humain").description == "À ma façon"


# --- demo -----------------------------------------------------------------------------------


def test_the_demo_campaign_is_seeded_once(make_user):
    users = {name: make_user(name) for name in ("conteur", "aelis", "brann")}
    first = demo_campaign_seed(users=users)
    demo_sessions_seed(campaign=first)
    second = demo_campaign_seed(users=users)
    demo_sessions_seed(campaign=second)
    assert first.pk == second.pk
    assert Campaign.objects.count() == 1
    roles = dict(first.memberships.values_list("user__username", "role"))
    assert roles == {"conteur": "storyteller", "aelis": "player", "brann": "player"}
    assert list(first.arcs.values_list("status", flat=True)) == ["open"]
    assert first.play_sessions.count() == 2
    assert first.species.exists() and first.classes.exists() and first.abilities.exists()


def test_seed_demo_loads_the_demo_campaign():
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=out)
    campaign = Campaign.objects.get()
    assert campaign.name == "Les Brumes d'Emeshar"
    assert "conteur / altherion-demo" in out.getvalue()
    assert campaign.memberships.get(role=Role.STORYTELLER).user.username == "conteur"
    owners = campaign.characters.values_list("owner__username", flat=True)
    assert sorted(owners) == ["aelis", "brann"]  # characters.demo, once each


# --- concurrency (PostgreSQL: real row locks) -----------------------------------------------


def _in_threads(*calls):
    """Run each call in its own thread and connection; return what each returned or raised."""
    import threading

    from django.db import connection

    results = [None] * len(calls)
    barrier = threading.Barrier(len(calls))

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # noqa: BLE001 — the caller inspects it
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.services
def test_two_people_racing_for_the_last_use_of_a_link(
    postgres, campaign, storyteller, make_user, monkeypatch
):
    import time

    from campaigns import services

    checked = services.invitation_problem

    def slow_check(invitation, *, user):
        problem = checked(invitation, user=user)
        time.sleep(0.3)  # both requests are inside their transaction at the same time
        return problem

    monkeypatch.setattr(services, "invitation_problem", slow_check)
    invitation = invitation_create(campaign=campaign, by=storyteller, max_uses=1)
    first, second = make_user("premiere"), make_user("second")
    results = _in_threads(
        lambda: invitation_accept(token=invitation.token, user=first),
        lambda: invitation_accept(token=invitation.token, user=second),
    )
    assert sum(isinstance(result, Membership) for result in results) == 1
    assert sum(isinstance(result, ValidationError) for result in results) == 1
    invitation.refresh_from_db()
    assert invitation.uses == 1
    assert Membership.objects.filter(user__in=[first, second]).count() == 1


@pytest.mark.services
def test_two_hand_overs_at_once_leave_exactly_one_conteur(postgres, campaign, player,
                                                          other_player):  # fmt: skip
    to_player = Membership.objects.get(campaign=campaign, user=player)
    to_other = Membership.objects.get(campaign=campaign, user=other_player)
    _in_threads(
        lambda: storyteller_hand_over(campaign=campaign, to=to_player),
        lambda: storyteller_hand_over(campaign=campaign, to=to_other),
    )
    assert campaign.memberships.filter(role=Role.STORYTELLER).count() == 1
