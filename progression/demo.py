"""The demo's progression: the past arc closed and its experience paid, an improvement bought at
reception, and an ellipse whose trainings are running — all through the progression's services.

The background jobs (the award, the ellipse's advance) are queued by their services on commit,
as in play; the demo also runs them at once so that what follows (a spend, a training) finds the
experience paid. The jobs claim their work: the queued run that follows changes nothing.
"""

from __future__ import annotations

from django.db import transaction

from campaigns.models import Arc, Campaign
from characters.models import Character
from progression import advances, awards, ellipses, experience, trainings
from progression.models import Ellipse

DEMO_ELLIPSE_DAYS = 60
DEMO_ELLIPSE_ADVANCE = 14

# What the Conteur ticked at the end of the past arc (§10), for every character present.
PAST_ARC_GROUP = {
    "danger": 4,
    "balance": ["all_active", "coordinated"],
    "ingenuity": ["arc_finished", "good_idea"],
    "ending": "chapter",
    "ending_items": ["main_objectives", "satisfying_ending"],
    "length": "days",
}
PAST_ARC_TICKS = {
    "aelis": {
        "bounty": ["took_part", "curious"],
        "used": ["perception", "vigilance", "charisma", "empathie", "agility", "tir"],
        "optional_objectives": 1,
        "opposition_level": 6,
    },
    "brann": {
        "bounty": ["took_part", "roleplay"],
        "used": ["strength", "rigidite", "melee", "vigor"],
        "optional_objectives": 1,
        "opposition_level": 6,
    },
}


def _characters(campaign: Campaign) -> dict[str, Character]:
    return {
        c.owner.get_username(): c
        for c in Character.objects.filter(campaign=campaign).select_related("owner")
    }


@transaction.atomic
def demo_award_seed(*, arc: Arc, by) -> None:
    """Close the past arc with the Conteur's checklist and pay it (the arc close's own job)."""
    characters = _characters(arc.campaign)
    checklist = {
        "group": PAST_ARC_GROUP,
        "characters": {
            str(character.pk): PAST_ARC_TICKS[username]
            for username, character in characters.items()
            if username in PAST_ARC_TICKS
        },
    }
    award = awards.arc_award_confirm(arc=arc, checklist=checklist, by=by)
    awards.arc_award_pay(award_id=award.pk, revision=award.revision)
    aelis = characters.get("aelis")
    if aelis is not None:
        experience.xp_spend(
            character=aelis,
            kind="skill",
            target="empathie",
            mode="on_receipt",
            key="demo:reception:aelis-empathie",
            by=aelis.owner,
        )


@transaction.atomic
def demo_ellipse_seed(*, campaign: Campaign, storyteller) -> Ellipse:
    """Open an ellipse and queue each player's trainings, then let two weeks pass: Brann's
    specialty with a confirmed trainer is done, Aelis's is half-way, the next ones wait."""
    characters = _characters(campaign)
    ellipse = ellipses.ellipse_open(campaign=campaign, length_days=DEMO_ELLIPSE_DAYS)
    queued = []
    aelis, brann = characters.get("aelis"), characters.get("brann")
    if aelis is not None:
        queued += [
            trainings.training_queue(
                character=aelis,
                ellipse=ellipse,
                kind="specialty",
                target="tir",
                detail="Tir dans la brume",
                by=aelis.owner,
            ),
            trainings.training_queue(
                character=aelis,
                ellipse=ellipse,
                kind="characteristic",
                target="agility",
                by=aelis.owner,
            ),
        ]
    if brann is not None:
        with_trainer = trainings.training_queue(
            character=brann,
            ellipse=ellipse,
            kind="specialty",
            target="melee",
            detail="Hache à deux mains",
            trainer="educational",
            by=brann.owner,
        )
        trainings.training_confirm_trainer(training=with_trainer, confirmed=True)
        queued += [
            with_trainer,
            trainings.training_queue(
                character=brann, ellipse=ellipse, kind="skill", target="rigidite", by=brann.owner
            ),
        ]
    advance = ellipses.advance_request(
        ellipse=ellipse,
        key=f"demo:ellipse:{ellipse.pk}:advance",
        days=DEMO_ELLIPSE_ADVANCE,
        by=storyteller,
    )
    advances.advance_run(advance_id=advance.pk)
    return ellipse
