"""What a blow does to a combatant (§8, §13): its defences, its damage and the criticals it
suffers — on a character's sheet through the sheets' own services, on an NPC's copy of its stat
block kept on the Combatant row (`profile`).

These steps run inside the transactions of `sessions.combat.attacks`, after the table's lock and
the fight's; they compute with `rules/` and write, nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from characters import condition as sheet_condition
from characters import sheet as character_sheet
from characters.models import Character
from characters.sheet import characteristics
from rules import combat as rules_combat
from rules import gauges as rules_gauges
from rules import reference
from rules import sheet as rules_sheet
from rules import states as rules_states
from rules.check import RandomSource, system_rng
from rules.gauges import Gauge
from sessions import consequences, writes
from sessions.checks import characteristic_value
from sessions.errors import rule_call, violation
from sessions.models import Combatant, CombatantStatus, Injury, Roll, StatBlock

NPC_DEFAULTS = {"strength": 2, "vigor": 2, "agility": 2, "perception": 2, "wisdom": 2}
# What `characters.condition.character_damage` says of the state after a hit, unnamed.
SHEET_STATE_NOTES = ("Le personnage meurt.", "Le personnage perd connaissance.")
GAUGE_ATTRS = ("maximum", "current", "scars", "ephemeral", "stabilised", "peril")


# --- Finesse, as the sheet computes it (§1, §5) -----------------------------------------------


def block_finesse(block: StatBlock) -> int:
    """The stat block's Finesse score: floor of the mean of Agilité, Perception, Sagesse (§1)."""
    chars = rules_sheet.Characteristics(
        agility=block.agility, perception=block.perception, wisdom=block.wisdom
    )
    return rules_sheet.row_score(chars, "finesse")


def character_finesse(character: Character) -> int:
    return rules_sheet.row_score(characteristics(character), "finesse")


def block_defences(block: StatBlock) -> list[rules_combat.DefenceOption]:
    """The three defences (§13) against a normal attack, with the characteristic each uses."""
    return rules_combat.defence_options(
        rules_combat.Attack(),
        strength=block.strength,
        vigor=block.vigor,
        agility=block.agility,
        perception=block.perception,
        armour=block.armour,
        shield=block.shield,
    )


# --- an NPC's copy of its stat block -----------------------------------------------------------


def npc_profile(block: StatBlock | None) -> dict[str, Any]:
    """What a fight needs of an NPC, copied when it joins (a quick NPC: the defaults)."""
    values = {k: getattr(block, k) if block else v for k, v in NPC_DEFAULTS.items()}
    maxima = {gauge: getattr(block, f"{gauge}_max") if block else 15 for gauge in reference.GAUGES}
    return {
        **values,
        "armour": block.armour if block else None,
        "shield": block.shield if block else False,
        "annulation": block.annulation if block else 0,
        "resistance": block.resistance if block else 0,
        "regeneration": {
            gauge: getattr(block, f"{gauge}_regeneration")
            for gauge in reference.GAUGES
            if block and getattr(block, f"{gauge}_regeneration")
        },
        "attacks": list(block.attacks) if block else [],  # sessions.attack_profiles
        "fragility": 0,
        "resilience_points": 0,
        "gauges": {g: {"maximum": m, "current": m, "scars": 0} for g, m in maxima.items()},
    }


def npc_gauges(combatant: Combatant) -> dict[str, Gauge]:
    stored = combatant.profile.get("gauges", {})
    return {
        g: Gauge(**{k: v for k, v in stored.get(g, {"maximum": 15, "current": 15}).items()})
        for g in reference.GAUGES
    }


def store_npc_gauges(combatant: Combatant, gauges: dict[str, Gauge]) -> None:
    combatant.profile = {
        **combatant.profile,
        "gauges": {g: {a: getattr(v, a) for a in GAUGE_ATTRS} for g, v in gauges.items()},
    }


def _npc_value(combatant: Combatant, key: str) -> int:
    return combatant.profile.get(key, NPC_DEFAULTS.get(key, 2))


# --- what the rules need of either kind of combatant -------------------------------------------


@dataclass
class Fighter:
    """A combatant as the rules see it: its sheet (characters) or its profile (NPCs)."""

    combatant: Combatant
    character: Character | None = None

    @property
    def name(self) -> str:
        return self.combatant.name

    def value(self, key: str) -> int:
        """A characteristic, or a column or row score (§1)."""
        if self.character is not None:
            return characteristic_value(self.character, key)
        if key in reference.COLUMNS or key in reference.ROWS:
            chars = rules_sheet.Characteristics(
                **{k: _npc_value(self.combatant, k) for k in NPC_DEFAULTS}
            )
            scorer = rules_sheet.column_score if key in reference.COLUMNS else rules_sheet.row_score
            return scorer(chars, key)
        return _npc_value(self.combatant, key)

    def gauges(self) -> dict[str, Gauge]:
        if self.character is not None:
            return character_sheet.gauges(self.character)
        return npc_gauges(self.combatant)

    @property
    def agony(self) -> int:
        return self.character.agony if self.character is not None else self.combatant.agony

    @property
    def resilience_points(self) -> int:
        if self.character is not None:
            return self.character.resilience_points
        return self.combatant.profile.get("resilience_points", 0)

    def annulation(self) -> int:
        """An NPC's annulation is its stat block's; a sheet's, the rules' (none)."""
        if self.character is not None:
            return rules_combat.sheet_annulation()
        return self.combatant.profile.get("annulation", 0)

    def resistance(self, gauge: str) -> int:
        """A character's résistance by the rules (`rules.combat.sheet_resistance`); an NPC's,
        its stat block's."""
        if self.character is not None:
            return rules_combat.sheet_resistance(self.value(reference.GAUGE_COLUMNS[gauge]))
        return self.combatant.profile.get("resistance", 0)

    def defences(self, attack: rules_combat.Attack) -> list[rules_combat.DefenceOption]:
        """The three defences (§13) with the characteristic each uses against this attack."""
        armour = None if self.character is not None else self.combatant.profile.get("armour")
        shield = False if self.character is not None else self.combatant.profile.get("shield")
        return rules_combat.defence_options(
            attack,
            strength=self.value("strength"),
            vigor=self.value("vigor"),
            agility=self.value("agility"),
            perception=self.value("perception"),
            armour=armour,
            shield=bool(shield),
        )

    def best_skill(self, option: rules_combat.DefenceOption) -> tuple[str, int]:
        """The defence's skill the character knows best (Parade: Bagarre or Mêlée)."""
        if self.character is None:
            return option.skills[0], 0
        levels = {row.key: row.level for row in self.character.skills.all()}
        key = max(option.skills, key=lambda k: levels.get(k, 0))
        return key, levels.get(key, 0)


def fighter_of(campaign, combatant: Combatant, *, lock: bool = False) -> Fighter:
    """The fighter behind a combatant; its sheet locked (and fresh) when `lock`."""
    if combatant.character_id is None:
        return Fighter(combatant)
    if lock:
        character = writes.lock_character(campaign, combatant.character_id, "target")
    else:
        character = Character.objects.get(pk=combatant.character_id)
    return Fighter(combatant, character)


# --- harm ----------------------------------------------------------------------------------------


@dataclass
class Harm:
    """What one blow and its criticals did to a combatant: log lines and the numbers."""

    lines: list[str] = field(default_factory=list)
    damage: int = 0
    scars: int = 0
    aggravation: int = 0


def deal_damage(fighter: Fighter, *, gauge: str, amount: int, scars: int, by) -> Harm:
    """Write `amount` damage (`scars` of them serious) to the target's gauge: a sheet through
    `characters.condition.character_damage` (locked, versioned, in its history), an NPC on its
    row. Reaching 0 Vitalité gives Agonie and péril (§8)."""
    harm = Harm(damage=amount, scars=scars)
    if amount <= 0:
        return harm
    combatant = fighter.combatant
    if fighter.character is not None:
        notes = sheet_condition.character_damage(
            character=fighter.character.pk, gauge=gauge, amount=amount, scars=scars, by=by
        )
        fighter.character.refresh_from_db()  # written by the sheets' service (version, history)
        # The state that follows is said once, by name, after the blow (`knocked_out`).
        harm.lines += [note for note in notes if note not in SHEET_STATE_NOTES]
    else:
        gauges = npc_gauges(combatant)
        hit = gauges[gauge]
        after = rule_call(lambda: rules_gauges.take_damage(hit, amount, scars))
        gauges[gauge] = after
        store_npc_gauges(combatant, gauges)
        if gauge == "vitality":
            combatant.agony = rules_states.agony_after_hit(combatant.agony, hit, after)
        label = reference.LABELS[gauge]
        harm.lines.append(f"{label} : {hit.current} → {after.current}.")
    return harm


def nonlethal_on_agony(fighter: Fighter, *, critical: bool, by) -> str:
    """A non-lethal blow on someone in Agonie only takes Résilience points (§8)."""
    left = rules_states.nonlethal_against_agony(fighter.resilience_points, critical)
    if fighter.character is not None:
        writes.sheet_write(fighter.character, {"resilience_points": left}, by)
    else:
        fighter.combatant.profile = {**fighter.combatant.profile, "resilience_points": left}
    return ngettext(
        "%(name)s, à l'Agonie, n'a plus que %(n)d point de Résilience.",
        "%(name)s, à l'Agonie, n'a plus que %(n)d points de Résilience.",
        left,
    ) % {
        "name": fighter.name,
        "n": left,
    }


def suffer_critical(
    fighter: Fighter, *, mode: str, roll: Roll, by, rng: RandomSource | None
) -> str:
    """The victim suffers a critical (§5, §8): +1 Aggravation, then Résilience spent or the
    Aggravation table (`sessions.consequences`, as at the table). Returns the log's line."""
    combatant = fighter.combatant
    if fighter.character is not None:
        character = fighter.character
        critical = consequences.critical_suffered(character, mode, None, rng)
        if critical.injury is not None:
            Injury.objects.create(
                campaign_id=roll.campaign_id,
                character=character,
                row=rules_states.aggravation_row(character.fragility),
                effect=critical.injury.key,
                roll=roll,
            )
        writes.sheet_write(character, critical.changes, by)
        return critical.summary
    condition = rules_states.suffer_critical(
        rules_states.Condition(
            fragility=combatant.profile.get("fragility", 0),
            aggravation=combatant.aggravation,
            agony=combatant.agony,
        )
    )
    combatant.aggravation = condition.aggravation
    if mode == consequences.RESILIENCE:
        cost = rules_states.avoid_cost(condition.aggravation)
        points = fighter.resilience_points
        if points < cost:
            raise violation("critical", _("Pas assez de points de Résilience pour l'éviter."))
        combatant.profile = {**combatant.profile, "resilience_points": points - cost}
        return _("%(name)s subit un critique (Aggravation %(a)d) et l'évite (Résilience).") % {
            "name": combatant.name,
            "a": condition.aggravation,
        }
    die = (rng or system_rng()).randint(1, 10)
    effect = rule_call(lambda: rules_states.aggravation_effect(condition.fragility, die))
    after = rules_states.apply_aggravation(condition, effect)
    combatant.agony = after.agony
    combatant.profile = {**combatant.profile, "fragility": after.fragility}
    if effect.death:
        combatant.status = CombatantStatus.DEAD
    return _("%(name)s subit un critique (Aggravation %(a)d) : d10 %(die)d → %(effect)s.") % {
        "name": combatant.name,
        "a": condition.aggravation,
        "die": die,
        "effect": effect.label,
    }


def knocked_out(fighter: Fighter, *, criticals: int, hits: dict[str, int]) -> str | None:
    """Update the combatant's state after the blow (§8): dead, unconscious (Énergie gone, or a
    critical at 0 Vitalité: max(Aggravation, Agonie) turns). Returns the log's line, if any."""
    combatant = fighter.combatant
    if fighter.character is not None:
        fighter.character.refresh_from_db()
        aggravation, agony = fighter.character.aggravation, fighter.character.agony
        fragility, exhaustion = fighter.character.fragility, fighter.character.exhaustion
    else:
        aggravation, agony = combatant.aggravation, combatant.agony
        fragility, exhaustion = combatant.profile.get("fragility", 0), 0
    gauges = fighter.gauges()
    outlook = rules_states.outlook(gauges, fragility, exhaustion, hits=hits)
    if outlook.dead or combatant.status == CombatantStatus.DEAD:
        combatant.status = CombatantStatus.DEAD
        return _("%(name)s est mort.") % {"name": combatant.name}
    if criticals and gauges["vitality"].current == 0:
        turns = rules_states.unconscious_turns(aggravation, agony)
        combatant.status = CombatantStatus.UNCONSCIOUS
        combatant.unconscious_turns = max(turns, 1)
        return ngettext(
            "%(name)s tombe inconscient pour %(n)d tour.",
            "%(name)s tombe inconscient pour %(n)d tours.",
            combatant.unconscious_turns,
        ) % {
            "name": combatant.name,
            "n": combatant.unconscious_turns,
        }
    if outlook.unconscious:
        combatant.status = CombatantStatus.UNCONSCIOUS
        return _("%(name)s perd connaissance.") % {"name": combatant.name}
    return None
