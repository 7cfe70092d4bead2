"""Experience (§10): the XP ledger and its balances, the act record that says what may be bought,
the improvements on offer with their costs, and spending XP now.

The ledger (`XpEntry`) is append-only; a character's balance is the sum of its entries. XP held by
queued or running trainings is reserved: what a character may spend is balance − reserved.
Every rule (costs, once per act, opposition, durations, ellipse kinds) is the rules engine's.
Trainings (spending over an ellipse) are `progression.trainings`; applying an improvement to the
sheet is `progression.improvements`.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

from campaigns.models import Ability, Arc
from characters.models import Character, SkillKind, SpecialState
from progression.errors import refusal
from progression.improvements import apply_improvement, save_applied
from progression.models import (
    ArcAward,
    JobStatus,
    Training,
    TrainingStatus,
    XpEntry,
    XpEntryKind,
)
from rules import experience as rules_xp
from rules import reference
from rules.french import de
from sessions.selectors import used_in_arc
from sessions.services import morale_hope_spend_for_xp, table_lock

ACTIVE = (TrainingStatus.QUEUED, TrainingStatus.RUNNING)
# The modes of spending XP now, with no training time (§7, §10): the rules engine's.
SPENDING_NOW = tuple(m for m in rules_xp.SPENDING_MODES if not rules_xp.needs_training_time(m))


# --- reads: balances and the act record -----------------------------------------------------


def xp_balance(*, character: Character | int) -> int:
    """The sum of the character's ledger entries (one query)."""
    pk = character if isinstance(character, int) else character.pk
    return XpEntry.objects.filter(character_id=pk).aggregate(total=Sum("amount"))["total"] or 0


def xp_reserved(*, character: Character | int) -> int:
    pk = character if isinstance(character, int) else character.pk
    total = Training.objects.filter(character_id=pk, status__in=ACTIVE).aggregate(
        total=Sum("xp_reserved")
    )["total"]
    return total or 0


def xp_balances(*, character_ids: list[int]) -> dict[int, dict[str, int]]:
    """character id → {"balance", "reserved", "available"} for many characters (two queries)."""
    balances = dict(
        XpEntry.objects.filter(character_id__in=character_ids)
        .values("character_id")
        .annotate(total=Sum("amount"))
        .values_list("character_id", "total")
    )
    reserved = dict(
        Training.objects.filter(character_id__in=character_ids, status__in=ACTIVE)
        .values("character_id")
        .annotate(total=Sum("xp_reserved"))
        .values_list("character_id", "total")
    )
    return {
        pk: {
            "balance": balances.get(pk, 0),
            "reserved": reserved.get(pk, 0),
            "available": balances.get(pk, 0) - reserved.get(pk, 0),
        }
        for pk in character_ids
    }


def xp_available(*, character: Character | int) -> int:
    return xp_balance(character=character) - xp_reserved(character=character)


def ledger(*, character: Character) -> list[XpEntry]:
    return list(XpEntry.objects.filter(character=character).order_by("-created_at", "-pk"))


def current_arc(*, campaign_id: int) -> Arc | None:
    """The campaign's latest arc: its act is the current act."""
    return Arc.objects.filter(campaign_id=campaign_id).order_by("-created_at", "-pk").first()


def _rolled_in_arc(*, arc: Arc, character_id: int) -> frozenset[str]:
    """What the roll log says the character used during the arc (characteristics and skills)."""
    used = used_in_arc(arc=arc, character_id=character_id).get(character_id)
    if used is None:
        return frozenset()
    return frozenset(used.characteristics) | frozenset(used.skills)


@dataclass(frozen=True)
class Context:
    """What spending needs to know about a character: its act record and XP."""

    record: rules_xp.ActRecord
    act: int | None
    arc: Arc | None
    available: int
    just_received: bool


def spending_context(*, character: Character) -> Context:
    """The character's act record (§10): improvements already made in the current act, what it
    used in the last closed arc (roll log + the Conteur's ticks), oppositions, and its XP."""
    arc = current_arc(campaign_id=character.campaign_id)
    act = arc.act if arc else None
    improved, training = _improved_in_act(character, act)
    awarded = (
        ArcAward.objects.filter(arc__campaign_id=character.campaign_id, arc__status="closed")
        .select_related("arc")
        .order_by("-arc__closed_at", "-pk")
        .first()
    )
    ticks: dict[str, Any] = {}
    used: frozenset[str] = frozenset()
    if awarded is not None:
        ticks = awarded.checklist.get("characters", {}).get(str(character.pk), {})
        used = _rolled_in_arc(arc=awarded.arc, character_id=character.pk)
    just_received = rules_xp.just_received(
        last_arc_paid=awarded is not None and awarded.status == JobStatus.DONE,
        paid_arc_is_current=awarded is not None and arc is not None and awarded.arc_id == arc.pk,
    )
    return Context(
        _act_record(improved, training, used, ticks),
        act,
        awarded.arc if awarded else None,
        xp_available(character=character),
        just_received,
    )


def _improved_in_act(
    character: Character, act: int | None
) -> tuple[frozenset[tuple[str, str]], frozenset[tuple[str, str]]]:
    """(kind, target) of what the character bought (or finished training) in this act, and of what
    it is still training (queued or running): the pages tell one from the other."""
    if act is None:
        return frozenset(), frozenset()
    improved: set[tuple[str, str]] = set()
    training: set[tuple[str, str]] = set()
    for value in XpEntry.objects.filter(
        character=character, act=act, kind=XpEntryKind.SPEND
    ).values_list("improvement", flat=True):
        kind, _sep, target = value.partition(":")
        improved.add((kind, target))
    for kind, target, status in (
        Training.objects.filter(character=character, act=act)
        .exclude(status=TrainingStatus.CANCELLED)
        .values_list("kind", "target", "status")
    ):
        (improved if status == TrainingStatus.DONE else training).add((kind, target))
    return frozenset(improved), frozenset(training - improved)


def _act_record(
    improved: frozenset[tuple[str, str]],
    training: frozenset[tuple[str, str]],
    used: frozenset[str],
    ticks: dict[str, Any],
) -> rules_xp.ActRecord:
    """The rules engine's act record from what was improved or is in training, rolled and ticked
    at the arc's end."""
    level = ticks.get("opposition_level")
    return rules_xp.ActRecord(
        improved_this_act=improved,
        training_this_act=training,
        used_in_arc=used | frozenset(ticks.get("used", [])),
        opposition_level=int(level) if level is not None else None,
        faced_more_combative_enemy=bool(ticks.get("more_combative_enemy")),
        nearly_died=bool(ticks.get("nearly_died")),
        means_for=frozenset(ticks.get("means", [])),
    )


# --- improvements: what may be bought ---------------------------------------------------------


@dataclass(frozen=True)
class Option:
    kind: str
    target: str
    label: str
    cost: int
    allowed: bool
    reasons: tuple[str, ...]
    detail: str = ""


def _skill_level(character: Character, key: str) -> int:
    row = next((s for s in character.skills.all() if s.key == key), None)
    return row.level if row else 0


def improvement_of(
    *, character: Character, kind: str, target: str, ability: Ability | None = None
) -> tuple[rules_xp.Improvement, str]:
    """The rules engine's Improvement for a kind and target, and its French label. An ability
    already loaded by the caller (`ability`) is used as is rather than looked up again."""
    if kind == "characteristic":
        if target not in reference.CHARACTERISTICS:
            raise refusal(_("Cette caractéristique n'existe pas."), "target")
        return rules_xp.Improvement(kind, target), f"{reference.LABELS[target]} +1"
    if kind in ("skill", "specialty"):
        skill = reference.SKILLS_BY_KEY.get(target)
        if skill is None:
            raise refusal(_("Cette compétence n'existe pas."), "target")
        level = _skill_level(character, target)
        label = (
            f"{skill.label} {level + 1}"
            if kind == "skill"
            else _("Spécialité %(of_skill)s") % {"of_skill": de(skill.label)}
        )
        return rules_xp.Improvement(kind, target, level=level), label
    if kind == "forgotten_domain":
        if not target or target in reference.SKILLS_BY_KEY:
            raise refusal(_("Nommez le domaine oublié."), "target")
        level = _skill_level(character, target)
        return rules_xp.Improvement(kind, target, level=level), f"{target} {level + 1}"
    if kind == "combativeness":
        return rules_xp.Improvement(kind), _("Combativité %(level)s") % {
            "level": character.combativeness + 1
        }
    if kind == "ability":
        ability = ability or compendium_entry(Ability, character, target)
        return rules_xp.Improvement(kind, target, tier=ability.tier), _("Aptitude %(name)s") % {
            "name": ability.name
        }
    raise refusal(_("Ce type d'amélioration n'existe pas."), "kind")


def compendium_entry(model, character: Character, target: str):
    """The entry `target` (an id) of the character's campaign compendium; refused otherwise."""
    entry = (
        model.objects.filter(campaign_id=character.campaign_id, pk=target).first()
        if str(target).isdigit()
        else None
    )
    if entry is None:
        raise refusal(_("Cette entrée n'existe pas dans le compendium de la campagne."), "target")
    return entry


def spending_options(*, character: Character, context: Context | None = None) -> list[Option]:
    """Every improvement the sheet can aim at, with its cost and whether it may be bought now
    (and if not, the rules engine's reasons). The character must have skills and abilities
    prefetched; abilities of the compendium cost one query."""
    context = context or spending_context(character=character)
    wanted: list[tuple[str, str]] = [("characteristic", c) for c in reference.CHARACTERISTICS]
    wanted += [("skill", s.key) for s in reference.SKILLS]
    wanted += [
        ("forgotten_domain", row.key)
        for row in character.skills.all()
        if row.kind == SkillKind.FORGOTTEN_DOMAIN
    ]
    wanted.append(("combativeness", ""))
    owned = {a.pk for a in character.abilities.all()}
    abilities = {
        str(a.pk): a
        for a in Ability.objects.filter(campaign_id=character.campaign_id).exclude(pk__in=owned)
    }
    wanted += [("ability", pk) for pk in abilities]
    options = []
    for kind, target in wanted:
        improvement, label = improvement_of(
            character=character, kind=kind, target=target, ability=abilities.get(target)
        )
        allowed, reasons = rules_xp.can_spend(improvement, context.record, context.available)
        options.append(
            Option(kind, target, label, rules_xp.xp_cost(improvement), allowed, tuple(reasons))
        )
    return options


def lock_character(character: Character | int) -> Character:
    """The character's row, locked for a spend or a training, with what spending reads."""
    pk = character if isinstance(character, int) else character.pk
    return (
        Character.objects.select_for_update(of=("self",))
        .select_related("campaign", "species")
        .prefetch_related("skills", "abilities", "classes", "branches")
        .get(pk=pk)
    )


# --- spending now ----------------------------------------------------------------------------


def _special_state(character: Character) -> str | None:
    return None if character.special_state == SpecialState.NONE else character.special_state


def leftover_distributable(*, character: Character) -> bool:
    """Whether the character is in a special state, where leftover experience may be
    distributed right away (§7), by the rules engine."""
    return not rules_xp.spending_now_refusals(
        "special_state",
        personal_hope=character.personal_hope,
        received_now=False,
        state=_special_state(character),
    )


@transaction.atomic
def xp_spend(
    *,
    character: Character | int,
    kind: str,
    target: str = "",
    detail: str = "",
    mode: str,
    key: str | uuid.UUID,
    by,
) -> XpEntry:
    """Spend XP right away (§10: with a hope point, or right when it is received; §7: leftover
    experience distributed in a special state) and apply the improvement. The hope point is the
    character's own, spent by the Moral's rules and logged at the table (`sessions.services`).
    `key` is the form's idempotency key: the same spend twice is paid once.
    Raises ValidationError with the rules engine's French reasons and changes nothing."""
    if mode not in SPENDING_NOW:
        raise refusal(
            _("Dépensez avec un point d'espoir, à la réception ou dans un état spécial."), "mode"
        )
    pk = character if isinstance(character, int) else character.pk
    if mode == "hope":  # the Moral is the table's: its lock first, as every Moral move takes it
        campaign_id = Character.objects.filter(pk=pk).values_list("campaign_id", flat=True)
        table_lock(campaign_id=campaign_id.get())
    locked = lock_character(pk)
    source_key = f"spend:{key}"
    existing = XpEntry.objects.filter(character=locked, source_key=source_key).first()
    if existing is not None:
        return existing
    context = spending_context(character=locked)
    improvement, label = improvement_of(character=locked, kind=kind, target=target)
    _allowed, reasons = rules_xp.can_spend(improvement, context.record, context.available)
    reasons += rules_xp.spending_now_refusals(
        mode,
        personal_hope=locked.personal_hope,
        received_now=context.just_received,
        state=_special_state(locked),
    )
    if reasons:
        raise refusal(reasons)
    applied = apply_improvement(locked, kind=kind, target=target, detail=detail)
    save_applied(locked, applied, by=by)
    if mode == "hope":
        morale_hope_spend_for_xp(
            campaign_id=locked.campaign_id, character_id=locked.pk, by=by, label=label
        )
    try:
        with transaction.atomic():
            return XpEntry.objects.create(
                character=locked,
                source_key=source_key,
                kind=XpEntryKind.SPEND,
                amount=-rules_xp.xp_cost(improvement),
                label=f"{label} ({rules_xp.SPENDING_MODE_LABELS[mode]})",
                act=context.act,
                improvement=f"{kind}:{target}",
            )
    except IntegrityError as error:  # the same key, in a race the row lock should prevent
        raise refusal(_("Cette dépense a déjà été faite.")) from error
