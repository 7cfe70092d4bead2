"""The Moral: the group's hope and despair, each character's own, and the special states they
open (§6, §7), computed by the rules engine on the group as it is in the database.

`morale_move` turns one Moral action into the engine's transition without writing anything;
`sessions.services.morale_change` locks the group, calls it, writes the result and logs it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.models import Campaign, Role
from characters.models import Character, SpecialState
from rules import morale as rules_morale
from rules import reference
from rules import states as rules_states
from rules.check import RandomSource
from rules.french import de
from sessions.checks import condition_of
from sessions.errors import rule_call, violation
from sessions.models import MoralePool, TableEvent

GROUP, PERSONAL, SERENITY = rules_morale.GROUP, rules_morale.PERSONAL, rules_morale.SERENITY

GAIN_HOPE = "gain_hope"
GAIN_DESPAIR = "gain_despair"
GAIN_PERSONAL_HOPE = "gain_personal_hope"
GAIN_PERSONAL_DESPAIR = "gain_personal_despair"
SPEND_HOPE = "spend_hope"
SPEND_DESPAIR = "spend_despair"
HOPE_EXPLOIT = "hope_exploit"
DESPAIR_EXPLOIT = "despair_exploit"
STATE_ENTER = "state_enter"
STATE_END = "state_end"
SERENITY_EFFECT = "serenity_effect"
MORALE_ACTIONS: dict[str, str] = {
    GAIN_HOPE: "Le groupe gagne 1 espoir",
    GAIN_DESPAIR: "Le groupe gagne 1 désespoir",
    GAIN_PERSONAL_HOPE: "Espoir personnel +1",
    GAIN_PERSONAL_DESPAIR: "Désespoir personnel +1",
    SPEND_HOPE: "Dépenser 1 espoir",
    SPEND_DESPAIR: "Dépenser 1 désespoir",
    HOPE_EXPLOIT: "Exploit d'espoir",
    DESPAIR_EXPLOIT: "Exploit de désespoir",
    STATE_ENTER: "Entrer dans un état spécial",
    STATE_END: "Fin de l'état spécial",
    SERENITY_EFFECT: "Effet d'Apaisement",
}
STORYTELLER_ACTIONS = frozenset(
    {GAIN_HOPE, GAIN_DESPAIR, GAIN_PERSONAL_HOPE, GAIN_PERSONAL_DESPAIR, HOPE_EXPLOIT,
     DESPAIR_EXPLOIT, STATE_END}
)  # fmt: skip
# The moves of the whole group: they name no character unless one is given.
GROUP_ACTIONS = frozenset({GAIN_HOPE, GAIN_DESPAIR, HOPE_EXPLOIT, DESPAIR_EXPLOIT})
ENTERABLE_STATES = (rules_states.FURY, rules_states.BLAZE, rules_states.SERENITY)
# A player's Fortune spend waits for the Conteur's agreement (§14): the status of its log line.
FORTUNE_PENDING, FORTUNE_ACCEPTED, FORTUNE_REFUSED = "pending", "accepted", "refused"


@dataclass
class MoraleChange:
    """What a Moral move did: the logged event, and the exploit's dice if any."""

    event: TableEvent
    state: rules_morale.Morale
    exploit: rules_morale.ExploitResult | None = None
    fragility: list[int] = field(default_factory=list)  # characters who took 1 Fragilité


# --- the group as the rules engine sees it ----------------------------------------------------


def player_characters(campaign: Campaign | int) -> QuerySet[Character]:
    """The group: characters whose owner is a player of the campaign (capacity = their number)."""
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    return Character.objects.filter(
        campaign_id=campaign_id,
        owner__memberships__campaign_id=campaign_id,
        owner__memberships__role=Role.PLAYER,
    ).order_by("pk")


def group_of(campaign_id: int) -> list[Character]:
    """The group's sheets, in id order (one query)."""
    return list(player_characters(campaign_id))


def member_keys(characters: Iterable[Character]) -> dict[int, str]:
    """The name each character has in the Moral's messages: its name, made unique if needed."""
    characters = list(characters)
    names = [c.name for c in characters]
    return {c.pk: c.name if names.count(c.name) == 1 else f"{c.name} ({c.pk})" for c in characters}


def morale_of(pool: MoralePool, characters: list[Character]) -> rules_morale.Morale:
    keys = member_keys(characters)
    return rules_morale.Morale(
        hope=pool.hope,
        despair=pool.despair,
        members=tuple(
            rules_morale.Member(
                key=keys[c.pk],
                exaltation=c.exaltation,
                hope=c.personal_hope,
                despair=c.personal_despair,
                serenity=c.special_state == SpecialState.SERENITY,
            )
            for c in characters
        ),
    )


def member_character(characters: list[Character], pk: int | None, field: str) -> Character:
    """The group's character with this id, or a refusal about `field`."""
    for character in characters:
        if character.pk == pk:
            return character
    raise violation(field, _("Ce personnage ne fait pas partie du groupe."))


# --- one Moral move, computed ------------------------------------------------------------------


@dataclass
class MoraleMove:
    """A Moral move the rules engine accepted, not written yet."""

    after: rules_morale.Morale
    events: list[rules_morale.MoraleEvent]
    move: dict[str, Any]  # the move as the log records it, to replay the Moral
    extra: dict[int, dict[str, Any]]  # sheet changes besides personal points, by character id
    exploit: rules_morale.ExploitResult | None = None
    fragility: list[int] = field(default_factory=list)


def morale_move(
    *,
    action: str,
    before: rules_morale.Morale,
    members: list[Character],
    character: Character | None,
    source: str,
    taker_id: int | None,
    agreeing: Collection[int],
    state: str,
    effect: str,
    rng: RandomSource | None,
) -> MoraleMove:
    """Apply one Moral action to `before` with the rules engine (§6, §7); refusals raise
    ValidationError. Fragilité taken from the move is added to `extra`."""
    keys = member_keys(members)
    key = keys[character.pk] if character is not None else None
    taker = None
    if taker_id is not None:
        taker = keys[member_character(members, taker_id, "taker").pk]
    move: dict[str, Any] = {"action": action, "character": key, "source": source, "taker": taker}
    extra: dict[int, dict[str, Any]] = {}
    exploit = None
    if action in (HOPE_EXPLOIT, DESPAIR_EXPLOIT):
        agreeing_keys = [keys[pk] for pk in agreeing if pk in keys]
        move["agreeing"] = agreeing_keys
        exploit_fn = (
            rules_morale.hope_exploit if action == HOPE_EXPLOIT else rules_morale.despair_exploit
        )
        after, events, exploit = rule_call(lambda: exploit_fn(before, agreeing_keys, rng))
        move["dice"] = list(exploit.dice)
    elif action == SERENITY_EFFECT:
        if effect not in ("hope", "despair"):
            raise violation("effect", _("Choisissez un effet d'espoir ou de désespoir."))
        move["effect"] = effect
        after, events = rule_call(lambda: rules_morale.serenity_effect(before, key, effect))
    elif action == STATE_ENTER:
        after, events = _state_enter(before, character, key, state, source, extra)
        move["state"] = state
    elif action == STATE_END:
        after, events = _state_end(before, character, extra)
    else:
        after, events = rule_call(lambda: _points_move(action, before, key, taker, source))
    fragile = _fragility_taken(events, members, keys, extra)
    return MoraleMove(after, events, move, extra, exploit, fragile)


def _points_move(
    action: str, before: rules_morale.Morale, key: str | None, taker: str | None, source: str
) -> rules_morale.Transition:
    """A gain or a spending of one hope or despair point, group or personal (§6)."""
    if action == GAIN_HOPE:
        return rules_morale.gain_hope(before, taker)
    if action == GAIN_DESPAIR:
        return rules_morale.gain_despair(before, taker)
    if action == GAIN_PERSONAL_HOPE:
        return rules_morale.gain_personal_hope(before, key)
    if action == GAIN_PERSONAL_DESPAIR:
        return rules_morale.gain_personal_despair(before, key)
    if action == SPEND_HOPE:
        return rules_morale.spend_hope(before, key, source)
    return rules_morale.spend_despair(before, key, source)


def _fragility_taken(
    events: list[rules_morale.MoraleEvent],
    members: list[Character],
    keys: dict[int, str],
    extra: dict[int, dict[str, Any]],
) -> list[int]:
    """Add 1 Fragilité (in `extra`) to each member an event names; return their ids."""
    fragile: list[int] = []
    for event in events:
        if event.kind == "fragility" and event.member is not None:
            victim = next(c for c in members if keys[c.pk] == event.member)
            current = extra.get(victim.pk, {}).get("fragility", victim.fragility)
            condition = rules_states.add_fragility(rules_states.Condition(fragility=current))
            extra.setdefault(victim.pk, {})["fragility"] = condition.fragility
            fragile.append(victim.pk)
    return fragile


def _state_enter(
    before: rules_morale.Morale,
    character: Character,
    key: str,
    state: str,
    source: str,
    extra: dict[int, dict[str, Any]],
) -> rules_morale.Transition:
    """Enter Acharnement (spend despair), Flamboyance (spend hope while Galvanisé) or Apaisement
    (while Calme), §7. Zone comes from a roll (`consequence_apply`)."""
    if state not in ENTERABLE_STATES:
        raise violation("state", _("On n'entre pas dans cet état depuis le Moral."))
    label = rules_states.STATE_LABELS[state]
    after, events = before, []
    if state == rules_states.FURY:
        after, events = rule_call(lambda: rules_morale.spend_despair(before, key, source))
        allowed = rules_states.may_enter(state, spent_despair=True)
    elif state == rules_states.BLAZE:
        if not before.galvanized:
            raise violation("state", _("Flamboyance : le groupe doit être Galvanisé."))
        after, events = rule_call(lambda: rules_morale.spend_hope(before, key, source))
        allowed = rules_states.may_enter(state, spent_hope=True, galvanized=True)
    else:
        allowed = rules_states.may_enter(state, calm=before.is_calm(key))
    if not allowed:
        raise violation(
            "state",
            _("%(name)s ne peut pas entrer en %(label)s : il faut être Calme.")
            % {"name": character.name, "label": label},
        )
    extra.setdefault(character.pk, {})["special_state"] = state
    event = rules_morale.MoraleEvent(
        "state_entered",
        _("%(name)s entre en %(label)s.") % {"name": character.name, "label": label},
        key,
    )
    return after, [*events, event]


def _state_end(
    before: rules_morale.Morale, character: Character, extra: dict[int, dict[str, Any]]
) -> rules_morale.Transition:
    """End the character's special state (§7) as the rules engine does: Descente, Fragilité, and
    for Acharnement scars equal to wounds on every gauge not stable. All go to `extra`."""
    condition = condition_of(character)
    if condition.state not in rules_states.SPECIAL_STATES:
        raise violation(
            "state", _("%(name)s n'est dans aucun état spécial.") % {"name": character.name}
        )
    ended = rules_states.end_state(condition)
    changes = extra.setdefault(character.pk, {})
    changes.update(special_state=ended.state or SpecialState.NONE, fragility=ended.fragility)
    scars = _scars_changed(condition, ended)
    changes.update({f"{name}_scars": after for name, (_before, after) in scars.items()})
    label = rules_states.STATE_LABELS[condition.state]
    then = rules_states.STATE_LABELS.get(ended.state, _("aucun état"))
    message = _("Fin %(of_label)s pour %(name)s : %(then)s") % {
        "of_label": de(label),
        "name": character.name,
        "then": then,
    }
    if ended.fragility > condition.fragility:
        message += _(", +1 Fragilité")
    if condition.state == rules_states.FURY:
        message += _scars_message(condition, scars)
    return before, [rules_morale.MoraleEvent("state_ended", message + ".")]


def _scars_changed(
    before: rules_states.Condition, after: rules_states.Condition
) -> dict[str, tuple[int, int]]:
    """The gauges whose scars the state's end changed: name → (scars before, after)."""
    if before.gauges is None or after.gauges is None:
        return {}
    return {
        name: (gauge.scars, after.gauges[name].scars)
        for name, gauge in before.gauges.items()
        if after.gauges[name].scars != gauge.scars
    }


def _scars_message(condition: rules_states.Condition, scars: dict[str, tuple[int, int]]) -> str:
    """« , cicatrices égales aux blessures : Vitalité 2 → 12 (Énergie stable, inchangée) »."""
    parts = [f"{reference.LABELS[name]} {old} → {new}" for name, (old, new) in scars.items()]
    stable = [
        reference.LABELS[name]
        for name, gauge in (condition.gauges or {}).items()
        if gauge.stabilised
    ]
    text = _(", cicatrices égales aux blessures : ") + (", ".join(parts) or _("aucun changement"))
    if stable:
        text += ngettext(
            " (%(gauges)s stable, inchangée)", " (%(gauges)s stables, inchangées)", len(stable)
        ) % {"gauges": ", ".join(stable)}
    return text
