"""A played campaign: the demo (`demo_seed`) plus what an evening or two leaves behind — rolls at
the table, a closed arc paid in XP, an improvement bought, a closed ellipse with a finished
training, and an open one with a training running. Used by the page walks (every page, as each
persona) and the browser's layout checks."""

import random
import uuid
from dataclasses import dataclass

from altherion.demo import demo_seed
from campaigns.models import Arc, Campaign
from campaigns.policy import campaign_get_for_member
from characters.models import Character
from progression import advances, awards, ellipses, experience, trainings
from sessions import services as table
from sessions.checks import RollRequest


@dataclass
class Played:
    campaign: Campaign
    storyteller: object
    players: list
    characters: list[Character]
    closed_arc: Arc
    open_arc: Arc


def played_campaign_seed() -> Played:
    campaign = demo_seed(story=False)  # the thin demo: this campaign plays its own story
    storyteller = campaign.memberships.get(role="storyteller").user
    characters = list(Character.objects.filter(campaign=campaign).order_by("pk"))
    players = [c.owner for c in characters]
    rng = random.Random(7)
    for character in characters:
        table.roll_create(
            campaign=campaign_get_for_member(user=character.owner, pk=campaign.pk),
            by=character.owner,
            request=RollRequest(characteristic="agility", skills=("tir",), difficulty=7),
            character_id=character.pk,
            idempotency_key=str(uuid.uuid4()),
            rng=rng,
        )

    closed_arc = Arc.objects.get(campaign=campaign, title="Le phare éteint")
    group = {
        "danger": 3,
        "ending": "chapter",
        "ending_items": ["main_objectives"],
        "length": "days",
    }
    checklist = {
        "group": group,
        "characters": {
            str(c.pk): {
                "bounty": ["took_part"],
                "used": ["agility", "tir", "furtivite", "vigilance", "melee"],
                "optional_objectives": 1,
                "opposition_level": 6,
            }
            for c in characters
        },
    }
    # The jobs are run here rather than on commit: a test's transaction never commits.
    award = awards.arc_award_confirm(arc=closed_arc, checklist=checklist, by=storyteller)
    awards.arc_award_pay(award_id=award.pk, revision=award.revision)

    aelis = characters[0]
    experience.xp_spend(
        character=aelis,
        kind="skill",
        target="furtivite",
        mode="on_receipt",
        key=str(uuid.uuid4()),
        by=aelis.owner,
    )

    open_arc = Arc.objects.create(campaign=campaign, title="La tour engloutie", length_unit="weeks")

    past = ellipses.ellipse_open(campaign=campaign, length_days=30)
    for character in characters:
        trainings.training_queue(
            character=character,
            ellipse=past,
            kind="characteristic",
            target="agility",
            by=character.owner,
        )
    closing = ellipses.advance_request(ellipse=past, key="close-past", closes=True, by=storyteller)
    advances.advance_run(advance_id=closing.pk)
    current = ellipses.ellipse_open(campaign=campaign, length_days=60)
    ellipses.ellipse_set_xp_trainer(
        ellipse=current, character_id=characters[-1].pk, trainer="superior"
    )
    brann = characters[-1]
    trainings.training_queue(
        character=brann, ellipse=current, kind="skill", target="melee", by=brann.owner
    )
    for character in characters:
        character.refresh_from_db()
    return Played(
        campaign=campaign,
        storyteller=storyteller,
        players=players,
        characters=characters,
        closed_arc=closed_arc,
        open_arc=open_arc,
    )
