"""Ellipses and training timers (§10–§11): length classes, allowed actions, durations, ellipse XP,
threshold reductions, and a pure `advance(trainings, days)`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace

from rules import reference as ref
from rules.errors import RuleError

MINOR, MEDIUM, MAJOR = ref.ELLIPSE_KINDS


def classify(days: int) -> str:
    """Reading (§11): minor 1..13 days, medium 14..89, major ≥ 90."""
    if days < 1:
        raise RuleError.single("days", "Une ellipse dure au moins un jour.")
    if days >= ref.MAJOR_ELLIPSE_MIN_DAYS:
        return MAJOR
    if days >= ref.MEDIUM_ELLIPSE_MIN_DAYS:
        return MEDIUM
    return MINOR


# Learning that needs an ellipse of at least this kind (§10); Reading: also any longer ellipse.
LEARNING_MINIMUM = {
    "learn_other_class_ability": MINOR,
    "learn_branch": MEDIUM,
    "gain_class": MAJOR,
}
NEEDS_TRAINER = frozenset({"learn_other_class_ability", "gain_class"})


def allowed_actions(kind: str) -> tuple[str, ...]:
    """Return the actions of an ellipse kind (§11), plus, per the §10 reading, the learning of
    every shorter kind."""
    if kind not in ref.ELLIPSE_ACTIONS:
        raise RuleError.single("kind", "Une ellipse est mineure, moyenne ou majeure.")
    rank = ref.ELLIPSE_KINDS.index(kind)
    actions = list(ref.ELLIPSE_ACTIONS[kind])
    for action, minimum in LEARNING_MINIMUM.items():
        if ref.ELLIPSE_KINDS.index(minimum) <= rank and action not in actions:
            actions.append(action)
    return tuple(actions)


def can_learn(action: str, kind: str, has_trainer: bool) -> tuple[bool, list[str]]:
    """Return (allowed, French reasons) for a class, branch or other-class ability in an ellipse."""
    reasons = []
    if action not in allowed_actions(kind):
        reasons.append(
            f"« {ref.ELLIPSE_ACTION_LABELS[action]} » n'est pas possible pendant cette ellipse."
        )
    if action in NEEDS_TRAINER and not has_trainer:
        reasons.append("Il faut un entraîneur ou un enseignant.")
    return not reasons, reasons


def training_days(kind: str, trainer: str = "alone") -> int | None:
    """Return the in-game days a training takes (§11), or None for Combativité and aptitudes,
    which finish at the end of the ellipse (Reading)."""
    if kind in ref.END_OF_ELLIPSE_TRAININGS:
        return None
    if kind not in ref.TRAINING_DAYS:
        raise RuleError.single("kind", "Ce type d'entraînement n'existe pas.")
    if trainer not in ref.TRAINER_KINDS:
        raise RuleError.single("trainer", "L'entraîneur est absent, simple ou éducatif.")
    return ref.TRAINING_DAYS[kind][trainer]


def counted_trainer(trainer: str, *, confirmed: bool) -> str:
    """Return the trainer a training counts with. Reading (§10–§11): the player names a trainer,
    the Conteur confirms it; until then it counts as none ("alone"): the timer runs at the alone
    duration, and a learning that needs a trainer (a class, another class's ability) does not
    complete on it (`can_learn` with no trainer)."""
    return trainer if confirmed else "alone"


def ellipse_xp(weeks: int, trainer: str = "free", surcharge_weeks: int = 0) -> int:
    """Return ellipse XP (§11): 1 per week × trainer multiplier, + 1 per week of surcharge (20
    serious wounds self-inflicted that week), at most one per week."""
    if trainer not in ref.TRAINER_MULTIPLIERS:
        raise RuleError.single("trainer", "Ce niveau d'entraîneur n'existe pas.")
    weeks = max(weeks, 0)
    return weeks * ref.TRAINER_MULTIPLIERS[trainer] + min(max(surcharge_weeks, 0), weeks)


def threshold_reductions(kind: str, rest_weeks: int) -> int:
    """Return how many Fragilité points rest removes (§8 Reading, §11): X = weeks of rest // 2 in a
    major ellipse, X − 1 (never below 0) in a medium one, none in a minor one."""
    x = max(rest_weeks, 0) // 2
    return {MAJOR: x, MEDIUM: max(x - 1, 0), MINOR: 0}[kind]


@dataclass(frozen=True)
class Training:
    """One queued training; `days_done / days_needed` is its timer. `xp` is reserved when queued,
    charged when finished, refunded if cancelled (§11 Reading)."""

    key: str
    character: str
    kind: str
    target: str = ""
    trainer: str = "alone"
    days_done: int = 0
    xp: int = 0

    @property
    def days_needed(self) -> int | None:
        return training_days(self.kind, self.trainer)

    def to_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["days_needed"] = self.days_needed
        return data


@dataclass(frozen=True)
class Completion:
    training: Training
    day: int  # day of the advance on which it completed (1-based)


@dataclass(frozen=True)
class Advanced:
    trainings: tuple[Training, ...]  # still running, with their new progress, in queue order
    completed: tuple[Completion, ...]


def advance(trainings: Iterable[Training], days: int, *, ellipse_ends: bool = False) -> Advanced:
    """Move every timer by `days` and say which trainings complete and on which day. Reading (§11):
    a character trains one thing at a time, queued trainings run in order; Combativité and
    aptitudes complete at the end of the ellipse (`ellipse_ends`), without using days."""
    if days < 0:
        raise RuleError.single("days", "On ne peut pas avancer d'un nombre de jours négatif.")
    left_by_character: dict[str, int] = {}
    running: list[Training] = []
    completed: list[Completion] = []
    for training in trainings:
        needed = training.days_needed
        if needed is None:
            if ellipse_ends:
                completed.append(Completion(training, days))
            else:
                running.append(training)
            continue
        left = left_by_character.setdefault(training.character, days)
        spent_before = days - left
        remaining = needed - training.days_done
        if remaining <= left:
            left_by_character[training.character] = left - remaining
            done = replace(training, days_done=needed)
            completed.append(Completion(done, spent_before + max(remaining, 0)))
        else:
            left_by_character[training.character] = 0
            running.append(replace(training, days_done=training.days_done + left))
    completed.sort(key=lambda c: c.day)
    return Advanced(tuple(running), tuple(completed))
