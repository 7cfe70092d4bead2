"""Experience (§10): the end-of-arc award from the Conteur's checklist, XP costs, and whether a
character may spend XP on an improvement (with French reasons when not)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field

from rules import reference as ref
from rules.creation import characteristic_maximum
from rules.errors import RuleError, RuleViolation, raise_if
from rules.morale import PERSONAL, Morale, Transition, spend_hope
from rules.states import SPECIAL_STATES


@dataclass(frozen=True)
class GroupChecklist:
    """What the Conteur ticks for the whole group at the end of an arc (§10)."""

    danger: int
    balance: frozenset[str] = frozenset()
    ingenuity: frozenset[str] = frozenset()
    ending: str = "none"  # "none" | "chapter" | "act"
    ending_items: frozenset[str] = frozenset()
    length: str = "hours"  # hours, days, weeks, months, years


@dataclass(frozen=True)
class CharacterChecklist:
    """What the Conteur ticks for one character: its bounty and its optional objectives."""

    character: str
    bounty: frozenset[str] = frozenset({"took_part"})
    optional_objectives: int = 0


@dataclass(frozen=True)
class AwardLine:
    label: str
    points: int


@dataclass(frozen=True)
class Award:
    character: str
    total: int
    lines: tuple[AwardLine, ...]

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def _ticked(
    items: tuple[ref.ChecklistItem, ...], keys: Iterable[str], name: str
) -> list[ref.ChecklistItem]:
    known = {i.key for i in items}
    unknown = sorted(set(keys) - known)
    if unknown:
        raise RuleError.single(name, f"Case inconnue dans la liste : {', '.join(unknown)}.")
    return [i for i in items if i.key in set(keys)]


def checklist_violations(group: GroupChecklist) -> list[RuleViolation]:
    """Return what makes the group checklist impossible, in French."""
    found = []
    if group.danger not in ref.DANGER_LEVELS:
        found.append(RuleViolation("danger", "Le danger se choisit entre 1 et 5."))
    if "even_speech" in group.balance and "no_monopoly" not in group.balance:
        found.append(
            RuleViolation(
                "balance",
                "La parole équilibrée s'ajoute seulement si personne n'a monopolisé la parole.",
            )
        )
    if group.ending not in ref.ENDING_BASE:
        found.append(RuleViolation("ending", "La fin est celle d'un chapitre, d'un acte, ou rien."))
    elif group.ending == "none" and group.ending_items:
        found.append(
            RuleViolation(
                "ending_items", "Sans fin de chapitre ou d'acte, ces cases ne comptent pas."
            )
        )
    if group.length not in ref.LENGTH_MULTIPLIERS:
        found.append(
            RuleViolation(
                "length", "La durée de l'arc est en heures, jours, semaines, mois ou années."
            )
        )
    return found


def award(group: GroupChecklist, characters: Iterable[CharacterChecklist]) -> dict[str, Award]:
    """Reading (§10): award = (danger + balance + ingenuity + bounty + end of chapter/act) ×
    length multiplier + optional objectives; bounty and optional objectives are per character.
    Return each character's total with a line-by-line breakdown."""
    raise_if(checklist_violations(group))
    shared = [AwardLine(f"Danger : {ref.DANGER_LEVELS[group.danger]}", group.danger)]
    shared += [
        AwardLine(f"Équilibre : {i.label}", i.points)
        for i in _ticked(ref.BALANCE_ITEMS, group.balance, "balance")
    ]
    shared += [
        AwardLine(f"Ingéniosité : {i.label}", i.points)
        for i in _ticked(ref.INGENUITY_ITEMS, group.ingenuity, "ingenuity")
    ]
    if group.ending != "none":
        base = ref.ENDING_BASE[group.ending]
        shared.append(AwardLine("Fin d'acte" if group.ending == "act" else "Fin de chapitre", base))
        shared += [
            AwardLine(f"Fin : {i.label}", i.points)
            for i in _ticked(ref.ENDING_ITEMS, group.ending_items, "ending_items")
        ]
    multiplier = ref.LENGTH_MULTIPLIERS[group.length]
    awards = {}
    for sheet in characters:
        if sheet.optional_objectives < 0:
            raise RuleError.single("optional_objectives", "Le nombre d'objectifs est positif.")
        lines = list(shared)
        lines += [
            AwardLine(f"Prime : {i.label}", i.points)
            for i in _ticked(ref.BOUNTY_ITEMS, sheet.bounty, "bounty")
        ]
        subtotal = sum(line.points for line in lines)
        lines.append(
            AwardLine(f"Durée de l'arc ({ref.LENGTH_LABELS[group.length]}) : ×{multiplier}", 0)
        )
        optional = sheet.optional_objectives * ref.OPTIONAL_OBJECTIVE_POINTS
        if optional:
            lines.append(AwardLine("Objectifs optionnels", optional))
        total = subtotal * multiplier + optional
        awards[sheet.character] = Award(sheet.character, total, tuple(lines))
    return awards


@dataclass(frozen=True)
class Improvement:
    """Something a character wants to buy with XP (§10)."""

    kind: str  # characteristic, skill, combativeness, forgotten_domain, ability, specialty
    target: str = ""  # the characteristic, skill, domain or ability; a specialty's skill
    level: int = 0  # current level of a skill or domain
    tier: str = ""  # ability tier: founding, superior, heroic, legendary, supreme


@dataclass(frozen=True)
class ActRecord:
    """What the sheet knows about the current act and arc (the roll log plus the Conteur's ticks)."""

    improved_this_act: frozenset[tuple[str, str]] = frozenset()
    # Still in training (queued or running): counts as this act's one, but is not made yet.
    training_this_act: frozenset[tuple[str, str]] = frozenset()
    used_in_arc: frozenset[str] = frozenset()
    opposition_levels: Mapping[str, int] = field(default_factory=dict)
    # Reading (§10): the Conteur ticks one opposition level per character for the arc (the
    # highest it faced); it counts for every skill and forgotten domain (`opposition_level_for`).
    opposition_level: int | None = None
    faced_more_combative_enemy: bool = False
    nearly_died: bool = False
    means_for: frozenset[str] = frozenset()  # theoretical skills the Conteur ticked


def xp_cost(improvement: Improvement) -> int:
    """Return the XP cost of an improvement (§10 table)."""
    if improvement.kind == "ability":
        if improvement.tier not in ref.ABILITY_XP_COSTS:
            raise RuleError.single("tier", "Le rang de l'aptitude est inconnu.")
        return ref.ABILITY_XP_COSTS[improvement.tier]
    if improvement.kind not in ref.XP_COSTS:
        raise RuleError.single("kind", "Ce type d'amélioration n'existe pas.")
    return ref.XP_COSTS[improvement.kind]


def opposition_level_for(record: ActRecord, target: str) -> int:
    """Return the opposition level faced for `target` during the arc (-1: none): the one named for
    it, or the arc's level the Conteur ticked, which counts for every skill and domain (Reading
    §10), whichever is higher."""
    named = record.opposition_levels.get(target, -1)
    return max(named, -1 if record.opposition_level is None else record.opposition_level)


def improvement_maximum(kind: str, *, favourite_bonus: int = 0) -> int | None:
    """Return the highest value an improvement may reach (None: no level, an ability or a
    specialty): a main characteristic 8 + the species' favourite bonus for it (§1), Combativité 5
    (§1), a skill or forgotten domain 10 (§2)."""
    if kind == "characteristic":
        return characteristic_maximum(favourite_bonus)
    if kind == "combativeness":
        return ref.COMBATIVENESS_MAX
    if kind in ("skill", "forgotten_domain"):
        return ref.SKILL_MAX
    return None


def raised(kind: str, current: int, *, favourite_bonus: int = 0) -> int:
    """Return the value after one more point of a characteristic, Combativité, skill or
    forgotten domain, refused in French past its maximum (`improvement_maximum`)."""
    highest = improvement_maximum(kind, favourite_bonus=favourite_bonus)
    if highest is not None and current + 1 > highest:
        what = {
            "characteristic": "Cette caractéristique",
            "combativeness": "La Combativité",
        }.get(kind, "Cette compétence")
        raise RuleError.single("target", f"{what} est déjà au plus haut ({highest}).")
    return current + 1


# The reason a page explains (how to unlock it) when it locks an improvement.
NOT_USED_IN_ARC = (
    "Seul ce qui a été utilisé pendant l'arc peut être amélioré : un jet à une séance de l'arc, "
    "ou la case « Utilisé pendant l'arc » que le Conteur coche à sa clôture."
)
ONCE_PER_ACT = frozenset({"characteristic", "skill", "combativeness", "forgotten_domain"})
OPPOSITION_NEEDED = frozenset({"skill", "forgotten_domain"})


def can_spend(
    improvement: Improvement, record: ActRecord, xp_available: int
) -> tuple[bool, list[str]]:
    """Return (allowed, reasons in French): cost covered, once per act, used during the arc (a
    theoretical skill needs the means instead), opposition at or above the level for skills and
    forgotten domains, a more combative enemy or nearly dying for Combativité (§10)."""
    reasons: list[str] = []
    cost = xp_cost(improvement)
    kind, target = improvement.kind, improvement.target
    if xp_available < cost:
        reasons.append(f"Il faut {cost} points d'expérience, il n'en reste que {xp_available}.")
    if kind in ONCE_PER_ACT and (kind, target) in record.improved_this_act:
        reasons.append("Cette amélioration a déjà été faite une fois pendant cet acte.")
    elif kind in ONCE_PER_ACT and (kind, target) in record.training_this_act:
        reasons.append(
            "Cette amélioration est déjà à l'entraînement pendant cet acte : "
            "elle sera faite à la fin de son entraînement (une fois par acte)."
        )
    skill = ref.SKILLS_BY_KEY.get(target)
    theoretical = skill is not None and not skill.rolled
    needs_means = kind in {"skill", "specialty"} and theoretical
    if needs_means and target not in record.means_for:
        reasons.append(
            "Une compétence théorique ne progresse que si le personnage en a obtenu les moyens."
        )
    improves_use = kind in {"characteristic", "skill", "forgotten_domain", "specialty"}
    if improves_use and not needs_means and target not in record.used_in_arc:
        reasons.append(NOT_USED_IN_ARC)
    if kind in OPPOSITION_NEEDED and opposition_level_for(record, target) < improvement.level:
        reasons.append(
            "Il faut avoir affronté une opposition de niveau au moins égal "
            f"({improvement.level}) pendant l'arc."
        )
    if kind == "combativeness" and not (record.faced_more_combative_enemy or record.nearly_died):
        reasons.append(
            "La Combativité progresse après un ennemi plus combatif ou après avoir frôlé la mort."
        )
    return not reasons, reasons


SPENDING_MODES = ("training", "hope", "on_receipt", "special_state")
SPENDING_MODE_LABELS: Mapping[str, str] = {
    "training": "à l'entraînement",
    "hope": "point d'espoir",
    "on_receipt": "à la réception",
    "special_state": "état spécial",
}


def needs_training_time(mode: str) -> bool:
    """Reading (§10): XP spent with a hope point, right when received or, in a special state, as
    leftover experience distributed (§7) takes no training time; spent in training during an
    ellipse it does (§11)."""
    if mode not in SPENDING_MODES:
        raise RuleError.single(
            "mode",
            "L'expérience se dépense à l'entraînement, avec un point d'espoir, à la réception "
            "ou dans un état spécial.",
        )
    return mode == "training"


def just_received(*, last_arc_paid: bool, paid_arc_is_current: bool) -> bool:
    """Reading (§10) of "right when it is received": from the moment the last closed arc's award
    is paid until the next arc begins."""
    return last_arc_paid and paid_arc_is_current


def spend_hope_for_xp(morale: Morale, key: str) -> Transition:
    """Spend the hope point that pays for spending XP now (§10). Reading: it is the character's
    own hope (personal, §6), never the group's Moral; the Moral's rules spend it (an event for the
    table's log)."""
    return spend_hope(morale, key, PERSONAL)


def spending_now_refusals(
    mode: str, *, personal_hope: int, received_now: bool, state: str | None
) -> list[str]:
    """Return, in French, why XP may not be spent now in `mode` (empty: it may). §10: with a hope
    point (the character's own, Reading) or right when it is received; §7: in a special state
    (Zone, Acharnement, Flamboyance, Apaisement) leftover experience may be distributed."""
    if needs_training_time(mode):
        return ["Dépensez avec un point d'espoir, à la réception ou dans un état spécial."]
    if mode == "hope" and personal_hope < 1:
        return ["Il faut un point d'espoir personnel pour dépenser ainsi."]
    if mode == "on_receipt" and not received_now:
        return ["L'expérience se dépense à la réception seulement juste après la fin d'un arc."]
    if mode == "special_state" and state not in SPECIAL_STATES:
        return [
            "L'expérience restante se répartit seulement dans un état spécial (Zone, "
            "Acharnement, Flamboyance ou Apaisement)."
        ]
    return []
