"""An NPC's attack profiles (issue 39 §4): each weapon of a stat block with the skill, the
characteristic, the base damage, its range and whether it spares lives, so the Conteur attacks
with one choice and a target instead of six inputs.

Kept as a validated JSON list on the stat block (`StatBlock.attacks`), copied on the combatant
when it joins (`profile["attacks"]`): a profile is a few plain values read together, never
queried on its own. The same checks serve the model, the form and the API.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from rules import reference

MAX_PROFILES = 6
WEAPON_LENGTH = 60
# The characteristics a stat block keeps (sessions.models.StatBlock): an attack uses one of them.
NPC_CHARACTERISTICS = ("strength", "vigor", "agility", "perception", "wisdom")
ROLLED_SKILL_KEYS = tuple(s.key for s in reference.SKILLS if s.rolled)
GAUGE_KEYS = tuple(reference.GAUGES)
LEVEL_MAX = 10
DAMAGE_MAX = 1000


def clean_profile(raw: Any) -> dict[str, Any]:
    """One profile with its defaults, or a French ValidationError saying what is wrong."""
    if not isinstance(raw, dict):
        raise ValidationError(_("Une attaque se décrit par son arme, sa compétence, ses dégâts…"))
    weapon = str(raw.get("weapon") or "").strip()[:WEAPON_LENGTH]
    if not weapon:
        raise ValidationError(_("Nommez l'arme de chaque attaque."))
    characteristic = raw.get("characteristic", "strength")
    if characteristic not in NPC_CHARACTERISTICS:
        raise ValidationError(_("%(weapon)s : caractéristique inconnue.") % {"weapon": weapon})
    skill = raw.get("skill", "melee") or ""
    if skill and skill not in ROLLED_SKILL_KEYS:
        raise ValidationError(_("%(weapon)s : compétence inconnue.") % {"weapon": weapon})
    gauge = raw.get("gauge", "vitality")
    if gauge not in GAUGE_KEYS:
        raise ValidationError(_("%(weapon)s : constitution inconnue.") % {"weapon": weapon})
    numbers = {}
    for key, top in (("level", LEVEL_MAX), ("damage", DAMAGE_MAX)):
        value = raw.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            raise ValidationError(
                _("%(weapon)s : %(what)s entre 0 et %(top)d.")
                % {
                    "weapon": weapon,
                    "what": _("niveau") if key == "level" else _("dégâts"),
                    "top": top,
                }
            )
        numbers[key] = value
    return {
        "weapon": weapon,
        "characteristic": characteristic,
        "skill": skill,
        "gauge": gauge,
        **numbers,
        "ranged": bool(raw.get("ranged", False)),
        "nonlethal": bool(raw.get("nonlethal", False)),
    }


def clean_profiles(raw: Any) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        raise ValidationError(_("Les attaques forment une liste."))
    if len(raw) > MAX_PROFILES:
        raise ValidationError(_("Six attaques au plus par profil."))
    return [clean_profile(one) for one in raw]


def validate_attack_profiles(value: Any) -> None:
    """The model field's validator."""
    clean_profiles(value)


def profile_label(profile: dict[str, Any]) -> str:
    """« Épée — Force, Mêlée 2, 5 dégâts, à distance, non létale »"""
    skill = reference.SKILLS_BY_KEY.get(profile["skill"])
    parts = [reference.LABELS[profile["characteristic"]]]
    if skill is not None:
        parts.append(f"{skill.label} {profile['level']}")
    parts.append(_("%(n)d dégâts") % {"n": profile["damage"]})
    if profile["gauge"] != "vitality":
        parts.append(reference.LABELS[profile["gauge"]])
    if profile["ranged"]:
        parts.append(_("à distance"))
    if profile["nonlethal"]:
        parts.append(_("non létale"))
    return f"{profile['weapon']} — {', '.join(parts)}"
