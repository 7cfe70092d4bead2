"""What a blow is made of (§5, §8, §13): one attack roll's inputs (`Strike`), the attack a
combatant declares and the defence its target picks. Plain values, shared by the attack's two
steps (`attacks`) and the blow's resolution (`blows`)."""

from __future__ import annotations

from dataclasses import dataclass

from sessions import consequences

# What a combat roll may carry besides its check, as every table roll (§5, §13 Product).
SPENDS = (
    "expertise",
    "boon",
    "bane",
    "impact",
    "hope",
    "cancel_critical_failure",
    "narrow_success",
    "injuries",
)


@dataclass(frozen=True)
class Strike:
    """One attack roll's inputs: the check (§5) and its blow (§8)."""

    characteristic: str
    skills: tuple[str, ...] = ()
    complexity: int = 0
    difficulty: int = 0
    boon: int = 0
    bane: int = 0
    damage: int = 0  # the weapon's or the spell's base damage (the Conteur's call)
    gauge: str = "vitality"  # physique, magique, sociale (§1)
    characteristic_value: int | None = None  # an NPC's, given by the Conteur
    skill_level: int | None = None
    expertise: bool = False  # the expertise die (a grapple's « Prises »: set by the rules)
    impact: int = 0  # Impact points spent on boon dice (§5)
    hope: int = 0  # hope points spent, +1 each (§5)
    cancel_critical_failure: bool = False  # a hope point cancels a critical failure (§5)
    narrow_success: bool = False  # a despair point turns a failure into a narrow success (§5)
    injuries: tuple[int, ...] = ()  # the roller's declared injuries hindering this roll (§8)


@dataclass(frozen=True)
class AttackRequest(Strike):
    target: int = 0
    nonlethal: bool = False
    ranged: bool = False
    hidden: bool = False
    riposte: bool = False  # the defender's riposte after a defensive critical (§8)
    grapple: str = ""  # Étreinte, Mise au sol, Projection (§13): `sessions.combat.grapples`
    distance: int = 0  # a Projection's, in metres
    heavy: bool = False  # a big or heavy target: a grapple is harder
    critical: str = consequences.TABLE  # how the attacker pays a critical it suffers (§8)


@dataclass(frozen=True)
class DefenceRequest:
    defence: str
    complexity: int = 0
    skill_level: int | None = None  # an NPC's level in the defence's skill
    critical: str = consequences.TABLE  # how the target pays a critical it suffers
    reply: Strike | None = None  # the reactive confrontation's attack
    # The defence roll's own alterations, as every table roll (§5, §13 Product).
    expertise: bool = False
    boon: int = 0
    bane: int = 0
    impact: int = 0
    hope: int = 0
    cancel_critical_failure: bool = False
    narrow_success: bool = False
    injuries: tuple[int, ...] = ()
