"""The Conteur's screen (issue 14 §8): one page with every combatant's gauges, scars, péril,
Agonie and the other harm tracks, special state, status, Finesse and Résilience points left,
the group's Moral and the turn order — what a Conteur keeps on paper behind a screen.

Conteur only (a player gets 404, like a non-member). The page carries the table's poller (the
same `sessions:poll` view, 204 and two queries when nothing is new, driven by table.js); its
body re-fetches itself when the poll triggers `combat-changed` or `morale-changed`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Max
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from campaigns.models import Campaign
from campaigns.policy import campaign_get_for_member, is_storyteller
from characters.models import SpecialState
from characters.sheet import characteristics
from common.htmx import HtmxHttpRequest
from rules import reference
from rules import sheet as rules_sheet
from rules import states as rules_states
from rules.gauges import Gauge
from sessions import selectors
from sessions.checks import sheet_gauge
from sessions.combat.harm import npc_gauges
from sessions.models import Combatant, CombatantStatus, Encounter, EncounterStatus, TableEvent
from sessions.table_access import table_login_required

# --- the selector ------------------------------------------------------------------------------


def gauge_labels() -> dict[str, str]:
    return {"vitality": _("Vitalité"), "energy": _("Énergie"), "confidence": _("Confiance")}


@dataclass(frozen=True)
class GaugeCell:
    key: str
    label: str
    gauge: Gauge

    @property
    def collapsed(self) -> bool:
        """Scars up to the maximum (§8): for Confiance, Découragement."""
        return rules_states.gauge_collapsed(self.gauge)


@dataclass
class ScreenRow:
    """One combatant as the screen shows it: its sheet's tracks (a character) or its copy of the
    stat block (an NPC)."""

    combatant: Combatant
    gauges: list[GaugeCell]
    agony: int
    aggravation: int
    fragility: int
    exhaustion: int | None  # an NPC has no Épuisement track
    resilience: int
    resilience_max: int | None  # a character's Résilience score (§1)
    special_state: str = ""
    grapples: list[str] = field(default_factory=list)  # « à terre », « tenu par Brigand 2 »
    acting: bool = False

    @property
    def is_character(self) -> bool:
        return self.combatant.character_id is not None

    @property
    def out(self) -> bool:
        return self.combatant.status != CombatantStatus.ACTIVE


@dataclass(frozen=True)
class OrderSlot:
    """One acting slot of the round: its pass (2 for a second action…) and where it stands."""

    combatant: Combatant
    n: int
    when: str  # "done", "now", "next" or "later"

    @property
    def skipped(self) -> bool:
        return self.combatant.status != CombatantStatus.ACTIVE


@dataclass
class Screen:
    encounter: Encounter
    rows: list[ScreenRow]
    order: list[OrderSlot] = field(default_factory=list)
    acting: OrderSlot | None = None
    next: OrderSlot | None = None

    @property
    def running(self) -> bool:
        return self.encounter.status == EncounterStatus.RUNNING

    @property
    def ended(self) -> bool:
        return self.encounter.status == EncounterStatus.ENDED


def _row(combatant: Combatant, labels: dict[str, str]) -> ScreenRow:
    character = combatant.character
    if character is None:
        gauges = npc_gauges(combatant)
        return ScreenRow(
            combatant=combatant,
            gauges=[GaugeCell(g, labels[g], gauges[g]) for g in reference.GAUGES],
            agony=combatant.agony,
            aggravation=combatant.aggravation,
            fragility=combatant.profile.get("fragility", 0),
            exhaustion=None,
            resilience=combatant.profile.get("resilience_points", 0),
            resilience_max=None,
        )
    state = character.special_state
    return ScreenRow(
        combatant=combatant,
        gauges=[GaugeCell(g, labels[g], sheet_gauge(character, g)) for g in reference.GAUGES],
        agony=character.agony,
        aggravation=character.aggravation,
        fragility=character.fragility,
        exhaustion=character.exhaustion,
        resilience=character.resilience_points,
        resilience_max=rules_sheet.row_score(characteristics(character), "resilience"),
        special_state="" if state == SpecialState.NONE else character.get_special_state_display(),
    )


def _grapples(combatant: Combatant, by_pk: dict[int, Combatant]) -> list[str]:
    """The grapple states left on the combatant (§13): held in an Étreinte, à terre."""
    states = []
    holder = by_pk.get(getattr(combatant, "held_by_id", None) or 0)
    if holder is not None and CombatantStatus.ACTIVE == holder.status == combatant.status:
        states.append(_("tenu par %(name)s") % {"name": holder.name})
    if getattr(combatant, "prone", False):
        states.append(_("à terre"))
    return states


def _order(encounter: Encounter, by_pk: dict[int, Combatant]) -> list[OrderSlot]:
    """The round's slots: those done, the one acting, the next still in the fight, the rest."""
    slots = [(by_pk[s["combatant"]], s["pass"]) for s in encounter.order if s["combatant"] in by_pk]
    if not slots or encounter.status == EncounterStatus.PREPARING:
        return []
    here = min(encounter.position, len(slots) - 1)
    order, next_found = [], False
    for index, (combatant, n) in enumerate(slots):
        when = "done" if index < here else "now" if index == here else "later"
        if when == "later" and not next_found and combatant.status == CombatantStatus.ACTIVE:
            when, next_found = "next", True
        order.append(OrderSlot(combatant, n, when))
    return order


def screen_for_storyteller(*, encounter: Encounter) -> Screen:
    """Every combatant of the fight (hidden NPCs included) with its tracks, in initiative order,
    and the round's order (one query: the combatants and their sheets)."""
    everyone = list(encounter.combatants.select_related("character").order_by("pk"))
    labels = gauge_labels()
    by_pk = {c.pk: c for c in everyone}
    order = _order(encounter, by_pk)
    acting = next((s for s in order if s.when == "now"), None)
    rows = [_row(c, labels) for c in everyone]
    for row in rows:
        row.grapples = _grapples(row.combatant, by_pk)
    rows.sort(key=lambda r: (r.combatant.initiative is None, -(r.combatant.initiative or 0)))
    if acting is not None and encounter.status == EncounterStatus.RUNNING:
        for row in rows:
            row.acting = row.combatant.pk == acting.combatant.pk
    return Screen(
        encounter=encounter,
        rows=rows,
        order=order,
        acting=acting,
        next=next((s for s in order if s.when == "next"), None),
    )


def screen_context(campaign: Campaign, user, encounter: Encounter) -> dict:
    return {
        "campaign": campaign,
        "is_storyteller": True,
        "screen": screen_for_storyteller(encounter=encounter),
        "panel": selectors.morale_panel(campaign=campaign, user=user),
    }


def _log_cursor(campaign: Campaign) -> int:
    """The newest log entry (the Conteur sees them all): the poll asks for what comes after."""
    newest = TableEvent.objects.filter(campaign=campaign).aggregate(newest=Max("id"))["newest"]
    return newest or 0


# --- the view ----------------------------------------------------------------------------------


def _storyteller_campaign(request: HtmxHttpRequest, pk: int) -> Campaign:
    """The campaign if the user is its Conteur; 404 for a player as for anyone else (the
    screen's very existence is the Conteur's)."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    if not is_storyteller(campaign):
        raise Http404(_("Campagne introuvable."))
    return campaign


@table_login_required
@require_GET
@vary_on_headers("HX-Request")
def combat_screen(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """The Conteur's screen of one fight (the running one, or an ended one as it was left);
    with HX-Request, its live body only (re-fetched on the poll's combat and Moral events)."""
    campaign = _storyteller_campaign(request, pk)
    encounter = get_object_or_404(Encounter, campaign=campaign, pk=encounter_pk)
    context = screen_context(campaign, request.user, encounter)
    if request.htmx:
        return render(request, "sessions/_combat_screen_body.html", context)
    context["cursor"] = _log_cursor(campaign)
    return render(request, "sessions/combat_screen.html", context)
