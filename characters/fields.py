"""The sheet's scalar fields that can be edited one at a time: their shape, not their rules.

Shape (type, storage bounds) is checked by forms and serializers from this table; what the game
allows (caps, gauges within their maximum…) is decided by `rules` through the services.
"""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from characters.models import CHARACTERISTIC_FIELDS, SpecialState
from rules import reference


@dataclass(frozen=True)
class SheetField:
    name: str
    label: str
    kind: str  # "int" | "bool" | "text" | "longtext" | "choice" | "species"
    low: int | None = None
    high: int | None = None
    storyteller_only: bool = False
    private: bool = False
    choices: tuple[tuple[str, str], ...] = ()


def _int(name, label, low=0, high=None, **kw) -> SheetField:
    return SheetField(name, label, "int", low, high, **kw)


GAUGE_LABELS = {
    "vitality": _("Vitalité"),
    "energy": _("Énergie"),
    "confidence": _("Confiance"),
}

_FIELDS: list[SheetField] = [
    SheetField("name", _("Nom"), "text", high=120),
    SheetField("lineage", _("Lignée"), "text", high=120),
    SheetField("species", _("Espèce"), "species"),
    *(_int(name, reference.LABELS[name], 1, 20) for name in CHARACTERISTIC_FIELDS),
    _int(
        "exaltation",
        _("Exaltation"),
        reference.EXALTATION_MIN,
        reference.EXALTATION_MAX,
        storyteller_only=True,
    ),
    _int("combativeness", _("Combativité"), 1, reference.COMBATIVENESS_MAX),
]
for _gauge in reference.GAUGES:
    _label = GAUGE_LABELS[_gauge]
    _FIELDS += [
        _int(f"{_gauge}_current", _label, 0, 10_000),
        _int(f"{_gauge}_scars", _("cicatrices"), 0, 10_000),
        _int(f"{_gauge}_ephemeral", _("éphémère"), 0, 10_000),
        SheetField(f"{_gauge}_stabilised", _("stabilisé"), "bool"),
        SheetField(f"{_gauge}_peril", _("en péril"), "bool"),
        _int(
            f"{_gauge}_regeneration",
            _("régénération par tour de combat"),
            0,
            1000,
            storyteller_only=True,
        ),
    ]
_FIELDS += [
    _int("impact_points", _("points d'Impact"), 0, 100),
    _int("resilience_points", _("points de Résilience"), 0, 100),
    _int("finesse_points", _("points de Finesse"), 0, 100),
    _int("fragility", _("Fragilité"), 0, reference.FRAGILITY_MAX),
    _int("exhaustion", _("Épuisement"), 0, reference.EXHAUSTION_MAX),
    _int("aggravation", _("Aggravation"), 0, 100),
    _int("agony", _("Agonie"), 0, 100),
    SheetField("agony_locked", _("Agonie bloquée jusqu'à guérison"), "bool"),
    SheetField("discouraged", _("Découragé"), "bool"),
    _int("armour", _("Armure"), 0, 100),
    SheetField("shield", _("Bouclier"), "bool"),
    SheetField("special_state", _("État spécial"), "choice", choices=tuple(SpecialState.choices)),
    _int("personal_hope", _("Espoir personnel"), 0, 10),
    _int("personal_despair", _("Désespoir personnel"), 0, 10),
    _int("fortune", _("Fortune"), 0, reference.FORTUNE_MAX),
    _int("karma", _("Karma"), -10_000, 10_000),
    _int("legend", _("Légende"), -10_000, 10_000),
    SheetField("notes", _("Notes"), "longtext", high=20_000),
    SheetField("private_notes", _("Notes privées"), "longtext", high=20_000, private=True),
]

SHEET_FIELDS: dict[str, SheetField] = {f.name: f for f in _FIELDS}
# The states a sheet's « États » section shows (§4, §8), shown and keyed together.
CONDITION_FIELDS = (
    "fragility",
    "exhaustion",
    "aggravation",
    "agony",
    "agony_locked",
    "discouraged",
    "special_state",
    "armour",
    "shield",
)
# Prémices are chosen at creation (their sum is fixed): they are not edited one at a time.
PREMICE_FIELDS = tuple(f"premice_{gauge}" for gauge in reference.GAUGES)
