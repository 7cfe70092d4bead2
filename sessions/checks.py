"""A check before it is rolled: what the player declares, and the engine's Check it becomes (§5).

The sheet adds its own dice (Épuisement, Découragement, special states, injuries) and Agonie;
`check_prepare` turns a declaration and a sheet into the rules engine's `Check` with those dice
and their French causes, for the roll itself and for the odds shown beside the form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from characters.models import Character, SpecialState
from characters.services import rule_error_to_validation_error
from rules import morale as rules_morale
from rules import reference
from rules import sheet as rules_sheet
from rules import states as rules_states
from rules.check import (
    EXPLODING_FACE,
    SUBTRACTING_FACE,
    Check,
    combined_skill,
    critical_faces,
    hope_substitute,
    morale_points,
)
from rules.errors import RuleError
from rules.gauges import Gauge
from sessions.errors import violation
from sessions.injuries import injury_effect
from sessions.models import Injury

# §1: the nine main characteristics, then the six secondary ones (column and row scores).
MAIN_CHARACTERISTICS: tuple[str, ...] = reference.CHARACTERISTICS
SECONDARY_CHARACTERISTICS: tuple[str, ...] = (*reference.COLUMNS, *reference.ROWS)
CHARACTERISTIC_KEYS: tuple[str, ...] = (*MAIN_CHARACTERISTICS, *SECONDARY_CHARACTERISTICS)
ROLLED_SKILLS: tuple[reference.Skill, ...] = tuple(s for s in reference.SKILLS if s.rolled)
MAX_DICE_INPUT = 20


def characteristic_label(key: str) -> str:
    return reference.LABELS.get(key, key)


def skill_label(key: str) -> str:
    skill = reference.SKILLS_BY_KEY.get(key)
    return skill.label if skill else key


@dataclass(frozen=True)
class RollRequest:
    """What a player declares before rolling (§5), shape-checked by forms and serializers.

    `boon`/`bane` are the dice the situation adds (the Conteur's call); the sheet's own dice
    (Épuisement, Découragement, Descente, special states) and Agonie are added by the service.
    `impact` buys boon dice with Impact points; `hope` buys +1 each. The hope options cost one
    hope point each, the despair options one despair point each, from `*_source`."""

    characteristic: str
    skills: tuple[str, ...] = ()
    complexity: int = 0
    difficulty: int = 0
    expertise: bool = False
    boon: int = 0
    bane: int = 0
    impact: int = 0
    hope: int = 0
    hope_source: str = rules_morale.PERSONAL
    cancel_critical_failure: bool = False
    substitute: bool = False  # hope: Puissance for a main characteristic, Harmonie for a secondary
    despair_source: str = rules_morale.PERSONAL
    narrow_success: bool = False
    fury: bool = False  # despair: enter Acharnement
    fortune_fate: bool = False  # despair: every character +1 Fortune, the Conteur +1 Fatalité
    # A roll with no character (the Conteur's NPC) gives its values directly.
    characteristic_value: int | None = None
    skill_level: int | None = None
    label: str = ""
    injuries: tuple[int, ...] = ()  # the roller's injuries that hinder this roll (§8)
    # An ability's widened critical ranges (§5): critical success from this face, failure up to it.
    critical_success_from: int = EXPLODING_FACE
    critical_failure_to: int = SUBTRACTING_FACE
    # Set by the combat services only (never a form's or a serializer's field): the value the
    # rules chose for a defence (armour, Force with a shield…), and a roll with none of the
    # sheet's alterations (a player character defending against another, Reading §13).
    value_override: int | None = None
    plain: bool = False
    # An NPC's own Agonie (Reading §8 "Agonie in a fight": it counts on its rolls too).
    npc_agony: int = 0

    @property
    def morale_points(self) -> tuple[int, int]:
        """The (hope, despair) points the declared options cost, by the rules engine (§5)."""
        try:
            return morale_points(
                hope=self.hope,
                cancel_critical_failure=self.cancel_critical_failure,
                substitute=self.substitute,
                narrow_success=self.narrow_success,
                fury=self.fury,
                fortune_fate=self.fortune_fate,
            )
        except RuleError as error:
            raise rule_error_to_validation_error(error) from error

    @property
    def hope_points(self) -> int:
        return self.morale_points[0]

    @property
    def despair_points(self) -> int:
        return self.morale_points[1]

    def to_dict(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["skills"] = list(self.skills)
        data["injuries"] = list(self.injuries)
        # The effects Apaisement paid for, each by the opposite point the Moral gained (§7).
        data["hope_by_serenity"] = self.hope_points * (self.hope_source == rules_morale.SERENITY)
        data["despair_by_serenity"] = self.despair_points * (
            self.despair_source == rules_morale.SERENITY
        )
        return data


@dataclass(frozen=True)
class Cause:
    """A die or point the sheet adds by itself, with its French cause, shown beside the form."""

    kind: str  # "boon" | "bane" | "agony"
    count: int
    label: str


@dataclass(frozen=True)
class PreparedCheck:
    """The engine's Check and how it was made: values used and the sheet's automatic dice."""

    check: Check
    characteristic_value: int
    skill_level: int
    causes: tuple[Cause, ...] = ()
    substituted_by: str = ""  # "might" | "harmony" when hope replaces the characteristic


# --- the sheet's condition --------------------------------------------------------------------


def _characteristics(character: Character) -> rules_sheet.Characteristics:
    return rules_sheet.Characteristics(
        **{name: getattr(character, name) for name in MAIN_CHARACTERISTICS}
    )


def characteristic_value(character: Character, key: str) -> int:
    """A main characteristic as stored, or a secondary one (column or row score) from the rules."""
    if key in MAIN_CHARACTERISTICS:
        return getattr(character, key)
    chars = _characteristics(character)
    if key in reference.COLUMNS:
        return rules_sheet.column_score(chars, key)
    return rules_sheet.row_score(chars, key)


def sheet_gauge(character: Character, name: str) -> Gauge:
    """One gauge of the sheet as the rules engine sees it (§3)."""
    return Gauge(
        maximum=rules_sheet.gauge_maximum(
            getattr(character, f"premice_{name}"), character.exaltation
        ),
        current=getattr(character, f"{name}_current"),
        scars=getattr(character, f"{name}_scars"),
        ephemeral=getattr(character, f"{name}_ephemeral"),
        stabilised=getattr(character, f"{name}_stabilised"),
        peril=getattr(character, f"{name}_peril"),
    )


def is_discouraged(character: Character) -> bool:
    """Découragement (§8): Confiance collapsed, computed by the rules engine, or kept on the sheet
    after one big hit until the next rest (Reading §8)."""
    return character.discouraged or rules_states.gauge_collapsed(
        sheet_gauge(character, "confidence")
    )


def _state(character: Character | None) -> str | None:
    if character is None or character.special_state == SpecialState.NONE:
        return None
    return character.special_state


def condition_of(character: Character) -> rules_states.Condition:
    """The sheet's harm tracks, special state and gauges, for the rules engine (§7, §8)."""
    return rules_states.Condition(
        fragility=character.fragility,
        exhaustion=character.exhaustion,
        aggravation=character.aggravation,
        agony=character.agony,
        agony_locked=character.agony_locked,
        state=_state(character),
        discouraged=is_discouraged(character),
        gauges={name: sheet_gauge(character, name) for name in reference.GAUGES},
    )


def sheet_causes(character: Character | None) -> tuple[Cause, ...]:
    """The boon and bane dice and the Agonie the sheet implies on every roll (§5, §7, §8)."""
    if character is None:
        return ()
    condition = condition_of(character)
    state = condition.state
    causes: list[Cause] = []
    boon, bane = rules_states.state_dice(state)
    if boon:
        causes.append(Cause("boon", boon, rules_states.STATE_LABELS[state]))
    if condition.exhaustion:
        causes.append(
            Cause(
                "bane",
                condition.exhaustion,
                _("Épuisement %(exhaustion)s") % {"exhaustion": condition.exhaustion},
            )
        )
    if condition.discouraged:
        causes.append(Cause("bane", 1, _("Découragement")))
    if bane:
        causes.append(Cause("bane", bane, rules_states.STATE_LABELS[state]))
    agony = rules_states.effective_agony(condition.agony, state)
    if agony:
        causes.append(Cause("agony", agony, _("Agonie %(agony)s") % {"agony": agony}))
    elif condition.agony:
        causes.append(
            Cause(
                "agony",
                0,
                _("Agonie %(agony)s ignorée (état spécial)") % {"agony": condition.agony},
            )
        )
    return tuple(causes)


# --- from a declaration to the engine's Check -------------------------------------------------


def check_prepare(
    *,
    request: RollRequest,
    character: Character | None,
    state: str | None = None,
    injuries: Sequence[Injury] = (),
) -> PreparedCheck:
    """Turn a declaration and a sheet into the engine's Check (§5), with the sheet's own dice.

    `state` overrides the character's special state (a roll that enters Acharnement first);
    `injuries` are the roller's injuries the player says hinder this roll (their dice, §8)."""
    if request.characteristic not in CHARACTERISTIC_KEYS:
        raise violation("characteristic", _("Cette caractéristique n'existe pas."))
    if character is None:
        value, level, substituted = _npc_characteristic(request), request.skill_level or 0, ""
        condition = rules_states.Condition(agony=max(request.npc_agony, 0))
        causes: tuple[Cause, ...] = (
            (Cause("agony", condition.agony, f"Agonie {condition.agony}"),)
            if condition.agony
            else ()
        )
    else:
        level = _skill_level(request, character)
        if state is not None:
            character = _with_state(character, state)
        value, substituted = _rolled_characteristic(request, character)
        if request.value_override is not None:
            value = request.value_override
        causes = () if request.plain else sheet_causes(character)
        condition = rules_states.Condition() if request.plain else condition_of(character)
    wounds = _injury_causes(injuries)
    check = _engine_check(
        request,
        skill=level,
        characteristic=value,
        condition=condition,
        injury_bane=sum(cause.count for cause in wounds),
    )
    return PreparedCheck(check, value, level, (*causes, *wounds), substituted)


def _npc_characteristic(request: RollRequest) -> int:
    """A roll without a character gives its characteristic's value itself."""
    if request.characteristic_value is None:
        raise violation(
            "characteristic_value", _("Sans personnage, donnez la valeur de la caractéristique.")
        )
    return request.characteristic_value


def _skill_rows(character: Character) -> dict[str, Any]:
    """The sheet's skill rows by key (its prefetched ones when the caller prefetched them)."""
    return {row.key: row for row in character.skills.all()}


def _skill_level(request: RollRequest, character: Character) -> int:
    """The combined level of the rolled skills (0 for one the sheet lacks), refusing theoretical
    and unknown skills, and an expertise the character does not have."""
    rows = _skill_rows(character)
    levels = []
    for key in request.skills:
        row = rows.get(key)
        skill = reference.SKILLS_BY_KEY.get(key)
        if skill is not None and not skill.rolled:
            raise violation(
                "skills",
                _("%(label)s est une compétence théorique : elle ne se lance pas.")
                % {"label": skill.label},
            )
        if skill is None and row is None:
            raise violation("skills", _("Compétence inconnue : « %(key)s ».") % {"key": key})
        levels.append(row.level if row is not None else 0)
    if request.expertise and not any(
        rows.get(key) is not None and rows[key].expertises for key in request.skills
    ):
        raise violation(
            "expertise", _("Ce personnage n'a aucune expertise dans la compétence lancée.")
        )
    return combined_skill(*levels)


def _rolled_characteristic(request: RollRequest, character: Character) -> tuple[int, str]:
    """The characteristic's value, or Puissance / Harmonie when hope substitutes it."""
    if not request.substitute:
        return characteristic_value(character, request.characteristic), ""
    chars = _characteristics(character)
    main = request.characteristic in MAIN_CHARACTERISTICS
    value = hope_substitute(
        "main" if main else "secondary", rules_sheet.might(chars), rules_sheet.harmony(chars)
    )
    return value, "might" if main else "harmony"


def _injury_causes(injuries: Sequence[Injury]) -> tuple[Cause, ...]:
    """The impuissance dice of the declared injuries (§8), one cause each."""
    causes = []
    for injury in injuries:
        effect = injury_effect(injury)
        if effect is not None and effect.bane_dice:
            causes.append(
                Cause("bane", effect.bane_dice, _("Blessure : %(label)s") % {"label": effect.label})
            )
    return tuple(causes)


def _engine_check(
    request: RollRequest,
    *,
    skill: int,
    characteristic: int,
    condition: rules_states.Condition,
    injury_bane: int,
) -> Check:
    """The rules engine's Check, its refusals translated once into a ValidationError."""
    try:
        success_faces, failure_faces = critical_faces(
            request.critical_success_from, request.critical_failure_to
        )
        return Check(
            skill=skill,
            complexity=request.complexity,
            characteristic=characteristic,
            difficulty=request.difficulty,
            expertise=request.expertise,
            boon=request.boon + rules_states.boon_dice(condition, impact_points=request.impact),
            bane=request.bane + rules_states.bane_dice(condition, injury_bane=injury_bane),
            hope=request.hope,
            agony=rules_states.effective_agony(condition.agony, condition.state),
            cancel_critical_failure=request.cancel_critical_failure,
            narrow_success=request.narrow_success,
            critical_success_faces=success_faces,
            critical_failure_faces=failure_faces,
        )
    except RuleError as error:
        raise rule_error_to_validation_error(error) from error


def _with_state(character: Character, state: str) -> Character:
    """A copy of the sheet's values in another special state (its skills are read before)."""
    clone = Character(**{f.attname: getattr(character, f.attname) for f in Character._meta.fields})
    clone.special_state = state
    return clone
