"""Campaign export/import: a rich campaign survives a round trip into an empty database and a
copy beside its original, exactly; a bad file changes nothing; no model can be forgotten."""

import json
import random
from collections import deque
from io import StringIO
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import models

from altherion.demo import demo_users_seed
from altherion.portability import (
    EXCLUDED,
    SECTIONS,
    PortabilityError,
    campaign_export,
    campaign_import,
)
from campaigns.demo import demo_campaign_seed
from campaigns.models import (
    Arc,
    Campaign,
    Invitation,
    Membership,
    Notification,
    Species,
    SpellEntry,
)
from campaigns.policy import campaign_get_for_member
from characters.demo import demo_characters_seed
from characters.models import Character, CharacterChange
from characters.services import character_update_field
from progression import awards, ellipses, trainings
from progression.models import Training, XpEntry
from sessions import checks, morale, services
from sessions.combat import fights as combat
from sessions.demo import demo_sessions_seed
from sessions.models import Combatant, Encounter, Injury, Roll, StatBlock, TableEvent
from tests.world.test_portability_world import WORLD_KEYS, world_played

pytestmark = pytest.mark.django_db

GROUP = {"danger": 3, "ending": "none", "length": "weeks"}


def _counts() -> dict[str, int]:
    return {section.key: section.model.objects.count() for section in SECTIONS}


@pytest.fixture
def rich(django_capture_on_commit_callbacks, settings, tmp_path):
    """The demo campaign, played: rolls, Moral moves, an arc paid, an ellipse with trainings,
    sheet edits in the history, notifications, an invitation, a world with handouts."""
    settings.MEDIA_ROOT = tmp_path
    users = demo_users_seed()
    campaign = demo_campaign_seed(users=users)
    demo_sessions_seed(campaign=campaign)
    heroes = demo_characters_seed(campaign=campaign, users=users)
    storyteller, aelis = users["conteur"], users["aelis"]
    hero = next(h for h in heroes if h.owner == aelis)
    SpellEntry.objects.create(campaign=campaign, name="Trait de feu", energy_cost=3)
    species = Species.objects.filter(campaign=campaign).exclude(pk=hero.species_id).first()
    hero = character_update_field(
        character=hero, field="species", value=species.pk, version=None, by=aelis
    )
    character_update_field(
        character=hero, field="notes", value="Une *note*.", version=None, by=aelis
    )
    for seed in range(3):
        services.roll_create(
            campaign=campaign_get_for_member(user=aelis, pk=campaign.pk),
            by=aelis,
            request=checks.RollRequest(characteristic="strength", skills=("melee",)),
            character_id=hero.pk,
            idempotency_key=f"roll-{seed}",
            rng=random.Random(seed),
        )
    as_storyteller = campaign_get_for_member(user=storyteller, pk=campaign.pk)
    services.morale_change(campaign=as_storyteller, by=storyteller, action=morale.GAIN_HOPE)
    services.morale_change(campaign=as_storyteller, by=storyteller, action=morale.GAIN_DESPAIR)
    first_roll = Roll.objects.filter(campaign=campaign).order_by("pk").first()
    for row in (1, 2):
        injury = Injury.objects.create(
            campaign=campaign, character=hero, row=row, effect="fragilisation", roll=first_roll
        )
    services.injury_heal(campaign=as_storyteller, by=storyteller, injury_id=injury.pk)
    arc = Arc.objects.filter(campaign=campaign).first()
    ticks = {"bounty": ["took_part"], "used": ["strength", "melee"], "opposition_level": 5}
    with django_capture_on_commit_callbacks(execute=True):
        awards.arc_award_confirm(
            arc=arc,
            checklist={"group": GROUP, "characters": {str(h.pk): ticks for h in heroes}},
            by=storyteller,
        )
    ellipse = ellipses.ellipse_open(campaign=campaign, length_days=60)
    ellipses.ellipse_set_xp_trainer(ellipse=ellipse, character_id=hero.pk, trainer="expert")
    trainings.training_queue(
        character=hero, ellipse=ellipse, kind="characteristic", target="strength", by=aelis
    )
    trainings.training_queue(
        character=hero, ellipse=ellipse, kind="skill", target="melee", by=aelis
    )
    with django_capture_on_commit_callbacks(execute=True):
        ellipses.advance_request(ellipse=ellipse, key="advance-form-1", days=31, by=storyteller)
    Invitation.objects.create(
        campaign=campaign, token="secret-token", created_by=storyteller, expires_at=arc.created_at
    )
    _fight(campaign, storyteller)
    world_played(campaign, users)
    Campaign.objects.create(name="Une autre campagne")  # not part of the export
    return Campaign.objects.get(pk=campaign.pk)


def _fight(campaign, storyteller) -> None:
    """A fight with a hero and two brigands from the bestiary, initiative rolled."""
    as_storyteller = campaign_get_for_member(user=storyteller, pk=campaign.pk)
    block = StatBlock.objects.create(campaign=campaign, name="Brigand")
    hero = campaign.characters.order_by("pk").first()
    # A fight already over, with its closing summary in the log.
    over = combat.encounter_open(campaign=as_storyteller, by=storyteller, name="Escarmouche")
    combat.combatants_add(
        campaign=as_storyteller,
        by=storyteller,
        encounter_id=over.pk,
        joining=combat.party_joining(campaign, [hero.pk]),
    )
    combat.encounter_end(campaign=as_storyteller, by=storyteller, encounter_id=over.pk)
    encounter = combat.encounter_open(campaign=as_storyteller, by=storyteller, name="Embuscade")
    joining = combat.party_joining(campaign, [hero.pk]) + combat.block_joining(
        campaign, block.pk, 2
    )
    combat.combatants_add(
        campaign=as_storyteller, by=storyteller, encounter_id=encounter.pk, joining=joining
    )
    combat.initiative_roll(
        campaign=as_storyteller, by=storyteller, encounter_id=encounter.pk, rng=random.Random(3)
    )
    # Brigand 2 holds Brigand 1 in an Étreinte (a combatant naming another of its section).
    first, second = Combatant.objects.filter(stat_block=block).order_by("pk")
    Combatant.objects.filter(pk=first.pk).update(held_by=second, hold={"total": 11})


def _without_time(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "exported_at"}


def test_the_rich_campaign_has_something_in_every_section(rich):
    data = campaign_export(campaign=rich)
    empty = [s.key for s in SECTIONS if not data[s.key]]
    assert empty == []
    assert data["format"] == "altherion-campaign" and data["version"] == 1
    assert {u["username"] for u in data["users"]} == {"conteur", "aelis", "brann"}
    assert "secret-token" not in json.dumps(data)
    # ids inside values are file-local too: the ledger's source keys name the file's arc.
    assert {e["source_key"] for e in data["xp_entries"]} >= {"arc:1", "training:1"}
    healed = [e for e in data["table_events"] if e["payload"].get("healed")]
    assert [e["payload"]["injury"] for e in healed] == [2]


def test_round_trip_into_an_empty_database_reproduces_the_campaign(rich):
    before = campaign_export(campaign=rich)
    text = json.dumps(before)
    Campaign.objects.all().delete()
    get_user_model().objects.all().delete()
    assert all(count == 0 for count in _counts().values())

    result = campaign_import(data=json.loads(text))

    assert result.created_users == ["aelis", "brann", "conteur"]
    assert not get_user_model().objects.get(username="aelis").has_usable_password()
    after = campaign_export(campaign=result.campaign)
    assert _without_time(after) == _without_time(before)
    assert Invitation.objects.count() == 0


def test_a_copy_beside_the_original_gets_new_ids_and_the_same_content(rich):
    counts = _counts()
    before = campaign_export(campaign=rich)

    copy = campaign_import(data=json.loads(json.dumps(before))).campaign

    assert copy.pk != rich.pk and copy.name == rich.name
    assert {k: v * 2 for k, v in counts.items()} == _counts()
    assert campaign_import(data=before).created_users == []  # the users exist already
    after = campaign_export(campaign=copy)
    # Idempotency keys already used by the original were replaced by fresh ones.
    for section in ("rolls", "advances"):
        for row in before[section] + after[section]:
            row.pop("idempotency_key", None), row.pop("key", None)
    assert _without_time(after) == _without_time(before)
    # Foreign keys and ids inside values point into the copy, never into the original.
    hero = Character.objects.filter(campaign=copy, owner__username="aelis").get()
    assert hero.species.campaign_id == copy.pk
    assert set(Roll.objects.filter(campaign=copy).values_list("character", flat=True)) == {hero.pk}
    assert all(
        e.roll.campaign_id == copy.pk
        for e in TableEvent.objects.filter(campaign=copy, roll__isnull=False)
    )
    training = Training.objects.filter(character=hero).order_by("pk").first()
    assert XpEntry.objects.filter(character=hero, source_key=f"training:{training.pk}").exists()
    arc = Arc.objects.get(campaign=copy)
    assert str(hero.pk) in arc.award.checklist["characters"]
    healed = TableEvent.objects.get(campaign=copy, payload__healed=True)
    assert Injury.objects.get(pk=healed.payload["injury"]).campaign_id == copy.pk
    change = CharacterChange.objects.filter(character=hero, field="species").get()
    assert change.new_value["id"] == hero.species_id
    notes = list(Notification.objects.filter(campaign=copy).exclude(link=""))
    awards = [n for n in notes if n.kind == "award" and n.user == hero.owner]
    assert awards and all(n.key.endswith(f":{hero.pk}") for n in awards)
    for note in notes:
        assert f"/campaigns/{copy.pk}/" in note.link
    # A fight's ids inside its values point into the copy too: the turn order, a hold, the log.
    fight = Encounter.objects.get(campaign=copy, name="Embuscade")
    fighters = set(fight.combatants.values_list("pk", flat=True))
    assert fight.order and {slot["combatant"] for slot in fight.order} <= fighters
    held = Combatant.objects.get(encounter=fight, held_by__isnull=False)
    assert held.held_by.encounter_id == fight.pk
    closing = TableEvent.objects.get(campaign=copy, payload__has_key="summary")
    over = Encounter.objects.get(campaign=copy, name="Escarmouche")
    assert closing.payload["encounter"] == over.pk
    assert {row["combatant"] for row in closing.payload["summary"]} == set(
        over.combatants.values_list("pk", flat=True)
    )
    # Timestamps are those of the original.
    assert copy.created_at == rich.created_at
    originals = (
        Roll.objects.filter(campaign=rich).order_by("pk").values_list("created_at", flat=True)
    )
    copies = Roll.objects.filter(campaign=copy).order_by("pk").values_list("created_at", flat=True)
    assert list(originals) == list(copies)


@pytest.mark.parametrize(
    ("breaking", "message"),
    [
        (lambda d: d.update(format="autre"), "pas un export de campagne"),
        (lambda d: d.update(version=99), "Version de fichier 99"),
        (lambda d: d["characters"][0].update(strength="fort"), "champ « strength »"),
        (lambda d: d["characters"][0].update(species=999), "absent du fichier"),
        (lambda d: d["rolls"][0].update(rolled_by="personne"), "Utilisateur « personne »"),
        (lambda d: d["characters"][0].update(strength=99), "règle de la base"),
        (lambda d: d["memberships"].append(dict(d["memberships"][0], id=99)), "base"),
        (lambda d: d["character_skills"].append("n'importe quoi"), "n'est pas un objet"),
    ],
)
def test_a_bad_file_changes_nothing_and_says_why(rich, breaking, message):
    data = campaign_export(campaign=rich)
    breaking(data)
    counts, users = _counts(), get_user_model().objects.count()
    data["users"].append({"username": "nouveau"})

    with pytest.raises(PortabilityError, match=message):
        campaign_import(data=data)

    assert _counts() == counts and get_user_model().objects.count() == users


def test_the_commands_write_and_read_a_file(rich, tmp_path):
    path = tmp_path / "campagne.json"
    call_command("export_campaign", str(rich.pk), "-o", str(path), stderr=StringIO())
    assert json.loads(path.read_text())["campaign"]["name"] == rich.name
    printed = StringIO()
    call_command("export_campaign", str(rich.pk), stdout=printed)
    assert json.loads(printed.getvalue())["campaign"]["name"] == rich.name

    out = StringIO()
    call_command("import_campaign", str(path), stdout=out)
    assert "importée" in out.getvalue()
    assert Campaign.objects.filter(name=rich.name).count() == 2

    with pytest.raises(CommandError, match="n'existe|Aucune campagne"):
        call_command("export_campaign", "999999")
    path.write_text("{pas du json")
    with pytest.raises(CommandError, match="pas du JSON valide"):
        call_command("import_campaign", str(path))
    path.write_text(json.dumps({"format": "altherion-campaign", "version": 1}))
    with pytest.raises(CommandError, match="Import refusé, rien n'a changé"):
        call_command("import_campaign", str(path))


def _reaches_campaign(model) -> bool:
    seen, queue = {model}, deque([model])
    while queue:
        current = queue.popleft()
        if current is Campaign:
            return True
        for field in current._meta.concrete_fields:
            target = field.related_model if field.is_relation else None
            if target is not None and target not in seen:
                seen.add(target)
                queue.append(target)
    return False


def test_every_model_linked_to_a_campaign_is_exported_or_excluded_on_purpose():
    covered = {section.model for section in SECTIONS} | set(EXCLUDED) | {Campaign}
    forgotten = []
    for model in apps.get_models(include_auto_created=True):
        if model._meta.auto_created:
            # A many-to-many table: exported with its model's field, checked below.
            continue
        if _reaches_campaign(model) and model not in covered:
            forgotten.append(model._meta.label)
    assert forgotten == []
    for model in covered - {Campaign} - set(EXCLUDED):
        for field in model._meta.many_to_many:
            through = field.remote_field.through
            assert through._meta.auto_created, f"{model._meta.label}.{field.name}"
    # Campaign's own many-to-many goes through Membership, which is exported.
    assert Campaign._meta.get_field("members").remote_field.through is Membership
    assert isinstance(Membership._meta.get_field("user"), models.ForeignKey)


def test_a_file_exported_before_the_apps_were_split_imports_unchanged():
    """`data/campaign-export-v1.json` was written by main before sessions and progression became
    apps of their own (issue 11): the same file imports, and exports back the same content."""
    path = Path(__file__).parent / "data" / "campaign-export-v1.json"
    before = json.loads(path.read_text())

    result = campaign_import(data=json.loads(path.read_text()))

    after = campaign_export(campaign=result.campaign)
    # Sections added since (the fights) are empty in the old file's campaign.
    assert {s.key: len(after[s.key]) for s in SECTIONS} == {
        s.key: len(before.get(s.key, [])) for s in SECTIONS
    }
    added = {s.key for s in SECTIONS} - set(before)
    assert added == {"stat_blocks", "encounters", "combatants", "spells"} | WORLD_KEYS
    old_sections = {k: v for k, v in _without_time(after).items() if k not in added}
    assert _columns_of(old_sections, before) == _without_time(before)
    assert Roll.objects.count() == 3 and Training.objects.count() == 2
    assert set(Roll.objects.values_list("request_digest", flat=True)) == {""}  # added since


def _columns_of(data: dict, old: dict) -> dict:
    """`data` with only the columns the old file had (columns added since keep defaults)."""
    kept = {}
    for key, value in data.items():
        if isinstance(value, list) and old.get(key):
            columns = set(old[key][0])
            value = [{k: v for k, v in row.items() if k in columns} for row in value]
        kept[key] = value
    return kept
