"""A fight already running, as the combat pages' tests start from it: Aelis, one quick NPC and
Brann join in that order, get their initiatives, and round 1 opens on the first of them."""

from django.urls import reverse

from sessions.combat import fights as combat
from sessions.models import Combatant, Encounter

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(campaign, name, *args) -> str:
    return reverse(f"sessions:{name}", args=[campaign.pk, *args])


def running_fight(
    conteur,
    by,
    aelis,
    brann,
    *,
    name: str = "Embuscade",
    npc: str = "Loup",
    hidden: bool = False,
    initiatives: tuple[int, int, int] = (14, 10, 8),
    each: dict | None = None,
    aelis_combativeness: int | None = None,
) -> Encounter:
    """`each`: fields set on every combatant (e.g. their Finesse points)."""
    encounter = combat.encounter_open(campaign=conteur, by=by, name=name)
    combat.combatants_add(
        campaign=conteur,
        by=by,
        encounter_id=encounter.pk,
        joining=combat.party_joining(conteur, [aelis.pk])
        + combat.quick_joining(npc, 3, 1, hidden)
        + combat.party_joining(conteur, [brann.pk]),
    )
    for who, value in zip(("Aelis", npc, "Brann"), initiatives, strict=True):
        Combatant.objects.filter(encounter=encounter, name=who).update(
            initiative=value, **(each or {})
        )
    if aelis_combativeness is not None:
        encounter.combatants.filter(name="Aelis").update(combativeness=aelis_combativeness)
    encounter.order = combat.round_order(list(encounter.combatants.order_by("pk")))
    encounter.status, encounter.round, encounter.turn = "running", 1, 1
    encounter.save()
    return encounter
