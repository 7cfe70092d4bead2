"""Ellipses and training timers (§10–§11): length classes, allowed actions, durations, ellipse XP,
threshold reductions, and a pure `advance(trainings, days)`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace

from rules import reference as ref
from rules.errors import RuleError
from rules.states import exhaustion_recovered

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


# Reading (§10–§11): a class and a branch are learnt, not trained: the source gives them no
# duration, so they finish at the end of the ellipse like Combativité and aptitudes.
LEARNT_AT_ELLIPSE_END = frozenset({"class", "branch"})


def timer_kind(kind: str) -> str:
    """Return the kind whose timer a training runs on. Reading (§10–§11): a class or a branch runs
    like an aptitude (it finishes at the end of the ellipse); every other kind is its own."""
    return "ability" if kind in LEARNT_AT_ELLIPSE_END else kind


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


def rest_weeks(length_days: int) -> int:
    """Reading (§11): the weeks of rest of an ellipse are its whole weeks (7 days each), the same
    for every character, whether it trained during the ellipse or not."""
    return max(length_days, 0) // ref.DAYS_PER_WEEK


def checked_surcharge_weeks(length_days: int, weeks: int) -> int:
    """Return the weeks of surcharge the Conteur records for a character (§11: "+1 per week at
    most when the character inflicts on itself 20 serious wounds that week"), refused in French
    outside 0..the ellipse's weeks."""
    most = rest_weeks(length_days)
    if not 0 <= weeks <= most:
        raise RuleError.single(
            "surcharge_weeks",
            f"La surcharge se compte en semaines de l'ellipse : entre 0 et {most} "
            f"(une semaine compte si le personnage s'y inflige {ref.SURCHARGE_SERIOUS_WOUNDS} "
            "blessures graves).",
        )
    return weeks


def threshold_reductions(kind: str, rest_weeks: int) -> int:
    """Return how many Fragilité points rest removes (§8 Reading, §11): X = weeks of rest // 2 in a
    major ellipse, X − 1 (never below 0) in a medium one, none in a minor one."""
    x = max(rest_weeks, 0) // 2
    return {MAJOR: x, MEDIUM: max(x - 1, 0), MINOR: 0}[kind]


def exhaustion_after_rest_days(exhaustion: int, days: int, wounds: int) -> int:
    """Reading (§8, §11): the days of a minor ellipse's rest are full rests one after another;
    each run of [Épuisement] days with no wounds removes 1 point (`states.exhaustion_recovered`),
    while days remain."""
    left = max(days, 0)
    while exhaustion > 0:
        recovered = exhaustion_recovered(exhaustion, left, wounds)
        if recovered == exhaustion:
            break
        left -= exhaustion
        exhaustion = recovered
    return exhaustion


@dataclass(frozen=True)
class EllipseRest:
    """What an ellipse's rest does to one character: its weeks of rest, and its Fragilité and
    Épuisement after it."""

    weeks: int
    fragility: int
    exhaustion: int
    fragility_removed: int
    exhaustion_removed: int


def ellipse_rest(
    kind: str, length_days: int, *, fragility: int, exhaustion: int = 0, wounds: int = 0
) -> EllipseRest:
    """Return the rest at the end of an ellipse (§11) for one character: medium and major ellipses
    lower its thresholds (Fragilité, §8 Reading) X − 1 or X times, never below 0; a minor one
    clears Épuisement (a full rest of [Épuisement] days with no wounds removes 1 point, §8)."""
    weeks = rest_weeks(length_days)
    removed = min(threshold_reductions(kind, weeks), max(fragility, 0))
    after = exhaustion
    if "rest_exhaustion" in allowed_actions(kind):
        after = exhaustion_after_rest_days(exhaustion, length_days, wounds)
    return EllipseRest(weeks, fragility - removed, after, removed, exhaustion - after)


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
        return training_days(timer_kind(self.kind), self.trainer)

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


def carried_over(running: Iterable[Training]) -> tuple[Training, ...]:
    """Return the trainings kept when an ellipse ends unfinished. Reading (§11): each keeps its
    days done and its reserved XP, and goes on in the next ellipse, in the same queue order (the
    player may still cancel it)."""
    return tuple(running)


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
