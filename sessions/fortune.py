"""Fortune and Fatalité spent at the table (§14): the Conteur's Fatalité, and a player's Fortune
with the Conteur's agreement (asked, then accepted or refused), each a line of the table log."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.policy import is_storyteller
from rules import states as rules_states
from rules.french import de
from sessions import morale, writes
from sessions.errors import rule_call, violation
from sessions.models import TableEvent, TableEventKind, Visibility
from sessions.rolls import IdempotencyKeyReused

FATE_SPEND_VISIBILITIES = (Visibility.PUBLIC, Visibility.STORYTELLER)


@transaction.atomic
def fate_spend(
    *,
    campaign: Campaign,
    by,
    points: int,
    reason: str,
    idempotency_key: str,
    visibility: str = Visibility.PUBLIC,
) -> TableEvent:
    """The Conteur spends Fatalité (§14: to worsen a situation, or maluses on a luck roll): the
    pool loses `points`, logged with the reason. More than the pool holds is refused and changes
    nothing; the same idempotency key from the Conteur returns the event already logged."""
    if not is_storyteller(campaign):
        raise PermissionDenied(_("Seul le Conteur dépense la Fatalité."))
    if visibility not in FATE_SPEND_VISIBILITIES:
        raise violation("visibility", _("Visibilité inconnue pour une dépense de Fatalité."))
    reason = reason.strip()
    if not reason:
        raise violation("reason", _("Dites en quelques mots à quoi sert la Fatalité."))
    pool = writes.lock_pool(campaign)
    existing = _keyed_event(campaign, by, "fate_spend_key", idempotency_key)
    if existing is not None:
        asked = {"fate_spent": points, "reason": reason, "visibility": visibility}
        return _replayed(existing, asked, action=_("une nouvelle dépense"))
    left = rule_call(lambda: rules_states.spend_capped(pool.fate, points))
    pool.fate = left
    pool.save(update_fields=["fate", "updated_at"])
    return _created(writes.log_event(
        campaign_id=campaign.pk,
        kind=TableEventKind.MORALE,
        summary=_("Le Conteur dépense %(points)s Fatalité (%(reason)s) : reste %(left)s.")
        % {"points": points, "reason": reason, "left": left},
        by=by,
        visibility=visibility,
        payload={"fate_spent": points, "fate": left, "reason": reason,
                 "fate_spend_key": idempotency_key},
    ))  # fmt: skip


def _keyed_event(campaign: Campaign, by, name: str, idempotency_key: str) -> TableEvent | None:
    """The event this user already logged with this idempotency key (under `name`), if any."""
    if not idempotency_key or len(idempotency_key) > 64:
        raise violation("idempotency_key", _("Clé d'idempotence manquante ou trop longue."))
    return TableEvent.objects.filter(
        campaign=campaign, actor=by, **{f"payload__{name}": idempotency_key}
    ).first()


def _replayed(existing: TableEvent, asked: dict, *, action: str) -> TableEvent:
    """The event a key already logged, for the same request again (`created` False: a replay,
    answered 200); the key with another request is refused (422) and changes nothing."""
    logged = {
        "visibility": existing.visibility,
        "character": existing.character_id,
        **existing.payload,
    }
    if any(logged.get(name) != value for name, value in asked.items()):
        raise IdempotencyKeyReused(action)
    existing.created = False
    return existing


def _created(event: TableEvent) -> TableEvent:
    event.created = True
    return event


@transaction.atomic
def fortune_request(
    *, campaign: Campaign, by, character_id: int, points: int, reason: str, idempotency_key: str
) -> TableEvent:
    """A player asks to spend Fortune points, several at once (§14: « avec l'accord du Conteur »):
    a pending line of the log the Conteur accepts or refuses. Nothing is spent yet; asking for
    more than the sheet holds is refused now."""
    writes.lock_pool(campaign)
    reason = reason.strip()
    existing = _keyed_event(campaign, by, "fortune_request_key", idempotency_key)
    if existing is not None:
        asked = {"character": character_id, "fortune_request": points, "reason": reason}
        return _replayed(existing, asked, action=_("une nouvelle demande"))
    character = writes.lock_character(campaign, character_id, "character")
    writes.require_controller(campaign, character, by)
    if not reason:
        raise violation("reason", _("Dites en quelques mots à quoi sert la Fortune."))
    rule_call(lambda: rules_states.spend_capped(character.fortune, points, "Fortune"))
    return _created(writes.log_event(
        campaign_id=campaign.pk,
        kind=TableEventKind.MORALE,
        summary=_("%(name)s demande à dépenser %(points)s Fortune (%(reason)s).")
        % {"name": character.name, "points": points, "reason": reason},
        by=by,
        character=character,
        payload={"fortune_request": points, "reason": reason,
                 "fortune_status": morale.FORTUNE_PENDING, "fortune_request_key": idempotency_key},
    ))  # fmt: skip


@transaction.atomic
def fortune_answer(*, campaign: Campaign, by, request_id: int, accept: bool) -> TableEvent:
    """The Conteur accepts (the points leave the sheet, through its versioned write) or refuses a
    pending Fortune request (§14); either is logged. A request already answered is refused."""
    if not is_storyteller(campaign):
        raise PermissionDenied(_("Seul le Conteur accepte ou refuse une dépense de Fortune."))
    writes.lock_pool(campaign)
    asked = (
        TableEvent.objects.select_for_update()
        .filter(pk=request_id, campaign=campaign, payload__fortune_status=morale.FORTUNE_PENDING)
        .first()
    )
    if asked is None:
        status = morale.FORTUNE_ACCEPTED if accept else morale.FORTUNE_REFUSED
        answered = TableEvent.objects.filter(
            campaign=campaign, payload__fortune_answer=request_id, payload__fortune_status=status
        ).first()
        if answered is not None:  # the same answer again (a retry): the one already logged
            answered.created = False
            return answered
        raise ValidationError(_("Cette demande de Fortune n'existe pas ou a déjà eu sa réponse."))
    character = writes.lock_character(campaign, asked.character_id, "request")
    points, reason = asked.payload["fortune_request"], asked.payload.get("reason", "")
    if accept:
        left = rule_call(lambda: rules_states.spend_capped(character.fortune, points, "Fortune"))
        writes.sheet_write(character, {"fortune": left}, by)
        summary = _(
            "Le Conteur accepte : %(name)s dépense %(points)s Fortune (%(reason)s) : reste %(left)s."
        ) % {"name": character.name, "points": points, "reason": reason, "left": left}
    else:
        summary = _(
            "Le Conteur refuse la dépense de %(points)s Fortune %(of_name)s (%(reason)s)."
        ) % {"points": points, "of_name": de(character.name), "reason": reason}
    status = morale.FORTUNE_ACCEPTED if accept else morale.FORTUNE_REFUSED
    asked.payload = {**asked.payload, "fortune_status": status}
    asked.save(update_fields=["payload"])
    return _created(
        writes.log_event(
            campaign_id=campaign.pk,
            kind=TableEventKind.MORALE,
            summary=summary,
            by=by,
            character=character,
            payload={
                "fortune_answer": asked.pk,
                "fortune_status": status,
                "fortune_spent": points if accept else 0,
            },
        )
    )
