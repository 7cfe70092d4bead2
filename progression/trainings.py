"""Trainings (§10–§11): an improvement learnt over an ellipse. Queueing one reserves its XP (charged
when it finishes, in `progression.advances`), cancelling frees it; the Conteur confirms the
trainer, which sets the timer's length; a character's first active training is the one that runs.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from campaigns.models import Ability, Branch, CharacterClass
from characters.models import Character
from progression.errors import refusal
from progression.experience import (
    ACTIVE,
    Context,
    compendium_entry,
    improvement_of,
    lock_character,
    spending_context,
)
from progression.models import Ellipse, Training, TrainingStatus
from rules import ellipse as rules_ellipse
from rules import experience as rules_xp
from rules import reference


def effective_trainer(training: Training) -> str:
    """A trainer counts once the Conteur confirms it; until then the player trains alone."""
    return rules_ellipse.counted_trainer(training.trainer, confirmed=training.trainer_confirmed)


def missing_trainer(training: Training, character: Character, ellipse_kind: str) -> list[str]:
    """Why a finished training may not apply for want of a trainer (§10): a class or another
    class's ability needs one, and one the Conteur has not confirmed counts as none. Empty if
    nothing is missing."""
    if effective_trainer(training) != "alone":
        return []  # a confirmed trainer: queueing already checked the rest
    action = _learning_action(character, training.kind, training.target)
    if action is None:
        return []
    _allowed, reasons = rules_ellipse.can_learn(action, ellipse_kind, False)
    if reasons and training.trainer != "alone":
        reasons.append(_("Le Conteur n'a pas confirmé l'entraîneur choisi."))
    return reasons


def days_needed(kind: str, trainer: str) -> int | None:
    return rules_ellipse.training_days(rules_ellipse.timer_kind(kind), trainer)


def _learning_action(character: Character, kind: str, target: str) -> str | None:
    """The §10 learning a class, branch or ability is (None: a plain XP training)."""
    if kind == "class":
        return "gain_class"
    if kind == "branch":
        return "learn_branch"
    if kind == "ability":
        ability = compendium_entry(Ability, character, target)
        owned = {c.pk for c in character.classes.all()}
        if ability.character_class_id is not None and ability.character_class_id not in owned:
            return "learn_other_class_ability"
    return None


@transaction.atomic
def training_queue(
    *,
    character: Character | int,
    ellipse: Ellipse,
    kind: str,
    target: str = "",
    detail: str = "",
    trainer: str = "alone",
    by,
) -> Training:
    """Queue a training in an open ellipse: its XP is reserved now, charged when it finishes.
    A class, a branch or another class's ability needs the right ellipse kind (and a trainer)."""
    locked = lock_character(character)
    ellipse = Ellipse.objects.select_for_update().get(pk=ellipse.pk)
    if not ellipse.is_open or ellipse.campaign_id != locked.campaign_id:
        raise refusal(_("Il n'y a pas d'ellipse en cours pour s'entraîner."))
    if trainer not in reference.TRAINER_KINDS:
        raise refusal(_("L'entraîneur est absent, simple ou pédagogue."), "trainer")
    action = _learning_action(locked, kind, target)
    if action is not None:
        _allowed, reasons = rules_ellipse.can_learn(action, ellipse.kind, trainer != "alone")
    else:
        _allowed, reasons = rules_ellipse.can_learn("train_xp", ellipse.kind, True)
    context = spending_context(character=locked)
    label, detail, cost, refused = _what_is_learnt(locked, context, kind, target, detail)
    reasons = [*reasons, *refused]
    if reasons:
        raise refusal(reasons)
    confirmed = trainer == "alone"  # a trainer waits for the Conteur's confirmation
    last = Training.objects.filter(character=locked, status__in=ACTIVE).aggregate(
        last=Max("position")
    )["last"]
    return Training.objects.create(
        character=locked,
        ellipse=ellipse,
        kind=kind,
        target=str(target),
        detail=detail.strip(),
        label=label,
        trainer=trainer,
        trainer_confirmed=confirmed,
        days_needed=days_needed(kind, rules_ellipse.counted_trainer(trainer, confirmed=confirmed)),
        position=(last or 0) + 1,
        xp_reserved=cost,
        act=context.act,
        status=TrainingStatus.QUEUED if last is not None else TrainingStatus.RUNNING,
    )


def _what_is_learnt(
    character: Character,
    context: Context,
    kind: str,
    target: str,
    detail: str,
) -> tuple[str, str, int, list[str]]:
    """The training's label, detail and XP cost (a class or a branch is free), and what the rules
    or the sheet refuse about it."""
    reasons: list[str] = []
    owned_classes = {c.pk for c in character.classes.all()}
    if kind == "class":
        entry = compendium_entry(CharacterClass, character, target)
        if entry.pk in owned_classes:
            reasons.append(_("Le personnage a déjà cette classe."))
        return _("Classe %(name)s") % {"name": entry.name}, entry.name, 0, reasons
    if kind == "branch":
        entry = compendium_entry(Branch, character, target)
        if entry.character_class_id not in owned_classes:
            reasons.append(_("Une branche s'apprend seulement pour une classe possédée."))
        return _("Branche %(name)s") % {"name": entry.name}, entry.name, 0, reasons
    improvement, label = improvement_of(character=character, kind=kind, target=target)
    if kind == "ability":
        detail = compendium_entry(Ability, character, target).name
    _allowed, reasons = rules_xp.can_spend(improvement, context.record, context.available)
    if kind == "specialty" and not detail.strip():
        reasons = [*reasons, _("Nommez la spécialité.")]
    return label, detail, rules_xp.xp_cost(improvement), list(reasons)


def _promote_next(character_id: int) -> None:
    """The first active training of a character is the one that runs."""
    first = (
        Training.objects.filter(character_id=character_id, status__in=ACTIVE)
        .order_by("position", "pk")
        .first()
    )
    if first is not None and first.status != TrainingStatus.RUNNING:
        Training.objects.filter(pk=first.pk).update(status=TrainingStatus.RUNNING)


@transaction.atomic
def training_cancel(*, training: Training) -> Training:
    """Cancel a queued or running training: its reserved XP is free again (nothing was charged).
    Cancelling twice changes nothing."""
    lock_character(training.character_id)
    updated = Training.objects.filter(pk=training.pk, status__in=ACTIVE).update(
        status=TrainingStatus.CANCELLED
    )
    if updated:
        _promote_next(training.character_id)
    training.refresh_from_db()
    return training


@transaction.atomic
def training_confirm_trainer(*, training: Training, confirmed: bool = True) -> Training:
    """The Conteur confirms (or not) the trainer a player chose: the timer's length follows."""
    locked = Training.objects.select_for_update().get(pk=training.pk)
    if not locked.is_active:
        raise refusal(_("Cet entraînement est terminé ou annulé."))
    locked.trainer_confirmed = confirmed or locked.trainer == "alone"
    locked.days_needed = days_needed(locked.kind, effective_trainer(locked))
    if locked.days_needed is not None:
        locked.days_done = min(locked.days_done, locked.days_needed)
    locked.save(update_fields=["trainer_confirmed", "days_needed", "days_done"])
    return locked


def trainings_for(*, character: Character) -> list[Training]:
    return list(
        Training.objects.filter(character=character)
        .filter(Q(status__in=ACTIVE) | Q(finished_at__isnull=False))
        .order_by("status", "position", "pk")
    )


def set_expected_days(trainings: list[Training], today: int) -> None:
    """Set `expected_day` on active trainings: queued ones run after the one before (§11)."""
    day_by_character: dict[int, int] = {}
    for training in trainings:
        if not training.is_active:
            continue
        start = day_by_character.get(training.character_id, today)
        if training.days_needed is None:
            training.expected_day = None
            continue
        end = start + training.days_needed - training.days_done
        training.expected_day = end
        day_by_character[training.character_id] = end
