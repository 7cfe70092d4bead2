"""Reads of the table: the log as a member may see it, the Moral panel, what was used in an arc.

`visible_q` is THE visibility rule, used by the page, the poll and the API alike:
public → every member; storyteller (a player's secret roll) → its roller and the Conteur;
hidden (the Conteur's own) → the Conteur only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from campaigns.models import Arc, Campaign
from campaigns.policy import is_storyteller
from characters.models import Character, SpecialState
from characters.selectors import skills_aggregate, with_skills_from
from rules import morale as rules_morale
from rules import states as rules_states
from sessions.injuries import injury_effect, injury_label, open_injuries
from sessions.models import MoralePool, PlaySession, Roll, TableEvent, TableEventKind, Visibility
from sessions.morale import FORTUNE_PENDING, member_keys, morale_of, player_characters

LOG_PAGE = 30
POLL_LIMIT = 50


def visible_q(*, campaign: Campaign, user, prefix: str = "") -> Q:
    """The rows of the log (or rolls, with `prefix`) this member may see; `campaign.membership`
    must be the user's (from `campaigns.policy`)."""
    return Q() if is_storyteller(campaign) else _player_visible_q(user, prefix)


# Who sees a row of the log, said twice side by side: as a filter (pages, poll, API) and as the
# players a pushed row goes to. The Conteur sees every row; a player, the public ones and the
# secret rolls they made; a hidden row (a hidden NPC's) only the Conteur.
def _player_visible_q(user, prefix: str = "") -> Q:
    actor = "rolled_by" if prefix == "roll" else "actor"
    mine = {f"{actor}_id": user.pk}
    return Q(visibility=Visibility.PUBLIC) | Q(visibility=Visibility.STORYTELLER, **mine)


def players_who_see(event: TableEvent) -> str | list[int]:
    """The players (user ids) who see `event` besides the Conteur, or "all"."""
    if event.visibility == Visibility.PUBLIC:
        return "all"
    if event.visibility == Visibility.STORYTELLER and event.actor_id is not None:
        return [event.actor_id]
    return []


# What a log row shows of its character (its name; its version keys the row's cached fragment):
# the sheet's other columns stay unread, a character row being several times a log row's width.
CHARACTER_SHOWN = {"id", "name", "version", "owner", "campaign"}
CHARACTER_UNREAD = [
    f"character__{field.name}"
    for field in Character._meta.concrete_fields
    if field.name not in CHARACTER_SHOWN
]


def events_for_user(
    *,
    campaign: Campaign,
    user,
    after: int | None = None,
    before: int | None = None,
    character_id: int | None = None,
    limit: int = LOG_PAGE,
) -> list[TableEvent]:
    """Log entries newest first (one query). `after` returns what is newer than a cursor (the
    poll); `before` pages back; `character_id` filters one character's entries."""
    events = TableEvent.objects.filter(campaign=campaign).filter(
        visible_q(campaign=campaign, user=user)
    )
    if before is not None:
        events = events.filter(id__lt=before)
    if character_id is not None:
        events = events.filter(character_id=character_id)
    if after is not None:
        # The poll: the oldest new ones first, so a long absence is caught up in order, `limit`
        # at a time; the (campaign, id) index answers "nothing new" without reading a row.
        events = events.filter(id__gt=after).order_by("id")
        events = events.select_related("roll", "actor", "character").defer(*CHARACTER_UNREAD)
        return list(reversed(events[:limit]))
    events = events.select_related("roll", "actor", "character").defer(*CHARACTER_UNREAD)
    events = events.order_by("-id")
    return list(events[:limit])


def rolls_for_user(*, campaign: Campaign, user) -> QuerySet[Roll]:
    return (
        Roll.objects.filter(campaign=campaign)
        .filter(visible_q(campaign=campaign, user=user, prefix="roll"))
        .select_related("character", "rolled_by")
        .order_by("-id")
    )


def roll_get_for_user(*, campaign: Campaign, user, pk: int) -> Roll | None:
    return rolls_for_user(campaign=campaign, user=user).filter(pk=pk).first()


@dataclass(frozen=True)
class MemberPanel:
    character: Character
    hope: int
    despair: int
    cap: int
    calm: bool
    state: str  # SpecialState value
    state_label: str
    mine: bool
    injuries: list  # open Injury rows, each with `.label`
    fortune: int = 0


@dataclass(frozen=True)
class FortuneRequest:
    """A player's spend of Fortune waiting for the Conteur's agreement (§14)."""

    id: int
    character: int
    name: str
    points: int
    reason: str


@dataclass(frozen=True)
class MoralePanel:
    hope: int
    despair: int
    fate: int
    capacity: int
    room: int
    galvanized: bool
    tormented: bool
    members: list[MemberPanel]
    fortune_requests: list[FortuneRequest] = field(default_factory=list)

    @property
    def empty_slots(self) -> range:
        return range(self.room)


def _pool_of(campaign: Campaign) -> MoralePool:
    """The campaign's Moral row, or a new one not saved yet (the table not used yet)."""
    pool = MoralePool.objects.filter(campaign=campaign).order_by("pk").first()
    return pool or MoralePool(campaign=campaign)


def morale_panel(
    *, campaign: Campaign, user, group: list[Character] | None = None, wounds: list | None = None
) -> MoralePanel:
    """The group's Moral with each character's personal points, states and open injuries, from
    rules.morale, and the Fortune spends waiting for the Conteur (four queries; one fewer with
    the `group` a page already read, `player_characters(campaign)`, and one fewer with the open
    injuries it read, `wounds`)."""
    pool = _pool_of(campaign)
    characters = list(player_characters(campaign)) if group is None else group
    morale = morale_of(pool, characters)
    keys = member_keys(characters)
    injured: dict[int, list] = {}
    for injury in _injuries_of(characters, wounds):
        injury.label = injury_label(injury)
        injured.setdefault(injury.character_id, []).append(injury)
    members = []
    for character in characters:
        member = morale.member(keys[character.pk])
        state = character.special_state
        members.append(
            MemberPanel(
                character=character,
                hope=member.hope,
                despair=member.despair,
                cap=member.cap,
                calm=morale.is_calm(member.key),
                state=state,
                state_label=""
                if state == SpecialState.NONE
                else rules_states.STATE_LABELS.get(state, state),
                mine=character.owner_id == user.pk,
                injuries=injured.get(character.pk, []),
                fortune=character.fortune,
            )
        )
    names = {c.pk: c.name for c in characters}
    requests = [
        FortuneRequest(
            id=event.pk,
            character=event.character_id,
            name=names.get(event.character_id, ""),
            points=event.payload["fortune_request"],
            reason=event.payload.get("reason", ""),
        )
        for event in pending_fortune_requests(campaign=campaign)
    ]
    return MoralePanel(
        hope=morale.hope,
        despair=morale.despair,
        fate=pool.fate,
        capacity=morale.capacity,
        room=max(morale.room, 0),
        galvanized=morale.galvanized,
        tormented=morale.tormented,
        members=members,
        fortune_requests=requests,
    )


def pending_fortune_requests(*, campaign: Campaign):
    """The log's Fortune requests still waiting for the Conteur's answer, oldest first."""
    return TableEvent.objects.filter(
        campaign=campaign, kind=TableEventKind.MORALE, payload__fortune_status=FORTUNE_PENDING
    ).order_by("pk")


def fortune_request_exists(*, campaign: Campaign, pk: int) -> bool:
    """Whether this log line of the campaign is a Fortune request (answered or not)."""
    return TableEvent.objects.filter(
        campaign=campaign, pk=pk, payload__has_key="fortune_request"
    ).exists()


def morale_state(*, campaign: Campaign) -> rules_morale.Morale:
    pool = _pool_of(campaign)
    return morale_of(pool, list(player_characters(campaign)))


@dataclass(frozen=True)
class UsedInArc:
    characteristics: frozenset[str]
    skills: frozenset[str]


def used_in_arc(*, arc: Arc, character_id: int | None = None) -> dict[int, UsedInArc]:
    """Characteristics and skills each character rolled during `arc` (for XP, §10), from the
    roll log, one query: character id → what it used."""
    rolls = Roll.objects.filter(arc=arc, character__isnull=False)
    if character_id is not None:
        rolls = rolls.filter(character_id=character_id)
    found: dict[int, tuple[set[str], set[str]]] = {}
    for pk, characteristic, skills in rolls.values_list("character_id", "characteristic", "skills"):
        chars, used = found.setdefault(pk, (set(), set()))
        chars.add(characteristic)
        used.update(skills or [])
    return {pk: UsedInArc(frozenset(c), frozenset(s)) for pk, (c, s) in found.items()}


def has_morale_event(events: list[TableEvent]) -> bool:
    """Whether a batch of log entries changes what the Moral panel shows."""
    return any(e.kind in (TableEventKind.MORALE, TableEventKind.CONSEQUENCE) for e in events)


def _with_skills(characters: QuerySet[Character]) -> QuerySet[Character]:
    return characters.annotate(skill_rows=skills_aggregate()).order_by("name", "pk")


def characters_for_roller(*, campaign: Campaign, user) -> list[Character]:
    """The characters this member may roll for, with their skills (one query): the Conteur's
    are all of them, a player's are its own."""
    characters = Character.objects.filter(campaign=campaign)
    if not is_storyteller(campaign):
        characters = characters.filter(owner=user)
    characters = list(_with_skills(characters))
    for character in characters:
        with_skills_from(character, character.skill_rows)
    return characters


def _injuries_of(characters: list[Character], wounds: list | None) -> list:
    """The open injuries of `characters`: read (one query), or picked from `wounds`, open
    injuries a page already read for these characters and others."""
    if wounds is None:
        return open_injuries(c.pk for c in characters)
    ids = {c.pk for c in characters}
    return [injury for injury in wounds if injury.character_id in ids]


def hindering_injuries(characters: list[Character], wounds: list | None = None) -> list:
    """The open injuries that add impuissance dice, of the characters one may roll for (one
    query, none with `wounds`), each with `.label`: the roll form offers them with their cause."""
    found = []
    for injury in _injuries_of(characters, wounds):
        effect = injury_effect(injury)
        if effect is not None and effect.bane_dice:
            injury.label = injury_label(injury)
            found.append(injury)
    return found


def play_sessions_for_campaign(*, campaign: Campaign) -> QuerySet[PlaySession]:
    return PlaySession.objects.filter(campaign=campaign).select_related("arc")


def play_sessions_for_arc(*, arc: Arc) -> QuerySet[PlaySession]:
    return PlaySession.objects.filter(campaign_id=arc.campaign_id, arc=arc)


def play_session_get(*, campaign: Campaign, pk: int) -> PlaySession:
    return get_object_or_404(PlaySession.objects.select_related("arc"), campaign=campaign, pk=pk)


def play_sessions_next_and_last(*, campaign) -> tuple[PlaySession | None, PlaySession | None]:
    """The next planned session and the last one played (None where there is none)."""
    now = timezone.now()
    sessions = PlaySession.objects.filter(campaign=campaign).select_related("arc")
    return (
        sessions.filter(scheduled_at__gte=now).order_by("scheduled_at", "pk").first(),
        sessions.filter(scheduled_at__lt=now).order_by("-scheduled_at", "-pk").first(),
    )
