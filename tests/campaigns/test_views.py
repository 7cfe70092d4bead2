from datetime import timedelta
from urllib.parse import quote

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Arc, ArcStatus, Campaign, Invitation, Membership, Role
from campaigns.services import invitation_create, invitation_revoke
from sessions.models import PlaySession

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name, *args):
    return reverse(name if ":" in name else f"campaigns:{name}", args=args)


# --- my campaigns ---------------------------------------------------------------------------


def test_home_lists_my_campaigns_with_my_role(campaign, player_client, outsider):
    body = player_client.get(reverse("home")).content.decode()
    assert "Mes campagnes" in body
    assert "Les Brumes d&#x27;Emeshar" in body
    assert "Conteur : conteur" in body
    assert "3 membres" in body


def test_home_without_campaigns_says_what_to_do(outsider_client, campaign):
    body = outsider_client.get(reverse("home")).content.decode()
    assert "Vous ne participez encore à aucune campagne." in body
    assert "Créer une campagne" in body
    assert "Brumes" not in body


def test_visitors_see_no_campaign_list(client, campaign):
    body = client.get(reverse("home")).content.decode()
    assert "Mes campagnes" not in body


def test_create_a_campaign_and_become_its_conteur(storyteller_client, storyteller):
    response = storyteller_client.post(
        url("create"),
        {"name": "La Tour", "creation_budget": 90, "tier": "hero", "in_game_day": 12},
    )
    campaign = Campaign.objects.get(name="La Tour")
    assert response.url == url("dashboard", campaign.pk)
    assert (campaign.creation_budget, campaign.tier, campaign.in_game_day) == (90, "hero", 12)
    assert campaign.memberships.get().role == Role.STORYTELLER


def test_a_campaign_without_a_name_is_refused_with_a_message(storyteller_client):
    response = storyteller_client.post(
        url("create"), {"name": "", "creation_budget": 75, "tier": "heritage", "in_game_day": 1}
    )
    assert response.status_code == 200
    assert "Ce champ est obligatoire." in response.content.decode()
    assert not Campaign.objects.exists()


def test_the_conteur_changes_the_settings(campaign, storyteller_client):
    response = storyteller_client.post(
        url("settings", campaign.pk),
        {"name": "Brumes II", "description": "", "creation_budget": 60, "tier": "hero",
         "in_game_day": 40},
    )  # fmt: skip
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.name, campaign.creation_budget, campaign.in_game_day) == ("Brumes II", 60, 40)


def test_a_rejected_setting_changes_nothing(campaign, storyteller_client):
    response = storyteller_client.post(
        url("settings", campaign.pk),
        {"name": "Autre", "creation_budget": 5000, "tier": "hero", "in_game_day": 1},
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "inférieure ou égale à 1000" in body
    assert "Les Brumes d&#x27;Emeshar" in body  # the header keeps the saved name
    campaign.refresh_from_db()
    assert campaign.name == "Les Brumes d'Emeshar"


# --- dashboard ------------------------------------------------------------------------------


def test_the_dashboard_shows_members_arc_next_session_and_the_moral_placeholder(
    campaign, arc, make_play_session, player_client
):
    make_play_session(campaign, title="Déjà jouée", days=-3, arc=arc)
    make_play_session(campaign, title="La prochaine", days=2, arc=arc)
    make_play_session(campaign, title="Plus tard", days=9, arc=arc)
    body = player_client.get(url("dashboard", campaign.pk)).content.decode()
    for text in (
        "conteur",
        "aelis",
        "brann",
        "Le phare éteint",
        "Ni espoir ni désespoir pour l",  # the Moral card, empty before any play
    ):
        assert text in body
    next_card = body.split("Prochaine séance")[1].split("</section>")[0]
    assert "La prochaine" in next_card and "Plus tard" not in next_card
    assert "Dernière séance" in next_card and "Déjà jouée" in next_card
    assert "Personnages" in body  # the characters panel (characters app) is included
    assert url("settings", campaign.pk) not in body  # a player gets no management links


def test_an_empty_campaign_tells_the_conteur_what_to_do_next(storyteller_client, storyteller):
    storyteller_client.post(
        url("create"), {"name": "Vide", "creation_budget": 75, "tier": "heritage", "in_game_day": 1}
    )
    campaign = Campaign.objects.get(name="Vide")
    body = storyteller_client.get(url("dashboard", campaign.pk)).content.decode()
    assert "Ouvrir un arc" in body
    assert "Planifier une séance" in body
    assert "créez un lien d'invitation" in body


def test_a_player_sees_what_waits_for_the_conteur(campaign, player_client):
    body = player_client.get(url("dashboard", campaign.pk)).content.decode()
    assert "le Conteur en ouvrira un" in body
    assert "Ouvrir un arc" not in body


def test_a_closed_arc_is_not_the_current_arc(campaign, arc, player_client):
    Arc.objects.filter(pk=arc.pk).update(status=ArcStatus.CLOSED, closed_at=timezone.now())
    body = player_client.get(url("dashboard", campaign.pk)).content.decode()
    assert "Aucun arc en cours" in body


# --- members --------------------------------------------------------------------------------


def test_a_removed_player_loses_access_at_once(campaign, player, player_membership, client_for,
                                               storyteller_client):  # fmt: skip
    player_client = client_for(player)
    assert player_client.get(url("dashboard", campaign.pk)).status_code == 200
    confirm = storyteller_client.get(url("member_remove", campaign.pk, player_membership.pk))
    assert "perdra immédiatement" in confirm.content.decode()
    assert Membership.objects.filter(pk=player_membership.pk).exists()  # GET changes nothing
    response = storyteller_client.post(url("member_remove", campaign.pk, player_membership.pk))
    assert response.url == url("members", campaign.pk)
    assert player_client.get(url("dashboard", campaign.pk)).status_code == 404
    assert player_client.get(url("compendium", campaign.pk)).status_code == 404


def test_removing_the_conteur_is_refused_with_a_message(campaign, storyteller, storyteller_client):
    own = Membership.objects.get(campaign=campaign, user=storyteller)
    response = storyteller_client.post(url("member_remove", campaign.pk, own.pk), follow=True)
    assert "confiez d&#x27;abord le rôle" in response.content.decode()
    assert Membership.objects.filter(pk=own.pk).exists()


def test_hand_over_makes_the_player_conteur(campaign, player, player_membership, storyteller_client,
                                            client_for):  # fmt: skip
    response = storyteller_client.post(url("hand_over", campaign.pk, player_membership.pk))
    assert response.url == url("dashboard", campaign.pk)
    assert storyteller_client.get(url("settings", campaign.pk)).status_code == 403
    assert client_for(player).get(url("settings", campaign.pk)).status_code == 200


def test_a_player_leaves_the_campaign(campaign, player_client, player, player_membership):
    page = player_client.get(url("leave", campaign.pk)).content.decode()
    assert "Vous n'aurez plus accès" in page
    response = player_client.post(url("leave", campaign.pk))
    assert response.url == reverse("home")
    assert player_client.get(url("dashboard", campaign.pk)).status_code == 404


def test_the_conteur_cannot_leave_without_handing_over(campaign, storyteller, storyteller_client):
    response = storyteller_client.post(url("leave", campaign.pk), follow=True)
    assert "confiez d&#x27;abord le rôle" in response.content.decode()
    assert campaign.memberships.filter(user=storyteller, role=Role.STORYTELLER).exists()


def test_members_of_another_campaign_are_not_found(campaign, other_campaign, storyteller_client):
    foreign = other_campaign.memberships.get()
    assert storyteller_client.get(url("member_remove", campaign.pk, foreign.pk)).status_code == 404
    assert storyteller_client.post(url("hand_over", campaign.pk, foreign.pk)).status_code == 404
    assert Membership.objects.filter(pk=foreign.pk, role=Role.STORYTELLER).exists()


def test_a_player_sees_the_members_without_management_links(
    campaign, player_client, player_membership
):
    body = player_client.get(url("members", campaign.pk)).content.decode()
    assert "brann" in body
    assert "Retirer" not in body and "Confier" not in body


# --- invitations ----------------------------------------------------------------------------


def test_create_an_invitation_without_javascript(campaign, storyteller_client):
    response = storyteller_client.post(
        url("invitation_create", campaign.pk), {"days": 3, "max_uses": 2}
    )
    assert response.url == url("invitations", campaign.pk)
    invitation = Invitation.objects.get()
    assert invitation.max_uses == 2
    body = storyteller_client.get(url("invitations", campaign.pk)).content.decode()
    assert f"http://testserver/join/{invitation.token}/" in body
    assert "0 utilisations sur 2" in body
    assert "Copier le lien" in body


def test_create_an_invitation_with_htmx_returns_its_row(campaign, storyteller_client):
    response = storyteller_client.post(
        url("invitation_create", campaign.pk), {"days": 7, "max_uses": 5}, **HTMX
    )
    invitation = Invitation.objects.get()
    body = response.content.decode()
    assert response.status_code == 200
    assert body.strip().startswith('<li class="entry invitation active"')
    assert f"/join/{invitation.token}/" in body
    assert "HX-Request" in response["Vary"]


def test_a_bad_invitation_form_with_htmx_comes_back_in_place_with_its_errors(
    campaign, storyteller_client
):
    response = storyteller_client.post(
        url("invitation_create", campaign.pk), {"days": 500, "max_uses": 5}, **HTMX
    )
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#invitation-form"
    assert response["HX-Reswap"] == "outerHTML"
    assert "inférieure ou égale à 90" in response.content.decode()
    assert not Invitation.objects.exists()


def test_a_bad_invitation_form_without_htmx_shows_the_page_with_errors(
    campaign, storyteller_client
):
    response = storyteller_client.post(url("invitation_create", campaign.pk), {"days": 0})
    assert response.status_code == 200
    assert "Ce champ est obligatoire." in response.content.decode()


def test_revoke_an_invitation(campaign, invitation, storyteller_client):
    response = storyteller_client.post(url("invitation_revoke", campaign.pk, invitation.pk), **HTMX)
    body = response.content.decode()
    assert "Révoqué" in body and invitation.token not in body
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None


def test_the_invitations_page_shows_each_state(campaign, storyteller, storyteller_client):
    expired = invitation_create(campaign=campaign, by=storyteller)
    Invitation.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(days=1))
    invitation_revoke(invitation=invitation_create(campaign=campaign, by=storyteller))
    used = invitation_create(campaign=campaign, by=storyteller, max_uses=1)
    Invitation.objects.filter(pk=used.pk).update(uses=1)
    body = storyteller_client.get(url("invitations", campaign.pk)).content.decode()
    for label in ("Expiré", "Révoqué", "Épuisé"):
        assert label in body
    assert "/join/" not in body  # no usable link is offered for copying


def test_invitations_of_another_campaign_are_not_found(campaign, other_campaign, outsider,
                                                       storyteller_client):  # fmt: skip
    foreign = invitation_create(campaign=other_campaign, by=outsider)
    response = storyteller_client.post(url("invitation_revoke", campaign.pk, foreign.pk))
    assert response.status_code == 404
    foreign.refresh_from_db()
    assert foreign.revoked_at is None


# --- join -----------------------------------------------------------------------------------


def join_url(invitation):
    return reverse("campaigns:join", args=[invitation.token])


def test_join_by_link(campaign, invitation, outsider, outsider_client):
    page = outsider_client.get(join_url(invitation)).content.decode()
    assert "Rejoindre « Les Brumes d&#x27;Emeshar »" in page
    response = outsider_client.post(join_url(invitation))
    assert response.url == url("dashboard", campaign.pk)
    assert Membership.objects.get(campaign=campaign, user=outsider).role == Role.PLAYER
    assert outsider_client.get(url("dashboard", campaign.pk)).status_code == 200


def test_a_signed_out_visitor_sees_the_campaign_and_who_invites(client, invitation):
    """The link is the secret: its page names the campaign and the Conteur who made it, and
    offers to sign up or log in and come back, without showing anything else of the campaign."""
    response = client.get(join_url(invitation))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Rejoindre « Les Brumes d&#x27;Emeshar »" in body
    assert "conteur vous invite à rejoindre la campagne" in body
    back = quote(join_url(invitation))
    assert f'href="{reverse("signup")}?next={back}"' in body
    assert f'href="{reverse("login")}?next={back}"' in body
    for member in ("aelis", "brann"):
        assert member not in body
    assert reverse("campaigns:dashboard", args=[invitation.campaign_id]) not in body


def test_a_signed_out_visitor_signs_up_and_joins(client, campaign, invitation):
    signup = client.get(join_url(invitation)).content.decode()
    assert reverse("signup") + "?next=" in signup
    response = client.post(
        reverse("signup") + "?next=" + join_url(invitation),
        {
            "username": "aubin",
            "password1": "une-phrase-longue-42",
            "password2": "une-phrase-longue-42",
        },
    )
    assert response.url == join_url(invitation)
    assert "Rejoindre la campagne" in client.get(join_url(invitation)).content.decode()
    response = client.post(join_url(invitation))
    assert response.url == url("dashboard", campaign.pk)


def test_a_signed_out_visitor_cannot_join_without_an_account(client, invitation):
    response = client.post(join_url(invitation))
    assert response.url == reverse("login") + "?next=" + join_url(invitation)
    invitation.refresh_from_db()
    assert invitation.uses == 0


# An invitation made unusable three ways, and the word its page then says.
SPOILED_LINKS = pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda i: Invitation.objects.filter(pk=i.pk).update(expires_at=timezone.now()), "expiré"),
        (lambda i: invitation_revoke(invitation=i), "révoqué"),
        (lambda i: Invitation.objects.filter(pk=i.pk).update(uses=i.max_uses), "autant de fois"),
    ],
    ids=["expired", "revoked", "used-up"],
)


@SPOILED_LINKS
def test_a_signed_out_visitor_is_told_the_link_is_unusable(client, invitation, spoil, message):
    spoil(invitation)
    body = client.get(join_url(invitation)).content.decode()
    assert message in body
    assert "Brumes" not in body
    assert "vous invite" not in body
    assert reverse("signup") + "?next=" not in body


def test_a_signed_out_visitor_with_an_unknown_link(client):
    response = client.get(reverse("campaigns:join", args=["inconnu"]))
    assert response.status_code == 404
    assert "n&#x27;existe pas" in response.content.decode()


@SPOILED_LINKS
def test_an_unusable_link_hides_the_campaign(invitation, outsider, outsider_client, spoil, message):
    spoil(invitation)
    for response in (
        outsider_client.get(join_url(invitation)),
        outsider_client.post(join_url(invitation)),
    ):
        body = response.content.decode()
        assert response.status_code == 200
        assert message in body
        assert "Brumes" not in body
    assert not Membership.objects.filter(user=outsider).exists()


def test_an_unknown_link_is_not_found(outsider_client):
    response = outsider_client.get(reverse("campaigns:join", args=["inconnu"]))
    assert response.status_code == 404
    assert "n&#x27;existe pas" in response.content.decode()


def test_a_member_following_the_link_is_sent_to_the_campaign(campaign, invitation, player_client):
    response = player_client.post(join_url(invitation))
    body = response.content.decode()
    assert "Vous êtes déjà membre de cette campagne." in body
    assert url("dashboard", campaign.pk) in body
    invitation.refresh_from_db()
    assert invitation.uses == 0


def test_the_conteur_following_his_own_link(invitation, storyteller_client):
    body = storyteller_client.get(join_url(invitation)).content.decode()
    assert "ce lien est pour vos joueurs" in body


# --- arcs -----------------------------------------------------------------------------------


def test_create_edit_close_and_reopen_an_arc(campaign, storyteller_client, player_client):
    response = storyteller_client.post(
        url("arc_create", campaign.pk),
        {"title": "La crypte", "chapter": 2, "act": 1, "closes": "chapter", "length_unit": "weeks"},
    )
    arc = Arc.objects.get(title="La crypte")
    assert response.url == url("arc_detail", campaign.pk, arc.pk)
    storyteller_client.post(
        url("arc_edit", campaign.pk, arc.pk),
        {"title": "La crypte oubliée", "chapter": 2, "act": 1, "closes": "act",
         "length_unit": "months"},
    )  # fmt: skip
    arc.refresh_from_db()
    assert (arc.title, arc.closes, arc.length_unit) == ("La crypte oubliée", "act", "months")
    storyteller_client.post(url("arc_close", campaign.pk, arc.pk))
    body = player_client.get(url("arc_detail", campaign.pk, arc.pk)).content.decode()
    assert "Clos" in body and "clôt un acte" in body
    storyteller_client.post(url("arc_reopen", campaign.pk, arc.pk))
    arc.refresh_from_db()
    assert arc.is_open


def test_a_bad_arc_is_refused_with_a_message(campaign, storyteller_client):
    response = storyteller_client.post(
        url("arc_create", campaign.pk),
        {"title": "Zéro", "chapter": 0, "act": 1, "closes": "", "length_unit": "days"},
    )
    assert response.status_code == 200
    assert "supérieure ou égale à 1" in response.content.decode()
    assert not Arc.objects.exists()


def test_arc_list_and_its_empty_state(campaign, storyteller_client, player_client, make_arc,
                                      make_play_session):  # fmt: skip
    assert (
        "Ouvrir le premier arc"
        in storyteller_client.get(url("arc_list", campaign.pk)).content.decode()
    )
    assert (
        "le Conteur ouvrira le premier"
        in player_client.get(url("arc_list", campaign.pk)).content.decode()
    )
    arc = make_arc(campaign, title="Le marais")
    make_play_session(campaign, arc=arc)
    body = player_client.get(url("arc_list", campaign.pk)).content.decode()
    assert "Le marais" in body and "<td>1</td>" in body


def test_arcs_of_another_campaign_are_not_found(campaign, other_campaign, make_arc,
                                                storyteller_client):  # fmt: skip
    foreign = make_arc(other_campaign)
    assert storyteller_client.get(url("arc_detail", campaign.pk, foreign.pk)).status_code == 404
    assert storyteller_client.post(url("arc_close", campaign.pk, foreign.pk)).status_code == 404
    foreign.refresh_from_db()
    assert foreign.is_open


# --- play sessions --------------------------------------------------------------------------


def test_schedule_a_session_in_the_current_arc(campaign, arc, storyteller_client):
    form_page = storyteller_client.get(url("sessions:create", campaign.pk)).content.decode()
    assert f'<option value="{arc.pk}" selected>' in form_page
    response = storyteller_client.post(
        url("sessions:create", campaign.pk),
        {"title": "Le gué", "scheduled_at": "2030-03-14T20:30", "arc": arc.pk, "notes": "*Hâte*"},
    )
    play_session = PlaySession.objects.get(title="Le gué")
    assert response.url == url("sessions:detail", campaign.pk, play_session.pk)
    assert play_session.arc == arc
    assert (
        timezone.localtime(play_session.scheduled_at).strftime("%Y-%m-%d %H:%M")
        == "2030-03-14 20:30"
    )


def test_a_session_cannot_use_another_campaigns_arc(campaign, other_campaign, make_arc,
                                                    storyteller_client):  # fmt: skip
    foreign = make_arc(other_campaign)
    response = storyteller_client.post(
        url("sessions:create", campaign.pk),
        {"title": "Piège", "scheduled_at": "2030-03-14T20:30", "arc": foreign.pk},
    )
    assert response.status_code == 200
    assert "Sélectionnez un choix valide" in response.content.decode()
    assert not PlaySession.objects.exists()


def test_the_journal_is_rendered_as_markdown(campaign, play_session, player_client):
    body = player_client.get(url("sessions:detail", campaign.pk, play_session.pk)).content.decode()
    assert "<strong>Vael</strong>" in body


def test_the_journal_cannot_run_scripts(campaign, play_session, player_client):
    PlaySession.objects.filter(pk=play_session.pk).update(
        notes=(
            "Bonjour <script>alert('x')</script>\n\n"
            "[piège](javascript:alert(1)) <img src=x onerror=alert(2)>"
            ' <a href="https://example.org" onclick="alert(3)">carte</a>'
        )
    )
    body = player_client.get(url("sessions:detail", campaign.pk, play_session.pk)).content.decode()
    journal = body.split('id="journal"')[1]
    assert "<script>alert" not in journal
    assert "javascript:" not in journal
    assert "onerror" not in journal and "onclick" not in journal
    assert '<a href="https://example.org" rel="noopener noreferrer nofollow">carte</a>' in journal


def test_delete_a_session_after_confirming(campaign, play_session, storyteller_client):
    confirm = storyteller_client.get(url("sessions:delete", campaign.pk, play_session.pk))
    assert "Supprimer « Arrivée à Vael » ?" in confirm.content.decode()
    assert PlaySession.objects.exists()
    response = storyteller_client.post(url("sessions:delete", campaign.pk, play_session.pk))
    assert response.url == url("sessions:list", campaign.pk)
    assert not PlaySession.objects.exists()


def test_session_list_and_its_empty_state(
    campaign, storyteller_client, player_client, play_session
):
    body = player_client.get(url("sessions:list", campaign.pk)).content.decode()
    assert "Arrivée à Vael" in body and "Le phare éteint" in body
    PlaySession.objects.all().delete()
    body = storyteller_client.get(url("sessions:list", campaign.pk)).content.decode()
    assert "planifiez la première" in body


def test_an_id_too_large_for_the_database_is_not_found(campaign, storyteller_client):
    huge = "9" * 30
    assert storyteller_client.get(f"/campaigns/{huge}/").status_code == 404
    assert storyteller_client.get(f"/campaigns/{campaign.pk}/arcs/{huge}/").status_code == 404


def test_campaign_pages_have_no_inline_script(campaign, arc, play_session, invitation,
                                              storyteller_client):  # fmt: skip
    """A strict Content-Security-Policy allows no inline JavaScript: static files only."""
    import re

    inline_script = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
    inline_handler = re.compile(r"\s(on[a-z]+|hx-on[:\w-]*)\s*=", re.IGNORECASE)
    pages = [
        reverse("home"),
        url("create"),
        reverse("campaigns:join", args=[invitation.token]),
        *(
            url(name, campaign.pk)
            for name in ("dashboard", "settings", "members", "invitations", "arc_list",
                         "arc_create", "sessions:list", "sessions:create", "compendium")
        ),
        url("arc_detail", campaign.pk, arc.pk),
        url("sessions:detail", campaign.pk, play_session.pk),
    ]  # fmt: skip
    for page in pages:
        body = storyteller_client.get(page).content.decode()
        assert not inline_script.search(body), page
        assert not inline_handler.search(body), page


def test_a_player_is_told_in_french_why_an_action_is_refused(campaign, player_client):
    response = player_client.get(url("settings", campaign.pk))
    assert response.status_code == 403
    body = response.content.decode()
    assert "Seul le Conteur de la campagne peut faire cela." in body
    assert url("dashboard", campaign.pk) in body


def test_the_campaign_description_is_markdown_rendered_safely(campaign, player_client):
    """Issue 16 §7: « **d'essai** » shows bold, a script in it shows as nothing that runs."""
    campaign.description = "Une campagne **d'essai**.\n\n<script>alert(1)</script>"
    campaign.save()
    body = player_client.get(url("dashboard", campaign.pk)).content.decode()
    assert "<strong>d&#x27;essai</strong>" in body or "<strong>d'essai</strong>" in body
    assert "**" not in body and "<script>alert" not in body
    listed = player_client.get(reverse("home")).content.decode()
    assert "Une campagne d" in listed and "**" not in listed and "<strong>d" not in listed
