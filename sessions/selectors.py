"""Reads of the table: the log as a member may see it, the Moral panel, what was used in an arc.

`visible_q` is THE visibility rule, used by the page, the poll and the API alike:
public → every member; storyteller (a player's secret roll) → its roller and the Conteur;
hidden (the Conteur's own) → the Conteur only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from campaigns.models import Arc, Campaign, Membership, Role
from campaigns.policy import is_storyteller
from characters.models import Character, SpecialState
from characters.selectors import skills_aggregate, with_skills_from
from common.precompiled import Precompiled
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


def _player_visible_q(user, prefix: str = "") -> Q:
    actor = "rolled_by" if prefix == "roll" else "actor"
    return Q(visibility=Visibility.PUBLIC) | Q(visibility=Visibility.STORYTELLER, **{actor: user})


@dataclass(frozen=True)
class RollFacts:
    """What a row's cache key and the Conteur's controls read of its roll."""

    outcome: str
    zone: bool
    character_id: int | None
    consequences: list[str]


@dataclass(frozen=True)
class NewEntry:
    """A log entry newer than the poll's cursor, as its one statement reads it: enough to name
    the row's cached rendering and the panels it refreshes, without loading the event."""

    id: int
    kind: str
    character_version: int | None
    roll: RollFacts | None
    actor_id: int | None = None


@dataclass(frozen=True)
class PollNews:
    role: str
    entries: list[NewEntry]  # oldest first, at most POLL_LIMIT

    @property
    def storyteller(self) -> bool:
        return self.role == Role.STORYTELLER


def _poll_sql(filtered: bool) -> str:
    """The poll's statement: the user's membership, left-joined to the entries after the cursor
    that this member may see — `visible_q`'s rule, written out: the Conteur sees everything, a
    player the public entries and the secret ones they made — with each one's character version
    and roll. No row at all: not a member; one row without an entry: nothing new."""
    membership, event = Membership._meta.db_table, TableEvent._meta.db_table
    character, roll = Character._meta.db_table, Roll._meta.db_table
    return (
        f"SELECT m.role, e.id, e.kind, ch.version, e.roll_id, r.outcome, r.zone,"
        f" r.character_id, r.consequences"
        f" FROM {membership} m"
        f" LEFT JOIN {event} e ON e.campaign_id = m.campaign_id AND e.id > %s"
        f" AND (m.role = %s OR e.visibility = %s OR (e.visibility = %s AND e.actor_id = m.user_id))"
        f"{' AND e.character_id = %s' if filtered else ''}"
        f" LEFT JOIN {character} ch ON ch.id = e.character_id"
        f" LEFT JOIN {roll} r ON r.id = e.roll_id"
        f" WHERE m.campaign_id = %s AND m.user_id = %s"
        f" ORDER BY e.id LIMIT %s"
    )


_POLL_SQL = {filtered: _poll_sql(filtered) for filtered in (False, True)}
_CONSEQUENCES = Roll._meta.get_field("consequences")


def poll_news(
    *, user, campaign_id: int, after: int, character_id: int | None = None
) -> PollNews | None:
    """The poll's one statement (raw SQL: the ORM takes longer to compile this query than the
    database to run it, and a page asks every second or two): the member's role and the entries
    newer than `after` they may see (of one character with `character_id`), or None for anyone
    who is not a member of the campaign."""
    params = [after, Role.STORYTELLER, Visibility.PUBLIC, Visibility.STORYTELLER]
    if character_id is not None:
        params.append(character_id)
    params += [campaign_id, user.pk, POLL_LIMIT]
    with connection.cursor() as cursor:
        cursor.execute(_POLL_SQL[character_id is not None], params)
        found = cursor.fetchall()
    if not found:
        return None
    return PollNews(role=found[0][0], entries=[_entry(row) for row in found if row[1] is not None])


def _entry(row, actor_id: int | None = None) -> NewEntry:
    _, pk, kind, version, roll_id, outcome, zone, roll_character, consequences = row
    roll = None
    if roll_id is not None:
        consequences = _CONSEQUENCES.from_db_value(consequences, None, connection)
        roll = RollFacts(outcome, bool(zone), roll_character, consequences or [])
    return NewEntry(id=pk, kind=kind, character_version=version, roll=roll, actor_id=actor_id)


def _log_sql(*, storyteller: bool, before: bool, filtered: bool) -> str:
    """The page's log as `_poll_sql` reads what is new: the last LOG_PAGE entries this member
    may see (`visible_q`'s rule, written out), with each one's character version, roll and
    author — what names their cached rows, without loading the events."""
    event, character, roll = (
        TableEvent._meta.db_table,
        Character._meta.db_table,
        Roll._meta.db_table,
    )
    return (
        f"SELECT e.actor_id, e.id, e.kind, ch.version, e.roll_id, r.outcome, r.zone,"
        f" r.character_id, r.consequences"
        f" FROM {event} e"
        f" LEFT JOIN {character} ch ON ch.id = e.character_id"
        f" LEFT JOIN {roll} r ON r.id = e.roll_id"
        f" WHERE e.campaign_id = %s"
        f"{'' if storyteller else ' AND (e.visibility = %s OR (e.visibility = %s AND e.actor_id = %s))'}"
        f"{' AND e.id < %s' if before else ''}"
        f"{' AND e.character_id = %s' if filtered else ''}"
        f" ORDER BY e.id DESC LIMIT %s"
    )


_LOG_SQL = {
    (storyteller, before, filtered): _log_sql(
        storyteller=storyteller, before=before, filtered=filtered
    )
    for storyteller in (False, True)
    for before in (False, True)
    for filtered in (False, True)
}


def log_entries(
    *, campaign: Campaign, user, before: int | None = None, character_id: int | None = None
) -> list[NewEntry]:
    """The log page's entries newest first (one statement, raw SQL as the poll's): what
    `events_for_user` shows, named for the row cache; the events themselves are loaded only
    for rows not rendered yet (`events_by_ids`)."""
    storyteller = is_storyteller(campaign)
    params: list = [campaign.pk]
    if not storyteller:
        params += [Visibility.PUBLIC, Visibility.STORYTELLER, user.pk]
    if before is not None:
        params.append(before)
    if character_id is not None:
        params.append(character_id)
    params.append(LOG_PAGE)
    sql = _LOG_SQL[(storyteller, before is not None, character_id is not None)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [_entry(row, actor_id=row[0]) for row in cursor.fetchall()]


def events_by_ids(ids) -> list[TableEvent]:
    """These log entries with what their rows show, newest first (one query)."""
    events = TableEvent.objects.filter(id__in=list(ids)).select_related(
        "roll", "actor", "character"
    )
    return list(events.order_by("-id"))


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
    if after is not None:
        events = events.filter(id__gt=after)
    if before is not None:
        events = events.filter(id__lt=before)
    if character_id is not None:
        events = events.filter(character_id=character_id)
    if after is not None:
        # The poll: a page open for hours asks every second or two, and almost always nothing
        # is new. One narrow query on the (campaign, id) index answers that; the rows are read
        # only when there are some. The oldest new ones come first, so a long absence is
        # caught up in order, `limit` at a time.
        ids = list(events.order_by("id").values_list("id", flat=True)[:limit])
        if not ids:
            return []
        events = TableEvent.objects.filter(id__in=ids)
    events = events.select_related("roll", "actor", "character").order_by("-id")
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


_POOL = Precompiled(
    lambda campaign_id: MoralePool.objects.filter(campaign_id=campaign_id).order_by("pk")[:1], -1
)


def _pool_of(campaign: Campaign) -> MoralePool:
    """The campaign's Moral row, or a new one not saved yet (the table not used yet)."""
    found = _POOL.objects(campaign.pk)
    return found[0] if found else MoralePool(campaign=campaign)


_PENDING = Precompiled(lambda campaign_id: pending_fortune_requests(campaign=campaign_id), -1)


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
        for event in _PENDING.objects(campaign.pk)
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


# Compiled once (common/precompiled.py): the table page asks for them on every load.
_ALL_ROLLERS = Precompiled(
    lambda campaign_id: _with_skills(Character.objects.filter(campaign_id=campaign_id)), -1
)
_OWN_ROLLERS = Precompiled(
    lambda campaign_id, owner_id: _with_skills(
        Character.objects.filter(campaign_id=campaign_id, owner_id=owner_id)
    ),
    -1,
    -2,
)


def characters_for_roller(*, campaign: Campaign, user) -> list[Character]:
    """The characters this member may roll for, with their skills (one query): the Conteur's
    are all of them, a player's are its own."""
    if is_storyteller(campaign):
        characters = _ALL_ROLLERS.objects(campaign.pk)
    else:
        characters = _OWN_ROLLERS.objects(campaign.pk, user.pk)
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
