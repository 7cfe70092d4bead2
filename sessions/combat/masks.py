"""A hidden NPC's blow as the players may see it (issue 39 §4): the target's player is asked to
defend against « une attaque » — no name, no figures of the NPC — and every member reads what
happened to the visible target, while the Conteur keeps the whole (the hidden rows).

A blow is *masked* when its attacker is hidden and its target is not: the players see the target,
so they may learn what it suffers, never who struck. A blow on a hidden target stays hidden, but
for one: the *riposte* of a visible combatant on the hidden NPC that struck it (§8) is read
against « l'attaquant » — the riposter's own roll and what its blow did, not the NPC's name,
figures or state. The sheets' history says the same (`harm_note`).
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


def is_masked_riposte(attacker: Combatant, target: Combatant, blow: dict[str, Any]) -> bool:
    """A visible combatant's riposte on the hidden NPC that struck it: the players read it
    against « l'attaquant »."""
    attack = blow.get("attack") or blow  # a resolved blow keeps what was asked
    return bool(attack.get("riposte")) and target.hidden and not attacker.hidden


def harm_note(source: Combatant, spell: str = "") -> str:
    """What the sheets' history says of a blow's harm (`CharacterChange.note`): « Une attaque »
    when its author is a hidden NPC, « Attaque d'Aelis » otherwise, « Sort « Onde de choc »
    d'Aelis » for an area spell's blow."""
    if source.hidden:
        return _("Une attaque")
    if spell:
        return _("Sort « %(spell)s » %(of_name)s") % {"spell": spell, "of_name": de(source.name)}
    return _("Attaque %(of_name)s") % {"of_name": de(source.name)}


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
        # The defender's own riposte (never the hidden NPC's): it may answer « l'attaquant ».
        "riposte_for": result.get("riposte_for"),
        "summary": result.get("masked_summary", ""),
        "masked": True,
    }


def masked_riposte(pending: dict[str, Any]) -> dict[str, Any]:
    """A riposte on a hidden NPC, waiting for its defence, as a player reads it: the riposter's
    own roll against « l'attaquant » (no target)."""
    return {**pending, "target": None, "masked": True}


def masked_riposte_blow(result: dict[str, Any]) -> dict[str, Any]:
    """A riposte on a hidden NPC, resolved, as a player reads it: what the riposte did and what
    the riposter suffered, none of the NPC's rolls, criticals or riposte."""
    shown = {key: result.get(key) for key in SHOWN_OF_BLOW}
    aggravation = result.get("aggravation") or {}
    return {
        **shown,
        "attacker": result.get("attacker"),
        "target": None,
        "roll": result.get("roll"),
        "total": result.get("total"),
        "defence_roll": None,
        "reply_roll": None,
        "aggravation": {"attacker": aggravation.get("attacker", 0), "defender": 0},
        "riposte_for": None,
        "summary": result.get("masked_summary", ""),
        "masked": True,
    }


def as_player_reads(blow: dict[str, Any], attacker: Combatant, target: Combatant):
    """A hidden blow (pending or resolved) as a player may read it, or None if they may not."""
    resolved = "defence" in blow
    if is_masked(attacker, target):
        return masked_blow(blow) if resolved else masked_attack(blow)
    if is_masked_riposte(attacker, target, blow):
        return masked_riposte_blow(blow) if resolved else masked_riposte(blow)
    return None


def declared_text(target: Combatant) -> str:
    return _("Une attaque vise %(name)s. À %(name)s de choisir sa défense.") % {"name": target.name}


def riposte_declared_text(riposter: Combatant, total: int, outcome: str) -> str:
    """« Aelis riposte contre l'attaquant : 14 (réussite). » — the riposter's own roll."""
    return _("%(name)s riposte contre l'attaquant : %(total)d (%(outcome)s).") % {
        "name": riposter.name,
        "total": total,
        "outcome": outcome,
    }


def riposte_text(result: dict[str, Any], riposter: Combatant, gauge: str, *, missed: bool) -> str:
    """« La riposte d'Aelis inflige 4 points de Vitalité à l'attaquant. » — what every member may read of a
    riposte on a hidden NPC: what it did, what the riposter suffered, not the NPC's state."""
    name, of_name = riposter.name, de(riposter.name)
    damage, label = result["damage"], reference.LABELS.get(gauge, gauge)
    if missed:
        parts = [_("La riposte %(of_name)s manque l'attaquant.") % {"of_name": of_name}]
    elif damage > 0:
        parts = [
            ngettext(
                "La riposte %(of_name)s inflige %(n)d point de %(gauge)s à l'attaquant.",
                "La riposte %(of_name)s inflige %(n)d points de %(gauge)s à l'attaquant.",
                damage,
            )
            % {"of_name": of_name, "n": damage, "gauge": label}
        ]
    elif result.get("defended"):
        parts = [_("L'attaquant évite la riposte %(of_name)s.") % {"of_name": of_name}]
    else:
        parts = [_("La riposte %(of_name)s ne fait aucun dégât.") % {"of_name": of_name}]
    if taken := result.get("reply_damage"):
        parts.append(
            ngettext(
                "L'attaquant réplique et inflige %(n)d point de %(gauge)s à %(name)s.",
                "L'attaquant réplique et inflige %(n)d points de %(gauge)s à %(name)s.",
                taken,
            )
            % {"name": name, "n": taken, "gauge": label}
        )
    parts += _what_befell(riposter, (result.get("aggravation") or {}).get("attacker", 0))
    return " ".join(parts)


def _what_befell(combatant: Combatant, criticals: int) -> list[str]:
    """The criticals a combatant suffered in a blow and the state it is left in, told once."""
    name, told = combatant.name, []
    if criticals:
        told.append(
            ngettext("%(name)s subit un critique.", "%(name)s subit %(n)d critiques.", criticals)
            % {"name": name, "n": criticals}
        )
    if combatant.status == CombatantStatus.DEAD:
        told.append(_("%(name)s est mort.") % {"name": name})
    elif combatant.status == CombatantStatus.UNCONSCIOUS:
        told.append(_("%(name)s perd connaissance.") % {"name": name})
    return told


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
    parts += _what_befell(target, (result.get("aggravation") or {}).get("defender", 0))
    if result.get("riposte_for") == target.pk:
        parts.append(_("Défense critique : %(name)s peut riposter.") % {"name": name})
    return " ".join(parts)
