"""Spells in a fight (§15): the numbers of a spell before and as it is cast — a healing
spell's difficulty and complexity read from its target's gauge (a character's sheet or an NPC's
stat block), an area spell's one check per named target, the incantation's spends and the
Énergie it costs — all computed by the rules engine (`rules.spells`).

`spell_preview` computes them without writing anything (the form's preview, the API's GET).
The cast itself — begun at the caster's slot, resolved at its first slot of the next round —
is `sessions.combat.spell_casts`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from campaigns.models import Campaign, SpellEntry
from campaigns.policy import is_storyteller
from rules import magic as rules_magic
from rules import reference
from rules import spells as rules_spells
from sessions.combat.harm import Fighter, fighter_of
from sessions.errors import rule_call, violation
from sessions.models import Combatant, CombatantStatus, Encounter, EncounterStatus

PLAIN, HEALING, AREA = rules_spells.PLAIN, rules_spells.HEALING, rules_spells.AREA
KINDS = {
    PLAIN: gettext_noop("Sort"),
    HEALING: gettext_noop("Sort de guérison"),
    AREA: gettext_noop("Sort de zone"),
}
MAX_AREA = 20  # checks of one area spell at most (one per target or group)
MAX_SPELL_POINTS = 1_000
MAX_ENERGY_COST = 1_000
OUT = (CombatantStatus.DEAD, CombatantStatus.LEFT)
AGGRAVATION_LABELS = {
    rules_magic.GAUGE_AT_ZERO: gettext_noop("constitution à 0"),
    rules_magic.RESILIENCE_AT_ZERO: gettext_noop("Résilience à 0"),
    rules_magic.GAUGE_IN_PERIL: gettext_noop("en péril"),
}


@dataclass(frozen=True)
class SpellRequest:
    """A spell: its check (§5: the characteristic and skill the caster names), its kind and
    the incantation's Combativité spends (§15)."""

    characteristic: str
    skills: tuple[str, ...] = ()
    kind: str = PLAIN
    name: str = ""
    complexity: int = 0  # a plain or area spell's (the Conteur's call); healing: computed
    difficulty: int = 0
    boon: int = 0
    bane: int = 0
    characteristic_value: int | None = None  # an NPC caster's, given by the Conteur
    skill_level: int | None = None
    spell_points: int = 0
    focus: int = 0
    gestures: int = 0
    words: int = 0
    components: int = 0
    overcharge: bool = False
    target: int | None = None  # healing: the combatant healed (a character or an NPC)
    gauge: str = "vitality"  # healing: the gauge healed; area: the gauge each blow strikes
    targets: int = 1  # area: the characters or groups affected
    area_targets: tuple[int, ...] = ()  # area: the combatants named (one check each)
    energy_cost: int | None = None  # Énergie (§15): typed at the cast, else the entry's
    spell: int | None = None  # the compendium's spell entry (its name, points and cost)
    wounds: int | None = None  # healing: fewer wounds than the gauge has (a lower difficulty)
    expertise: bool = False  # the caster is expert in the roll: +1d10 (§2)
    damage: int = 0  # area: each blow's base damage (the caster's column bonus is added)
    nonlethal: bool = False  # area: the blows are non-lethal (§8)


@dataclass(frozen=True)
class Healing:
    """A healing spell's difficulty and complexity, read from its target's gauge (§15)."""

    target: int
    target_name: str
    gauge: str
    maximum: int
    current: int
    wounds: int
    scars: int
    peril: bool
    resilience_points: int
    difficulty: int
    complexity: int
    scar_complexity: int
    aggravations: tuple[str, ...]

    @property
    def gauge_label(self) -> str:
        return reference.LABELS[self.gauge]

    @property
    def reasons(self) -> list[str]:
        """Why the complexity is what it is, in French: the scars' part, then each +1."""
        if self.scars:
            head = ngettext(
                "%(n)d cicatrice sur %(max)d : %(c)d",
                "%(n)d cicatrices sur %(max)d : %(c)d",
                self.scars,
            ) % {"n": self.scars, "max": self.maximum, "c": self.scar_complexity}
        else:
            head = _("aucune cicatrice : %(c)d") % {"c": self.scar_complexity}
        return [head] + [f"+1 {_(AGGRAVATION_LABELS[key])}" for key in self.aggravations]

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "aggravations": list(self.aggravations), "reasons": self.reasons}


@dataclass
class Preview:
    """What a spell would be, before it is cast."""

    caster: Combatant | None
    actions_left: int | None  # the caster's actions still to come this round
    incantation: rules_magic.Incantation | None
    spell_points: int
    healing: Healing | None = None
    checks: int = 1
    energy_paid: int = 0  # the Énergie the cast would cost (twice the cost if overcharged)
    caster_energy: int | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def total_points(self) -> int:
        extra = self.incantation.extra_points if self.incantation else 0
        return self.spell_points + extra

    def as_dict(self) -> dict[str, Any]:
        return {
            "caster": self.caster.pk if self.caster else None,
            "caster_name": self.caster.name if self.caster else "",
            "actions_left": self.actions_left,
            "incantation": asdict(self.incantation) if self.incantation else None,
            "spell_points": self.spell_points,
            "total_points": self.total_points,
            "healing": self.healing.as_dict() if self.healing else None,
            "checks": self.checks,
            "energy_paid": self.energy_paid,
            "caster_energy": self.caster_energy,
            "errors": self.errors,
        }


# --- the numbers ---------------------------------------------------------------------------------


def healing_target(campaign: Campaign, target: Combatant | None) -> Combatant:
    """The combatant a healing spell may target: one of this fight, still in it, that the
    caller sees (a character or an NPC, healed on its stat block)."""
    storyteller = is_storyteller(campaign)
    if target is None or (target.hidden and not storyteller):
        raise violation("target", _("Choisissez un combattant de ce combat à soigner."))
    if target.status in OUT:
        raise violation("target", _("Ce combattant n'est plus dans le combat."))
    return target


def healing_of(
    campaign: Campaign, target: Combatant | None, gauge: str, wounds: int | None = None
) -> Healing:
    """The healing spell on `target`'s gauge as it is now (§15): difficulty = the wounds it
    heals (all, or fewer as the caster chooses), complexity by scars against the maximum, +1
    each for the gauge at 0, Résilience at 0, péril."""
    target = healing_target(campaign, target)
    if gauge not in reference.GAUGES:
        raise violation("gauge", _("Cette constitution n'existe pas."))
    fighter = fighter_of(campaign, target)
    return healing_of_fighter(fighter, gauge, wounds)


def healing_of_fighter(fighter: Fighter, gauge: str, wounds: int | None) -> Healing:
    """`healing_of` for a fighter already loaded (and locked, when the spell resolves)."""
    state = fighter.gauges()[gauge]
    resilience = fighter.resilience_points
    figures = rule_call(
        lambda: rules_spells.healing_figures(state, resilience_points=resilience, wounds=wounds)
    )
    return Healing(
        target=fighter.combatant.pk,
        target_name=fighter.name,
        gauge=gauge,
        maximum=state.maximum,
        current=state.current,
        wounds=figures.wounds,
        scars=state.scars,
        peril=state.peril,
        resilience_points=resilience,
        difficulty=figures.difficulty,
        complexity=figures.complexity,
        scar_complexity=figures.scar_complexity,
        aggravations=figures.aggravations,
    )


def energy_of(campaign: Campaign, caster: Combatant) -> int:
    """The caster's current Énergie (its sheet's, or its stat block's)."""
    return fighter_of(campaign, caster).gauges()["energy"].current


def with_entry(campaign: Campaign, request: SpellRequest) -> SpellRequest:
    """The request completed from its compendium entry (§15 Reading, cost): the entry's name,
    points and Énergie cost, unless the cast gives its own."""
    if request.spell is None:
        return request
    entry = SpellEntry.objects.filter(campaign=campaign, pk=request.spell).first()
    if entry is None:
        raise violation("spell", _("Ce sort n'est pas dans le compendium de la campagne."))
    return replace(
        request,
        name=request.name or entry.name,
        spell_points=request.spell_points or entry.spell_points,
        energy_cost=entry.energy_cost if request.energy_cost is None else request.energy_cost,
    )


def energy_paid(request: SpellRequest, incantation: rules_magic.Incantation) -> int:
    """The Énergie the spell costs (§15): its cost, twice when overcharged."""
    if not 0 <= (request.energy_cost or 0) <= MAX_ENERGY_COST:
        raise violation(
            "energy_cost",
            _("Le coût en Énergie va de 0 à %(max)d.") % {"max": MAX_ENERGY_COST},
        )
    return rule_call(lambda: rules_spells.energy_cost(request.energy_cost or 0, incantation))


def spell_input(request: SpellRequest, **known: Any) -> rules_spells.SpellInput:
    """The rules engine's frozen inputs from a request and what the caller read of the fight
    (the caster's Énergie and actions left, the healed gauge)."""
    return rules_spells.SpellInput(
        kind=request.kind,
        spell_points=request.spell_points,
        energy_cost=request.energy_cost or 0,
        focus=request.focus,
        gestures=request.gestures,
        words=request.words,
        components=request.components,
        overcharge=request.overcharge,
        complexity=request.complexity,
        difficulty=request.difficulty,
        wounds=request.wounds,
        targets=len(request.area_targets) or request.targets,
        **known,
    )


def incantation_of(request: SpellRequest) -> rules_magic.Incantation:
    """What the incantation's spends give (§15); the engine's refusals in French."""
    if not 0 <= request.spell_points <= MAX_SPELL_POINTS:
        raise violation(
            "spell_points",
            _("Les points du sort vont de 0 à %(max)d.") % {"max": MAX_SPELL_POINTS},
        )
    return rule_call(
        lambda: rules_magic.incantation(
            request.spell_points,
            focus=request.focus,
            gestures=request.gestures,
            words=request.words,
            components=request.components,
            overcharge=request.overcharge,
        )
    )


def checks_of(request: SpellRequest) -> int:
    """An area spell: one check per character or group affected (§15); another spell: one."""
    if request.kind != AREA:
        return 1
    count = len(request.area_targets) or request.targets
    checks = rule_call(lambda: rules_magic.area_checks(count))
    if not 1 <= checks <= MAX_AREA:
        raise violation(
            "targets",
            _("Un sort de zone touche de 1 à %(max)d cibles ou groupes.") % {"max": MAX_AREA},
        )
    return checks


def later_slots(encounter: Encounter, caster_id: int) -> list[int]:
    """The indexes of the caster's slots after the one acting now, in this round's order."""
    return [
        index
        for index in range(encounter.position + 1, len(encounter.order))
        if encounter.order[index]["combatant"] == caster_id
    ]


def _acting(encounter: Encounter) -> Combatant | None:
    if encounter.status != EncounterStatus.RUNNING or not encounter.order:
        return None
    slot = encounter.order[min(encounter.position, len(encounter.order) - 1)]
    return Combatant.objects.select_related("character").filter(pk=slot["combatant"]).first()


def spell_preview(*, campaign: Campaign, encounter: Encounter, request: SpellRequest) -> Preview:
    """The spell's numbers before it is cast, nothing written: each refusal the cast would
    meet is listed in `errors` (in French) instead of raised."""
    errors: list[str] = []
    request = _collect(errors, lambda: with_entry(campaign, request)) or request
    caster = _acting(encounter)
    if caster is not None and caster.hidden and not is_storyteller(campaign):
        caster = None  # a player does not learn what a hidden NPC may do
    left = len(later_slots(encounter, caster.pk)) if caster is not None else None
    incantation = _collect(errors, lambda: incantation_of(request))
    preview = Preview(caster, left, incantation, request.spell_points)
    if incantation is not None and left is not None:
        _collect(
            errors,
            lambda: rule_call(
                lambda: rules_magic.incantation_actions(incantation, actions_left=left)
            ),
        )
    checks = _collect(errors, lambda: checks_of(request))
    preview.checks = checks if checks is not None else 0
    if incantation is not None:
        preview.energy_paid = _collect(errors, lambda: energy_paid(request, incantation)) or 0
    if caster is not None:
        preview.caster_energy = energy_of(campaign, caster)
        if preview.energy_paid > preview.caster_energy:
            errors.append(
                _("Le sort coûte %(paid)d d'Énergie et %(name)s n'en a que %(has)d.")
                % {"paid": preview.energy_paid, "name": caster.name, "has": preview.caster_energy}
            )
    if request.kind == HEALING:
        target = encounter.combatants.filter(pk=request.target or 0).first()
        preview.healing = _collect(
            errors, lambda: healing_of(campaign, target, request.gauge, request.wounds)
        )
    preview.errors = errors
    return preview


def _collect(errors: list[str], call):
    try:
        return call()
    except ValidationError as error:
        errors.extend(error.messages)
        return None
