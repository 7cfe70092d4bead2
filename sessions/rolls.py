"""A roll's price and record: what it costs the sheet and the Moral, and what the log keeps (§5).

These steps compute and refuse; `sessions.services.roll_create` locks, calls them in order,
rolls the check and writes the result in one transaction.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import asdict
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Subquery
from django.utils.translation import gettext, gettext_lazy

from campaigns.models import Arc, ArcStatus, Campaign
from campaigns.policy import ROW_ID_MAX, is_storyteller
from characters.models import Character, SpecialState
from characters.services import rule_error_to_validation_error
from rules import morale as rules_morale
from rules import reference
from rules import states as rules_states
from rules.check import RandomSource
from rules.errors import RuleError
from sessions import writes
from sessions.checks import PreparedCheck, RollRequest, characteristic_label, skill_label
from sessions.errors import rule_call, violation
from sessions.models import MoralePool, Roll, TableEvent, TableEventKind, Visibility

FORTUNE_FATE_MESSAGE = "Chaque personnage gagne 1 Fortune, le Conteur 1 Fatalité."


def open_arc_id() -> Subquery:
    """The id of the campaign's open arc (the newest if several), for the row of a campaign that
    it annotates: a roll is stored in it (`writes.lock_pool(campaign, open_arc_id=…)`)."""
    arcs = Arc.objects.filter(campaign_id=OuterRef("campaign_id"), status=ArcStatus.OPEN)
    return Subquery(arcs.order_by("-created_at", "-pk").values("pk")[:1])


class IdempotencyKeyReused(ValidationError):
    """The key was already used for another request: 422, as payment APIs answer."""

    http_status = 422

    def __init__(self, action: str = gettext_lazy("un nouveau jet")):
        super().__init__(
            {
                "idempotency_key": [
                    gettext(
                        "Cette clé d'idempotence a déjà servi pour une autre requête : "
                        "envoyez une nouvelle clé pour %(action)s."
                    )
                    % {"action": action}
                ]
            }
        )


def _asked(request: RollRequest) -> dict[str, Any]:
    """The request's fields, leaving out the combat-only ones at their defaults (so the digests
    of rolls stored before they existed stay comparable)."""
    asked = dict(vars(request))
    if asked.get("value_override") is None:
        asked.pop("value_override", None)
    if not asked.get("plain"):
        asked.pop("plain", None)
    if not asked.get("npc_agony"):
        asked.pop("npc_agony", None)
    return asked


def request_digest(
    *, request: RollRequest, character_id: int | None, visibility: str, play_session_id
) -> str:
    """A fingerprint of everything a roll was asked with (not the key itself)."""
    asked = {
        # Its fields are plain values and tuples of them: `vars` serializes as `asdict` would
        # (the digests of rolls stored before stay comparable) without its deep copy.
        "request": _asked(request),
        "character": character_id,
        "visibility": visibility,
        "play_session": play_session_id,
    }
    return hashlib.sha256(json.dumps(asked, sort_keys=True, default=str).encode()).hexdigest()


def key_used(*, by, key: str) -> Exists:
    """Whether this user already stored a roll with this idempotency key, read in the statement
    that locks the roller (after the table's lock, so a double submit sees the first roll)."""
    return Exists(Roll.objects.filter(rolled_by=by, idempotency_key=key))


def pool_for_roll(campaign: Campaign) -> MoralePool:
    """The table's lock, with the open arc a roll is stored in (made on the table's first use)."""
    return writes.lock_pool(campaign, open_arc_id=open_arc_id())


def roller_locked(campaign: Campaign, pk: int, *, by, key: str) -> Character | None:
    """The roller's sheet of this campaign, locked, with its skill rows and whether this user
    already stored a roll with this key (`key_used`); None if the campaign has no such sheet."""
    if not 0 < pk <= ROW_ID_MAX:
        return None
    return (
        Character.objects.select_for_update(of=("self",))
        .filter(pk=pk, campaign=campaign)
        .annotate(key_used=key_used(by=by, key=key))
        .prefetch_related("skills")
        .first()
    )


def roll_line(*, roll: Roll, request: RollRequest, by) -> TableEvent:
    """The stored roll's line in the table's log, not saved yet."""
    character = roll.character
    who = character.name if character is not None else (request.label or "PNJ")
    return writes.log_line(
        campaign_id=roll.campaign_id,
        kind=TableEventKind.ROLL,
        summary=roll_summary(roll, who),
        by=by,
        visibility=roll.visibility,
        character=character,
        roll=roll,
    )


def replay_or_roller(
    *,
    campaign: Campaign,
    by,
    request: RollRequest,
    character_id: int | None,
    idempotency_key: str,
    digest: str,
) -> tuple[Roll | None, Character | None]:
    """Under the table's lock: the roll this key already stored (`created` False), or else the
    roller's sheet locked, when the roll pays nothing from the Moral (the key is looked up in
    the same statement then; a roll paid from the Moral locks the whole group first, in
    `services._roll_and_pay`)."""
    roller = None
    if character_id is not None and not may_spend_morale(request):
        roller = roller_locked(campaign, character_id, by=by, key=idempotency_key)
    if roller is not None and not roller.key_used:
        return None, roller
    existing = roll_existing(campaign=campaign, by=by, key=idempotency_key, digest=digest)
    return existing, roller


def roll_existing(*, campaign: Campaign, by, key: str, digest: str) -> Roll | None:
    """The roll this user already stored with this idempotency key (`created` False), if any;
    the key sent again with another request is refused (IdempotencyKeyReused). One statement,
    with what the API's answer names (character, roller)."""
    roll = (
        Roll.objects.select_related("character", "rolled_by")
        .filter(rolled_by=by, idempotency_key=key)
        .first()
    )
    if roll is None:
        return None
    if roll.campaign_id != campaign.pk or (roll.request_digest and roll.request_digest != digest):
        raise IdempotencyKeyReused()
    roll.created = False
    return roll


def visibility_allowed(campaign: Campaign, visibility: str) -> str:
    """The visibility the roll is stored with: the Conteur's secret roll is hidden from everyone,
    and only the Conteur may hide one."""
    storyteller = is_storyteller(campaign)
    if visibility not in Visibility.values:
        raise violation("visibility", gettext("Visibilité inconnue."))
    if storyteller and visibility == Visibility.STORYTELLER:
        return Visibility.HIDDEN  # the Conteur's secret roll is hidden from everyone
    if not storyteller and visibility == Visibility.HIDDEN:
        raise violation(
            "visibility", gettext("Seul le Conteur peut cacher un jet ; choisissez « secret ».")
        )
    return visibility


def spends_morale(request: RollRequest) -> bool:
    """Whether the roll is paid with hope or despair (then the whole group is locked)."""
    return bool(request.hope_points or request.despair_points or request.fortune_fate)


def may_spend_morale(request: RollRequest) -> bool:
    """Whether the roll may touch the Moral: it spends some, or its declaration is refused (the
    refusal then comes after the key is looked up: a key reused for it is a 422 first)."""
    try:
        return spends_morale(request)
    except ValidationError:
        return True


def npc_roll_check(campaign: Campaign, request: RollRequest) -> None:
    """A roll without a character is the Conteur's, and has no Impact or Moral to spend."""
    if not is_storyteller(campaign):
        raise violation("character", gettext("Choisissez le personnage qui lance."))
    if spends_morale(request) or request.impact:
        raise violation(
            "character", gettext("Un jet sans personnage ne peut dépenser ni Impact ni Moral.")
        )


def roll_costs(
    character: Character | None, request: RollRequest
) -> tuple[dict[int, dict[str, Any]], str | None]:
    """The sheet changes the roll costs (Impact spent, Acharnement entered), by character id,
    and the special state the check is rolled in."""
    changes: dict[int, dict[str, Any]] = {}
    state = None
    if character is not None and request.impact:
        try:
            left = rules_states.pay_impact(character.impact_points, request.impact, character.name)
        except RuleError as error:
            raise rule_error_to_validation_error(error) from error
        changes.setdefault(character.pk, {})["impact_points"] = left
    if request.fury:
        state = rules_states.roll_state(None, fury=True)
        if state != rules_states.FURY:
            raise violation("fury", gettext("Impossible d'entrer en Acharnement."))
        changes.setdefault(character.pk, {})["special_state"] = SpecialState.FURY
    return changes, state


def morale_paid(
    before: rules_morale.Morale, key: str, request: RollRequest
) -> rules_morale.Transition:
    """Spend the roll's hope points, then its despair points, from their sources (§6)."""
    after = before
    spent: list[rules_morale.MoraleEvent] = []
    for _ in range(request.hope_points):
        after, events = rule_call(
            lambda a=after: rules_morale.spend_hope(a, key, request.hope_source)
        )
        spent += events
    for _ in range(request.despair_points):
        after, events = rule_call(
            lambda a=after: rules_morale.spend_despair(a, key, request.despair_source)
        )
        spent += events
    return after, spent


def fortune_for_all(members: list[Character], changes: dict[int, dict[str, Any]]) -> None:
    """Add to `changes` the 1 Fortune each character of the group gains (§14, capped)."""
    for member in members:
        fortune = changes.get(member.pk, {}).get("fortune", member.fortune)
        changes.setdefault(member.pk, {})["fortune"] = rules_states.gain_capped(
            fortune, reference.FORTUNE_MAX
        )


def roll_inputs(request: RollRequest, prepared: PreparedCheck) -> dict[str, Any]:
    """What the roll keeps of its declaration and of the Check it became, for its breakdown."""
    check = prepared.check
    return {
        **request.to_dict(),
        "characteristic_value": prepared.characteristic_value,
        "skill_level": prepared.skill_level,
        "substituted_by": prepared.substituted_by,
        "causes": [asdict(c) for c in prepared.causes],
        "check": {
            "skill": check.skill,
            "complexity": check.complexity,
            "characteristic": check.characteristic,
            "difficulty": check.difficulty,
            "expertise": check.expertise,
            "boon": check.boon,
            "bane": check.bane,
            "hope": check.hope,
            "agony": check.agony,
        },
    }


def roll_summary(roll: Roll, who: str) -> str:
    skills = " / ".join(skill_label(k) for k in roll.skills) or gettext("sans compétence")
    label = f" — {roll.label}" if roll.label else ""
    outcome = roll.breakdown.get("outcome_label", roll.outcome)
    zone = " · Zone !" if roll.zone else ""
    return (
        f"{who} : {characteristic_label(roll.characteristic)} + {skills}{label} → "
        f"{roll.total} contre {roll.target}, {outcome}{zone}"
    )


def seeded_rng(seed: int | None) -> RandomSource | None:
    """A reproducible source for tests and demos; None means the OS's (production)."""
    return random.Random(seed) if seed is not None else None
