"""Campaigns and what structures them: members, invitations, arcs, play sessions, the compendium."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

NAME_LENGTH = 120
TEXT_LENGTH = 20_000
BUDGET_MAX = 1000
MODIFIER_MIN = -3
MODIFIER_MAX = 3

# The nine main characteristics (GLOSSARY.md), in the grid's order (RULES.md §1).
CHARACTERISTICS: tuple[tuple[str, str], ...] = (
    ("strength", _("Force")),
    ("vigor", _("Vigueur")),
    ("agility", _("Agilité")),
    ("power", _("Pouvoir")),
    ("charisma", _("Charisme")),
    ("perception", _("Perception")),
    ("intellect", _("Intellect")),
    ("will", _("Volonté")),
    ("wisdom", _("Sagesse")),
)
CHARACTERISTIC_NAMES = tuple(name for name, _label in CHARACTERISTICS)


def validate_characteristic_list(value) -> None:
    """A list of distinct characteristic names (a species' favourite characteristics)."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValidationError(_("Donnez une liste de noms de caractéristiques."), code="invalid")
    unknown = sorted(set(value) - set(CHARACTERISTIC_NAMES))
    if unknown:
        raise ValidationError(
            _("Caractéristique inconnue : %(names)s."),
            code="unknown",
            params={"names": ", ".join(unknown)},
        )
    if len(set(value)) != len(value):
        raise ValidationError(_("Une caractéristique est répétée."), code="duplicate")


def validate_characteristic_modifiers(value) -> None:
    """A mapping characteristic name → bonus (or malus), each between −3 and +3."""
    if not isinstance(value, dict):
        raise ValidationError(_("Donnez un bonus ou malus par caractéristique."), code="invalid")
    unknown = sorted(set(value) - set(CHARACTERISTIC_NAMES))
    if unknown:
        raise ValidationError(
            _("Caractéristique inconnue : %(names)s."),
            code="unknown",
            params={"names": ", ".join(unknown)},
        )
    for modifier in value.values():
        if (
            not isinstance(modifier, int)
            or isinstance(modifier, bool)
            or not MODIFIER_MIN <= modifier <= MODIFIER_MAX
        ):
            raise ValidationError(
                _("Chaque bonus ou malus doit être un entier entre %(min)s et %(max)s."),
                code="range",
                params={"min": MODIFIER_MIN, "max": MODIFIER_MAX},
            )


class Tier(models.TextChoices):
    HERITAGE = "heritage", _("Héritage")
    HERO = "hero", _("Héros")


class Role(models.TextChoices):
    STORYTELLER = "storyteller", _("Conteur")
    PLAYER = "player", _("Joueur")


class Campaign(models.Model):
    name = models.CharField(_("nom"), max_length=NAME_LENGTH)
    description = models.TextField(_("description"), blank=True, max_length=TEXT_LENGTH)
    creation_budget = models.PositiveSmallIntegerField(
        _("points de création"),
        default=75,
        validators=[MinValueValidator(1), MaxValueValidator(BUDGET_MAX)],
    )
    tier = models.CharField(_("rang"), max_length=16, choices=Tier.choices, default=Tier.HERITAGE)
    in_game_day = models.PositiveIntegerField(
        _("jour de jeu"), default=1, help_text=_("La date dans le monde du jeu, en jours.")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="campaigns"
    )

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(creation_budget__gte=1, creation_budget__lte=BUDGET_MAX),
                name="campaign_budget_reasonable",
                violation_error_message=_("Le budget de création doit être entre 1 et 1000."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("rôle"), max_length=16, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["role", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_once_per_user"),
            models.UniqueConstraint(
                fields=["campaign"],
                condition=Q(role="storyteller"),
                name="membership_one_storyteller",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) — {self.campaign}"

    @property
    def is_storyteller(self) -> bool:
        return self.role == Role.STORYTELLER


class Invitation(models.Model):
    """A secret link that lets someone join a campaign as a player."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expire le"))
    max_uses = models.PositiveSmallIntegerField(_("utilisations permises"), default=5)
    uses = models.PositiveSmallIntegerField(_("utilisations"), default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(uses__lte=F("max_uses")), name="invitation_uses"),
            models.CheckConstraint(condition=Q(max_uses__gte=1), name="invitation_max_uses"),
        ]

    def __str__(self) -> str:
        return f"Invitation {self.pk} — {self.campaign_id}"

    @property
    def state(self) -> str:
        """revoked, expired, used_up or active: what the Conteur sees beside the link."""
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at <= timezone.now():
            return "expired"
        if self.uses >= self.max_uses:
            return "used_up"
        return "active"


class ArcStatus(models.TextChoices):
    OPEN = "open", _("En cours")
    CLOSED = "closed", _("Clos")


class ArcCloses(models.TextChoices):
    NOTHING = "", _("Rien")
    CHAPTER = "chapter", _("Un chapitre")
    ACT = "act", _("Un acte")


class LengthUnit(models.TextChoices):
    """The arc's in-game length; its XP multiplier is the rules engine's (§10)."""

    HOURS = "hours", _("Heures")
    DAYS = "days", _("Jours")
    WEEKS = "weeks", _("Semaines")
    MONTHS = "months", _("Mois")
    YEARS = "years", _("Années")


class Arc(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="arcs")
    title = models.CharField(_("titre"), max_length=NAME_LENGTH)
    summary = models.TextField(_("résumé"), blank=True, max_length=TEXT_LENGTH)
    chapter = models.PositiveSmallIntegerField(
        _("chapitre"), default=1, validators=[MinValueValidator(1)]
    )
    act = models.PositiveSmallIntegerField(_("acte"), default=1, validators=[MinValueValidator(1)])
    closes = models.CharField(
        _("clôt"), max_length=16, choices=ArcCloses.choices, blank=True, default=ArcCloses.NOTHING
    )
    length_unit = models.CharField(
        _("durée en jeu"), max_length=16, choices=LengthUnit.choices, default=LengthUnit.DAYS
    )
    status = models.CharField(
        _("état"), max_length=16, choices=ArcStatus.choices, default=ArcStatus.OPEN
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="open", closed_at__isnull=True)
                | Q(status="closed", closed_at__isnull=False),
                name="arc_closed_at_matches_status",
                violation_error_message=_(
                    "Un arc clos a une date de clôture ; un arc en cours n'en a pas."
                ),
            ),
            models.CheckConstraint(
                condition=Q(chapter__gte=1, act__gte=1),
                name="arc_positions",
                violation_error_message=_("Le chapitre et l'acte commencent à 1."),
            ),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def is_open(self) -> bool:
        return self.status == ArcStatus.OPEN


class PlaySession(models.Model):
    """A séance: one evening at the table."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="play_sessions")
    arc = models.ForeignKey(
        Arc, on_delete=models.SET_NULL, null=True, blank=True, related_name="play_sessions"
    )
    title = models.CharField(_("titre"), max_length=NAME_LENGTH)
    scheduled_at = models.DateTimeField(_("date et heure"))
    notes = models.TextField(_("journal"), blank=True, max_length=TEXT_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-scheduled_at", "-pk"]

    def __str__(self) -> str:
        return self.title

    def clean(self) -> None:
        if self.arc_id is not None and self.arc.campaign_id != self.campaign_id:
            raise ValidationError({"arc": _("Cet arc n'appartient pas à cette campagne.")})


# --- compendium: the game data the source leaves to each campaign (RULES.md §9) -------------


DUPLICATE_NAME = _("Une entrée de ce nom existe déjà dans le compendium de cette campagne.")


def _same_campaign(entry, field: str) -> None:
    """Refuse a link to another campaign's class (ids of other campaigns are not choices)."""
    target = getattr(entry, field)
    if target is not None and target.campaign_id != entry.campaign_id:
        raise ValidationError({field: _("Cette classe n'appartient pas à cette campagne.")})


class CompendiumEntry(models.Model):
    """Each concrete entry adds its own `campaign` foreign key (with its own related name)."""

    name = models.CharField(_("nom"), max_length=NAME_LENGTH)
    description = models.TextField(_("description"), blank=True, max_length=TEXT_LENGTH)

    class Meta:
        abstract = True
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class Species(CompendiumEntry):
    """favourite_characteristics: characteristic names; modifiers: name → bonus (or malus < 0)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="species")
    favourite_characteristics = models.JSONField(
        _("caractéristiques favorites"),
        default=list,
        blank=True,
        validators=[validate_characteristic_list],
    )
    modifiers = models.JSONField(
        _("bonus et malus"),
        default=dict,
        blank=True,
        validators=[validate_characteristic_modifiers],
    )
    innate_abilities = models.TextField(_("aptitudes innées"), blank=True, max_length=TEXT_LENGTH)

    class Meta(CompendiumEntry.Meta):
        verbose_name_plural = "species"
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "name"],
                name="species_unique_name",
                violation_error_message=DUPLICATE_NAME,
            )
        ]


class ClassTier(models.TextChoices):
    FOUNDING = "founding", _("Fondatrice")
    SUPERIOR = "superior", _("Supérieure")
    HEROIC = "heroic", _("Héroïque")
    LEGENDARY = "legendary", _("Légendaire")


class AbilityTier(models.TextChoices):
    FOUNDING = "founding", _("Fondatrice")
    SUPERIOR = "superior", _("Supérieure")
    HEROIC = "heroic", _("Héroïque")
    LEGENDARY = "legendary", _("Légendaire")
    SUPREME = "supreme", _("Suprême")


class CharacterClass(CompendiumEntry):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="classes")
    tier = models.CharField(
        _("rang"), max_length=16, choices=ClassTier.choices, default=ClassTier.FOUNDING
    )
    prerequisites = models.TextField(_("prérequis"), blank=True, max_length=TEXT_LENGTH)

    class Meta(CompendiumEntry.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "name"],
                name="class_unique_name",
                violation_error_message=DUPLICATE_NAME,
            )
        ]


class Branch(CompendiumEntry):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="branches")
    character_class = models.ForeignKey(
        CharacterClass, on_delete=models.CASCADE, related_name="branches"
    )

    class Meta(CompendiumEntry.Meta):
        verbose_name_plural = "branches"
        constraints = [
            models.UniqueConstraint(
                fields=["character_class", "name"],
                name="branch_unique_name",
                violation_error_message=_("Cette classe a déjà une branche de ce nom."),
            )
        ]

    def clean(self) -> None:
        if self.character_class_id is not None:
            _same_campaign(self, "character_class")


class Ability(CompendiumEntry):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="abilities")
    character_class = models.ForeignKey(
        CharacterClass,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="abilities",
        help_text=_("Vide pour une aptitude d'espèce."),
    )
    tier = models.CharField(
        _("rang"), max_length=16, choices=AbilityTier.choices, default=AbilityTier.FOUNDING
    )
    cost = models.PositiveSmallIntegerField(_("coût"), default=1)
    prerequisites = models.TextField(_("prérequis"), blank=True, max_length=TEXT_LENGTH)

    class Meta(CompendiumEntry.Meta):
        verbose_name_plural = "abilities"
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "name"],
                name="ability_unique_name",
                violation_error_message=DUPLICATE_NAME,
            )
        ]

    def clean(self) -> None:
        _same_campaign(self, "character_class")


class Asset(CompendiumEntry):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="assets")
    cost = models.PositiveSmallIntegerField(_("coût"), default=1)

    class Meta(CompendiumEntry.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "name"],
                name="asset_unique_name",
                violation_error_message=DUPLICATE_NAME,
            )
        ]


class Flaw(CompendiumEntry):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="flaws")
    value = models.PositiveSmallIntegerField(_("valeur"), default=1)

    class Meta(CompendiumEntry.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "name"],
                name="flaw_unique_name",
                violation_error_message=DUPLICATE_NAME,
            )
        ]


# --- progression (issue 7): arc awards, ellipses, advances, notifications ------------------
# Owned by the progression work: services in campaigns/progression.py, characters/experience.py.


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
    CLOSED = "closed", _("Close")


class Ellipse(models.Model):
    """A downtime of `length_days` in-game days (§11); its kind follows from its length.

    `xp_trainers` = {"<character id>": multiplier key} confirmed by the Conteur (absent = free)."""

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
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Avance {self.key}"


class Notification(models.Model):
    """An in-app message to one user (an award, a finished training); `key` makes it once-only."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="notifications", null=True, blank=True
    )
    kind = models.CharField(max_length=32)
    key = models.CharField(max_length=120)
    text = models.CharField(max_length=500)
    link = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notification_once"),
        ]
        indexes = [
            models.Index(
                fields=["user"], condition=Q(read_at__isnull=True), name="notification_unread"
            )
        ]

    def __str__(self) -> str:
        return self.text


# --- at the table: the Moral pool, rolls and the table log (issue 6; campaigns/table.py) --------


class MoralePool(models.Model):
    """The group's Moral (§6) and the Conteur's Fatalité (§14): one row per campaign.

    Every change locks this row (select_for_update) first; so do rolls and consequences, which
    also serialises the campaign's log events, keeping their ids in commit order (the cursor)."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="morale_pool")
    hope = models.PositiveSmallIntegerField(_("espoir"), default=0)
    despair = models.PositiveSmallIntegerField(_("désespoir"), default=0)
    fate = models.PositiveSmallIntegerField(_("Fatalité"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(hope__gte=0), name="morale_hope_positive"),
            models.CheckConstraint(condition=Q(despair__gte=0), name="morale_despair_positive"),
            models.CheckConstraint(condition=Q(fate__gte=0, fate__lte=5), name="morale_fate_range"),
        ]

    def __str__(self) -> str:
        return f"Moral de {self.campaign}: {self.hope}/{self.despair}"


class Visibility(models.TextChoices):
    PUBLIC = "public", _("Public")
    STORYTELLER = "storyteller", _("Secret (Conteur seulement)")
    HIDDEN = "hidden", _("Caché (Conteur)")


class Roll(models.Model):
    """One check rolled at the table, with its inputs, payment and the engine's full breakdown."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rolls")
    play_session = models.ForeignKey(
        PlaySession, on_delete=models.SET_NULL, null=True, blank=True, related_name="rolls"
    )
    arc = models.ForeignKey(Arc, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    character = models.ForeignKey(
        "characters.Character",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rolls",
    )
    label = models.CharField(_("intitulé"), max_length=NAME_LENGTH, blank=True)
    rolled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="rolls"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    visibility = models.CharField(
        max_length=16, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    characteristic = models.CharField(max_length=32)
    skills = models.JSONField(default=list, blank=True)
    inputs = models.JSONField(default=dict)
    breakdown = models.JSONField(default=dict)
    outcome = models.CharField(max_length=24)
    total = models.IntegerField()
    target = models.IntegerField()
    margin = models.IntegerField()
    zone = models.BooleanField(default=False)
    consequences = models.JSONField(default=list, blank=True)
    idempotency_key = models.CharField(max_length=64)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["rolled_by", "idempotency_key"], name="roll_idempotency_key_once"
            ),
        ]
        indexes = [
            models.Index(fields=["campaign", "-id"], name="roll_campaign_id"),
            models.Index(fields=["arc", "character"], name="roll_arc_character"),
        ]

    def __str__(self) -> str:
        return f"Jet {self.pk}: {self.total} contre {self.target}"


class TableEventKind(models.TextChoices):
    ROLL = "roll", _("Jet")
    MORALE = "morale", _("Moral")
    CONSEQUENCE = "consequence", _("Conséquence")


class TableEvent(models.Model):
    """One line of the table log; its id is the polling cursor (`?after=<id>`)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="table_events")
    kind = models.CharField(max_length=16, choices=TableEventKind.choices)
    visibility = models.CharField(
        max_length=16, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    character = models.ForeignKey(
        "characters.Character", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    roll = models.ForeignKey(
        Roll, on_delete=models.CASCADE, null=True, blank=True, related_name="events"
    )
    summary = models.CharField(max_length=500)
    payload = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-pk"]
        indexes = [models.Index(fields=["campaign", "id"], name="table_event_campaign_id")]

    def __str__(self) -> str:
        return self.summary


class Injury(models.Model):
    """A lasting result of the Aggravation table (§8) on a character — a broken bone, a lost eye,
    torn tendons… — until the Conteur marks it healed. The effect itself (its impuissance dice
    and their scope) is read back from `rules.reference.AGGRAVATION_TABLE[row]` by `effect`."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="injuries")
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="injuries"
    )
    row = models.PositiveSmallIntegerField(_("ligne de Fragilité"))
    effect = models.CharField(_("effet"), max_length=32)
    roll = models.ForeignKey(
        Roll, on_delete=models.SET_NULL, null=True, blank=True, related_name="injuries"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    healed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(row__lte=5), name="injury_row_range"),
        ]
        indexes = [models.Index(fields=["character", "healed_at"], name="injury_character_open")]

    def __str__(self) -> str:
        return f"{self.character_id}: {self.effect}"
