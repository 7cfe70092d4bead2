"""The demo campaign's fight in progress (issue 39 §4): a bestiary with attack profiles, and a
fight on the quay where a hidden NPC has just attacked Aelis — her player logs in to « une
attaque » waiting for her defence. Played through the fight's own services, dice seeded."""

from __future__ import annotations

from django.db import transaction

from campaigns.models import Campaign
from campaigns.policy import campaign_get_for_member
from campaigns.services import entry_save
from characters.models import Character
from rules.check import RandomSource
from sessions.combat import attacks, fights
from sessions.combat.strikes import AttackRequest
from sessions.models import Encounter, PlaySession, StatBlock

DEMO_FIGHT = "Embuscade sur le quai"
RAIDER = "Pillard des brumes"
LOOKOUT = "Guetteur de la brume"
BESTIARY = (
    StatBlock(
        name=RAIDER,
        strength=3,
        vigor=3,
        agility=3,
        perception=2,
        wisdom=2,
        vitality_max=18,
        armour=3,
        attacks=[
            {"weapon": "Coutelas", "characteristic": "strength", "skill": "melee", "level": 2,
             "damage": 4, "gauge": "vitality", "ranged": False, "nonlethal": False},
            {"weapon": "Gourdin", "characteristic": "strength", "skill": "melee", "level": 1,
             "damage": 3, "gauge": "vitality", "ranged": False, "nonlethal": True},
        ],
        notes="Des marins sans navire, payés pour que personne n'approche du phare.",
    ),
    StatBlock(
        name=LOOKOUT,
        agility=4,
        perception=4,
        wisdom=3,
        vitality_max=14,
        attacks=[
            {"weapon": "Arc court", "characteristic": "perception", "skill": "tir", "level": 3,
             "damage": 5, "gauge": "vitality", "ranged": True, "nonlethal": False},
        ],
        notes="Tapi dans la brume, il tire sur qui approche du phare.",
        hidden=True,
    ),
)  # fmt: skip


@transaction.atomic
def demo_fight_seed(
    *, campaign: Campaign, users: dict, play_session: PlaySession | None, rng: RandomSource
) -> Encounter | None:
    """The bestiary and the fight in progress, made once (None if a fight is already open)."""
    if Encounter.objects.filter(campaign=campaign).exists():
        return None
    conteur_user = users["conteur"]
    conteur = campaign_get_for_member(user=conteur_user, pk=campaign.pk)
    blocks = {}
    for model in BESTIARY:
        block = StatBlock.objects.filter(campaign=campaign, name=model.name).first()
        if block is None:
            block = entry_save(entry=StatBlock(**_fields(model), campaign=campaign))
        blocks[block.name] = block
    encounter = fights.encounter_open(
        campaign=conteur, by=conteur_user, name=DEMO_FIGHT, play_session=play_session
    )
    party = Character.objects.filter(campaign=campaign, owner__username__in=("aelis", "brann"))
    fights.combatants_add(
        campaign=conteur,
        by=conteur_user,
        encounter_id=encounter.pk,
        joining=fights.party_joining(conteur, sorted(party.values_list("pk", flat=True)))
        + fights.block_joining(conteur, blocks[RAIDER].pk, 2)
        + fights.block_joining(conteur, blocks[LOOKOUT].pk, 1),
    )
    fights.initiative_roll(campaign=conteur, by=conteur_user, encounter_id=encounter.pk, rng=rng)
    _lookout_shoots(conteur, conteur_user, encounter, rng)
    return encounter


def _lookout_shoots(conteur: Campaign, by, encounter: Encounter, rng: RandomSource) -> None:
    """The round goes on to the hidden lookout, who shoots Aelis: her defence is awaited."""
    for _ in range(len(Encounter.objects.get(pk=encounter.pk).order)):
        encounter.refresh_from_db()
        acting = encounter.combatants.get(pk=encounter.order[encounter.position]["combatant"])
        if acting.name.startswith(LOOKOUT):
            break
        fights.turn_next(
            campaign=conteur, by=by, encounter_id=encounter.pk, turn=encounter.turn, rng=rng
        )
    aelis = encounter.combatants.filter(character__owner__username="aelis").first()
    if aelis is None or not acting.name.startswith(LOOKOUT):
        return
    attacks.attack_declare(
        campaign=conteur,
        by=by,
        encounter_id=encounter.pk,
        turn=encounter.turn,
        request=AttackRequest(target=aelis.pk, characteristic="perception"),
        idempotency_key="demo-lookout-shot",
        profile=0,
        rng=rng,
    )


def _fields(model: StatBlock) -> dict:
    return {
        f.name: getattr(model, f.name)
        for f in StatBlock._meta.concrete_fields
        if f.name not in ("id", "campaign", "updated_at")
    }
