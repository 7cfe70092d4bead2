"""The jobs write sheets through the players' locked, versioned path (issue 12 §2): closing an
ellipse while players edit their sheets loses no edit, and every version is written once."""

import random
import threading
import time

import pytest
from django.db import connection

from campaigns.models import Arc
from characters.models import Character, CharacterChange
from characters.services import SheetConflict, character_update
from progression import advances, awards, ellipses, trainings
from progression.models import Advance, JobStatus, Training, TrainingStatus, XpEntry
from tests.progression.helpers import GROUP, make_character

pytestmark = pytest.mark.services

PARTY = 150
EDITORS = 8


def _edit_until(stop: threading.Event, pks: list[int], by, accepted: list, errors: list) -> None:
    """A player editing Fragilité with the version they last saw, as the sheet page does."""
    rng = random.Random()
    try:
        while not stop.is_set():
            pk = rng.choice(pks)
            seen = Character.objects.only("version", "fragility").get(pk=pk)
            value = rng.randint(0, 5)
            try:
                saved = character_update(
                    character=pk, changes={"fragility": value}, version=seen.version, by=by
                )
            except SheetConflict:
                continue  # refused with the current value: nothing was overwritten
            if saved.version > seen.version:
                accepted.append((pk, saved.version, value))
    except Exception as error:  # noqa: BLE001 — reported by the test
        errors.append(error)
    finally:
        connection.close()


def test_an_ellipse_closing_during_sheet_edits_loses_none_of_them(postgres, campaign, player):
    party = [make_character(campaign, player, f"P{i}", fragility=5) for i in range(PARTY)]
    edited = [c.pk for c in party[:24]]
    ellipse = ellipses.ellipse_open(campaign=campaign, length_days=90)
    advance = Advance.objects.create(ellipse=ellipse, key="close", closes=True)

    stop, accepted, errors = threading.Event(), [], []
    editors = [
        threading.Thread(target=_edit_until, args=(stop, edited, player, accepted, errors))
        for _ in range(EDITORS)
    ]
    for editor in editors:
        editor.start()
    time.sleep(0.3)
    advances.advance_run(advance_id=advance.pk)
    time.sleep(0.3)
    stop.set()
    for editor in editors:
        editor.join(timeout=30)

    assert not errors
    assert Advance.objects.get(pk=advance.pk).status == JobStatus.DONE
    assert len(accepted) > EDITORS  # the edits did run around the close
    for pk in edited:
        character = Character.objects.get(pk=pk)
        changes = list(
            CharacterChange.objects.filter(character_id=pk, field="fragility").order_by("pk")
        )
        versions = [c.version for c in changes]
        assert versions == sorted(set(versions)), f"a version written twice on {pk}"
        for before, after in zip(changes, changes[1:], strict=False):
            assert after.old_value == before.new_value, f"history chain broken on {pk}"
        assert character.fragility == changes[-1].new_value
        assert character.version == max(
            CharacterChange.objects.filter(character_id=pk).values_list("version", flat=True)
        )
    recorded = set(
        CharacterChange.objects.filter(character_id__in=edited, field="fragility").values_list(
            "character_id", "version", "new_value"
        )
    )
    lost = [edit for edit in accepted if edit not in recorded]
    assert not lost, f"{len(lost)} accepted edits lost"


def test_a_training_cancelled_while_the_ellipse_closes_stays_cancelled(
    postgres, campaign, player, storyteller
):
    """The close moves a training's timer (melee alone needs more than the ellipse's 90 days);
    a cancel racing it waits for the close or goes first: either way the player's cancel holds
    and nothing is charged."""
    hero = make_character(campaign, player, "Aelis")
    arc = Arc.objects.create(campaign=campaign, title="Arc", length_unit="weeks")
    ticks = {"bounty": ["took_part"], "used": ["melee"], "opposition_level": 5}
    checklist = {"group": GROUP, "characters": {str(hero.pk): ticks}}
    awards.arc_award_confirm(arc=arc, checklist=checklist, by=storyteller)  # eager: paid now
    ellipse = ellipses.ellipse_open(campaign=campaign, length_days=90)
    training = trainings.training_queue(
        character=hero, ellipse=ellipse, kind="skill", target="melee", by=player
    )
    advance = Advance.objects.create(ellipse=ellipse, key="close", closes=True)
    barrier = threading.Barrier(2)
    errors: list[Exception] = []
    answers: list[Training] = []

    def run(call):
        try:
            barrier.wait()
            call()
        except Exception as error:  # noqa: BLE001
            errors.append(error)
        finally:
            connection.close()

    def cancel():
        answers.append(trainings.training_cancel(training=training))

    threads = [
        threading.Thread(target=run, args=(lambda: advances.advance_run(advance_id=advance.pk),)),
        threading.Thread(target=run, args=(cancel,)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors
    assert Advance.objects.get(pk=advance.pk).status == JobStatus.DONE
    assert answers[0].status == TrainingStatus.CANCELLED
    assert Training.objects.get(pk=training.pk).status == TrainingStatus.CANCELLED
    assert not XpEntry.objects.filter(source_key=f"training:{training.pk}").exists()
    assert hero.skills.get(key="melee").level == 2
