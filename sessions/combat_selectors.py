"""Reads of combat: the bestiary as a member may see it, and the fight's tracker (round, who
acts, who comes next) as this member may see it — hidden NPCs only for the Conteur."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet

from campaigns.models import Campaign
from campaigns.policy import is_storyteller
from sessions.models import (
    Combatant,
    CombatantStatus,
    Encounter,
    EncounterStatus,
    StatBlock,
    TableEventKind,
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
        .first()
    )


def encounters_for_campaign(*, campaign: Campaign) -> QuerySet[Encounter]:
    return Encounter.objects.filter(campaign=campaign).select_related("play_session")


@dataclass(frozen=True)
class Slot:
    combatant: Combatant
    n: int  # the pass: 1 for a first action, 2 for a second (Combativité ≥ 2)…


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
    return tracker


COMBAT_CHANGED = "combat-changed"


def has_combat_event(events) -> bool:
    """Whether a batch of log entries changes what the combat tracker shows."""
    return any(e.kind == TableEventKind.COMBAT for e in events)


def tracker_context(campaign: Campaign, user) -> dict:
    """What the tracker fragment needs (two queries: the open fight, its combatants)."""
    encounter = encounter_open_get(campaign=campaign)
    return {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "tracker": tracker_for_user(campaign=campaign, user=user, encounter=encounter),
    }
