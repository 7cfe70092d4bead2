"""The move of the table's and the progression's models into their own apps (issue 11) keeps every
row and id: a database at the old layout, holding a played campaign, migrates forward intact.

The old state is built from the historical models of the migrations themselves
(django-test-migrations), so the test does not depend on today's model classes. It runs on the
suite's database: PostgreSQL in CI, SQLite locally.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

OLD_LAYOUT = [
    ("altherion", "0001_initial"),
    ("campaigns", "0004_table"),
    ("characters", "0003_training_xpentry"),
]
NEW_LAYOUT = [
    ("play", "0002_tables_renamed"),
    ("progression", "0002_tables_renamed"),
    ("campaigns", "0005_move_out_sessions_progression"),
    ("characters", "0004_move_out_progression"),
]
MOVED = {
    "play": ["playsession", "moralepool", "roll", "tableevent", "injury"],
    "progression": ["arcaward", "ellipse", "advance", "training", "xpentry"],
}


def _played_campaign(apps) -> dict[str, int]:
    """A campaign at the old layout with a row of every moved model; returns their ids."""
    model = apps.get_model
    user = model("auth", "User").objects.create(username="conteur")
    campaign = model("campaigns", "Campaign").objects.create(name="Les Brumes d'Emeshar")
    arc = model("campaigns", "Arc").objects.create(campaign=campaign, title="Le phare éteint")
    session = model("campaigns", "PlaySession").objects.create(
        campaign=campaign, arc=arc, title="Arrivée à Vael", scheduled_at=timezone.now()
    )
    hero = model("characters", "Character").objects.create(
        campaign=campaign, owner=user, name="Aelis"
    )
    pool = model("campaigns", "MoralePool").objects.create(campaign=campaign, hope=3, fate=1)
    roll = model("campaigns", "Roll").objects.create(
        campaign=campaign,
        play_session=session,
        arc=arc,
        character=hero,
        rolled_by=user,
        characteristic="agility",
        outcome="success",
        total=12,
        target=6,
        margin=6,
        idempotency_key="k-1",
    )
    event = model("campaigns", "TableEvent").objects.create(
        campaign=campaign, kind="roll", actor=user, character=hero, roll=roll, summary="12 contre 6"
    )
    injury = model("campaigns", "Injury").objects.create(
        campaign=campaign, character=hero, row=3, effect="ear", roll=roll
    )
    award = model("campaigns", "ArcAward").objects.create(arc=arc, total=1, paid=1, status="done")
    ellipse = model("campaigns", "Ellipse").objects.create(
        campaign=campaign,
        length_days=14,
        kind="medium",
        deadline=timezone.now() + timedelta(days=2),
    )
    advance = model("campaigns", "Advance").objects.create(ellipse=ellipse, key="a-1", days=7)
    training = model("characters", "Training").objects.create(
        character=hero, ellipse=ellipse, kind="skill", target="tir", label="Tir 4", days_needed=21
    )
    entry = model("characters", "XpEntry").objects.create(
        character=hero, source_key=f"arc:{arc.pk}", kind="award", amount=15, label="Fin d'arc"
    )
    return {
        "playsession": session.pk,
        "moralepool": pool.pk,
        "roll": roll.pk,
        "tableevent": event.pk,
        "injury": injury.pk,
        "arcaward": award.pk,
        "ellipse": ellipse.pk,
        "advance": advance.pk,
        "training": training.pk,
        "xpentry": entry.pk,
        "hero": hero.pk,
        "arc": arc.pk,
    }


def test_a_played_campaign_moves_to_the_new_apps_with_every_row_and_id(migrator):
    old = migrator.apply_initial_migration(OLD_LAYOUT)
    ids = _played_campaign(old.apps)
    content_type = old.apps.get_model("contenttypes", "ContentType")
    old_roll_type = content_type.objects.get_or_create(app_label="campaigns", model="roll")[0]

    new = migrator.apply_tested_migration(NEW_LAYOUT)

    model = new.apps.get_model
    for app_label, names in MOVED.items():
        for name in names:
            rows = model(app_label, name).objects.all()
            assert list(rows.values_list("pk", flat=True)) == [ids[name]], (app_label, name)
            assert model(app_label, name)._meta.db_table == f"{app_label}_{name}"
    roll = model("play", "Roll").objects.get()
    assert (roll.character_id, roll.arc_id, roll.total) == (ids["hero"], ids["arc"], 12)
    assert model("play", "TableEvent").objects.get().roll_id == ids["roll"]
    assert model("play", "Injury").objects.get().roll_id == ids["roll"]
    assert model("play", "MoralePool").objects.get().hope == 3
    training = model("progression", "Training").objects.get()
    assert (training.ellipse_id, training.character_id) == (ids["ellipse"], ids["hero"])
    assert model("progression", "XpEntry").objects.get().amount == 15
    assert model("progression", "ArcAward").objects.get().arc_id == ids["arc"]
    # The content type kept its id (and so its permissions) and follows the model.
    moved_type = model("contenttypes", "ContentType").objects.get(pk=old_roll_type.pk)
    assert (moved_type.app_label, moved_type.model) == ("play", "roll")


def test_the_move_goes_back_to_the_old_layout_with_its_rows(migrator):
    migrator.apply_initial_migration(OLD_LAYOUT)
    new = migrator.apply_tested_migration(NEW_LAYOUT)
    campaign = new.apps.get_model("campaigns", "Campaign").objects.create(name="Retour")
    new.apps.get_model("play", "MoralePool").objects.create(campaign=campaign, despair=2)

    old = migrator.apply_tested_migration(OLD_LAYOUT)

    pool = old.apps.get_model("campaigns", "MoralePool").objects.get()
    assert (pool.campaign_id, pool.despair) == (campaign.pk, 2)
