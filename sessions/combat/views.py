"""The combat pages: the bestiary, the fight's management page and the tracker at the table.

Every view works without JavaScript (plain forms, redirects after a POST, a confirmation page
before a combatant is removed). At the table the tracker's buttons post with HTMX and get the
tracker back; everyone else's tracker refreshes on the `combat-changed` event the poll sends
when a combat line reaches the log.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns import services as campaign_services
from campaigns.policy import (
    campaign_get_for_member,
    campaign_get_for_storyteller,
    explains_refusal,
    is_storyteller,
)
from common.htmx import HtmxHttpRequest
from sessions.attack_profiles import profile_label
from sessions.combat import attacks as combat_attacks
from sessions.combat import fights as combat
from sessions.combat import grapples as combat_grapples
from sessions.combat import harm as combat_harm
from sessions.combat import regeneration as combat_regeneration
from sessions.combat import selectors as cs
from sessions.combat.forms import (
    AttackForm,
    BlockJoinForm,
    DefenceForm,
    EncounterOpenForm,
    EscapeForm,
    GrappleForm,
    PartyForm,
    QuickNpcForm,
    RegenerationForm,
    StatBlockForm,
    StatusForm,
    TurnForm,
    profiles_formset,
    profiles_of,
)
from sessions.combat.strikes import AttackRequest, DefenceRequest, Strike
from sessions.combat.tracker_actions import (
    BACK_TO,
    action_response,
    form_errors,
    service_refusal,
    tracker_action,
)
from sessions.injuries import open_injuries
from sessions.models import Combatant, PlaySession, StatBlock
from sessions.morale import player_characters
from sessions.table_access import table_login_required

# --- the tracker and the management page -----------------------------------------------------


@table_login_required
@require_GET
@vary_on_headers("HX-Request")
def combat_tracker(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    if not request.htmx:
        return redirect("sessions:table", pk=pk)
    return render(
        request, "sessions/combat_tracker.html", cs.tracker_context(campaign, request.user)
    )


@explains_refusal
@login_required
@require_GET
def combat_page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The Conteur's page of the fight: open one, add the party, copies of a stat block or a
    quick NPC, reveal, mark out of the fight, remove, end."""
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    context = cs.tracker_context(campaign, request.user)
    blocks = list(StatBlock.objects.filter(campaign=campaign))
    party = list(player_characters(campaign))
    context.update(
        open_form=EncounterOpenForm(),
        party_form=PartyForm(characters=party),
        block_form=BlockJoinForm(blocks=blocks),
        quick_form=QuickNpcForm(),
        blocks=blocks,
        party=party,
        statuses=StatusForm.base_fields["status"].choices,
        play_sessions=PlaySession.objects.filter(campaign=campaign)[:20],
    )
    return render(request, "sessions/combat_page.html", context)


@login_required
@require_POST
def encounter_open(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    form = EncounterOpenForm(request.POST)
    session_pk = request.POST.get("play_session") or None
    play_session = None
    if session_pk and str(session_pk).isdigit():
        play_session = PlaySession.objects.filter(campaign=campaign, pk=session_pk).first()
    error = form_errors(form) if not form.is_valid() else None
    if error is None:
        error = service_refusal(
            lambda: combat.encounter_open(
                campaign=campaign,
                by=request.user,
                name=form.cleaned_data["name"],
                play_session=play_session,
            )
        )
    return action_response(request, campaign, error)


@login_required
@require_POST
def combatants_party(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = PartyForm(request.POST, characters=player_characters(campaign))
    if not form.is_valid():
        return action_response(request, campaign, _("Cochez au moins un personnage."))
    error = service_refusal(
        lambda: combat.combatants_add(
            campaign=campaign,
            by=request.user,
            encounter_id=encounter.pk,
            joining=combat.party_joining(campaign, form.cleaned_data["characters"]),
        )
    )
    return action_response(request, campaign, error)


@login_required
@require_POST
def combatants_block(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = BlockJoinForm(request.POST, blocks=StatBlock.objects.filter(campaign=campaign))
    return tracker_action(
        request,
        campaign,
        form,
        lambda data: combat.combatants_add(
            campaign=campaign,
            by=request.user,
            encounter_id=encounter.pk,
            joining=combat.block_joining(
                campaign, data["stat_block"], data["count"], data["hidden"]
            ),
            idempotency_key=data["idempotency_key"],
        ),
    )


@login_required
@require_POST
def combatants_quick(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = QuickNpcForm(request.POST)
    return tracker_action(
        request,
        campaign,
        form,
        lambda data: combat.combatants_add(
            campaign=campaign,
            by=request.user,
            encounter_id=encounter.pk,
            joining=combat.quick_joining(
                data["name"], data["finesse"], data["combativeness"], data["hidden"]
            ),
            idempotency_key=data["idempotency_key"],
        ),
    )


@login_required
@require_POST
def initiative(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    error = service_refusal(
        lambda: combat.initiative_roll(
            campaign=campaign, by=request.user, encounter_id=encounter.pk
        )
    )
    return action_response(request, campaign, error)


def _turn_action(request: HtmxHttpRequest, pk: int, encounter_pk: int, service) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = TurnForm(request.POST)
    if not form.is_valid():
        return action_response(
            request, campaign, _("Rechargez la page : le tour affiché est inconnu.")
        )
    error = service_refusal(
        lambda: service(
            campaign=campaign,
            by=request.user,
            encounter_id=encounter.pk,
            turn=form.cleaned_data["turn"],
        )
    )
    return action_response(request, campaign, error)


@login_required
@require_POST
def turn_next(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    return _turn_action(request, pk, encounter_pk, combat.turn_next)


@login_required
@require_POST
def turn_delay(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    return _turn_action(request, pk, encounter_pk, combat.turn_delay)


@login_required
@require_http_methods(["GET", "POST"])
def encounter_end(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """A confirmation page (GET: ending a fight cannot be undone), then the fight ends."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    if request.method == "POST":
        error = service_refusal(
            lambda: combat.encounter_end(
                campaign=campaign, by=request.user, encounter_id=encounter.pk
            )
        )
        return action_response(request, campaign, error)
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    context = {
        "campaign": campaign,
        "is_storyteller": True,
        "encounter": encounter,
        "cancel_url": reverse("sessions:combat", args=[campaign.pk]),
    }
    return render(request, "sessions/combat_end.html", context)


@login_required
@require_POST
def combatant_reveal(
    request: HtmxHttpRequest, pk: int, encounter_pk: int, combatant_pk: int
) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    error = service_refusal(
        lambda: combat.combatant_reveal(
            campaign=campaign, by=request.user, encounter_id=encounter.pk, combatant_id=combatant_pk
        )
    )
    return action_response(request, campaign, error)


@login_required
@require_POST
def combatant_status(
    request: HtmxHttpRequest, pk: int, encounter_pk: int, combatant_pk: int
) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = StatusForm(request.POST)
    return tracker_action(
        request,
        campaign,
        form,
        lambda data: combat.combatant_set_status(
            campaign=campaign,
            by=request.user,
            encounter_id=encounter.pk,
            combatant_id=combatant_pk,
            status=data["status"],
        ),
    )


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def combatant_remove(
    request: HtmxHttpRequest, pk: int, encounter_pk: int, combatant_pk: int
) -> HttpResponse:
    """A confirmation page, then the combatant leaves the fight (removed before initiative)."""
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    combatant = get_object_or_404(Combatant, encounter=encounter, pk=combatant_pk)
    if request.method == "POST":
        error = service_refusal(
            lambda: combat.combatant_set_status(
                campaign=campaign,
                by=request.user,
                encounter_id=encounter.pk,
                combatant_id=combatant.pk,
                status="left",
            )
        )
        return action_response(request, campaign, error)
    back = request.GET.get("back", "combat")
    context = {
        "campaign": campaign,
        "is_storyteller": True,
        "combatant": combatant,
        "back": back if back in BACK_TO else "combat",
        "cancel_url": reverse(BACK_TO.get(back, "sessions:combat"), args=[campaign.pk]),
    }
    return render(request, "sessions/combat_remove.html", context)


# --- the bestiary ------------------------------------------------------------------------------


@login_required
@require_GET
def bestiary(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The campaign's stat blocks; players see only those the Conteur did not hide."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    blocks = list(cs.stat_blocks_for_user(campaign=campaign))
    for block in blocks:
        block.finesse = combat.block_finesse(block)
        block.defences = combat_harm.block_defences(block)
        block.attack_labels = [profile_label(p) for p in block.attacks]
    context = {"campaign": campaign, "is_storyteller": is_storyteller(campaign), "blocks": blocks}
    return render(request, "sessions/bestiary.html", context)


def _block_form_page(request, campaign, form, attacks, block=None) -> HttpResponse:
    # `stat_block`, not `block`: inside a template's {% block %}, `block` is the block itself.
    context = {
        "campaign": campaign,
        "is_storyteller": True,
        "form": form,
        "attacks": attacks,
        "stat_block": block,
    }
    return render(request, "sessions/bestiary_form.html", context)


def _block_saved(form, attacks) -> StatBlock | None:
    """The stat block with its attack profiles, saved if both parts are valid."""
    if not form.is_valid() or (attacks.is_bound and not attacks.is_valid()):
        return None
    block = form.save(commit=False)
    block.attacks = profiles_of(attacks, block)
    return campaign_services.entry_save(entry=block)


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def stat_block_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    form = StatBlockForm(request.POST or None, instance=StatBlock(campaign=campaign))
    attacks = profiles_formset(request.POST or None)
    if request.method == "POST" and (block := _block_saved(form, attacks)) is not None:
        messages.success(request, _("Profil « %(name)s » ajouté au bestiaire.") % {"name": block})
        return redirect("sessions:bestiary", pk=campaign.pk)
    return _block_form_page(request, campaign, form, attacks)


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def stat_block_edit(request: HtmxHttpRequest, pk: int, block_pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    block = get_object_or_404(StatBlock, campaign=campaign, pk=block_pk)
    form = StatBlockForm(request.POST or None, instance=block)
    attacks = profiles_formset(request.POST or None, block)
    if request.method == "POST" and _block_saved(form, attacks) is not None:
        messages.success(request, _("Profil enregistré."))
        return redirect("sessions:bestiary", pk=campaign.pk)
    block.refresh_from_db()  # the title names the block as saved, not as typed
    return _block_form_page(request, campaign, form, attacks, block)


@explains_refusal
@login_required
@require_http_methods(["GET", "POST"])
def stat_block_delete(request: HtmxHttpRequest, pk: int, block_pk: int) -> HttpResponse:
    campaign = campaign_get_for_storyteller(user=request.user, pk=pk)
    block = get_object_or_404(StatBlock, campaign=campaign, pk=block_pk)
    if request.method == "POST":
        campaign_services.entry_delete(entry=block)
        messages.success(request, _("Profil « %(name)s » supprimé.") % {"name": block})
        return redirect("sessions:bestiary", pk=campaign.pk)
    return render(
        request,
        "campaigns/confirm_delete.html",
        {
            "campaign": campaign,
            "is_storyteller": True,
            "object": block,
            "cancel_url": reverse("sessions:bestiary", args=[campaign.pk]),
        },
    )


# --- attacks and defences (§8, §13) ------------------------------------------------------------


@login_required
@require_POST
def attack(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """The combatant acting now attacks (its player, or the Conteur); the target answers next."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = AttackForm(
        request.POST, targets=encounter.combatants.all(), injuries=_fight_injuries(encounter)
    )
    return tracker_action(
        request,
        campaign,
        form,
        lambda data: combat_attacks.attack_declare(
            campaign=campaign,
            by=request.user,
            encounter_id=encounter.pk,
            turn=data["turn"],
            request=AttackRequest(**form.strike()),
            idempotency_key=data["idempotency_key"],
            profile=data["profile"],
        ),
    )


def _fight_injuries(encounter) -> list:
    """The open injuries of the fight's characters: those a combat roll may declare (the
    service keeps only the roller's, §8)."""
    ids = [c.character_id for c in encounter.combatants.all() if c.character_id]
    return open_injuries(ids) if ids else []


@login_required
@require_POST
def defend(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """The target's player (the Conteur for an NPC) answers the attack waiting for it."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = DefenceForm(request.POST, injuries=_fight_injuries(encounter))
    if not form.is_valid():
        return action_response(request, campaign, form_errors(form))
    data = form.cleaned_data
    reply = None
    if data["defence"] == "reactive":
        reply = Strike(
            characteristic=data["reply_characteristic"] or "strength",
            skills=(data["reply_skill"],) if data["reply_skill"] else (),
            damage=data["reply_damage"] or 0,
            gauge=(encounter.pending_attack or {}).get("gauge", "vitality"),
            characteristic_value=data["reply_value"],
            skill_level=data["skill_level"],
            **form.spends(),
        )
    error = service_refusal(
        lambda: combat_attacks.attack_defend(
            campaign=campaign,
            by=request.user,
            encounter_id=encounter.pk,
            attack_id=data["attack"],
            request=DefenceRequest(
                defence=data["defence"],
                complexity=data["complexity"] or 0,
                skill_level=data["skill_level"],
                critical=data["critical"] or "table",
                reply=reply,
                **form.spends(),
            ),
        )
    )
    return action_response(request, campaign, error)


@login_required
@require_POST
def regeneration(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """The acting combatant forces a regeneration; its action ends."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = RegenerationForm(request.POST)
    return tracker_action(
        request,
        campaign,
        form,
        lambda data: combat_regeneration.regeneration_force(
            campaign=campaign, by=request.user, encounter_id=encounter.pk, **data
        ),
    )


# --- grapples (§13) ----------------------------------------------------------------------------


@login_required
@require_POST
def grapple(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """The combatant acting now tries a grapple (an attack at bare hands); the target answers."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = GrappleForm(request.POST, targets=encounter.combatants.all(), prefix="grapple")
    return tracker_action(
        request,
        campaign,
        form,
        lambda data: combat_attacks.attack_declare(
            campaign=campaign,
            by=request.user,
            encounter_id=encounter.pk,
            turn=data["turn"],
            request=AttackRequest(**form.strike()),
            idempotency_key=data["idempotency_key"],
        ),
    )


@login_required
@require_POST
def escape(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """The held combatant acting now tries to free itself; its action ends."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = EscapeForm(request.POST)
    return tracker_action(
        request,
        campaign,
        form,
        lambda data: combat_grapples.grapple_escape(
            campaign=campaign, by=request.user, encounter_id=encounter.pk, **data
        ),
    )


@login_required
@require_POST
def grapple_release(
    request: HtmxHttpRequest, pk: int, encounter_pk: int, combatant_pk: int
) -> HttpResponse:
    """The holder lets go of the combatant it holds (its player, or the Conteur)."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    error = service_refusal(
        lambda: combat_grapples.grapple_release(
            campaign=campaign, by=request.user, encounter_id=encounter.pk, combatant_id=combatant_pk
        )
    )
    return action_response(request, campaign, error)


@login_required
@require_POST
def grapple_stand_up(
    request: HtmxHttpRequest, pk: int, encounter_pk: int, combatant_pk: int
) -> HttpResponse:
    """A combatant à terre gets up (on its own action; the Conteur whenever)."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    error = service_refusal(
        lambda: combat_grapples.grapple_stand_up(
            campaign=campaign, by=request.user, encounter_id=encounter.pk, combatant_id=combatant_pk
        )
    )
    return action_response(request, campaign, error)
