"""A roll's price and record: what it costs the sheet and the Moral, and what the log keeps (§5).

These steps compute and refuse; `sessions.services.roll_create` locks, calls them in order,
rolls the check and writes the result in one transaction.
"""

from __future__ import annotations

import hashlib
import json
import random
from contextlib import nullcontext
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Subquery

from campaigns.models import Arc, ArcStatus, Campaign
from campaigns.policy import ROW_ID_MAX, is_storyteller
from characters.models import Character, SpecialState
from characters.selectors import skills_aggregate, with_skills_from
from characters.services import rule_error_to_validation_error
from common.precompiled import Precompiled, insert_pair, insert_pair_locked
from rules import morale as rules_morale
from rules import reference
from rules import states as rules_states
from rules.check import RandomSource
from rules.errors import RuleError
from sessions import roller_cache, writes
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

    def __init__(self):
        super().__init__(
            {
                "idempotency_key": [
                    "Cette clé d'idempotence a déjà servi pour une autre requête : "
                    "envoyez une nouvelle clé pour un nouveau jet."
                ]
            }
        )


def request_digest(
    *, request: RollRequest, character_id: int | None, visibility: str, play_session_id
) -> str:
    """A fingerprint of everything a roll was asked with (not the key itself)."""
    asked = {
        # Its fields are plain values and tuples of them: `vars` serializes as `asdict` would
        # (the digests of rolls stored before stay comparable) without its deep copy.
        "request": vars(request),
        "character": character_id,
        "visibility": visibility,
        "play_session": play_session_id,
    }
    return hashlib.sha256(json.dumps(asked, sort_keys=True, default=str).encode()).hexdigest()


def key_used(*, by, key: str) -> Exists:
    """Whether this user already stored a roll with this idempotency key, read in the statement
    that locks the roller (after the table's lock, so a double submit sees the first roll)."""
    return Exists(Roll.objects.filter(rolled_by=by, idempotency_key=key))


# A roll's two locking reads, compiled once (common/precompiled.py): the table's busiest path.
_KEY_MARKER = "\x00idempotency-key"
_POOL_FOR_ROLL = Precompiled(
    lambda campaign_id: (
        MoralePool.objects.select_for_update()
        .filter(campaign_id=campaign_id)
        .annotate(open_arc_id=open_arc_id())
        .order_by("pk")[:1]
    ),
    -1,
)


def _roller(rows, campaign_id, pk, by, key):
    return (
        rows.filter(pk=pk, campaign_id=campaign_id)
        .annotate(key_used=key_used(by=by, key=key), skill_rows=skills_aggregate())
        .order_by("pk")[:1]
    )


_ROLLER_MARKERS = (-1, -2, -3, _KEY_MARKER)
_ROLLER = Precompiled(
    lambda *markers: _roller(Character.objects.select_for_update(of=("self",)), *markers),
    *_ROLLER_MARKERS,
)
_ROLLER_UNLOCKED = Precompiled(
    lambda *markers: _roller(Character.objects, *markers), *_ROLLER_MARKERS
)
_ROLLER_TO_KEEP = Precompiled(  # its key is not read: the entry serves every roll
    lambda campaign_id, pk: (
        Character.objects.filter(pk=pk, campaign_id=campaign_id)
        .annotate(skill_rows=skills_aggregate())
        .order_by("pk")[:1]
    ),
    -1,
    -2,
)


_ARC = {"arc_id": "open_arc_id"}  # a roll stored by `roll_stored` takes the open arc


def pool_locked(campaign: Campaign) -> MoralePool | None:
    """`writes.lock_pool(campaign, open_arc_id=open_arc_id())` when the Moral row exists (None
    before the table's first use: the caller creates it)."""
    found = _POOL_FOR_ROLL.objects(campaign.pk)
    return found[0] if found else None


def pool_for_roll(campaign: Campaign) -> MoralePool:
    """The table's lock, with the open arc a roll is stored in (made on the table's first use)."""
    return pool_locked(campaign) or writes.lock_pool(campaign, open_arc_id=open_arc_id())


def roller_exists(campaign: Campaign, pk: int) -> bool:
    return Character.objects.filter(pk=pk, campaign=campaign).exists()


def roll_line(*, roll: Roll, request: RollRequest, by) -> TableEvent:
    """The roll's line in the table's log, not saved yet."""
    character = roll.character
    who = character.name if character is not None else (request.label or "PNJ")
    return writes.log_line(
        campaign_id=roll.campaign_id,
        kind=TableEventKind.ROLL,
        summary=roll_summary(roll, who),
        by=by,
        visibility=roll.visibility,
        character=character,
    )


def roll_stored(campaign: Campaign, roll: Roll, line: TableEvent) -> None:
    """Store a roll that pays nothing and its log line under the table's lock, in the campaign's
    open arc. On PostgreSQL one statement takes the lock, reads the arc and writes both rows
    (`precompiled.insert_pair_locked`): outside a transaction it is its own, the lock held only
    while it runs. Elsewhere, a transaction: the lock, then both rows."""
    if connection.vendor != "postgresql":
        with transaction.atomic():
            roll.arc_id = pool_for_roll(campaign).open_arc_id
            insert_pair(roll, line, "roll")
        return
    if not _stored_under_lock(campaign, roll, line):
        writes.pool_made(campaign.pk)  # the table's first use: no Moral row to lock yet
        if not _stored_under_lock(campaign, roll, line):
            raise RuntimeError("The table's Moral row could not be made.")


def _stored_under_lock(campaign: Campaign, roll: Roll, line: TableEvent) -> bool:
    # Inside a transaction (a combat's, a test's), a savepoint: a refused key leaves it usable.
    with transaction.atomic() if connection.in_atomic_block else nullcontext():
        return insert_pair_locked(_POOL_FOR_ROLL, (campaign.pk,), _ARC, roll, line, "roll")


def roller_locked(campaign: Campaign, pk: int, *, by, key: str) -> Character | None:
    """`writes.character_locked(campaign, pk, key_used=key_used(by=by, key=key))`, with its
    skills (`character.skills.all()` reads them) in the same statement."""
    return _roller_read(_ROLLER, campaign, pk, by=by, key=key)


def roller_read(campaign: Campaign, pk: int, *, by, key: str) -> Character | None:
    """`roller_locked` without the lock: for a roll that writes nothing on the sheet. From the
    shared cache when the view fetched it with its user (sessions/roller_cache.py), its key not
    read then (`key_used` False): a key already used fails on its unique constraint."""
    if not (0 < pk <= ROW_ID_MAX and roller_cache.fetched(campaign.pk, pk)):
        return _roller_read(_ROLLER_UNLOCKED, campaign, pk, by=by, key=key)

    def read():
        found = _ROLLER_TO_KEEP.objects(campaign.pk, pk)
        return found[0] if found else None

    roller = roller_cache.roller(campaign.pk, pk, read)
    if roller is not None:
        roller.key_used = False
        with_skills_from(roller, roller.skill_rows)
    return roller


def _roller_read(query: Precompiled, campaign: Campaign, pk: int, *, by, key: str):
    if not 0 < pk <= ROW_ID_MAX:
        return None
    found = query.objects(campaign.pk, pk, by.pk, key)
    if not found:
        return None
    roller = found[0]
    with_skills_from(roller, roller.skill_rows)  # its skills read with its lock: no query more
    return roller


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
    roller's sheet locked, when the roll pays nothing from the Moral (one statement for both
    then; a roll paid from the Moral locks the whole group first, in `services._roll_and_pay`)."""
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
        raise violation("visibility", "Visibilité inconnue.")
    if storyteller and visibility == Visibility.STORYTELLER:
        return Visibility.HIDDEN  # the Conteur's secret roll is hidden from everyone
    if not storyteller and visibility == Visibility.HIDDEN:
        raise violation("visibility", "Seul le Conteur peut cacher un jet ; choisissez « secret ».")
    return visibility


def spends_morale(request: RollRequest) -> bool:
    """Whether the roll is paid with hope or despair (then the whole group is locked)."""
    return bool(request.hope_points or request.despair_points or request.fortune_fate)


def pays_nothing(request: RollRequest) -> bool:
    """Whether the roll writes nothing but itself: no Impact, no Acharnement, no Moral (nor a
    Moral declaration to refuse)."""
    return not (request.impact or request.fury or may_spend_morale(request))


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
        raise violation("character", "Choisissez le personnage qui lance.")
    if spends_morale(request) or request.impact:
        raise violation("character", "Un jet sans personnage ne peut dépenser ni Impact ni Moral.")


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
            raise violation("fury", "Impossible d'entrer en Acharnement.")
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
        "causes": [c.__dict__ for c in prepared.causes],
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
    skills = " / ".join(skill_label(k) for k in roll.skills) or "sans compétence"
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
