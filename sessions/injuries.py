"""Lasting injuries: the Aggravation table's effect each one came from, and its dice (§8)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.translation import gettext as _

from characters.models import Character
from rules import reference
from sessions.errors import violation
from sessions.models import Injury

SCOPE_LABELS = {
    "limb": "jets usant de ce membre",
    "hearing": "Perception auditive",
    "sight": "Perception visuelle, vision en profondeur",
}


def injury_effect(injury: Injury) -> reference.AggravationEffect | None:
    """The Aggravation table's effect an injury came from (§8)."""
    return next(
        (e for e in reference.AGGRAVATION_TABLE.get(injury.row, ()) if e.key == injury.effect), None
    )


def is_lasting(effect: reference.AggravationEffect) -> bool:
    """Effects that stay on the character until healed: impuissance dice, an unusable or lost
    limb, a harder rest, an Agonie held by the wound."""
    return bool(
        effect.bane_dice
        or effect.unusable_limb
        or effect.lost_limb
        or effect.harder_rest_gauges
        or effect.agony_locked_until_healed
    )


def injury_label(injury: Injury) -> str:
    effect = injury_effect(injury)
    if effect is None:
        return injury.effect
    if effect.bane_dice:
        scope = SCOPE_LABELS.get(effect.bane_scope, effect.bane_scope)
        return _("%(label)s : %(bane_dice)s dé d'impuissance (%(scope)s)") % {
            "label": effect.label,
            "bane_dice": effect.bane_dice,
            "scope": scope,
        }
    return f"{effect.label} : {effect.description}"


def open_injuries(character_ids: Iterable[int]) -> list[Injury]:
    """The unhealed injuries of these characters (one query), oldest first."""
    return list(
        Injury.objects.filter(character_id__in=list(character_ids), healed_at__isnull=True)
        .select_related("character")
        .order_by("created_at", "pk")
    )


def open_injuries_in(campaign_id: int, character_ids: Iterable[int]) -> list[Injury]:
    """`open_injuries(character_ids)` of characters of this campaign only (one query)."""
    return list(
        Injury.objects.filter(
            character__campaign_id=campaign_id,
            character_id__in=list(character_ids),
            healed_at__isnull=True,
        )
        .select_related("character")
        .order_by("created_at", "pk")
    )


def roller_injuries(character: Character | None, ids: Sequence[int]) -> list[Injury]:
    """The injuries a roll declares, which must be the roller's and not healed."""
    if not ids:
        return []
    wanted = set(ids)
    found = [i for i in open_injuries([character.pk]) if i.pk in wanted] if character else []
    if len(found) != len(wanted):
        raise violation(
            "injuries", _("Cette blessure n'est pas (ou plus) celle du personnage qui lance.")
        )
    return found
