"""At the table, the writes: rolls, Moral moves, consequences and healed injuries (RULES.md §5–§8,
§14).

Every write here is a keyword-only `@transaction.atomic` service (`roll_create` opens its
transaction itself, to answer a duplicate once it is rolled back). Each one locks the campaign's
`MoralePool` row first of all (`select_for_update`): that one lock serialises every change of
the table (payments, Moral moves, consequences) and keeps the log's event ids in commit order,
so a poller reading `?after=<id>` can never skip an event committed late. Sheets are then locked and written through
`characters.services.character_update` (version bump and history, as every sheet edit).

The steps these services call compute and refuse without writing: `sessions.checks` (the check
and its sheet dice), `sessions.rolls` (a roll's price), `sessions.morale` (the Moral's moves) and
`sessions.consequences`. Every rule comes from `rules/`; nothing here re-implements one.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns import services as campaign_services
from campaigns.models import Campaign
from campaigns.policy import is_storyteller
from characters.models import Character, SpecialState
from rules import experience as rules_xp
from rules import morale as rules_morale
from rules import reference
from rules import states as rules_states
from rules.check import CRITICAL_FAILURE, RandomSource, roll_check
from rules.french import de
from sessions import consequences, morale, rolls, webhook_news, writes
from sessions.checks import PreparedCheck, RollRequest, check_prepare
from sessions.errors import rule_call, violation
from sessions.injuries import injury_effect, roller_injuries
from sessions.models import (
    Injury,
    MoralePool,
    PlaySession,
    Roll,
    TableEvent,
    TableEventKind,
    Visibility,
)

# --- rolls ------------------------------------------------------------------------------------


def roll_create(
    *,
    campaign: Campaign,
    by,
    request: RollRequest,
    character_id: int | None,
    idempotency_key: str,
    visibility: str = Visibility.PUBLIC,
    play_session: PlaySession | None = None,
    rng: RandomSource | None = None,
) -> Roll:
    """Roll a check on the server and store it with its breakdown, paying for it atomically.

    Impact points (boon dice), hope and despair are deducted in the same transaction: a roll that
    cannot be paid for raises ValidationError and changes nothing. The same idempotency key from
    the same user returns the roll already stored (`roll.created` is False then).
    `campaign.membership` must be the caller's (from `campaigns.policy`). The roll comes back as
    stored, with its log line as `log_event`: nothing needs reading again to answer.

    One transaction: the key is looked up under the table's lock, so a double submit waits for
    the first and finds its roll. A duplicate the lookup cannot see (the key sent at once to two
    campaigns) fails on the unique constraint; the whole transaction is then rolled back,
    nothing paid, and the roll stored first answers (or 422)."""
    if not idempotency_key or len(idempotency_key) > 64:
        raise violation("idempotency_key", _("Clé d'idempotence manquante ou trop longue."))
    digest = rolls.request_digest(
        request=request,
        character_id=character_id,
        visibility=visibility,
        play_session_id=play_session.pk if play_session else None,
    )
    asked = {
        "campaign": campaign,
        "by": by,
        "request": request,
        "character_id": character_id,
        "idempotency_key": idempotency_key,
        "digest": digest,
        "visibility": visibility,
        "play_session": play_session,
        "rng": rng,
    }
    try:
        with transaction.atomic():
            roll = _roll_locked(**asked)
    except IntegrityError:
        # The key's unique constraint: the same key sent at once to two campaigns (their
        # locks differ). All was rolled back; the first roll answers, or a 422.
        existing = rolls.roll_existing(campaign=campaign, by=by, key=idempotency_key, digest=digest)
        if existing is None:
            raise
        return existing
    return roll


def _roll_locked(
    *,
    campaign: Campaign,
    by,
    request: RollRequest,
    character_id: int | None,
    idempotency_key: str,
    digest: str,
    visibility: str,
    play_session: PlaySession | None,
    rng: RandomSource | None,
) -> Roll:
    """The table's lock first, then the roll already stored under this key or the roller
    locked, then the price."""
    pool = rolls.pool_for_roll(campaign)
    existing, roller = rolls.replay_or_roller(
        campaign=campaign,
        by=by,
        request=request,
        character_id=character_id,
        idempotency_key=idempotency_key,
        digest=digest,
    )
    if existing is not None:
        return existing
    roll = _roll_and_pay(
        campaign=campaign,
        pool=pool,
        roller=roller,
        by=by,
        request=request,
        character_id=character_id,
        idempotency_key=idempotency_key,
        digest=digest,
        visibility=rolls.visibility_allowed(campaign, visibility),
        play_session=play_session,
        rng=rng,
    )
    roll.created = True
    return roll


def _roll_and_pay(
    *,
    campaign: Campaign,
    pool: MoralePool,
    roller: Character | None,
    by,
    request: RollRequest,
    character_id: int | None,
    idempotency_key: str,
    digest: str,
    visibility: str,
    play_session: PlaySession | None,
    rng: RandomSource | None,
) -> Roll:
    """Lock the roller (unless already `roller`), prepare the check, pay for it, roll it, store
    it and log it."""
    members: list[Character] = []
    if character_id is None:
        rolls.npc_roll_check(campaign, request)
        character = None
    else:
        if rolls.spends_morale(request):
            members = writes.lock_members(campaign)
        character = writes.lock_roller(campaign, by, character_id, members, roller)
    changes, state = rolls.roll_costs(character, request)
    injuries = roller_injuries(character, request.injuries)
    prepared = check_prepare(request=request, character=character, state=state, injuries=injuries)
    morale_events = _roll_pay(
        pool=pool, members=members, character=character, request=request, changes=changes, by=by
    )
    roll = _roll_made(
        campaign=campaign,
        play_session=play_session,
        character=character,
        by=by,
        request=request,
        prepared=prepared,
        visibility=visibility,
        idempotency_key=idempotency_key,
        digest=digest,
        rng=rng,
    )
    roll.arc_id = pool.open_arc_id
    roll.log_event = _roll_log(
        roll=roll, request=request, by=by, pool=pool, morale_events=morale_events
    )
    return roll


def _roll_pay(
    *,
    pool: MoralePool,
    members: list[Character],
    character: Character | None,
    request: RollRequest,
    changes: dict[int, dict[str, Any]],
    by,
) -> list[rules_morale.MoraleEvent]:
    """Write what the roll costs: the sheet's `changes` and, when it spends the Moral, the
    group's points (and Fortune and Fatalité). Returns the Moral's events to log."""
    if not rolls.spends_morale(request):
        if character is not None and changes:
            writes.sheet_write(character, changes[character.pk], by)
        return []
    before = morale.morale_of(pool, members)
    key = morale.member_keys(members).get(character.pk)
    if key is None:
        raise violation("hope_source", _("Seuls les personnages des joueurs utilisent le Moral."))
    after, events = rolls.morale_paid(before, key, request)
    if request.fortune_fate:
        rolls.fortune_for_all(members, changes)
        pool.fate = rules_states.gain_capped(pool.fate, reference.FATE_MAX)
        pool.save(update_fields=["fate", "updated_at"])
        events.append(rules_morale.MoraleEvent("fortune_fate", rolls.FORTUNE_FATE_MESSAGE))
    writes.morale_write(pool=pool, after=after, characters=members, by=by, extra=changes)
    return events


def _roll_made(
    *,
    campaign: Campaign,
    play_session: PlaySession | None,
    character: Character | None,
    by,
    request: RollRequest,
    prepared: PreparedCheck,
    visibility: str,
    idempotency_key: str,
    digest: str,
    rng: RandomSource | None,
) -> Roll:
    """Roll the prepared check with the rules engine: the roll with its breakdown, not saved
    yet; its arc is the campaign's open one, read with the table's lock (`rolls.open_arc_id`)."""
    breakdown = roll_check(prepared.check, rng)
    return Roll(
        campaign=campaign,
        play_session=play_session,
        character=character,
        label=request.label[:120],
        rolled_by=by,
        visibility=visibility,
        characteristic=request.characteristic,
        skills=list(request.skills),
        inputs=rolls.roll_inputs(request, prepared),
        breakdown=breakdown.to_dict(),
        outcome=breakdown.outcome,
        total=breakdown.total,
        target=breakdown.target,
        margin=breakdown.margin,
        zone=breakdown.zone,
        idempotency_key=idempotency_key,
        request_digest=digest,
    )


def _roll_log(
    *,
    roll: Roll,
    request: RollRequest,
    by,
    pool: MoralePool,
    morale_events: list[rules_morale.MoraleEvent],
) -> TableEvent:
    """Store the roll and its log line, then log what it spent of the Moral (if anything).
    Returns the roll's line."""
    character = roll.character
    roll.save()
    event = rolls.roll_line(roll=roll, request=request, by=by)
    event.save()
    if morale_events:
        writes.log_morale(
            campaign_id=roll.campaign_id,
            by=by,
            character=character,
            pool=pool,
            move="roll",
            events=morale_events,
            summary=" ".join(e.message for e in morale_events),
        )
    return event


# --- the Moral --------------------------------------------------------------------------------


@transaction.atomic
def morale_change(
    *,
    campaign: Campaign,
    by,
    action: str,
    character_id: int | None = None,
    source: str = morale.GROUP,
    taker_id: int | None = None,
    agreeing: Collection[int] = (),
    state: str = "",
    effect: str = "",
    rng: RandomSource | None = None,
) -> morale.MoraleChange:
    """Apply one Moral move (§6, §7) with the rules engine, under the campaign's Moral lock.

    Gains, exploits and the end of a state are the Conteur's; a player spends and enters states
    for its own character. Refused moves raise ValidationError (or PermissionDenied) and change
    nothing; accepted ones are logged with the move, so the log replays the Moral exactly."""
    if action not in morale.MORALE_ACTIONS:
        raise violation("action", _("Action de Moral inconnue."))
    if action in morale.STORYTELLER_ACTIONS and not is_storyteller(campaign):
        raise PermissionDenied(_("Seul le Conteur peut faire cela."))
    pool = writes.lock_pool(campaign)
    members = writes.lock_members(campaign)
    character = None
    if character_id is not None or action not in morale.GROUP_ACTIONS:
        character = morale.member_character(members, character_id, "character")
        writes.require_controller(campaign, character, by)
    done = morale.morale_move(
        action=action,
        before=morale.morale_of(pool, members),
        members=members,
        character=character,
        source=source,
        taker_id=taker_id,
        agreeing=agreeing,
        state=state,
        effect=effect,
        rng=rng,
    )
    writes.morale_write(pool=pool, after=done.after, characters=members, by=by, extra=done.extra)
    event = writes.log_morale(
        campaign_id=campaign.pk,
        by=by,
        character=character,
        pool=pool,
        move=done.move,
        events=done.events,
        summary=" ".join(e.message for e in done.events) or morale.MORALE_ACTIONS[action],
    )
    return morale.MoraleChange(
        event=event, state=done.after, exploit=done.exploit, fragility=done.fragility
    )


def table_lock(*, campaign_id: int) -> None:
    """Take the table's one lock (the campaign's Moral row) for a write made outside the table
    that will spend Moral points: taken before any sheet, in the order the table's writes take
    their locks."""
    writes.lock_pool(campaign_id)


@transaction.atomic
def morale_hope_spend_for_xp(*, campaign_id: int, character_id: int, by, label: str) -> TableEvent:
    """Spend the hope point that pays for spending XP now (§10): the character's own hope
    (Reading, `rules.experience.spend_hope_for_xp`), through the Moral's rules, and logged in the
    table's log like every Moral move. Refused (ValidationError) without a personal hope point
    or for a character outside the group."""
    pool = writes.lock_pool(campaign_id)
    members = writes.lock_members(campaign_id)
    character = morale.member_character(members, character_id, "mode")
    key = morale.member_keys(members)[character.pk]
    before = morale.morale_of(pool, members)
    after, events = rule_call(lambda: rules_xp.spend_hope_for_xp(before, key))
    writes.morale_write(pool=pool, after=after, characters=members, by=by)
    return writes.log_morale(
        campaign_id=campaign_id,
        by=by,
        character=character,
        pool=pool,
        move={
            "action": morale.SPEND_HOPE,
            "character": key,
            "source": morale.PERSONAL,
            "taker": None,
            "for": "xp",
        },
        events=events,
        summary=" ".join(e.message for e in events)
        + _(" Expérience dépensée : %(label)s.") % {"label": label},
    )


# --- consequences of a roll and healed injuries (§5, §8, §14) ---------------------------------


@transaction.atomic
def consequence_apply(
    *,
    campaign: Campaign,
    by,
    roll_id: int,
    kind: str,
    victim_id: int | None = None,
    mode: str = consequences.TABLE,
    face: int | None = None,
    rng: RandomSource | None = None,
) -> TableEvent:
    """The Conteur applies a roll's consequence once: a critical suffered (Aggravation, then
    Résilience or the Aggravation table, §8), Fortune for a critical success (§14), Fatalité for a
    critical failure (§14) or the Zone (§7). Returns the logged event."""
    if not is_storyteller(campaign):
        raise PermissionDenied(_("Seul le Conteur applique les conséquences d'un jet."))
    pool = writes.lock_pool(campaign)
    roll = _lock_roll_awaiting(campaign, roll_id, kind)
    details: dict[str, Any] = {}
    if kind == consequences.CRITICAL:
        character, summary, details = _critical_apply(
            campaign=campaign, roll=roll, victim_id=victim_id, mode=mode, face=face, rng=rng, by=by
        )
    else:
        character = writes.lock_character(campaign, roll.character_id, "roll")
        summary = _fortune_fate_or_zone_apply(
            kind, character=character, pool=pool, roll=roll, by=by
        )
    roll.consequences = [*roll.consequences, kind]
    roll.save(update_fields=["consequences"])
    return writes.log_event(
        campaign_id=campaign.pk,
        kind=TableEventKind.CONSEQUENCE,
        summary=summary,
        by=by,
        visibility=roll.visibility,
        character=character,
        roll=roll,
        payload={"roll": roll.pk, "kind": kind, **details},
    )


def _lock_roll_awaiting(campaign: Campaign, roll_id: int, kind: str) -> Roll:
    """Lock the campaign's roll, refusing a consequence it does not allow or already had."""
    roll = Roll.objects.select_for_update().filter(pk=roll_id, campaign=campaign).first()
    if roll is None:
        raise violation("roll", _("Ce jet n'existe pas dans la campagne."))
    if kind not in consequences.CONSEQUENCES:
        raise violation("kind", _("Conséquence inconnue."))
    if kind not in consequences.consequences_available(roll):
        raise violation("kind", _("Cette conséquence ne s'applique pas (ou plus) à ce jet."))
    return roll


def _critical_apply(
    *,
    campaign: Campaign,
    roll: Roll,
    victim_id: int | None,
    mode: str,
    face: int | None,
    rng: RandomSource | None,
    by,
) -> tuple[Character, str, dict[str, Any]]:
    """The victim (by default, who failed critically) suffers the critical: its sheet written,
    a lasting effect recorded as an injury. Returns the victim, the summary and the details."""
    victim_id = victim_id or (roll.character_id if roll.outcome == CRITICAL_FAILURE else None)
    if victim_id is None:
        raise violation("victim", _("Choisissez le personnage qui subit le critique."))
    character = writes.lock_character(campaign, victim_id, "victim")
    critical = consequences.critical_suffered(character, mode, face, rng)
    if critical.injury is not None:
        injury = Injury.objects.create(
            campaign_id=roll.campaign_id,
            character=character,
            row=rules_states.aggravation_row(character.fragility),
            effect=critical.injury.key,
            roll=roll,
        )
        critical.details["injury"] = injury.pk
    writes.sheet_write(character, critical.changes, by)
    return character, critical.summary, critical.details


def _fortune_fate_or_zone_apply(
    kind: str, *, character: Character, pool: MoralePool, roll: Roll, by
) -> str:
    """The roller gains 1 Fortune, the Conteur 1 Fatalité, or the roller enters the Zone.
    Returns the log's summary."""
    if kind == consequences.FORTUNE:
        fortune = rules_states.gain_capped(character.fortune, reference.FORTUNE_MAX)
        writes.sheet_write(character, {"fortune": fortune}, by)
        return _("%(name)s gagne 1 Fortune (réussite critique) : %(fortune)s.") % {
            "name": character.name,
            "fortune": fortune,
        }
    if kind == consequences.FATE:
        pool.fate = rules_states.gain_capped(pool.fate, reference.FATE_MAX)
        pool.save(update_fields=["fate", "updated_at"])
        return _("Le Conteur gagne 1 Fatalité (échec critique %(of_name)s) : %(fate)s.") % {
            "of_name": de(character.name),
            "fate": pool.fate,
        }
    if not rules_states.may_enter(rules_states.ZONE, zone_roll=roll.zone):
        raise violation("kind", _("Ce jet n'est pas une Zone."))
    writes.sheet_write(character, {"special_state": SpecialState.ZONE}, by)
    return _("%(name)s entre dans la Zone.") % {"name": character.name}


@transaction.atomic
def injury_heal(*, campaign: Campaign, by, injury_id: int) -> TableEvent:
    """The Conteur marks an injury healed (§8): its dice stop; a stomach wound releases the
    Agonie it held. Logged."""
    if not is_storyteller(campaign):
        raise PermissionDenied(_("Seul le Conteur déclare une blessure guérie."))
    writes.lock_pool(campaign)
    injury = (
        Injury.objects.select_for_update()
        .filter(pk=injury_id, campaign=campaign, healed_at__isnull=True)
        .first()
    )
    if injury is None:
        raise violation("injury", _("Cette blessure n'existe pas ou est déjà guérie."))
    character = writes.lock_character(campaign, injury.character_id, "injury")
    injury.healed_at = timezone.now()
    injury.save(update_fields=["healed_at"])
    effect = injury_effect(injury)
    if effect is not None and effect.agony_locked_until_healed:
        still_held = Injury.objects.filter(
            character=character, healed_at__isnull=True, effect=injury.effect
        ).exists()
        if not still_held:
            writes.sheet_write(character, {"agony_locked": False}, by)
    label = effect.label if effect else injury.effect
    return writes.log_event(
        campaign_id=campaign.pk,
        kind=TableEventKind.CONSEQUENCE,
        summary=_("%(name)s : blessure guérie (%(label)s).")
        % {"name": character.name, "label": label},
        by=by,
        character=character,
        payload={"injury": injury.pk, "healed": True},
    )


# --- play sessions -----------------------------------------------------------------------------


@transaction.atomic
def play_session_save(*, play_session: PlaySession) -> PlaySession:
    """Validate and save a play session (`campaigns.services.entry_save`); a journal saved with
    a new text is posted to the campaign's webhook once committed."""
    previous = (
        PlaySession.objects.filter(pk=play_session.pk).values_list("notes", flat=True).first()
        if play_session.pk is not None
        else None
    )
    campaign_services.entry_save(entry=play_session)
    webhook_news.journal_post(play_session, previous=previous or "")
    return play_session
