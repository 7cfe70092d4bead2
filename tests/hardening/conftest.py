"""Fixtures of the hardening tests: two campaigns, A and B, each with rows of every kind.

`two_campaigns` returns a namespace: `a` and `b` (dicts of rows by kind), and the users
`player_a` (a player of A only), `storyteller_b`, `player_b` (a player of B who owns no character)
and `owner_b` (a player of B, owner of B's character). B's rows carry the marker strings
`SECRET_MARKERS` where only their rightful readers may see them.
"""

import random
import uuid
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone

from campaigns.models import (
    Ability,
    Arc,
    Asset,
    Branch,
    CharacterClass,
    Flaw,
    Membership,
    Notification,
    Role,
    Species,
    SpellEntry,
)
from campaigns.policy import campaign_get_for_member
from campaigns.services import campaign_create, invitation_create
from characters.models import Character, CharacterChange, CharacterLanguage, CharacterSkill
from progression import ellipses
from progression.models import Training
from sessions import checks, morale, services
from sessions.models import (
    Combatant,
    Encounter,
    Injury,
    PlaySession,
    StatBlock,
    TableEvent,
    TableEventKind,
    Visibility,
)
from world.handouts import handout_give
from world.models import HandoutKind, PageAudience, PageKind
from world.services import note_save, page_create

# Text only B's Conteur may read (a hidden roll), only the owner and the Conteur may read (private
# notes), and text of B no one outside B may read.
HIDDEN_ROLL = "Jet-cache-du-Conteur-B"
PRIVATE_NOTE = "Note-privee-de-Dorn"
B_ONLY = "Campagne-B-secrete"


def _roll(campaign, user, character, visibility=Visibility.PUBLIC, label=""):
    roll = services.roll_create(
        campaign=campaign_get_for_member(user=user, pk=campaign.pk),
        by=user,
        request=checks.RollRequest(
            characteristic="strength",
            skills=("melee",) if character else (),
            characteristic_value=None if character else 4,
        ),
        character_id=character.pk if character else None,
        idempotency_key=uuid.uuid4().hex,
        visibility=visibility,
        rng=random.Random(3),
    )
    if label:
        type(roll).objects.filter(pk=roll.pk).update(label=label)
        roll.events.update(summary=f"{label} {roll.events.first().summary}")
    return roll


def _campaign_rows(campaign, storyteller, owner, marker: str) -> dict:
    arc = Arc.objects.create(campaign=campaign, title=f"Arc {marker}", summary=marker)
    play_session = PlaySession.objects.create(
        campaign=campaign,
        arc=arc,
        title=f"Séance {marker}",
        notes=f"**{marker}**",
        scheduled_at=timezone.now() + timedelta(days=3),
    )
    character_class = CharacterClass.objects.create(campaign=campaign, name=f"Classe {marker}")
    compendium = {
        "species": Species.objects.create(campaign=campaign, name=f"Peuple {marker}"),
        "classes": character_class,
        "branches": Branch.objects.create(
            campaign=campaign, character_class=character_class, name=f"Branche {marker}"
        ),
        "abilities": Ability.objects.create(
            campaign=campaign, character_class=character_class, name=f"Aptitude {marker}", cost=1
        ),
        "assets": Asset.objects.create(campaign=campaign, name=f"Atout {marker}", cost=3),
        "flaws": Flaw.objects.create(campaign=campaign, name=f"Handicap {marker}", value=3),
        "spells": SpellEntry.objects.create(campaign=campaign, name=f"Sort {marker}"),
    }
    character = Character.objects.create(
        campaign=campaign,
        owner=owner,
        name=f"Dorn {marker}",
        notes=marker,
        private_notes=PRIVATE_NOTE if marker == B_ONLY else "",
        exaltation=3,
        impact_points=2,
        resilience_points=2,
    )
    CharacterSkill.objects.create(character=character, key="melee", level=3)
    language = CharacterLanguage.objects.create(character=character, key="occidental", level=5)
    change = CharacterChange.objects.create(
        character=character, version=1, field="notes", old_value="", new_value=marker, by=owner
    )
    if marker == B_ONLY:
        CharacterChange.objects.create(
            character=character,
            version=2,
            field="private_notes",
            old_value="",
            new_value=PRIVATE_NOTE,
            by=owner,
        )
    public_roll = _roll(campaign, owner, character, label=f"Jet {marker}")
    hidden_roll = _roll(
        campaign,
        storyteller,
        None,
        visibility=Visibility.HIDDEN,
        label=HIDDEN_ROLL if marker == B_ONLY else "Jet caché",
    )
    injury = Injury.objects.create(
        campaign=campaign, character=character, row=2, effect="broken_bones", roll=public_roll
    )
    ellipse = ellipses.ellipse_open(campaign=campaign, length_days=30)
    training = Training.objects.create(
        character=character,
        ellipse=ellipse,
        kind="skill",
        target="melee",
        label=f"Entraînement {marker}",
        days_needed=10,
    )
    notification = Notification.objects.create(
        user=owner, campaign=campaign, kind="award", key=f"n-{marker}", text=f"Avis {marker}"
    )
    stat_block = StatBlock.objects.create(campaign=campaign, name=f"Brigand {marker}")
    encounter = Encounter.objects.create(campaign=campaign, name=f"Combat {marker}")
    combatant = Combatant.objects.create(
        encounter=encounter, stat_block=stat_block, name=f"Brigand {marker} 1", finesse=6
    )
    fortune_request = TableEvent.objects.create(
        campaign=campaign,
        kind=TableEventKind.MORALE,
        actor=owner,
        character=character,
        summary=f"Demande de Fortune {marker}",
        payload={"fortune_request": 1, "fortune_status": morale.FORTUNE_PENDING},
    )
    world_page = page_create(
        campaign=campaign,
        by=storyteller,
        title=f"Port {marker}",
        kind=PageKind.PLACE,
        body=f"Le port de {marker}.",
        audience=PageAudience.EVERYONE,
    )
    note_save(page=world_page, user=owner, text=f"Note {marker}")
    handout = handout_give(
        page=world_page, by=storyteller, kind=HandoutKind.PAGE, recipients=[owner]
    )
    return {
        "campaign": campaign,
        "world_page": world_page,
        "world_revision": world_page.revisions.get(),
        "world_handout": handout,
        "arc": arc,
        "play_session": play_session,
        "membership": Membership.objects.get(campaign=campaign, user=owner),
        "invitation": invitation_create(campaign=campaign, by=storyteller),
        "compendium": compendium,
        "character": character,
        "language": language,
        "change": change,
        "roll": public_roll,
        "hidden_roll": hidden_roll,
        "injury": injury,
        "ellipse": ellipse,
        "training": training,
        "notification": notification,
        "stat_block": stat_block,
        "encounter": encounter,
        "combatant": combatant,
        "fortune_request": fortune_request,
    }


@pytest.fixture
def two_campaigns(make_user):
    storyteller_a, player_a = make_user("conteur"), make_user("aelis")
    storyteller_b, player_b, owner_b = make_user("morgane"), make_user("brann"), make_user("dorn")
    campaign_a = campaign_create(creator=storyteller_a, name="Campagne A")
    Membership.objects.create(campaign=campaign_a, user=player_a, role=Role.PLAYER)
    campaign_b = campaign_create(creator=storyteller_b, name=B_ONLY, description=B_ONLY)
    Membership.objects.create(campaign=campaign_b, user=player_b, role=Role.PLAYER)
    Membership.objects.create(campaign=campaign_b, user=owner_b, role=Role.PLAYER)
    return SimpleNamespace(
        a=_campaign_rows(campaign_a, storyteller_a, player_a, "Campagne-A"),
        b=_campaign_rows(campaign_b, storyteller_b, owner_b, B_ONLY),
        storyteller_a=storyteller_a,
        player_a=player_a,
        storyteller_b=storyteller_b,
        player_b=player_b,
        owner_b=owner_b,
    )
