"""Combat at the table (§13): encounters, their combatants, initiative and turns.

Every write is a keyword-only `@transaction.atomic` service. It takes the table's one lock first
(`writes.lock_pool`: the log's ids then follow commit order, so the poll's cursor never skips a
line), then the encounter row (`select_for_update`), so two clicks on "next turn" queue up and
the second, carrying a stale `turn`, is refused instead of skipping a second combatant.

Each step is logged as `combat` events: what players may see in a public line, what concerns a
hidden NPC in a hidden one (the Conteur's only, by `selectors.visible_q`). The order comes from
`rules.combat.turn_order` (ties keep the given order: the order in which combatants joined);
initiative is `rules.combat.initiative_check` rolled by `rules.check.roll_check`.

**Product:** a combatant joining a running fight rolls its initiative at once and acts from the
next round (the current round's order is not reshuffled). The defeated, unconscious, dead and
departed are skipped, and left out of the next round's order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaigns.models import Campaign
from characters.models import Character
from rules import combat as rules_combat
from rules.alterations import altered
from rules.check import RandomSource, roll_check
from sessions import writes
from sessions.combat import summary as combat_summary
from sessions.combat import waiting_blows
from sessions.combat.harm import Fighter, block_finesse, character_finesse, npc_profile
from sessions.combat.holds import holds_ended
from sessions.combat.notify import slot_name, turn_notify
from sessions.combat.rollers import roller_alterations
from sessions.combat.steps import (
    Lines,
    encounter_combatants,
    encounter_lock,
    encounter_running,
    require_storyteller,
    step_log,
)
from sessions.combat.turns import round_ends, round_one_starts
from sessions.errors import violation
from sessions.models import (
    Combatant,
    CombatantStatus,
    Encounter,
    EncounterStatus,
    PlaySession,
    StatBlock,
)

ACTIVE = CombatantStatus.ACTIVE
MAX_COPIES = 20
STATUS_MESSAGES = {
    CombatantStatus.ACTIVE: gettext_noop("%(name)s reprend le combat."),
    CombatantStatus.DEFEATED: gettext_noop("%(name)s est vaincu."),
    CombatantStatus.UNCONSCIOUS: gettext_noop("%(name)s tombe inconscient."),
    CombatantStatus.DEAD: gettext_noop("%(name)s est mort."),
    CombatantStatus.LEFT: gettext_noop("%(name)s quitte le combat."),
}


class AlreadyRolled(ValidationError):
    http_status = 409

    def __init__(self):
        super().__init__(
            {"encounter": [_("L'initiative est déjà lancée : passez à l'action suivante.")]}
        )


# --- opening, joining, leaving -----------------------------------------------------------------


@transaction.atomic
def encounter_open(
    *, campaign: Campaign, by, name: str, play_session: PlaySession | None = None
) -> Encounter:
    """Open the campaign's fight (one at a time): combatants join it before initiative."""
    require_storyteller(campaign)
    writes.lock_pool(campaign)
    if Encounter.objects.filter(campaign=campaign).exclude(status=EncounterStatus.ENDED).exists():
        raise violation("name", _("Un combat est déjà ouvert : terminez-le d'abord."))
    name = (name or "").strip() or _("Combat")
    encounter = Encounter.objects.create(
        campaign=campaign, play_session=play_session, name=name[:120], created_by=by
    )
    step_log(encounter, by, Lines([_("Le combat « %(name)s » commence.") % {"name": name}], []))
    return encounter


@dataclass(frozen=True)
class Joining:
    """One combatant about to join: from a sheet, a stat block or a quick one-off NPC."""

    name: str
    finesse: int
    combativeness: int
    hidden: bool = False
    character: Character | None = None
    stat_block: StatBlock | None = None


def party_joining(campaign: Campaign, character_ids: Iterable[int]) -> list[Joining]:
    """The campaign's characters, with Finesse and Combativité from their sheets."""
    ids = list(dict.fromkeys(character_ids))
    found = {c.pk: c for c in Character.objects.filter(campaign=campaign, pk__in=ids)}
    if not ids or len(found) != len(ids):
        raise violation("characters", _("Choisissez des personnages de la campagne."))
    return [
        Joining(c.name, character_finesse(c), c.combativeness, character=c)
        for c in (found[pk] for pk in ids)
    ]


def block_joining(
    campaign: Campaign, block_id: int, count: int, hidden: bool | None = None
) -> list[Joining]:
    """`count` copies of a stat block ("Brigand ×4"), named later with their numbers."""
    block = StatBlock.objects.filter(campaign=campaign, pk=block_id).first()
    if block is None:
        raise violation("stat_block", _("Ce profil n'existe pas dans le bestiaire."))
    if not 1 <= count <= MAX_COPIES:
        raise violation("count", _("De 1 à %(max)d exemplaires à la fois.") % {"max": MAX_COPIES})
    hide = block.hidden if hidden is None else hidden
    copy = Joining(block.name, block_finesse(block), block.combativeness, hide, stat_block=block)
    return [copy] * count


def quick_joining(name: str, finesse: int, combativeness: int, hidden: bool) -> list[Joining]:
    name = (name or "").strip()
    if not name:
        raise violation("name", _("Donnez un nom à ce PNJ."))
    if not 1 <= combativeness <= 5:
        raise violation("combativeness", _("La Combativité va de 1 à 5."))
    return [Joining(name[:110], finesse, combativeness, hidden)]


@transaction.atomic
def combatants_add(
    *,
    campaign: Campaign,
    by,
    encounter_id: int,
    joining: list[Joining],
    idempotency_key: str = "",
    rng: RandomSource | None = None,
) -> tuple[list[Combatant], bool]:
    """Add combatants (the Conteur); returns them and whether they are new. The same
    `idempotency_key` again returns those it added the first time (a retry adds nobody)."""
    require_storyteller(campaign)
    encounter = encounter_lock(campaign, encounter_id)
    if idempotency_key:
        done = list(encounter.combatants.filter(idempotency_key=idempotency_key).order_by("pk"))
        if done:
            return done, False
    if encounter.status == EncounterStatus.ENDED:
        raise violation("encounter", _("Ce combat est terminé."))
    present = encounter_combatants(encounter)
    inside = {c.character_id for c in present if c.status != CombatantStatus.LEFT}
    numbers: dict[int, int] = {}
    for c in present:
        if c.stat_block_id is not None:
            numbers[c.stat_block_id] = numbers.get(c.stat_block_id, 0) + 1
    added = []
    for one in joining:
        if one.character is not None and one.character.pk in inside:
            raise violation("characters", _("%(name)s combat déjà.") % {"name": one.character.name})
        name = one.name
        if one.stat_block is not None:
            numbers[one.stat_block.pk] = numbers.get(one.stat_block.pk, 0) + 1
            name = f"{one.name} {numbers[one.stat_block.pk]}"
        added.append(
            Combatant(
                encounter=encounter,
                character=one.character,
                stat_block=one.stat_block,
                name=name,
                finesse=one.finesse,
                combativeness=one.combativeness,
                hidden=one.hidden,
                idempotency_key=idempotency_key[:64],
                profile={} if one.character is not None else npc_profile(one.stat_block),
            )
        )
    lines = Lines([], [])
    for combatant in added:
        if encounter.round:  # a running fight: roll now, act from the next round
            _initiative(combatant, rng, encounter.round)
            text = _("%(name)s rejoint le combat (initiative %(n)d) et agira au prochain tour.")
            lines.add(combatant, text % {"name": combatant.name, "n": combatant.initiative})
        else:
            lines.add(combatant, _("%(name)s rejoint le combat.") % {"name": combatant.name})
    added = Combatant.objects.bulk_create(added)
    step_log(encounter, by, lines)
    return added, True


@transaction.atomic
def combatant_set_status(
    *, campaign: Campaign, by, encounter_id: int, combatant_id: int, status: str
) -> Combatant:
    """The Conteur marks a combatant defeated, unconscious, dead or back in the fight; one who
    leaves before initiative is simply removed. The order skips whoever is not in the fight."""
    require_storyteller(campaign)
    if status not in CombatantStatus.values:
        raise violation("status", _("État de combattant inconnu."))
    encounter = encounter_lock(campaign, encounter_id)
    combatant = encounter.combatants.filter(pk=combatant_id).first()
    if combatant is None:
        raise Http404(_("Combattant introuvable."))
    if status == CombatantStatus.LEFT and not encounter.round:
        combatant.delete()
    elif combatant.status != status:
        combatant.status = status
        combatant.save(update_fields=["status"])
    else:
        return combatant
    message = _(STATUS_MESSAGES[status]) % {"name": combatant.name}
    lines = Lines([], [])
    lines.add(combatant, message)
    _holds_end(encounter, lines)
    step_log(encounter, by, lines)
    return combatant


def _holds_end(encounter: Encounter, lines: Lines) -> None:
    """A hold ends when its holder or the one held is no longer in the fight (§13)."""
    everyone = encounter_combatants(encounter)
    by_pk = {c.pk: c for c in everyone}
    holders = {c.pk: by_pk.get(c.held_by_id) for c in everyone if c.held_by_id}
    texts: list[str] = []
    ended = holds_ended(everyone, texts)
    if not ended:
        return
    Combatant.objects.bulk_update(ended, ["held_by", "hold"])
    secret = any(c.hidden or (holders[c.pk] is not None and holders[c.pk].hidden) for c in ended)
    (lines.hidden if secret else lines.public).extend(texts)


@transaction.atomic
def combatant_reveal(*, campaign: Campaign, by, encounter_id: int, combatant_id: int) -> Combatant:
    """A hidden NPC appears to the players, with its initiative if it was rolled."""
    require_storyteller(campaign)
    encounter = encounter_lock(campaign, encounter_id)
    combatant = encounter.combatants.filter(pk=combatant_id).first()
    if combatant is None:
        raise Http404(_("Combattant introuvable."))
    if not combatant.hidden:
        return combatant
    combatant.hidden = False
    combatant.save(update_fields=["hidden"])
    text = _("%(name)s entre en scène.") % {"name": combatant.name}
    if combatant.initiative is not None:
        text += " " + _("Initiative %(n)d.") % {"n": combatant.initiative}
    step_log(encounter, by, Lines([text], []))
    return combatant


@transaction.atomic
def encounter_end(*, campaign: Campaign, by, encounter_id: int) -> Encounter:
    require_storyteller(campaign)
    encounter = encounter_lock(campaign, encounter_id)
    if encounter.status == EncounterStatus.ENDED:
        return encounter
    encounter.status = EncounterStatus.ENDED
    encounter.ended_at = timezone.now()
    encounter.save(update_fields=["status", "ended_at"])
    text = _("Fin du combat « %(name)s ».") % {"name": encounter.name}
    closing = combat_summary.closing_lines(encounter, encounter_combatants(encounter))
    summary = combat_summary.rows_payload(closing["public_rows"])
    step_log(encounter, by, Lines([f"{text} {closing['public']}"], []), summary=summary)
    if "hidden" in closing:
        whole = combat_summary.rows_payload(closing["hidden_rows"])
        step_log(encounter, by, Lines([], [closing["hidden"]]), summary=whole)
    return encounter


# --- initiative and turns (§13) ----------------------------------------------------------------


def _initiative(combatant: Combatant, rng: RandomSource | None, round_: int) -> None:
    """Roll the Finesse check of initiative (§5 Reading) for one combatant, built like a table
    roll from its sheet (§13 Product: Épuisement, Descente, Zone…; an NPC's Agonie). One at 0
    Vitalité is marked so that its first round counts as a full one (§8 Reading)."""
    character = combatant.character
    if character is not None:  # the sheet as it is now
        combatant.finesse = character_finesse(character)
        combatant.combativeness = character.combativeness
    check = altered(
        rules_combat.initiative_check(combatant.finesse), roller_alterations(combatant, character)
    )
    breakdown = roll_check(check, rng)
    vitality = Fighter(combatant, character).gauges()["vitality"]
    if vitality.current == 0 and not vitality.stabilised:
        combatant.profile = {**combatant.profile, "zero_since": round_}
    combatant.initiative = breakdown.total
    combatant.initiative_breakdown = breakdown.to_dict()
    combatant.finesse_points = rules_combat.finesse_points_for_turn(combatant.finesse)


def round_order(combatants: list[Combatant]) -> list[dict[str, int]]:
    """The round's acting slots (§13): those still in the fight, by initiative, once each, then
    those with Combativité ≥ 2 again, ≥ 3… Ties keep the order in which they joined."""
    fighting = [c for c in combatants if c.status == ACTIVE and c.initiative is not None]
    keyed = {str(c.pk): c for c in fighting}
    slots = rules_combat.turn_order(
        rules_combat.Combatant(
            key=str(c.pk), initiative=c.initiative, combativeness=c.combativeness
        )
        for c in fighting
    )
    return [{"combatant": keyed[key].pk, "pass": n} for n, key in slots]


def _order_lines(lines: Lines, encounter: Encounter, by_pk: dict[int, Combatant]) -> None:
    def names(hidden: bool) -> str:
        return ", ".join(
            slot_name(by_pk[s["combatant"]].name, s["pass"])
            for s in encounter.order
            if by_pk[s["combatant"]].hidden == hidden
        )

    head = _("Tour %(round)d :") % {"round": encounter.round}
    if names(False):
        lines.public.append(f"{head} {names(False)}.")
    if names(True):
        lines.hidden.append(
            _("Cachés au tour %(round)d : %(names)s.")
            % {
                "round": encounter.round,
                "names": names(True),
            }
        )


def _acts_now(lines: Lines, encounter: Encounter, by_pk: dict[int, Combatant], by) -> None:
    slot = encounter.order[encounter.position]
    combatant = by_pk[slot["combatant"]]
    text = _("À %(name)s d'agir.") % {"name": slot_name(combatant.name, slot["pass"])}
    lines.add(combatant, text)
    turn_notify(encounter, combatant, slot["pass"], by)


@transaction.atomic
def initiative_roll(
    *, campaign: Campaign, by, encounter_id: int, rng: RandomSource | None = None
) -> Encounter:
    """Roll every combatant's initiative (the Conteur, once per fight) and start round 1."""
    require_storyteller(campaign)
    encounter = encounter_lock(campaign, encounter_id)
    if encounter.status == EncounterStatus.ENDED:
        raise violation("encounter", _("Ce combat est terminé."))
    if encounter.round:
        raise AlreadyRolled()
    combatants = encounter_combatants(encounter)
    fighting = [c for c in combatants if c.status == ACTIVE]
    if not fighting:
        raise violation("encounter", _("Ajoutez d'abord des combattants."))
    for combatant in fighting:
        _initiative(combatant, rng, 0)
    starting = Lines([], [])
    round_one_starts(campaign, by, fighting, starting, rng)
    Combatant.objects.bulk_update(
        fighting,
        [
            "initiative",
            "initiative_breakdown",
            "finesse",
            "combativeness",
            "finesse_points",
            "profile",
            "status",
        ],
    )
    encounter.order = round_order(combatants)
    if not encounter.order:
        raise violation("encounter", _("Plus personne n'est en état de combattre."))
    encounter.status, encounter.round, encounter.position = EncounterStatus.RUNNING, 1, 0
    encounter.turn += 1
    encounter.save(update_fields=["order", "status", "round", "position", "turn"])
    by_pk = {c.pk: c for c in combatants}
    lines = Lines([], [])
    rolled = [(c, _("%(name)s %(n)d") % {"name": c.name, "n": c.initiative}) for c in fighting]
    if visible := [text for c, text in rolled if not c.hidden]:
        lines.public.append(_("Initiative : %(list)s.") % {"list": ", ".join(visible)})
    if hidden := [text for c, text in rolled if c.hidden]:
        lines.hidden.append(_("Initiative des cachés : %(list)s.") % {"list": ", ".join(hidden)})
    lines.public += starting.public
    lines.hidden += starting.hidden
    _order_lines(lines, encounter, by_pk)
    _acts_now(lines, encounter, by_pk, by)
    step_log(encounter, by, lines)
    return encounter


def _next_position(encounter: Encounter, by_pk: dict[int, Combatant], start: int) -> int | None:
    for index in range(start, len(encounter.order)):
        if by_pk[encounter.order[index]["combatant"]].status == ACTIVE:
            return index
    return None


@transaction.atomic
def turn_next(
    *, campaign: Campaign, by, encounter_id: int, turn: int, rng: RandomSource | None = None
) -> Encounter:
    """End the current action and give the hand to the next combatant still in the fight; past
    the round's last slot, the turn's own effects (`sessions.combat.turns`) and a new round in a
    fresh order (without the defeated)."""
    encounter = encounter_running(campaign, by, encounter_id, turn)
    if waiting_blows.resume_line(campaign, by, encounter, rng):
        encounter.turn += 1
        encounter.save(update_fields=["turn"])
        return encounter
    combatants = encounter_combatants(encounter)
    by_pk = {c.pk: c for c in combatants}
    lines = Lines([], [])
    ending = by_pk[encounter.order[encounter.position]["combatant"]]
    lines.add(ending, _("%(name)s termine son action.") % {"name": ending.name})
    position = _next_position(encounter, by_pk, encounter.position + 1)
    if position is None:
        round_ends(campaign, by, encounter, combatants, lines, rng)
        order = round_order(combatants)
        if not order:
            raise violation("encounter", _("Plus personne n'est en état de combattre."))
        encounter.round += 1
        encounter.order, position = order, 0
        _order_lines(lines, encounter, by_pk)
    encounter.position = position
    encounter.turn += 1
    encounter.save(update_fields=["order", "round", "position", "turn"])
    _acts_now(lines, encounter, by_pk, by)
    step_log(encounter, by, lines)
    return encounter


@transaction.atomic
def turn_delay(*, campaign: Campaign, by, encounter_id: int, turn: int) -> Encounter:
    """The combatant acting now waits: it swaps places with the next one still in the fight in
    this round, who acts at once."""
    encounter = encounter_running(campaign, by, encounter_id, turn)
    by_pk = {c.pk: c for c in encounter_combatants(encounter)}
    here = encounter.position
    waiting = encounter.order[here]["combatant"]
    later = next(
        (
            index
            for index in range(here + 1, len(encounter.order))
            if encounter.order[index]["combatant"] != waiting
            and by_pk[encounter.order[index]["combatant"]].status == ACTIVE
        ),
        None,
    )
    if later is None:
        raise violation(
            "encounter", _("Personne n'agit plus après dans ce tour : impossible de retarder.")
        )
    order = list(encounter.order)
    order[here], order[later] = order[later], order[here]
    encounter.order = order
    encounter.turn += 1
    encounter.save(update_fields=["order", "turn"])
    lines = Lines([], [])
    lines.add(by_pk[waiting], _("%(name)s retarde son action.") % {"name": by_pk[waiting].name})
    _acts_now(lines, encounter, by_pk, by)
    step_log(encounter, by, lines)
    return encounter
