"""Reads of combat: the bestiary as a member may see it, and the fight's tracker (round, who
acts, who comes next) as this member may see it — hidden NPCs only for the Conteur."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.policy import is_storyteller
from rules import combat as rules_combat
from rules import reference
from rules.french import de
from sessions.combat.forms import (
    AttackForm,
    DefenceForm,
    EscapeForm,
    GrappleForm,
    RegenerationForm,
)
from sessions.combat.grapples import GRAPPLE_LABELS, escape_odds
from sessions.combat.harm import fighter_of
from sessions.combat.holds import held_note, holder_of
from sessions.combat.masks import as_player_reads
from sessions.combat.offers import defences_offered
from sessions.injuries import open_injuries
from sessions.models import (
    Combatant,
    CombatantStatus,
    Encounter,
    EncounterStatus,
    StatBlock,
    TableEventKind,
    Visibility,
)

UPCOMING = 4  # how many of the next slots the tracker names


def stat_blocks_for_user(*, campaign: Campaign) -> QuerySet[StatBlock]:
    """The bestiary: every block for the Conteur, only those not hidden for a player."""
    blocks = StatBlock.objects.filter(campaign=campaign)
    return blocks if is_storyteller(campaign) else blocks.filter(hidden=False)


def encounter_open_get(*, campaign: Campaign) -> Encounter | None:
    """The campaign's fight not yet ended (at most one), or None."""
    return (
        Encounter.objects.filter(campaign=campaign)
        .exclude(status=EncounterStatus.ENDED)
        .select_related("play_session")
        .order_by("-pk")
        .first()
    )


def encounter_get(*, campaign: Campaign, pk: int) -> Encounter:
    """The campaign's encounter, or 404 (the caller checked the campaign's membership)."""
    return get_object_or_404(Encounter, campaign=campaign, pk=pk)


def encounters_for_campaign(*, campaign: Campaign) -> QuerySet[Encounter]:
    return Encounter.objects.filter(campaign=campaign).select_related("play_session")


@dataclass(frozen=True)
class Slot:
    combatant: Combatant
    n: int  # the pass: 1 for a first action, 2 for a second (Combativité ≥ 2)…


@dataclass
class PendingAttack:
    """An attack waiting for its defence, as the tracker shows it."""

    data: dict
    attacker: Combatant | None  # None: a hidden NPC's attack, as a player reads it (`masks`)
    target: Combatant
    may_defend: bool = False  # this member answers for the target
    defences: list = field(default_factory=list)  # sessions.combat.offers.Offered, with odds
    held: str = ""  # why the target cannot defend (held in an Étreinte), if so

    @property
    def masked(self) -> bool:
        return self.attacker is None

    @property
    def target_masked(self) -> bool:
        """A riposte on a hidden NPC, as a player reads it: against « l'attaquant »."""
        return self.data.get("target") is None

    @property
    def best(self) -> str:
        """The defence preselected: the available one with the best odds, else none at all."""
        offered = [d for d in self.defences if d.available and d.success is not None]
        if self.held or not offered:
            return "none"
        return max(offered, key=lambda d: d.success).key

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def grapple_label(self) -> str:
        return GRAPPLE_LABELS.get(self.data.get("grapple") or "", "")

    def as_dict(self) -> dict:
        return {**self.data, "defences": self.defences, "result": None}


@dataclass
class Tracker:
    encounter: Encounter
    storyteller: bool
    combatants: list[Combatant]  # those this member may see, in joining order
    acting: Slot | None = None  # None while the initiative is not rolled, or a hidden NPC acts
    hidden_acting: bool = False  # a player's view: the Conteur plays a hidden NPC
    upcoming: list[Slot] = field(default_factory=list)
    may_end_turn: bool = False
    ranked: list[Combatant] = field(default_factory=list)  # by initiative, those in the fight
    # The attack waiting for its defence, and the last blow, if this member may see them.
    pending: PendingAttack | None = None
    last: dict | None = None
    may_attack: bool = False  # this member plays the combatant acting now
    targets: list[Combatant] = field(default_factory=list)
    riposte: tuple[Combatant, Combatant] | None = None  # (who may riposte, against whom)
    riposte_against: str = ""  # whom, as this member may read it: « l'attaquant » if hidden
    # Grapples (§13): the acting combatant's holder (it may only free itself), the chances to
    # break free by characteristic for whoever plays it, the holds this member may let go of
    # ((held, holder)) and the combatants à terre this member may get up.
    holder: Combatant | None = None
    of_holder: str = ""  # « de Brann », « d'Aelis »
    escape_odds: list[tuple[str, str, float]] = field(default_factory=list)
    releases: list[tuple[Combatant, Combatant]] = field(default_factory=list)
    may_stand: list[Combatant] = field(default_factory=list)

    @property
    def pending_data(self) -> dict | None:
        return self.pending.as_dict() if self.pending is not None else None

    @property
    def running(self) -> bool:
        return self.encounter.status == EncounterStatus.RUNNING


def tracker_for_user(*, campaign: Campaign, user, encounter: Encounter | None) -> Tracker | None:
    """What the tracker shows this member (one query for the combatants)."""
    if encounter is None:
        return None
    storyteller = is_storyteller(campaign)
    everyone = list(encounter.combatants.select_related("character").order_by("pk"))
    by_pk = {c.pk: c for c in everyone}
    seen = [c for c in everyone if storyteller or not c.hidden]
    tracker = Tracker(encounter=encounter, storyteller=storyteller, combatants=seen)
    _grapple_badges(tracker, by_pk)
    tracker.ranked = sorted(
        (c for c in seen if c.initiative is not None and c.status == CombatantStatus.ACTIVE),
        key=lambda c: -c.initiative,
    )
    if encounter.status != EncounterStatus.RUNNING or not encounter.order:
        return tracker
    slots = [
        Slot(by_pk[s["combatant"]], s["pass"]) for s in encounter.order if s["combatant"] in by_pk
    ]
    here = min(encounter.position, len(slots) - 1)
    acting = slots[here] if slots else None
    if acting is not None and (storyteller or not acting.combatant.hidden):
        tracker.acting = acting
    else:
        tracker.hidden_acting = acting is not None
    tracker.upcoming = [
        s
        for s in slots[here + 1 :]
        if s.combatant.status == CombatantStatus.ACTIVE and (storyteller or not s.combatant.hidden)
    ][:UPCOMING]
    owner = acting.combatant.character.owner_id if acting and acting.combatant.character else None
    tracker.may_end_turn = storyteller or (owner is not None and owner == user.pk)
    _grapples(tracker, campaign, user, by_pk)
    _attacks(tracker, campaign, user, by_pk)
    return tracker


def _grapple_badges(tracker: Tracker, by_pk: dict[int, Combatant]) -> None:
    """Each combatant's grapple states as this member may read them (`c.grapple_badges`): a
    hidden holder is not named to the players."""
    for c in tracker.combatants:
        badges = []
        holder = holder_of(c, by_pk)
        if holder is not None:
            if tracker.storyteller or not holder.hidden:
                badges.append(_("dans l'étreinte %(of)s") % {"of": de(holder.name)})
            else:
                badges.append(_("dans une étreinte"))
        if c.prone and c.status == CombatantStatus.ACTIVE:
            badges.append(_("à terre"))
        c.grapple_badges = badges
        c.held = holder is not None
        c.holder_shown = (
            holder.pk if holder and (tracker.storyteller or not holder.hidden) else None
        )


def _grapples(tracker: Tracker, campaign: Campaign, user, by_pk: dict[int, Combatant]) -> None:
    """What the tracker offers about grapples: freeing oneself, letting go, getting up."""

    def controls(c: Combatant) -> bool:
        return tracker.storyteller or (
            c.character_id is not None and c.character.owner_id == user.pk
        )

    for c in tracker.combatants:
        holder = holder_of(c, by_pk)
        if holder is not None and (tracker.storyteller or not holder.hidden) and controls(holder):
            tracker.releases.append((c, holder))
    acting = tracker.acting.combatant if tracker.acting is not None else None
    for c in tracker.combatants:
        standing = c.prone and c.status == CombatantStatus.ACTIVE and holder_of(c, by_pk) is None
        if standing and (tracker.storyteller or (controls(c) and c is acting)):
            tracker.may_stand.append(c)
    if acting is None:
        return
    tracker.holder = holder_of(acting, by_pk)
    if tracker.holder is not None:
        tracker.of_holder = de(tracker.holder.name)
    if tracker.holder is not None and tracker.may_end_turn and not tracker.encounter.pending_attack:
        fighter = fighter_of(campaign, acting)
        total = acting.hold.get("total", 0)
        tracker.escape_odds = [
            (key, reference.LABELS[key], escape_odds(fighter, key, total))
            for key in rules_combat.GRAPPLE_CHARACTERISTICS
        ]


def _seen(tracker: Tracker, data: dict) -> bool:
    return bool(data) and (tracker.storyteller or data.get("visibility") != Visibility.HIDDEN)


def _masked(tracker: Tracker, data: dict, by_pk: dict[int, Combatant]) -> dict | None:
    """A hidden blow a player may read all the same (`masks.as_player_reads`): a hidden NPC's
    blow on a visible target, without its author; a riposte on a hidden NPC, without its
    target. None: the blow is the Conteur's alone (or this member sees it whole)."""
    if not data or tracker.storyteller or data.get("visibility") != Visibility.HIDDEN:
        return None
    attacker, target = by_pk.get(data["attacker"]), by_pk.get(data["target"])
    if attacker is None or target is None:
        return None
    return as_player_reads(data, attacker, target)


def _attacks(tracker: Tracker, campaign: Campaign, user, by_pk: dict[int, Combatant]) -> None:
    """The pending attack (with the defences and their odds for whoever answers it), the last
    blow, and whom the acting combatant may attack."""
    encounter = tracker.encounter
    pending = encounter.pending_attack
    masked = _masked(tracker, pending, by_pk)
    if _seen(tracker, pending) or masked is not None:
        attacker, target = by_pk[pending["attacker"]], by_pk[pending["target"]]
        owner = target.character.owner_id if target.character_id else None
        shown = PendingAttack(
            masked or pending,
            None if masked is not None and masked["attacker"] is None else attacker,
            target,
            tracker.storyteller or owner == user.pk,
        )
        if shown.may_defend:
            shown.defences = defences_offered(campaign, encounter, target, by_pk)
            shown.held = held_note(target, by_pk)
        tracker.pending = shown
    if _seen(tracker, encounter.last_attack):
        tracker.last = encounter.last_attack
    else:
        tracker.last = _masked(tracker, encounter.last_attack, by_pk)
    _riposte(tracker, user, by_pk)
    acting = tracker.acting.combatant if tracker.acting is not None else None
    last = encounter.last_attack or {}
    attacked = (
        acting is not None
        and last.get("attacker") == acting.pk
        and last.get("slot") == [encounter.round, encounter.position]
    )
    tracker.may_attack = (
        acting is not None
        and acting.status == CombatantStatus.ACTIVE
        and tracker.may_end_turn
        and not pending
        and not attacked
        and tracker.holder is None  # a held combatant may only free itself (§13)
    )
    if tracker.may_attack:
        # The other side first: a character's opponents are NPCs, an NPC's the characters.
        tracker.targets = sorted(
            (
                c
                for c in tracker.combatants
                if c.pk != acting.pk
                and c.status not in (CombatantStatus.DEAD, CombatantStatus.LEFT)
            ),
            key=lambda c: (c.character_id is None) == (acting.character_id is None),
        )


def _riposte(tracker: Tracker, user, by_pk: dict[int, Combatant]) -> None:
    """Who may riposte after the last blow (§8), if this member plays it, and against whom as
    they may read it: a hidden NPC is « l'attaquant » (`masks`)."""
    last = tracker.encounter.last_attack or {}
    riposte = last.get("riposte_for")
    if riposte not in by_pk or last.get("attacker") not in by_pk:
        return
    if tracker.encounter.pending_attack or not tracker.last:
        return
    riposter, attacker = by_pk[riposte], by_pk[last["attacker"]]
    owner = riposter.character.owner_id if riposter.character_id else None
    if tracker.storyteller or owner == user.pk:
        tracker.riposte = (riposter, attacker)
        shown = tracker.storyteller or not attacker.hidden
        tracker.riposte_against = attacker.name if shown else _("l'attaquant")


COMBAT_CHANGED = "combat-changed"


def has_combat_event(events) -> bool:
    """Whether a batch of log entries changes what the combat tracker shows."""
    return any(e.kind == TableEventKind.COMBAT for e in events)


def tracker_context(campaign: Campaign, user) -> dict:
    """What the tracker fragment needs (two queries: the open fight, its combatants)."""
    encounter = encounter_open_get(campaign=campaign)
    tracker = tracker_for_user(campaign=campaign, user=user, encounter=encounter)
    return {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "tracker": tracker,
        **attack_forms(tracker),
    }


def _rollers_injuries(tracker: Tracker) -> dict[int, list]:
    """The open injuries of the characters who may roll next (one query, none if no sheet)."""
    rollers = [
        tracker.acting.combatant if tracker.acting is not None and tracker.may_attack else None,
        tracker.riposte[0] if tracker.riposte is not None else None,
        tracker.pending.target if tracker.pending is not None else None,
    ]
    ids = {c.character_id for c in rollers if c is not None and c.character_id}
    found: dict[int, list] = {}
    for injury in open_injuries(ids) if ids else ():
        found.setdefault(injury.character_id, []).append(injury)
    return found


def attack_forms(tracker: Tracker | None) -> dict:
    """The blank attack and defence forms the tracker shows to whoever may use them."""
    forms: dict = {}
    injuries = _rollers_injuries(tracker) if tracker is not None else {}
    if tracker is not None and tracker.may_attack:
        acting = tracker.acting.combatant
        forms["attack_form"] = AttackForm(
            initial={"turn": tracker.encounter.turn},
            targets=tracker.targets,
            injuries=injuries.get(acting.character_id, ()),
            profiles=[] if acting.character_id else acting.profile.get("attacks") or [],
        )
    if tracker is not None and tracker.may_attack:
        forms["grapple_form"] = GrappleForm(
            initial={"turn": tracker.encounter.turn}, targets=tracker.targets, prefix="grapple"
        )
    if tracker is not None and tracker.escape_odds:
        forms["escape_form"] = EscapeForm(initial={"turn": tracker.encounter.turn})
    if (
        tracker is not None
        and tracker.may_end_turn
        and tracker.acting
        and not tracker.pending
        and tracker.holder is None
    ):
        forms["regeneration_form"] = RegenerationForm(initial={"turn": tracker.encounter.turn})
    if tracker is not None and tracker.riposte is not None:
        forms["riposte_form"] = AttackForm(  # no target: a riposte's is the attacker (§8)
            initial={"turn": tracker.encounter.turn, "riposte": True},
            injuries=injuries.get(tracker.riposte[0].character_id, ()),
        )
    if tracker is not None and tracker.pending is not None and tracker.pending.may_defend:
        forms["defence_form"] = DefenceForm(
            initial={"attack": tracker.pending.id, "defence": tracker.pending.best},
            injuries=injuries.get(tracker.pending.target.character_id, ()),
        )
    return forms
