"""Progression (RULES.md §10–§11): the end-of-arc award and its job, the XP ledger, ellipses,
their advances and the training timers. Services in `progression/awards.py`,
`progression/ellipses.py` and `progression/experience.py`."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns.models import NAME_LENGTH, Arc, Campaign
from characters.models import Character


class JobStatus(models.TextChoices):
    PENDING = "pending", _("En attente")
    RUNNING = "running", _("En cours")
    DONE = "done", _("Terminé")


class ArcAward(models.Model):
    """The Conteur's end-of-arc checklist (§10) and the progress of the job that pays it.

    `checklist` = {"group": {danger, balance, ingenuity, ending, ending_items, length},
    "characters": {"<id>": {bounty, optional_objectives, used, opposition_level,
    more_combative_enemy, nearly_died, means}}}. Each correction bumps `revision`; the job pays
    revision 1 as "arc:<id>" and revision n > 1 as "arc:<id>:correction:<n>" (the difference)."""

    arc = models.OneToOneField(Arc, on_delete=models.CASCADE, related_name="award")
    checklist = models.JSONField(default=dict)
    revision = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=16, choices=JobStatus.choices, default=JobStatus.PENDING)
    total = models.PositiveIntegerField(default=0)
    paid = models.PositiveIntegerField(default=0)
    summary = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The job's last sign of life (recorded, sent, a chunk paid): the beat sends it again when
    # this is older than the lease (`progression.services.JOB_LEASE`).
    heartbeat_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(paid__lte=F("total")), name="arc_award_progress"),
            models.CheckConstraint(condition=Q(revision__gte=1), name="arc_award_revision"),
        ]

    def __str__(self) -> str:
        return f"Récompense de l'arc {self.arc_id} (révision {self.revision})"

    @property
    def percent(self) -> int:
        return 100 if not self.total else round(100 * self.paid / self.total)


class EllipseKind(models.TextChoices):
    MINOR = "minor", _("Mineure")
    MEDIUM = "medium", _("Moyenne")
    MAJOR = "major", _("Majeure")


class EllipseStatus(models.TextChoices):
    OPEN = "open", _("En cours")
    CLOSED = "closed", _("Fermée")


class XpTrainer(models.TextChoices):
    """Who trained a character during an ellipse, for its XP (§11: the multiplier, in
    `rules.reference.TRAINER_MULTIPLIERS`)."""

    FREE = "free", _("sans entraîneur")
    SUPERIOR = "superior", _("entraîneur supérieur")
    VERY_GOOD = "very_good", _("très bon entraîneur")
    EXPERT = "expert", _("entraîneur expert de ce qu'il enseigne")
    PEAK = "peak", _("entraîneur au sommet de son art")


class Ellipse(models.Model):
    """A downtime of `length_days` in-game days (§11); its kind follows from its length.

    `xp_trainers` = {"<character id>": multiplier key} confirmed by the Conteur (absent = free);
    `surcharge_weeks` = {"<character id>": weeks} in which the character inflicted itself 20
    serious wounds (§11 surcharge, absent = none)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ellipses")
    length_days = models.PositiveIntegerField(_("durée en jours"))
    kind = models.CharField(_("type"), max_length=16, choices=EllipseKind.choices)
    deadline = models.DateTimeField(_("échéance réelle"), null=True, blank=True)
    status = models.CharField(
        max_length=16, choices=EllipseStatus.choices, default=EllipseStatus.OPEN
    )
    days_elapsed = models.PositiveIntegerField(default=0)
    start_day = models.PositiveIntegerField(default=1)
    xp_trainers = models.JSONField(default=dict, blank=True)
    surcharge_weeks = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign"],
                condition=Q(status="open"),
                name="ellipse_one_open_per_campaign",
                violation_error_message=_("Une ellipse est déjà en cours dans cette campagne."),
            ),
            models.CheckConstraint(condition=Q(length_days__gte=1), name="ellipse_length"),
            models.CheckConstraint(
                condition=Q(days_elapsed__lte=F("length_days")), name="ellipse_elapsed"
            ),
        ]
        indexes = [models.Index(fields=["status", "deadline"], name="ellipse_due")]

    def __str__(self) -> str:
        return f"Ellipse {self.get_kind_display().lower()} de {self.length_days} jours"

    @property
    def is_open(self) -> bool:
        return self.status == EllipseStatus.OPEN

    @property
    def days_left(self) -> int:
        return self.length_days - self.days_elapsed


class Advance(models.Model):
    """One request to move an ellipse's timers: "advance N days", "close", or its deadline.
    `key` is the idempotency key (a form's token, "deadline:<id>"): the same request runs once."""

    ellipse = models.ForeignKey(Ellipse, on_delete=models.CASCADE, related_name="advances")
    key = models.CharField(max_length=80, unique=True)
    days = models.PositiveIntegerField(default=0)
    closes = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=JobStatus.choices, default=JobStatus.PENDING)
    summary = models.JSONField(default=dict, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    heartbeat_at = models.DateTimeField(default=timezone.now)  # as ArcAward's
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Avance {self.key}"


# --- the XP ledger and training timers ---------------------------------------------------


class XpEntryKind(models.TextChoices):
    AWARD = "award", _("Fin d'arc")
    CORRECTION = "correction", _("Correction")
    ELLIPSE = "ellipse", _("Ellipse")
    SPEND = "spend", _("Dépense")
    TRAINING = "training", _("Entraînement")


class XpEntry(models.Model):
    """One line of a character's XP ledger: append-only, its balance is the sum of `amount`.
    `source_key` ("arc:<id>", "arc:<id>:correction:<n>", "ellipse:<id>:xp", "spend:<uuid>",
    "training:<id>") is unique per character, so computing a payment twice never pays twice."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="xp_entries")
    source_key = models.CharField(max_length=80)
    kind = models.CharField(max_length=16, choices=XpEntryKind.choices)
    amount = models.IntegerField()
    label = models.CharField(max_length=200)
    breakdown = models.JSONField(default=list, blank=True)
    act = models.PositiveSmallIntegerField(null=True, blank=True)
    improvement = models.CharField(max_length=200, blank=True)  # "kind:target" once per act
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["character", "source_key"], name="xp_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.label}"


class TrainingStatus(models.TextChoices):
    QUEUED = "queued", _("En file")
    RUNNING = "running", _("En cours")
    DONE = "done", _("Terminé")
    CANCELLED = "cancelled", _("Annulé")


class TrainingKind(models.TextChoices):
    CHARACTERISTIC = "characteristic", _("Caractéristique")
    SKILL = "skill", _("Compétence")
    SPECIALTY = "specialty", _("Spécialité")
    FORGOTTEN_DOMAIN = "forgotten_domain", _("Domaine oublié")
    COMBATIVENESS = "combativeness", _("Combativité")
    ABILITY = "ability", _("Aptitude")
    CLASS = "class", _("Classe")
    BRANCH = "branch", _("Branche")


class TrainerKind(models.TextChoices):
    ALONE = "alone", _("Seul")
    TRAINER = "trainer", _("Avec un entraîneur")
    EDUCATIONAL = "educational", _("Avec un entraîneur pédagogue")


class Training(models.Model):
    """A queued improvement with its timer (§11): `days_done / days_needed` (None = finishes at
    the end of the ellipse). `xp_reserved` is held while queued or running, charged as a
    "training:<id>" ledger entry when done, released when cancelled."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="trainings")
    ellipse = models.ForeignKey(
        Ellipse,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="trainings",
    )
    kind = models.CharField(max_length=20, choices=TrainingKind.choices)
    target = models.CharField(max_length=NAME_LENGTH, blank=True)
    detail = models.CharField(max_length=NAME_LENGTH, blank=True)  # a specialty's name
    label = models.CharField(max_length=200)
    trainer = models.CharField(max_length=16, choices=TrainerKind.choices, default="alone")
    trainer_confirmed = models.BooleanField(default=False)
    days_needed = models.PositiveIntegerField(null=True, blank=True)
    days_done = models.PositiveIntegerField(default=0)
    position = models.PositiveIntegerField(default=0)
    xp_reserved = models.PositiveIntegerField(default=0)
    act = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=16, choices=TrainingStatus.choices, default=TrainingStatus.QUEUED
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    finished_day = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["position", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(days_needed__isnull=True) | Q(days_done__lte=F("days_needed")),
                name="training_days_done_le_needed",
            ),
        ]
        indexes = [models.Index(fields=["character", "status"], name="training_active")]

    def __str__(self) -> str:
        return self.label

    @property
    def is_active(self) -> bool:
        return self.status in (TrainingStatus.QUEUED, TrainingStatus.RUNNING)

    @property
    def percent(self) -> int:
        if self.status == TrainingStatus.DONE:
            return 100
        if not self.days_needed:
            return 0
        return round(100 * self.days_done / self.days_needed)
