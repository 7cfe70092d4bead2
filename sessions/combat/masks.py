"""A hidden NPC's blow as the players may see it (issue 39 §4): the target's player is asked to
defend against « une attaque » — no name, no figures of the NPC — and every member reads what
happened to the visible target, while the Conteur keeps the whole (the hidden rows).

A blow is *masked* when its attacker is hidden and its target is not: the players see the target,
so they may learn what it suffers, never who struck. A blow on a hidden target stays hidden.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.models import Campaign
from campaigns.policy import is_storyteller
from rules import reference
from rules.french import de
from sessions.models import Combatant, CombatantStatus, Visibility

# What a player may read of a masked attack waiting for its defence: its kind, not its figures.
SHOWN_OF_ATTACK = (
    "id",
    "target",
    "exploded",
    "nonlethal",
    "ranged",
    "hidden",
    "gauge",
    "grapple",
    "distance",
    "riposte",
)
SHOWN_OF_BLOW = (
    "id",
    "target",
    "defence",
    "defended",
    "damage",
    "reply_damage",
    "grapple",
    "visibility",
)


# What a hidden NPC's grapple did, as its target's players read it (`grapples`' states).
GRAPPLE_LANDED = {
    "held": gettext_lazy("Une étreinte retient %(name)s."),
    "prone": gettext_lazy("Une prise met %(name)s à terre."),
    "thrown": gettext_lazy("Une prise projette %(name)s."),
    "": gettext_lazy("%(name)s échappe à une prise."),
}


def is_masked(attacker: Combatant, target: Combatant) -> bool:
    return attacker.hidden and not target.hidden


def roll_visibility(campaign: Campaign, visibility: str) -> str:
    """A roll of a hidden blow made by a player (their defence, their reply) is their secret
    roll (seen by them and the Conteur): a player may not hide a roll, and must see their own."""
    if visibility == Visibility.HIDDEN and not is_storyteller(campaign):
        return Visibility.STORYTELLER
    return visibility


def masked_attack(pending: dict[str, Any]) -> dict[str, Any]:
    """The pending attack as a player reads it: « une attaque » on the target."""
    shown = {key: pending.get(key) for key in SHOWN_OF_ATTACK}
    return {
        **shown,
        "attacker": None,
        "roll": None,
        "total": None,
        "outcome": "",
        "damage": None,
        "masked": True,
    }


def masked_blow(result: dict[str, Any]) -> dict[str, Any]:
    """The resolved blow as a player reads it: what the target suffered, not who struck."""
    shown = {key: result.get(key) for key in SHOWN_OF_BLOW}
    aggravation = result.get("aggravation") or {}
    return {
        **shown,
        "attacker": None,
        "roll": None,
        "total": None,
        "defence_roll": None,
        "reply_roll": None,
        "aggravation": {"attacker": 0, "defender": aggravation.get("defender", 0)},
        "riposte_for": None,
        "summary": result.get("masked_summary", ""),
        "masked": True,
    }


def declared_text(target: Combatant) -> str:
    return _("Une attaque vise %(name)s. À %(name)s de choisir sa défense.") % {"name": target.name}


def blow_text(result: dict[str, Any], target: Combatant, gauge: str) -> str:
    """« Une attaque inflige 4 points de Vitalité à Aelis. Aelis subit un critique. Aelis perd
    connaissance. » — what every member may read of a masked blow."""
    name = target.name
    damage = result["damage"]
    parts = []
    if (result.get("attack") or {}).get("grapple"):
        parts.append(str(GRAPPLE_LANDED.get(result.get("grapple") or "", "")) % {"name": name})
    if damage > 0:
        parts.append(
            ngettext(
                "Une attaque inflige %(n)d point de %(gauge)s à %(name)s.",
                "Une attaque inflige %(n)d points de %(gauge)s à %(name)s.",
                damage,
            )
            % {"n": damage, "gauge": reference.LABELS.get(gauge, gauge), "name": name}
        )
    elif parts:
        pass  # a grapple without damage: what it did is said
    elif result.get("defended"):
        parts.append(_("%(name)s évite une attaque.") % {"name": name})
    else:
        parts.append(_("Une attaque ne fait aucun dégât à %(name)s.") % {"name": name})
    if result.get("reply_damage"):
        parts.append(_("La réplique %(of_name)s porte.") % {"of_name": de(name)})
    suffered = (result.get("aggravation") or {}).get("defender", 0)
    if suffered:
        parts.append(
            ngettext("%(name)s subit un critique.", "%(name)s subit %(n)d critiques.", suffered)
            % {"name": name, "n": suffered}
        )
    if target.status == CombatantStatus.DEAD:
        parts.append(_("%(name)s est mort.") % {"name": name})
    elif target.status == CombatantStatus.UNCONSCIOUS:
        parts.append(_("%(name)s perd connaissance.") % {"name": name})
    return " ".join(parts)
