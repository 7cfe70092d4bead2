"""A sheet's links to the campaign's compendium: its species and its entries (classes, branches,
abilities, assets, flaws), looked up in the campaign only."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from campaigns.models import Ability, Asset, Branch, CharacterClass, Flaw, Species

COMPENDIUM_MODELS = {
    "classes": CharacterClass,
    "branches": Branch,
    "abilities": Ability,
    "assets": Asset,
    "flaws": Flaw,
}


def species_in_campaign(campaign_id: int, value: Any) -> Species | None:
    """The campaign's species with id `value` (or `{"id": …}`); None for none; else refused."""
    if value in (None, "", {}):
        return None
    pk = value.get("id") if isinstance(value, dict) else value
    species = Species.objects.filter(campaign_id=campaign_id, pk=pk).first()
    if species is None:
        raise ValidationError({"species": _("Cette espèce n'existe pas dans la campagne.")})
    return species


def entries_in_campaign(campaign_id: int, relation: str, ids) -> list:
    """The campaign's entries of `relation` with these ids; refused if one of them is not one."""
    model = COMPENDIUM_MODELS[relation]
    wanted = {int(i.get("id") if isinstance(i, dict) else i) for i in ids or []}
    found = list(model.objects.filter(campaign_id=campaign_id, pk__in=wanted))
    if len(found) != len(wanted):
        raise ValidationError({relation: _("Certaines entrées n'existent pas dans la campagne.")})
    return found
