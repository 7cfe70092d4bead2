"""Campaigns and what structures them: members, invitations, arcs, the compendium, notifications."""

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
    # Bumped by every compendium write: the pages cached per sheet version also key on it.
    revision = models.PositiveIntegerField(default=0, editable=False)
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


class SpellEntry(CompendiumEntry):
    """A spell of the campaign's compendium (§15): its points and its Énergie cost, which a
    cast in a fight takes unless another is typed (overcharge pays it twice)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="spells")
    spell_points = models.PositiveSmallIntegerField(_("points du sort"), default=0)
    energy_cost = models.PositiveSmallIntegerField(_("coût en Énergie"), default=0)

    class Meta(CompendiumEntry.Meta):
        verbose_name = "spell"
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "name"],
                name="spell_unique_name",
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


# --- notifications: in-app messages to one user (sent by every app) -----------------------


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


# --- the campaign's webhook: its public table news posted to a chat (Discord or any JSON URL) ---


class Webhook(models.Model):
    """Where the campaign's public news is posted. The URL is a secret (the Conteur's only);
    `failures` counts failed attempts in a row, and reaching the limit disables the hook."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="webhook")
    url = models.URLField(_("adresse du webhook"), max_length=500)
    enabled = models.BooleanField(default=True)
    failures = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"webhook of campaign {self.campaign_id}"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("en attente")
    SENDING = "sending", _("en cours d'envoi")
    SENT = "sent", _("envoyé")
    FAILED = "failed", _("échec")
    DROPPED = "dropped", _("abandonné")


class WebhookDelivery(models.Model):
    """One message for the hook, once per `key` (a log row, a journal text, an arc's award):
    a retried or duplicated task finds its row already claimed or sent and posts nothing."""

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    key = models.CharField(max_length=120)
    text = models.TextField(max_length=2000)
    status = models.CharField(
        max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    claimed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["webhook", "key"], name="webhook_delivery_once"),
        ]

    def __str__(self) -> str:
        return self.key
