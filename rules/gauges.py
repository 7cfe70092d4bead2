"""Gauges (§3, §8): Vitalité, Énergie, Confiance with scars, ephemeral points, damage, péril."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.errors import RuleError


@dataclass(frozen=True)
class Gauge:
    """One gauge. Reading (§3): wounds = maximum − current; serious wounds = scars;
    `stabilised` is set by care and cleared when the gauge falls to 0 again; `peril` is on from
    the moment the gauge reaches 0 until it is stabilised (§8)."""

    maximum: int
    current: int
    scars: int = 0
    ephemeral: int = 0
    stabilised: bool = False
    peril: bool = False

    @property
    def wounds(self) -> int:
        return self.maximum - self.current


def take_damage(gauge: Gauge, amount: int, serious: int = 0) -> Gauge:
    """Return the gauge after `amount` damage, `serious` of it serious wounds. Reading (§3):
    ephemeral points absorb it first; serious wounds are scars, each adds one (never more than the
    damage dealt); reaching 0 puts the gauge in péril and clears `stabilised` (§3, §8)."""
    if serious < 0 or serious > max(amount, 0):
        raise RuleError.single(
            "scars", "Les blessures graves ne peuvent dépasser les dégâts infligés."
        )
    absorbed = min(gauge.ephemeral, max(amount, 0))
    rest = max(amount, 0) - absorbed
    current = max(gauge.current - rest, 0)
    fell = current == 0 and rest > 0
    return replace(
        gauge,
        ephemeral=gauge.ephemeral - absorbed,
        current=current,
        scars=gauge.scars + serious,
        stabilised=gauge.stabilised and not fell,
        peril=gauge.peril or fell,
    )


def stabilise(gauge: Gauge) -> Gauge:
    """Return the gauge once cared for (a Médecine check or healing): stable, out of péril."""
    return replace(gauge, stabilised=True, peril=False)


def heal(gauge: Gauge, points: int) -> Gauge:
    """Return the gauge with `points` restored, never above its maximum."""
    return replace(gauge, current=min(gauge.maximum, gauge.current + max(points, 0)))


def resist(damage: int, resistance: int) -> int:
    """A résistance subtracts its value from the damage (§8), never below 0."""
    return max(damage - resistance, 0)


def annul(damage: int, attack_total: int, annulation: int) -> int:
    """An annulation cancels all damage if the attack roll is below it, else does nothing (§8)."""
    return 0 if attack_total < annulation else damage
