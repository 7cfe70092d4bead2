"""The Moral (§6) as a pure state machine: every move returns (new state, events for the log)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import asdict, dataclass, replace

from rules.check import RandomSource, system_rng
from rules.errors import RuleError
from rules.french import de, plural
from rules.sheet import personal_point_cap

GROUP = "group"
PERSONAL = "personal"
SERENITY = "serenity"  # Apaisement: the effect is paid by the opposite point the Moral gains


@dataclass(frozen=True)
class Member:
    """A player character as the Moral sees it: its personal points and Exaltation."""

    key: str
    exaltation: int
    hope: int = 0
    despair: int = 0
    serenity: bool = False  # in Apaisement: may not spend Moral points (§7)

    @property
    def cap(self) -> int:
        return personal_point_cap(self.exaltation)


@dataclass(frozen=True)
class Morale:
    """The group's hope H and despair D; capacity = number of player characters (§6)."""

    hope: int = 0
    despair: int = 0
    members: tuple[Member, ...] = ()

    @property
    def capacity(self) -> int:
        return len(self.members)

    @property
    def room(self) -> int:
        return self.capacity - self.hope - self.despair

    @property
    def galvanized(self) -> bool:
        """Galvanisé iff H = capacity > 0 (§6)."""
        return self.capacity > 0 and self.hope == self.capacity

    @property
    def tormented(self) -> bool:
        """Tourmenté iff D = capacity > 0 (§6)."""
        return self.capacity > 0 and self.despair == self.capacity

    def member(self, key: str) -> Member:
        for m in self.members:
            if m.key == key:
                return m
        raise RuleError.single("member", f"Le personnage « {key} » ne fait pas partie du groupe.")

    def is_calm(self, key: str) -> bool:
        """Calme iff H = D = 0 and the character holds no personal point (§6)."""
        m = self.member(key)
        return self.hope == 0 and self.despair == 0 and m.hope == 0 and m.despair == 0


@dataclass(frozen=True)
class MoraleEvent:
    """One logged change: `kind` for code, `message` in French for the log."""

    kind: str
    message: str
    member: str | None = None

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


Transition = tuple[Morale, list[MoraleEvent]]


def _with_member(morale: Morale, member: Member) -> Morale:
    members = tuple(member if m.key == member.key else m for m in morale.members)
    return replace(morale, members=members)


def gain_hope(morale: Morale, taker: str | None = None) -> Transition:
    """The group gains a hope point (§6): room left → H+1; else if D > 0 → D−1; else, Galvanisé,
    `taker` may take it as personal hope; otherwise it is lost."""
    if morale.room > 0:
        return replace(morale, hope=morale.hope + 1), [
            MoraleEvent("group_hope_gained", "Le groupe gagne 1 point d'espoir.")
        ]
    if morale.despair > 0:
        return replace(morale, despair=morale.despair - 1), [
            MoraleEvent("group_despair_removed", "Le Moral est plein : 1 point de désespoir part.")
        ]
    if morale.galvanized and taker is not None:
        return gain_personal_hope(morale, taker)
    return morale, [MoraleEvent("hope_lost", "Le Moral est plein : le point d'espoir est perdu.")]


def gain_despair(morale: Morale, taker: str | None = None) -> Transition:
    """The group gains a despair point (§6): room left → D+1; else if H > 0 → H−1; else,
    Tourmenté, a character (`taker`, or the first who can) takes it as personal despair; if none
    can, every character takes 1 Fragilité (reported as events for the caller to apply)."""
    if morale.room > 0:
        return replace(morale, despair=morale.despair + 1), [
            MoraleEvent("group_despair_gained", "Le groupe gagne 1 point de désespoir.")
        ]
    if morale.hope > 0:
        return replace(morale, hope=morale.hope - 1), [
            MoraleEvent("group_hope_removed", "Le Moral est plein : 1 point d'espoir part.")
        ]
    candidates = [m for m in morale.members if m.despair < m.cap]
    if taker is not None:
        candidates = [m for m in candidates if m.key == taker] or candidates
    if candidates:
        m = candidates[0]
        return _with_member(morale, replace(m, despair=m.despair + 1)), [
            MoraleEvent("personal_despair_gained", f"{m.key} prend 1 point de désespoir.", m.key)
        ]
    return morale, [
        MoraleEvent("fragility", f"{m.key} subit 1 point de Fragilité (Tourmente).", m.key)
        for m in morale.members
    ]


def gain_personal_hope(morale: Morale, key: str) -> Transition:
    """A character gains personal hope, capped at Exaltation/2 rounded up; extra is lost (§6)."""
    m = morale.member(key)
    if m.hope >= m.cap:
        return morale, [
            MoraleEvent("hope_lost", f"{key} a déjà le maximum d'espoir : le point est perdu.", key)
        ]
    return _with_member(morale, replace(m, hope=m.hope + 1)), [
        MoraleEvent("personal_hope_gained", f"{key} gagne 1 point d'espoir personnel.", key)
    ]


def gain_personal_despair(morale: Morale, key: str) -> Transition:
    """A character gains personal despair, capped; extra despair goes to the group (§6)."""
    m = morale.member(key)
    if m.despair >= m.cap:
        state, events = gain_despair(morale)
        note = MoraleEvent(
            "despair_to_group", f"{key} a déjà le maximum de désespoir : il va au groupe.", key
        )
        return state, [note, *events]
    return _with_member(morale, replace(m, despair=m.despair + 1)), [
        MoraleEvent("personal_despair_gained", f"{key} gagne 1 point de désespoir personnel.", key)
    ]


def _spend(morale: Morale, key: str, kind: str, source: str) -> Transition:
    m = morale.member(key)
    word = "d'espoir" if kind == "hope" else "de désespoir"
    if source == SERENITY:
        return serenity_effect(morale, key, kind)
    if m.serenity:
        raise RuleError.single(
            source,
            f"{key} est en Apaisement : il ne dépense aucun point du Moral, il use de l'effet "
            "par l'Apaisement.",
        )
    if source == PERSONAL:
        if getattr(m, kind) < 1:
            raise RuleError.single(source, f"{key} n'a aucun point {word} personnel.")
        state = _with_member(morale, replace(m, **{kind: getattr(m, kind) - 1}))
        return state, [
            MoraleEvent(f"{kind}_spent", f"{key} dépense 1 point {word} personnel.", key)
        ]
    if source != GROUP:
        raise RuleError.single(
            "source", "La source doit être le groupe, le personnage ou l'Apaisement."
        )
    if morale.tormented and (m.hope or m.despair):
        raise RuleError.single(
            source,
            f"Le groupe est Tourmenté : {key} a des points personnels et ne peut pas utiliser "
            "le Moral.",
        )
    if getattr(morale, kind) < 1:
        raise RuleError.single(source, f"Le Moral du groupe n'a aucun point {word}.")
    state = replace(morale, **{kind: getattr(morale, kind) - 1})
    return state, [MoraleEvent(f"{kind}_spent", f"{key} dépense 1 point {word} du groupe.", key)]


def spend_hope(morale: Morale, key: str, source: str = GROUP) -> Transition:
    """A character spends a hope point, declared before the roll, from the group or its own; in
    Apaisement (source SERENITY) the effect costs no point and the Moral gains a despair (§7)."""
    return _spend(morale, key, "hope", source)


def spend_despair(morale: Morale, key: str, source: str = GROUP) -> Transition:
    """A character spends a despair point, from the group or its own (§6)."""
    return _spend(morale, key, "despair", source)


def serenity_effect(morale: Morale, key: str, effect: str) -> Transition:
    """Apaisement (§7): a character uses a hope or despair effect without spending; the Moral gains
    the opposite point. Not while the Moral is full. Reading: in Apaisement a character pays its
    effects only this way, never with the group's points nor its own (`_spend` refuses them)."""
    m = morale.member(key)
    if not m.serenity:
        raise RuleError.single("serenity", f"{key} n'est pas en Apaisement.")
    if morale.room <= 0:
        raise RuleError.single("serenity", "Le Moral est plein : l'Apaisement ne peut pas servir.")
    state, events = gain_despair(morale) if effect == "hope" else gain_hope(morale)
    used = "d'espoir" if effect == "hope" else "de désespoir"
    return state, [MoraleEvent("serenity_effect", f"{key} use d'un effet {used}.", key), *events]


@dataclass(frozen=True)
class ExploitResult:
    dice: tuple[int, ...]
    degree: int  # the die (hope) or the better die (despair)
    fragility: int  # Fragilité points the group shares out (despair exploit)


def _require_unanimity(morale: Morale, agreeing: Collection[str]) -> None:
    missing = [m.key for m in morale.members if m.key not in set(agreeing)]
    if missing:
        raise RuleError.single(
            "agreeing", "Un exploit demande l'unanimité ; manquent : " + ", ".join(missing) + "."
        )


def hope_exploit(
    morale: Morale, agreeing: Collection[str], rng: RandomSource | None = None
) -> tuple[Morale, list[MoraleEvent], ExploitResult]:
    """Galvanisé, by unanimity: spend all hope on an exploit, rolling 1d10 against the Conteur's
    difficulty (§6)."""
    if not morale.galvanized:
        raise RuleError.single("hope", "Le groupe doit être Galvanisé pour tenter cet exploit.")
    _require_unanimity(morale, agreeing)
    die = (rng or system_rng()).randint(1, 10)
    result = ExploitResult((die,), die, 0)
    return (
        replace(morale, hope=0),
        [
            MoraleEvent(
                "hope_exploit", f"Exploit d'espoir : tout l'espoir est dépensé, le dé donne {die}."
            )
        ],
        result,
    )


def despair_exploit(
    morale: Morale, agreeing: Collection[str], rng: RandomSource | None = None
) -> tuple[Morale, list[MoraleEvent], ExploitResult]:
    """Tourmenté, by unanimity: spend all despair, roll 2d10; the better die is the degree of
    success, the other the Fragilité points the group shares out (§6)."""
    if not morale.tormented:
        raise RuleError.single("despair", "Le groupe doit être Tourmenté pour tenter cet exploit.")
    _require_unanimity(morale, agreeing)
    rng = rng or system_rng()
    dice = (rng.randint(1, 10), rng.randint(1, 10))
    result = ExploitResult(dice, max(dice), min(dice))
    message = (
        f"Exploit de désespoir : degré de réussite {result.degree}, "
        f"{result.fragility} {plural(result.fragility, 'point', 'points')} de Fragilité à répartir."
    )
    return replace(morale, despair=0), [MoraleEvent("despair_exploit", message)], result


def morale_violations(morale: Morale) -> list[str]:
    """Return the broken invariants (H + D ≤ capacity, personal caps), in French; empty if sound."""
    found = []
    if morale.hope < 0 or morale.despair < 0 or morale.room < 0:
        found.append("L'espoir et le désespoir du groupe dépassent la capacité du Moral.")
    for m in morale.members:
        if not (0 <= m.hope <= m.cap and 0 <= m.despair <= m.cap):
            found.append(f"Les points personnels {de(m.key)} dépassent leur plafond ({m.cap}).")
    return found
