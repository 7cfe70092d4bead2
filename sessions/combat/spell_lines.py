"""The log's lines of a spell (§15), in French: the incantation begun (what it spent and costs,
the slots it takes), then the spell resolved (its rolls and what they did)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.french import de
from sessions.combat.spells import AREA, KINDS
from sessions.models import Roll


def roll_dict(roll: Roll) -> dict[str, Any]:
    return {
        "id": roll.pk,
        "total": roll.total,
        "target": roll.target,
        "margin": roll.margin,
        "outcome": roll.outcome,
        "outcome_label": roll.breakdown.get("outcome_label", roll.outcome),
    }


def _spell_name(cast: dict[str, Any]) -> str:
    return cast["name"] or _(KINDS[cast["kind"]]).lower()


def _healing_head(healing) -> str:
    return _(
        "sur %(target)s (%(gauge)s) : difficulté %(d)d (blessures à soigner), "
        "complexité %(c)d (%(reasons)s)"
    ) % {
        "target": healing.target_name,
        "gauge": healing.gauge_label,
        "d": healing.difficulty,
        "c": healing.complexity,
        "reasons": ", ".join(healing.reasons),
    }


def _spends(cast: dict[str, Any], incantation) -> list[str]:
    spends = []
    if incantation.boon_dice:
        spends.append(
            ngettext("concentration +%(n)d dé", "concentration +%(n)d dés", incantation.boon_dice)
            % {"n": incantation.boon_dice}
        )
    spends += [
        label
        for label, used in (
            (_("gestes"), cast["spends"]["gestures"]),
            (_("paroles"), cast["spends"]["words"]),
            (_("composantes"), cast["spends"]["components"]),
            (_("surcharge (coût ×2)"), incantation.cost_multiplier > 1),
        )
        if used
    ]
    if not (spends or cast["spell_points"]):
        return []
    if cast["total_points"]:
        spends.append(
            ngettext("%(n)d point de sort", "%(n)d points de sort", cast["total_points"])
            % {"n": cast["total_points"]}
        )
    if incantation.combativeness_spent:
        spends.append(
            ngettext(
                "%(n)d point de Combativité dépensé",
                "%(n)d points de Combativité dépensés",
                incantation.combativeness_spent,
            )
            % {"n": incantation.combativeness_spent}
        )
    return spends


def begun_line(cast: dict[str, Any], caster, healing, incantation) -> str:
    """« Aelis commence à incanter « Soin » sur Brann (…) : … Énergie payée. Le sort se
    résout à sa première action du tour suivant. »"""
    head = _("%(caster)s commence à incanter « %(name)s »") % {
        "caster": caster.name,
        "name": _spell_name(cast),
    }
    if healing is not None:
        head += " " + _healing_head(healing)
    elif cast["kind"] == AREA:
        head += " " + ngettext(
            "(sort de zone : %(n)d jet, un par cible ou groupe)",
            "(sort de zone : %(n)d jets, un par cible ou groupe)",
            cast["checks"],
        ) % {"n": cast["checks"]}
    parts = [f"{head}."]
    spends = _spends(cast, incantation)
    if spends:
        parts.append(_("Incantation : %(detail)s.") % {"detail": "; ".join(spends)})
    if cast["energy_paid"]:
        parts.append(
            ngettext(
                "%(n)d point d'Énergie payé.", "%(n)d points d'Énergie payés.", cast["energy_paid"]
            )
            % {"n": cast["energy_paid"]}
        )
    if cast["actions_given_up"]:
        parts.append(
            ngettext(
                "L'incantation prend le reste du tour %(of)s (%(n)d action).",
                "L'incantation prend le reste du tour %(of)s (%(n)d actions).",
                cast["actions_given_up"],
            )
            % {"of": de(caster.name), "n": cast["actions_given_up"]}
        )
    parts.append(_("Le sort se résout à sa première action du tour suivant."))
    return " ".join(parts)


def resolved_line(cast: dict[str, Any], caster, healing, rolls, outcome) -> str:
    """« Le sort « Soin » d'Aelis se résout sur Brann (…) : 14 contre 12 (Réussite). Brann
    regagne 12 points de Vitalité (10 → 22) et est stabilisé. »"""
    head = _("Le sort « %(name)s » %(of)s se résout") % {
        "name": _spell_name(cast),
        "of": de(caster.name),
    }
    if healing is not None:
        head += " " + _healing_head(healing)
    results = ", ".join(
        _("%(total)d contre %(target)d (%(outcome)s)")
        % {"total": r.total, "target": r.target, "outcome": roll_dict(r)["outcome_label"]}
        for r in rolls
    )
    parts = [f"{head} : {results}."]
    if healing is not None and outcome.stabilised:
        parts.append(
            ngettext(
                "%(target)s regagne %(n)d point de %(gauge)s (%(was)d → %(now)d) et est stabilisé.",
                "%(target)s regagne %(n)d points de %(gauge)s (%(was)d → %(now)d) et est stabilisé.",
                outcome.healed_points,
            )
            % {
                "target": healing.target_name,
                "n": outcome.healed_points,
                "gauge": healing.gauge_label,
                "was": healing.current,
                "now": outcome.healed.current,
            }
        )
    elif healing is not None:
        parts.append(_("Le sort échoue : rien n'est soigné."))
    return " ".join(parts)
