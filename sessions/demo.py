"""The demo campaign's play sessions and what was played at them: rolls and Moral moves, made
through the table's own services (`sessions.services`), so every rule is applied as in play."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from campaigns.demo import DEMO_ARC
from campaigns.models import Arc, Campaign
from campaigns.policy import campaign_get_for_member
from campaigns.services import entry_save
from characters.models import Character
from sessions import morale, services
from sessions.checks import RollRequest
from sessions.combat.demo import demo_fight_seed
from sessions.models import PlaySession, Roll, Visibility
from sessions.rolls import seeded_rng

DEMO_PAST_SESSION = "Les récifs d'Emeshar"
DEMO_CURRENT_SESSION = "Arrivée à Vael"


@transaction.atomic
def demo_sessions_seed(*, campaign: Campaign) -> None:
    """Plan the demo's two sessions once (nothing more on later runs)."""
    arc = Arc.objects.filter(campaign=campaign, title=DEMO_ARC).first()
    if not PlaySession.objects.filter(campaign=campaign).exists():
        now = timezone.now().replace(minute=0, second=0, microsecond=0)
        entry_save(
            entry=PlaySession(
                campaign=campaign,
                arc=arc,
                title=DEMO_CURRENT_SESSION,
                scheduled_at=now - timedelta(days=7),
                notes=(
                    "Le groupe arrive au port de **Vael**.\n\n"
                    "- Aelis interroge la gardienne du phare\n"
                    "- Brann remarque des traces dans la brume"
                ),
            )
        )
        entry_save(
            entry=PlaySession(
                campaign=campaign,
                arc=arc,
                title="Le phare éteint",
                scheduled_at=now + timedelta(days=7),
            )
        )


@transaction.atomic
def demo_past_session_seed(*, campaign: Campaign, arc: Arc) -> PlaySession:
    """The session of the arc before the current one, three weeks ago (made once)."""
    found = PlaySession.objects.filter(campaign=campaign, title=DEMO_PAST_SESSION).first()
    if found is not None:
        return found
    now = timezone.now().replace(minute=0, second=0, microsecond=0)
    return entry_save(
        entry=PlaySession(
            campaign=campaign,
            arc=arc,
            title=DEMO_PAST_SESSION,
            scheduled_at=now - timedelta(days=21),
            notes=(
                "La *Mouette* s'échoue sur les récifs d'Emeshar.\n\n"
                "- Aelis repère la côte à travers la brume\n"
                "- Brann tente de sauver la cargaison de l'épave\n"
                "- Le groupe gagne Vael à pied, le long des falaises"
            ),
        )
    )


# --- what was played: rolls and Moral moves --------------------------------------------------


@dataclass(frozen=True)
class DemoRoll:
    """One roll of the demo. `player` names the demo player whose character rolls (None: the
    Conteur's NPC); `seed` makes its dice the same on every machine; `key` is its idempotency
    key, so a second run finds the roll already made."""

    key: str
    request: RollRequest
    seed: int
    player: str | None = None
    visibility: str = Visibility.PUBLIC


@dataclass(frozen=True)
class DemoMoraleMove:
    """One Moral move of the demo, by the Conteur unless `player` is given."""

    action: str
    player: str | None = None
    character_of: str | None = None  # the demo player whose character the move names


# The seeds are chosen so that the log shows a success, a failure and a critical success
# (tests/altherion/test_seed_demo.py checks it: a rules change that moves them fails there).
PAST_SESSION_ROLLS = (
    DemoRoll(
        key="demo:reefs:aelis-coast",
        player="aelis",
        seed=7,
        request=RollRequest(
            characteristic="perception",
            skills=("vigilance",),
            difficulty=12,
            label="Repérer la côte dans la brume",
        ),
    ),
    DemoRoll(
        key="demo:reefs:brann-wreck",
        player="brann",
        seed=4,
        request=RollRequest(
            characteristic="strength",
            skills=("rigidite",),
            difficulty=18,
            label="Sauver la cargaison de l'épave",
        ),
    ),
)
PAST_SESSION_MORALE = (
    DemoMoraleMove(morale.GAIN_HOPE),
    DemoMoraleMove(morale.GAIN_HOPE),
    DemoMoraleMove(morale.GAIN_PERSONAL_HOPE, character_of="brann"),
)

CURRENT_SESSION_ROLLS = (
    DemoRoll(
        key="demo:vael:aelis-keeper",
        player="aelis",
        seed=11,
        request=RollRequest(
            characteristic="charisma",
            skills=("empathie",),
            difficulty=12,
            hope=1,
            hope_source=morale.GROUP,
            label="Faire parler la gardienne du phare",
        ),
    ),
    DemoRoll(
        key="demo:vael:aelis-tracks",
        player="aelis",
        seed=2,
        visibility=Visibility.STORYTELLER,
        request=RollRequest(
            characteristic="perception",
            skills=("vigilance",),
            difficulty=16,
            label="Suivre les traces dans la brume",
        ),
    ),
    DemoRoll(
        key="demo:vael:brann-door",
        player="brann",
        seed=3,
        request=RollRequest(
            characteristic="strength",
            skills=("melee",),
            difficulty=14,
            label="Enfoncer la porte du phare",
        ),
    ),
    DemoRoll(
        key="demo:vael:watcher",
        seed=8,
        visibility=Visibility.HIDDEN,
        request=RollRequest(
            characteristic="perception",
            skills=("vigilance",),
            difficulty=12,
            characteristic_value=5,
            skill_level=3,
            label="Le guetteur du phare",
        ),
    ),
)
CURRENT_SESSION_MORALE = (
    DemoMoraleMove(morale.GAIN_DESPAIR),
    DemoMoraleMove(morale.GAIN_PERSONAL_HOPE, character_of="aelis"),
)


def demo_rolls_play(
    *, campaign: Campaign, users: dict, play_session: PlaySession, rolls: tuple[DemoRoll, ...]
) -> list[Roll]:
    """Roll each demo roll through `roll_create`, as its player would at the table."""
    characters = _characters_by_player(campaign)
    made = []
    for demo in rolls:
        user = users[demo.player] if demo.player else users["conteur"]
        made.append(
            services.roll_create(
                campaign=campaign_get_for_member(user=user, pk=campaign.pk),
                by=user,
                request=demo.request,
                character_id=characters[demo.player].pk if demo.player else None,
                idempotency_key=demo.key,
                visibility=demo.visibility,
                play_session=play_session,
                rng=seeded_rng(demo.seed),
            )
        )
    return made


def demo_morale_play(*, campaign: Campaign, users: dict, moves: tuple[DemoMoraleMove, ...]) -> None:
    """Make each Moral move through `morale_change`, as the Conteur (or its player) would."""
    characters = _characters_by_player(campaign)
    for move in moves:
        user = users[move.player or "conteur"]
        services.morale_change(
            campaign=campaign_get_for_member(user=user, pk=campaign.pk),
            by=user,
            action=move.action,
            character_id=characters[move.character_of].pk if move.character_of else None,
        )


DEMO_FIGHT_SEED = 39


def demo_fight_play(*, campaign: Campaign, users: dict, play_session: PlaySession | None) -> None:
    """The bestiary and a fight in progress on the quay: a hidden NPC's attack awaits Aelis's
    defence (sessions.combat.demo)."""
    demo_fight_seed(
        campaign=campaign,
        users=users,
        play_session=play_session,
        rng=seeded_rng(DEMO_FIGHT_SEED),
    )


def _characters_by_player(campaign: Campaign) -> dict[str, Character]:
    return {
        c.owner.get_username(): c
        for c in Character.objects.filter(campaign=campaign).select_related("owner")
    }
