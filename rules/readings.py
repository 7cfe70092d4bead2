"""Index of RULES.md's readings: where each product decision lives, one named place each.

Change a reading in the place named here; this index only points at it (a test checks that every
target exists and documents its reading). docs/rules.md is generated from it:
`python -m rules readings > docs/rules.md` (`make docs`).
"""

from __future__ import annotations

import importlib
import inspect

READINGS: tuple[tuple[str, str, str], ...] = (
    ("§1", "Grid placement follows the source's order", "rules.reference.COLUMNS"),
    ("§1", "Minimum characteristic 1 (species malus)", "rules.creation.CHARACTERISTIC_MINIMUM"),
    ("§1", "Column/row score = floor of the mean", "rules.sheet.score"),
    ("§1", "Favourite bonus = the species' modifier", "rules.creation.species_bonuses"),
    ("§2", "Expertise die never explodes nor crits", "rules.odds._add_expertise_die"),
    ("§2", "Languages: union of both lists with aliases", "rules.reference.LANGUAGES"),
    ("§2", "Languages bought like a skill (+1 = 2)", "rules.reference.CREATION_COSTS"),
    ("§2", "Vrai Primordial's own purchase base: +1 = 4", "rules.creation.language_cost"),
    ("§3", "Gauge maximum = prémice × Exaltation + bonus/3", "rules.sheet.gauge_maximum"),
    (
        "§3",
        "Ephemeral points absorbed first; serious wounds are scars; péril",
        "rules.gauges.take_damage",
    ),
    ("§4", "Bad sleep/food one rank harder, day of rest easier", "rules.rest.rest_rank"),
    ("§4", "Full rest = Normale or easier", "rules.rest.is_full_rest"),
    ("§4", "Restoration up to max − scars, then harder", "rules.rest.rest_gauge"),
    ("§5", "Each boon/bane die is one pool step", "rules.check.pool_advantage"),
    ("§5", "All 1s keep-high / all 10s keep-low chains", "rules.check.chain_starters"),
    ("§5", "Total, target, criticals, hope/despair options", "rules.check.classify"),
    ("§5", "Initiative check", "rules.combat.initiative_check"),
    ("§5", "A widened critical range grows from its own end", "rules.check.critical_faces"),
    ("§5", "« Enter Acharnement »: the roll itself is made in it", "rules.states.roll_state"),
    ("§6", "Personal caps: Exaltation / 2 rounded up", "rules.sheet.personal_point_cap"),
    ("§7", "Zone condition", "rules.check.is_zone"),
    (
        "§7",
        "Apaisement pays its effects by the opposite point only",
        "rules.morale.serenity_effect",
    ),
    ("§7", "Négation hook does nothing", "rules.states.negation_malus"),
    (
        "§7",
        "Leftover XP distributed in a special state, right away",
        "rules.experience.spending_now_refusals",
    ),
    (
        "§8",
        "Épuisement removal: full rest of N days, no wounds",
        "rules.states.exhaustion_recovered",
    ),
    ("§8", "Aggravation back to 0 after a full rest", "rules.states.after_rest"),
    ("§8", "Péril check against scars", "rules.states.peril_check"),
    ("§10", "Award formula", "rules.experience.award"),
    (
        "§10",
        "One opposition level per arc, for every skill",
        "rules.experience.opposition_level_for",
    ),
    ("§10", "XP with a hope point: the character's own hope", "rules.experience.spend_hope_for_xp"),
    (
        "§10",
        "« At reception »: from the award paid to the next arc",
        "rules.experience.just_received",
    ),
    (
        "§10",
        "Hope / on-receipt spending takes no training time",
        "rules.experience.needs_training_time",
    ),
    ("§10", "Learning also allowed in longer ellipses", "rules.ellipse.allowed_actions"),
    ("§11", "Ellipse lengths in days", "rules.ellipse.classify"),
    ("§11", "Weeks of rest = whole weeks, for every character", "rules.ellipse.rest_weeks"),
    (
        "§11",
        "A minor ellipse's days are consecutive full rests (Épuisement)",
        "rules.ellipse.exhaustion_after_rest_days",
    ),
    ("§11", "Unfinished trainings carry over to the next ellipse", "rules.ellipse.carried_over"),
    ("§11", "A class or a branch runs like an aptitude", "rules.ellipse.timer_kind"),
    (
        "§11",
        "X = weeks // 2, X − 1 ≥ 0; thresholds are Fragilité",
        "rules.ellipse.threshold_reductions",
    ),
    ("§11", "Combativité/aptitudes end with the ellipse", "rules.ellipse.training_days"),
    ("§11", "One training at a time, queue order", "rules.ellipse.advance"),
    ("§11", "An unconfirmed trainer counts as alone", "rules.ellipse.counted_trainer"),
    ("§13", "Grapples with Force or Agilité", "rules.combat.GRAPPLE_CHARACTERISTICS"),
    ("§13", "A defence's difficulty is the attack's total", "rules.combat.defence_check"),
    ("§13", "Parade/Blocage stop a blow; a failed Blocage's are scars", "rules.combat.blow"),
    ("§13", "Damage bonus = the attacker's column score", "rules.combat.damage_bonus"),
    (
        "§13",
        "Reactive confrontation: the attacker on a tie",
        "rules.combat.attacker_wins_confrontation",
    ),
    ("§13", "A failed attack misses", "rules.combat.attack_missed"),
    ("§8", "A sheet has no annulation", "rules.combat.sheet_annulation"),
    (
        "§8",
        "An NPC's Résilience points = its Résilience score",
        "rules.exchange.npc_resilience_points",
    ),
    ("§8", "Within an exchange: blows, then criticals, then states", "rules.exchange.resolve"),
    (
        "§8",
        "Offensive criticals: an attack's or a reply's, either way",
        "rules.exchange.criticals_owed",
    ),
    ("§8", "A knock-out lasts at least one round", "rules.exchange.knocked_out_rounds"),
    (
        "§13",
        "A confrontation is answered in the attack's manner",
        "rules.exchange.answered_in_kind",
    ),
    ("§8", "Any rest ends the Découragement of one big hit", "rules.states.after_rest"),
    ("§8", "A character resists with its column score", "rules.combat.sheet_resistance"),
    ("§8", "A full turn at 0 began at 0", "rules.states.full_turn_at_zero"),
    ("§13", "A turn's regeneration heals, with no serious wound", "rules.combat.turn_regeneration"),
    (
        "§15",
        "Incantation takes the round; Combativité spent = the caster's actions left",
        "rules.magic.incantation_actions",
    ),
    ("§15", "Spell cost paid at the start, twice if overcharged", "rules.spells.energy_cost"),
    ("§15", "Healing fewer wounds; numbers read when it resolves", "rules.spells.healing_figures"),
    ("§15", "A spell resolves the next round, else is lost", "rules.spells.incantation_state"),
    ("§15", "An area spell's roll: a ranged, seen blow", "rules.spells.area_blow"),
    (
        "§15",
        "Any answer to a blow but none loses the spell",
        "rules.spells.answer_loses_incantation",
    ),
    (
        "§13",
        "A grapple's expertise: « Prises » (« Projection »)",
        "rules.combat.grapple_expertises",
    ),
    ("§13", "Big or heavy target: +2 complexity", "rules.combat.grapple_complexity"),
    ("§13", "Grapple damage: none, Force, Force − metres", "rules.combat.grapple_damage"),
    ("§13", "An Étreinte deals no damage", "rules.combat.grapple_harmless"),
    ("§13", "A grapple lands when not stopped", "rules.combat.grapple_lands"),
    ("§13", "Held, à terre (shown only), thrown", "rules.combat.grapple_state"),
    ("§13", "A held combatant may only free itself", "rules.combat.held_can_act"),
    ("§13", "Freeing oneself: Force/Agilité + Bagarre vs the total", "rules.combat.escape_check"),
    ("§13", "A hold ends when either is out of the fight", "rules.combat.hold_lasts"),
    ("§8", "A round at 0 Vitalité is full; judged before regeneration", "rules.rounds.grows_agony"),
    ("§8", "A knock-out's rounds are those after the fall", "rules.rounds.knock_out_left"),
    ("§13", "What happens once per round, in order", "rules.rounds.round_end"),
    ("§8", "Péril is rolled at round 1's start too", "rules.rounds.round_start_perils"),
    (
        "§13",
        "Forced regeneration: a regenerated gauge, at most its points",
        "rules.rounds.forced_regeneration_points",
    ),
    ("§13", "An NPC's rolls carry its own Agonie only", "rules.alterations.npc_alterations"),
)


def _section_key(section: str) -> int:
    return int(section.lstrip("§"))


def _doc(target: str) -> str:
    module_name, _, attribute = target.rpartition(".")
    obj = getattr(importlib.import_module(module_name), attribute)
    if callable(obj) and not isinstance(obj, type):
        return inspect.getdoc(obj) or ""
    return ""


def document() -> str:
    """docs/rules.md: every reading by §, its one named place and that place's docstring."""
    out = [
        "# The readings of RULES.md, where each lives",
        "",
        "Generated from `rules/readings.py` by `python -m rules readings > docs/rules.md`",
        "(`make docs`); do not edit by hand. RULES.md says what each rule is; this page says",
        "which function of `rules/` decides it, with that function's own words.",
    ]
    current = None
    ordered = sorted(READINGS, key=lambda reading: _section_key(reading[0]))
    for section, title, target in ordered:
        if section != current:
            out += ["", f"## {section}"]
            current = section
        out += ["", f"### {title}", "", f"`{target}`"]
        doc = _doc(target)
        if doc:
            out += ["", *(f"> {line}".rstrip() for line in doc.splitlines())]
    return "\n".join(out) + "\n"
