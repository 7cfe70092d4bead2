"""The steps every write of the table shares: its one lock, the sheets written through
`characters.services`, the Moral's points saved, and the log's lines.

Called only inside the transactions of `sessions.services`: the campaign's `MoralePool` row is
locked first (`lock_pool`), then the sheets, so concurrent writes of one table queue up in one
order and the log's event ids follow commit order.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.policy import is_storyteller
from characters.models import ChangeAction, Character
from characters.services import character_update
from rules import morale as rules_morale
from rules import states as rules_states
from sessions.errors import violation
from sessions.models import (
    Combatant,
    CombatantStatus,
    MoralePool,
    Roll,
    TableEvent,
    TableEventKind,
    Visibility,
)
from sessions.morale import member_keys, player_characters


def lock_pool(campaign: Campaign | int, **annotations: Any) -> MoralePool:
    """Lock (and create on first use) the campaign's Moral row: the table's one lock.

    `annotations` are read in the same statement and set on the row (a roll reads its arc so,
    `rolls.open_arc_id`): one statement instead of two on the table's busiest path."""
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    rows = MoralePool.objects.select_for_update().filter(campaign_id=campaign_id)
    if annotations:
        rows = rows.annotate(**annotations)
    pool = rows.first()
    if pool is None:
        pool_made(campaign_id)
        pool = rows.get()
    return pool


def pool_made(campaign_id: int) -> None:
    """The campaign's Moral row, made on the table's first use (if no one made it meanwhile)."""
    MoralePool.objects.bulk_create([MoralePool(campaign_id=campaign_id)], ignore_conflicts=True)


def lock_members(campaign: Campaign | int) -> list[Character]:
    """Lock the group's sheets (the players' characters), in id order."""
    return list(player_characters(campaign).select_for_update(of=("self",)))


def character_locked(campaign: Campaign, pk: int | None, **annotations: Any) -> Character | None:
    """One sheet of the campaign locked (None if there is none), with `annotations` read in the
    same statement (a roll asks so whether its key was already used, `rolls.key_used`)."""
    rows = Character.objects.select_for_update(of=("self",)).filter(pk=pk, campaign=campaign)
    return (rows.annotate(**annotations) if annotations else rows).first()


def lock_character(campaign: Campaign, pk: int | None, field_name: str) -> Character:
    """Lock one sheet of the campaign, or refuse about `field_name` if there is none."""
    character = character_locked(campaign, pk)
    if character is None:
        raise violation(field_name, _("Ce personnage n'existe pas dans la campagne."))
    return character


def require_controller(campaign: Campaign, character: Character, by) -> None:
    """Only the character's player and the Conteur act for a character."""
    if character.owner_id != by.pk and not is_storyteller(campaign):
        raise PermissionDenied(_("Seuls le joueur du personnage et le Conteur peuvent faire cela."))


def lock_roller(
    campaign: Campaign,
    by,
    character_id: int,
    members: list[Character],
    locked: Character | None = None,
) -> Character:
    """The character who rolls (already `locked`, or with the group, or locked now), if `by`
    may."""
    character = locked or next((c for c in members if c.pk == character_id), None)
    if character is None:
        character = lock_character(campaign, character_id, "character")
    require_controller(campaign, character, by)
    return character


def sheet_write(character: Character, changes: dict[str, Any], by, *, note: str = "") -> Character:
    """Write sheet values through the sheets' own service (lock, version bump, history);
    `note` says in the history what caused them (a blow's « Critique subi »), blank if nothing."""
    changed = {k: v for k, v in changes.items() if getattr(character, k) != v}
    if not changed:
        return character
    saved = character_update(
        character=character.pk,
        changes=changed,
        version=None,
        by=by,
        storyteller=True,
        action=ChangeAction.TABLE,
        note=note,
    )
    for name, value in changed.items():
        setattr(character, name, value)
    character.version = saved.version
    return character


def fatal_in_fights(character: Character) -> None:
    """Reading (§8): Fragilité or Épuisement reaching 6 kills at once, in or out of a fight:
    the character's place in every fight not over is marked dead. Registered with the sheets'
    service (`characters.services.register_death_listener`) by `SessionsConfig.ready`."""
    if rules_states.is_fatal(character.fragility, character.exhaustion):
        Combatant.objects.filter(character=character).exclude(
            status__in=(CombatantStatus.DEAD, CombatantStatus.LEFT)
        ).exclude(encounter__status="ended").update(status=CombatantStatus.DEAD)


def morale_write(
    *,
    pool: MoralePool,
    after: rules_morale.Morale,
    characters: list[Character],
    by,
    extra: dict[int, dict[str, Any]] | None = None,
) -> None:
    """Save the pool and each character's personal points (and `extra` sheet changes)."""
    violations = rules_morale.morale_violations(after)
    if violations:
        raise ValidationError(violations)
    if (pool.hope, pool.despair) != (after.hope, after.despair):
        pool.hope, pool.despair = after.hope, after.despair
        pool.save(update_fields=["hope", "despair", "updated_at"])
    keys = member_keys(characters)
    extra = extra or {}
    for character in characters:
        member = after.member(keys[character.pk])
        changes = {"personal_hope": member.hope, "personal_despair": member.despair}
        changes.update(extra.get(character.pk, {}))
        sheet_write(character, changes, by)


def log_line(
    *,
    campaign_id: int,
    kind: str,
    summary: str,
    by,
    visibility: str = Visibility.PUBLIC,
    character: Character | None = None,
    roll: Roll | None = None,
    payload: dict[str, Any] | None = None,
) -> TableEvent:
    """One line of the table's log, not saved yet."""
    return TableEvent(
        campaign_id=campaign_id,
        kind=kind,
        visibility=visibility,
        actor=by,
        character=character,
        roll=roll,
        summary=summary[:500],
        payload=payload or {},
    )


def log_event(**line: Any) -> TableEvent:
    """Add one line to the table's log (`log_line`'s arguments)."""
    event = log_line(**line)
    event.save()
    return event


def log_morale(
    *,
    campaign_id: int,
    by,
    character: Character | None,
    pool: MoralePool,
    move: Any,
    events: list[rules_morale.MoraleEvent],
    summary: str,
) -> TableEvent:
    """Log a Moral move with the engine's events and the pool after it: the log replays it."""
    return log_event(
        campaign_id=campaign_id,
        kind=TableEventKind.MORALE,
        summary=summary,
        by=by,
        character=character,
        payload={
            "move": move,
            "events": [e.to_dict() for e in events],
            "state": {"hope": pool.hope, "despair": pool.despair, "fate": pool.fate},
        },
    )
