"""Demo characters for `manage.py seed_demo`: one complete, valid sheet per demo player."""

from django.db import transaction

from campaigns.models import Ability, Asset, CharacterClass, Role, Species
from characters.creation import character_create, creation_report
from characters.models import Character

# Two players, two builds; each is checked against the rules engine before it is saved.
DEMO_SHEETS = {
    "aelis": {
        "name": "Aelis de Vael",
        "lineage": "Gardiens du phare",
        "characteristics": {
            "strength": 3,
            "vigor": 4,
            "agility": 7,
            "power": 4,
            "charisma": 5,
            "perception": 7,
            "intellect": 4,
            "will": 4,
            "wisdom": 4,
        },
        "origin": 2,
        "combativeness": 1,
        "premices": {"vitality": 14, "energy": 15, "confidence": 16},
        "skills": {
            "tir": {"level": 4, "expertises": ["Arcs"]},
            "furtivite": {"level": 3, "expertises": []},
            "vigilance": {"level": 3, "expertises": ["Dangers"]},
            "empathie": {"level": 2, "expertises": []},
        },
        "languages": {
            "occidental": {"level": 7, "writing": True},
            "central": {"level": 3, "writing": False},
        },
        "notes": "Cherche la gardienne disparue du phare.",
    },
    "brann": {
        "name": "Brann le Roc",
        "lineage": "Forgerons des marches",
        "characteristics": {
            "strength": 8,
            "vigor": 7,
            "agility": 4,
            "power": 2,
            "charisma": 3,
            "perception": 4,
            "intellect": 3,
            "will": 5,
            "wisdom": 3,
        },
        "origin": 2,
        "combativeness": 2,
        "premices": {"vitality": 22, "energy": 10, "confidence": 13},
        "skills": {
            "melee": {"level": 4, "expertises": ["Haches"]},
            "rigidite": {"level": 3, "expertises": []},
            "artisanat": {"level": 2, "expertises": ["Forge"]},
        },
        "languages": {"occidental": {"level": 5, "writing": False}},
        "notes": "Doit une dette de sang au capitaine du port.",
    },
}


# Each player's species among the compendium's examples, when the budget allows it.
DEMO_SPECIES = {"aelis": "Sylvain", "brann": "Nain des roches"}


def _with_species(campaign, username: str, data: dict) -> dict:
    """The sheet with its species (and entries) when that sheet is valid, else without it."""
    species = Species.objects.filter(campaign=campaign, name=DEMO_SPECIES.get(username)).first()
    if species is not None:
        candidate = _with_entries(campaign, {**data, "species": species.pk})
        if creation_report(campaign=campaign, data=candidate).valid:
            return candidate
    return _with_entries(campaign, data)


def _with_entries(campaign, data: dict) -> dict:
    """Add a founding class, one of its abilities and an asset when the budget allows it."""
    cls = CharacterClass.objects.filter(campaign=campaign, tier="founding").first()
    extra = {}
    if cls is not None:
        extra["classes"] = [cls.pk]
        ability = Ability.objects.filter(campaign=campaign, character_class=cls, tier="founding")
        if ability.exists():
            extra["abilities"] = [ability.first().pk]
    asset = Asset.objects.filter(campaign=campaign).order_by("cost", "pk").first()
    if asset is not None:
        extra["assets"] = [asset.pk]
    for drop in (None, "assets", "abilities", "classes"):
        if drop:
            extra.pop(drop, None)
        candidate = {**data, **extra}
        if creation_report(campaign=campaign, data=candidate).valid:
            return candidate
    return data


@transaction.atomic
def demo_characters_seed(*, campaign, users) -> list[Character]:
    """Give each demo player of `campaign` its character, once (later runs change nothing)."""
    users = users.values() if isinstance(users, dict) else users
    created = []
    for user in users:
        data = DEMO_SHEETS.get(user.get_username())
        if data is None:
            continue
        if not campaign.memberships.filter(user=user, role=Role.PLAYER).exists():
            continue
        if Character.objects.filter(campaign=campaign, owner=user).exists():
            continue
        created.append(
            character_create(
                campaign=campaign,
                owner=user,
                by=user,
                data=_with_species(campaign, user.get_username(), data),
                # The demo's builds keep a few points, as a player may (the wizard asks first).
                accept_unspent=True,
            )
        )
    return created
