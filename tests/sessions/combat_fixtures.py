"""A fight already running, as the combat pages' tests start from it: Aelis, one quick NPC and
Brann join in that order, get their initiatives, and round 1 opens on the first of them."""

from django.urls import reverse

from sessions.combat import attacks as ca
from sessions.combat import fights as combat
from sessions.models import Combatant, Encounter
from tests.dice import Faces

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


def loup_bites(conteur, by, encounter: Encounter, *, faces: Faces, **strike) -> dict:
    """The Loup (second in the order, made to act) bites Aelis for 5 (Force 3, Mêlée 1 unless
    `strike` says otherwise); returns the attack waiting for her defence."""
    Encounter.objects.filter(pk=encounter.pk).update(position=1)
    encounter.refresh_from_db()
    bite = {"characteristic": "strength", "skills": ("melee",), "characteristic_value": 3}
    pending, _new = ca.attack_declare(
        campaign=conteur,
        by=by,
        encounter_id=encounter.pk,
        turn=encounter.turn,
        request=ca.AttackRequest(
            target=encounter.combatants.get(name="Aelis").pk,
            **{**bite, "skill_level": 1, "damage": 5, **strike},
        ),
        idempotency_key="bite",
        rng=faces,
    )
    return pending
