"""A rest (characters, one floor below) asks which Aggravation effects a character still carries
(§4, §8: a rib cage makes Vitalité and Énergie one rank harder). The injuries are recorded here,
so this module answers from them and `SessionsConfig.ready` registers it with the rest."""

from __future__ import annotations

from characters import condition
from sessions.models import Injury


def open_injury_effects(character_id: int) -> list[str]:
    """The effects (keys of the Aggravation table) of a character's unhealed injuries."""
    return list(
        Injury.objects.filter(character_id=character_id, healed_at__isnull=True).values_list(
            "effect", flat=True
        )
    )


def register() -> None:
    condition.register_injury_reader(open_injury_effects)
