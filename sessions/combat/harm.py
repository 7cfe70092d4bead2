"""What a blow does to a combatant (§8, §13): its defences, its damage and the criticals it
suffers — on a character's sheet through the sheets' own services, on an NPC's copy of its stat
block kept on the Combatant row (`profile`).

These steps run inside the transactions of `sessions.combat.attacks`, after the table's lock and
the fight's; they compute with `rules/` and write, nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from characters import condition as sheet_condition
from characters import sheet as character_sheet
from characters.models import Character
from characters.sheet import characteristics
from rules import combat as rules_combat
from rules import exchange as rules_exchange
from rules import reference
from rules import sheet as rules_sheet
from rules import states as rules_states
from rules.gauges import Gauge
from sessions import writes
from sessions.checks import characteristic_value, is_discouraged
from sessions.injuries import is_lasting
from sessions.models import Combatant, CombatantStatus, Injury, Roll, StatBlock

NPC_DEFAULTS = {"strength": 2, "vigor": 2, "agility": 2, "perception": 2, "wisdom": 2}
# What `characters.condition.character_damage` says of the state after a hit, unnamed.
SHEET_STATE_NOTES = ("Le personnage meurt.", "Le personnage perd connaissance.")
GAUGE_ATTRS = ("maximum", "current", "scars", "ephemeral", "stabilised", "peril")
# The sheet history's note on what a critical suffered changed (Aggravation, Fragilité…).
CRITICAL_NOTE = gettext_lazy("Critique subi")


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
        "resilience_points": npc_resilience_points(block),
        "gauges": {g: {"maximum": m, "current": m, "scars": 0} for g, m in maxima.items()},
    }


def npc_resilience_points(block: StatBlock | None) -> int:
    """The NPC's Résilience points (`rules.exchange.npc_resilience_points`)."""
    values = {k: getattr(block, k) if block else v for k, v in NPC_DEFAULTS.items()}
    score = rules_sheet.row_score(rules_sheet.Characteristics(**values), "resilience")
    return rules_exchange.npc_resilience_points(score)


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
    def discouraged(self) -> bool:
        """Découragement (Reading §8): kept on the sheet (or the NPC's row) until a rest, or a
        Confiance collapsed."""
        if self.character is not None:
            return is_discouraged(self.character)
        return bool(self.combatant.profile.get("discouraged")) or rules_states.gauge_collapsed(
            self.gauges()["confidence"]
        )

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
        if self.character is not None:
            armour, shield = self.character.armour, self.character.shield
        else:
            armour = self.combatant.profile.get("armour")
            shield = self.combatant.profile.get("shield")
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
        return rules_combat.best_defence_skill(option, levels)


def fighter_of(campaign, combatant: Combatant, *, lock: bool = False) -> Fighter:
    """The fighter behind a combatant; its sheet locked (and fresh) when `lock`."""
    if combatant.character_id is None:
        return Fighter(combatant)
    if lock:
        character = writes.lock_character(campaign, combatant.character_id, "target")
    else:
        character = Character.objects.get(pk=combatant.character_id)
    return Fighter(combatant, character)


# --- the exchange's view of a fighter, and its outcome stored -----------------------------------


def exchange_values(fighter: Fighter, *, can_answer: bool = True) -> rules_exchange.Fighter:
    """What `rules.exchange.resolve` needs of this fighter, read from its sheet or profile."""
    combatant, tracks = fighter.combatant, fighter.character
    return rules_exchange.Fighter(
        gauges=fighter.gauges(),
        bonus={g: fighter.value(reference.GAUGE_COLUMNS[g]) for g in reference.GAUGES},
        resistance={g: fighter.resistance(g) for g in reference.GAUGES},
        annulation=fighter.annulation(),
        fragility=tracks.fragility if tracks else combatant.profile.get("fragility", 0),
        exhaustion=tracks.exhaustion if tracks else combatant.profile.get("exhaustion", 0),
        aggravation=tracks.aggravation if tracks else combatant.aggravation,
        agony=fighter.agony,
        agony_locked=tracks.agony_locked if tracks else False,
        resilience_points=fighter.resilience_points,
        discouraged=fighter.discouraged,
        player=tracks is not None,
        can_answer=can_answer and combatant.status == CombatantStatus.ACTIVE,
    )


def store_aftermath(
    fighter: Fighter, after: rules_exchange.Aftermath, *, roll: Roll, by, note: str = ""
) -> list[str]:
    """Write one side's outcome: a sheet through the sheets' services (locked, versioned, in its
    history, each row with `note` — what struck, « Une attaque » for a hidden NPC — or
    « Critique subi » for what a critical changed), an NPC on its row; returns the log's lines."""
    lines: list[str] = []
    hit = after.hit
    if hit is not None and (line := hit_line(fighter.name, hit)) is not None:
        lines.append(line)
    if fighter.character is not None:
        lines += _store_on_sheet(fighter, after, roll=roll, by=by, note=note)
    else:
        lines += _store_on_profile(fighter, after)
    if hit is not None and hit.resilience_lost:
        lines.append(
            ngettext(
                "%(name)s, à l'Agonie, n'a plus que %(n)d point de Résilience.",
                "%(name)s, à l'Agonie, n'a plus que %(n)d points de Résilience.",
                after.resilience_points,
            )
            % {"name": fighter.name, "n": after.resilience_points}
        )
    lines += [critical_line(fighter.name, c, after) for c in after.criticals]
    return lines + _store_status(fighter, after)


def hit_line(name: str, hit: rules_exchange.Hit) -> str | None:
    """The log's sentence for one blow taken (None when it did nothing worth telling)."""
    if hit.avoided:
        return _("%(name)s évite le coup.") % {"name": name}
    if hit.resilience_lost:
        return None  # told with the points left (harm.store_aftermath)
    if not hit.damage:
        return None
    if hit.half:
        return ngettext(
            "%(name)s subit %(n)d dégât (moitié).",
            "%(name)s subit %(n)d dégâts (moitié).",
            hit.damage,
        ) % {"name": name, "n": hit.damage}
    text = ngettext("%(name)s subit %(n)d dégât", "%(name)s subit %(n)d dégâts", hit.damage) % {
        "name": name,
        "n": hit.damage,
    }
    if hit.scars:
        text += ngettext(" dont %(n)d grave", " dont %(n)d graves", hit.scars) % {"n": hit.scars}
    if hit.halved:
        text += _(" (esquive : moitié)")
    return text + "."


def _store_on_sheet(
    fighter: Fighter, after: rules_exchange.Aftermath, *, roll: Roll, by, note: str
) -> list[str]:
    character = fighter.character
    notes: list[str] = []
    hit = after.hit
    if hit is not None and hit.damage:
        notes = sheet_condition.character_damage(
            character=character.pk,
            gauge=hit.gauge,
            amount=hit.damage,
            scars=hit.scars,
            by=by,
            note=note,
        )
        character.refresh_from_db()  # written by the sheets' service (version, history)
        # The state that follows is said once, by name, after the blow (`_store_status`).
        notes = [note for note in notes if note not in SHEET_STATE_NOTES]
        if notes:
            notes = [" ".join(notes)]
    for critical in after.criticals:
        if critical.effect is not None and is_lasting(critical.effect):
            Injury.objects.create(
                campaign_id=roll.campaign_id,
                character=character,
                row=critical.row,
                effect=critical.effect.key,
                roll=roll,
            )
    writes.sheet_write(
        character,
        {
            "aggravation": after.aggravation,
            "fragility": after.fragility,
            "agony": after.agony,
            "agony_locked": after.agony_locked,
            "resilience_points": after.resilience_points,
            "discouraged": after.discouraged,
        },
        by,
        note=str(CRITICAL_NOTE) if after.criticals else note,
    )
    return notes


def _store_on_profile(fighter: Fighter, after: rules_exchange.Aftermath) -> list[str]:
    combatant = fighter.combatant
    before = npc_gauges(combatant)
    store_npc_gauges(combatant, dict(after.gauges))
    combatant.agony, combatant.aggravation = after.agony, after.aggravation
    combatant.profile = {
        **combatant.profile,
        "fragility": after.fragility,
        "resilience_points": after.resilience_points,
        "discouraged": after.discouraged,
    }
    hit = after.hit
    if hit is None or not hit.damage:
        return []
    gauge = hit.gauge
    return [f"{reference.LABELS[gauge]} : {before[gauge].current} → {after.gauges[gauge].current}."]


def critical_line(name: str, critical: rules_exchange.Critical, after) -> str:
    """The log's sentence for one critical suffered (§8)."""
    if critical.avoided:
        return ngettext(
            "%(name)s subit un critique (Aggravation %(a)d) et dépense %(cost)d point de "
            "Résilience pour l'éviter.",
            "%(name)s subit un critique (Aggravation %(a)d) et dépense %(cost)d points de "
            "Résilience pour l'éviter.",
            critical.cost,
        ) % {"name": name, "a": critical.aggravation, "cost": critical.cost}
    effect = critical.effect
    return _(
        "%(name)s subit un critique (Aggravation %(a)d) : d10 tiré %(die)d sur la ligne "
        "Fragilité %(row)d → %(effect)s"
    ) % {
        "name": name,
        "a": critical.aggravation,
        "die": critical.die,
        "row": critical.row,
        "effect": f"{effect.label} ({effect.description})",
    }


def _store_status(fighter: Fighter, after: rules_exchange.Aftermath) -> list[str]:
    """Dead, knocked out for N rounds, unconscious, discouraged (§8): told when new."""
    combatant = fighter.combatant
    lines = []
    if after.discouraged and not fighter.discouraged:
        lines.append(_("%(name)s est découragé.") % {"name": combatant.name})
    if after.dead:
        if combatant.status != CombatantStatus.DEAD:
            combatant.status = CombatantStatus.DEAD
            lines.append(_("%(name)s est mort.") % {"name": combatant.name})
        return lines
    if after.knocked_out:
        combatant.status = CombatantStatus.UNCONSCIOUS
        combatant.unconscious_turns = rules_states.knocked_out_for(
            combatant.unconscious_turns, after.knocked_out
        )
        lines.append(
            ngettext(
                "%(name)s tombe inconscient pour %(n)d tour.",
                "%(name)s tombe inconscient pour %(n)d tours.",
                combatant.unconscious_turns,
            )
            % {"name": combatant.name, "n": combatant.unconscious_turns}
        )
    elif after.unconscious and combatant.status == CombatantStatus.ACTIVE:
        combatant.status = CombatantStatus.UNCONSCIOUS
        lines.append(_("%(name)s perd connaissance.") % {"name": combatant.name})
    return lines
