"""Character sheets (RULES.md §1–§9, §14): what a player writes on paper, and its history.

Only stored values live here; every derived value (column and row scores, Puissance, Harmonie,
gauge maxima, speeds, states…) comes from `rules` through `characters.sheet`.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from rules import reference

NAME_LENGTH = 120
TEXT_LENGTH = 20_000

CHARACTERISTIC_FIELDS = (*reference.CHARACTERISTICS, "origin")
# DB bounds: wide safety nets; the rules engine decides the game's own caps.
CHARACTERISTIC_DB_MIN, CHARACTERISTIC_DB_MAX = 1, 20


class SpecialState(models.TextChoices):
    NONE = "none", _("Aucun")
    ZONE = "zone", _("Zone")
    FURY = "fury", _("Acharnement")
    BLAZE = "blaze", _("Flamboyance")
    SERENITY = "serenity", _("Apaisement")
    COMEDOWN = "comedown", _("Descente")


def _between(field: str, low: int, high: int | None = None) -> models.CheckConstraint:
    condition = Q(**{f"{field}__gte": low})
    if high is not None:
        condition &= Q(**{f"{field}__lte": high})
    return models.CheckConstraint(condition=condition, name=f"character_{field}_range")


class Character(models.Model):
    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="characters"
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="characters"
    )
    name = models.CharField(_("nom"), max_length=NAME_LENGTH)
    species = models.ForeignKey(
        "campaigns.Species",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="characters",
        verbose_name=_("espèce"),
    )
    lineage = models.CharField(_("lignée"), max_length=NAME_LENGTH, blank=True)

    # §1 — the nine characteristics and Origine.
    strength = models.PositiveSmallIntegerField(_("Force"), default=2)
    vigor = models.PositiveSmallIntegerField(_("Vigueur"), default=2)
    agility = models.PositiveSmallIntegerField(_("Agilité"), default=2)
    power = models.PositiveSmallIntegerField(_("Pouvoir"), default=2)
    charisma = models.PositiveSmallIntegerField(_("Charisme"), default=2)
    perception = models.PositiveSmallIntegerField(_("Perception"), default=2)
    intellect = models.PositiveSmallIntegerField(_("Intellect"), default=2)
    will = models.PositiveSmallIntegerField(_("Volonté"), default=2)
    wisdom = models.PositiveSmallIntegerField(_("Sagesse"), default=2)
    origin = models.PositiveSmallIntegerField(_("Origine"), default=2)
    exaltation = models.PositiveSmallIntegerField(_("Exaltation"), default=1)
    combativeness = models.PositiveSmallIntegerField(_("Combativité"), default=1)

    # §3 — prémices and gauges.
    premice_vitality = models.PositiveSmallIntegerField(_("prémice de Vitalité"), default=15)
    premice_energy = models.PositiveSmallIntegerField(_("prémice d'Énergie"), default=15)
    premice_confidence = models.PositiveSmallIntegerField(_("prémice de Confiance"), default=15)
    vitality_current = models.PositiveIntegerField(_("Vitalité"), default=15)
    vitality_scars = models.PositiveIntegerField(_("cicatrices de Vitalité"), default=0)
    vitality_ephemeral = models.PositiveIntegerField(_("Vitalité éphémère"), default=0)
    vitality_stabilised = models.BooleanField(_("Vitalité stabilisée"), default=False)
    vitality_peril = models.BooleanField(_("Vitalité en péril"), default=False)
    energy_current = models.PositiveIntegerField(_("Énergie"), default=15)
    energy_scars = models.PositiveIntegerField(_("cicatrices d'Énergie"), default=0)
    energy_ephemeral = models.PositiveIntegerField(_("Énergie éphémère"), default=0)
    energy_stabilised = models.BooleanField(_("Énergie stabilisée"), default=False)
    energy_peril = models.BooleanField(_("Énergie en péril"), default=False)
    confidence_current = models.PositiveIntegerField(_("Confiance"), default=15)
    confidence_scars = models.PositiveIntegerField(_("cicatrices de Confiance"), default=0)
    confidence_ephemeral = models.PositiveIntegerField(_("Confiance éphémère"), default=0)
    confidence_stabilised = models.BooleanField(_("Confiance stabilisée"), default=False)
    confidence_peril = models.BooleanField(_("Confiance en péril"), default=False)
    # §13 Reading: points each gauge regenerates at every round's end in a fight (0: none).
    vitality_regeneration = models.PositiveSmallIntegerField(
        _("régénération de Vitalité"), default=0
    )
    energy_regeneration = models.PositiveSmallIntegerField(_("régénération d'Énergie"), default=0)
    confidence_regeneration = models.PositiveSmallIntegerField(
        _("régénération de Confiance"), default=0
    )

    # §1 — the row pools' current values (each ≤ its row score: the rules engine checks).
    impact_points = models.PositiveSmallIntegerField(_("points d'Impact"), default=0)
    resilience_points = models.PositiveSmallIntegerField(_("points de Résilience"), default=0)
    finesse_points = models.PositiveSmallIntegerField(_("points de Finesse"), default=0)

    # §8 — harm tracks.
    fragility = models.PositiveSmallIntegerField(_("Fragilité"), default=0)
    exhaustion = models.PositiveSmallIntegerField(_("Épuisement"), default=0)
    aggravation = models.PositiveSmallIntegerField(_("Aggravation"), default=0)
    agony = models.PositiveSmallIntegerField(_("Agonie"), default=0)
    # §8: a stomach wound's Agonie stays until healed.
    agony_locked = models.BooleanField(_("Agonie bloquée jusqu'à guérison"), default=False)
    # §8 Reading: Découragement by one hit is kept until the next rest.
    discouraged = models.BooleanField(_("Découragé"), default=False)

    # §13 Reading: the armour's value and a shield, for Blocage.
    armour = models.PositiveSmallIntegerField(_("armure"), default=0)
    shield = models.BooleanField(_("bouclier"), default=False)

    # §6–§7 — personal morale and special state.
    special_state = models.CharField(
        _("état spécial"), max_length=16, choices=SpecialState.choices, default=SpecialState.NONE
    )
    personal_hope = models.PositiveSmallIntegerField(_("espoir personnel"), default=0)
    personal_despair = models.PositiveSmallIntegerField(_("désespoir personnel"), default=0)

    # §14.
    fortune = models.PositiveSmallIntegerField(_("Fortune"), default=0)
    karma = models.IntegerField(_("Karma"), default=0)
    legend = models.IntegerField(_("Légende"), default=0)

    notes = models.TextField(_("notes"), blank=True, max_length=TEXT_LENGTH)
    private_notes = models.TextField(_("notes privées"), blank=True, max_length=TEXT_LENGTH)

    # §9 — owned compendium entries.
    classes = models.ManyToManyField(
        "campaigns.CharacterClass", blank=True, related_name="characters"
    )
    branches = models.ManyToManyField("campaigns.Branch", blank=True, related_name="characters")
    abilities = models.ManyToManyField("campaigns.Ability", blank=True, related_name="characters")
    assets = models.ManyToManyField("campaigns.Asset", blank=True, related_name="characters")
    flaws = models.ManyToManyField("campaigns.Flaw", blank=True, related_name="characters")

    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            *(
                _between(name, CHARACTERISTIC_DB_MIN, CHARACTERISTIC_DB_MAX)
                for name in CHARACTERISTIC_FIELDS
            ),
            _between("exaltation", reference.EXALTATION_MIN, reference.EXALTATION_MAX),
            _between("combativeness", 1, reference.COMBATIVENESS_MAX),
            _between("premice_vitality", 1),
            _between("premice_energy", 1),
            _between("premice_confidence", 1),
            models.CheckConstraint(
                condition=Q(
                    premice_vitality=reference.PREMICE_TOTAL
                    - F("premice_energy")
                    - F("premice_confidence")
                ),
                name="character_premices_total",
            ),
            _between("fragility", 0, reference.FRAGILITY_MAX),
            _between("exhaustion", 0, reference.EXHAUSTION_MAX),
            _between("fortune", 0, reference.FORTUNE_MAX),
            models.CheckConstraint(condition=Q(version__gte=1), name="character_version_positive"),
        ]

    def __str__(self) -> str:
        return self.name


class SkillKind(models.TextChoices):
    SKILL = "skill", _("Compétence")
    FORGOTTEN_DOMAIN = "forgotten_domain", _("Domaine oublié")


class CharacterSkill(models.Model):
    """A skill of the reference list (`key` = its code) or a forgotten domain (`key` = its name)."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="skills")
    kind = models.CharField(max_length=16, choices=SkillKind.choices, default=SkillKind.SKILL)
    key = models.CharField(_("compétence"), max_length=NAME_LENGTH)
    level = models.PositiveSmallIntegerField(_("niveau"), default=0)
    expertises = models.JSONField(_("expertises"), default=list, blank=True)

    class Meta:
        ordering = ["kind", "key", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["character", "key"], name="character_skill_once"),
            models.CheckConstraint(
                condition=Q(level__gte=reference.SKILL_MIN, level__lte=reference.SKILL_MAX),
                name="character_skill_level_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.label} {self.level}"

    @property
    def reference(self) -> reference.Skill | None:
        return reference.SKILLS_BY_KEY.get(self.key) if self.kind == SkillKind.SKILL else None

    @property
    def label(self) -> str:
        ref = self.reference
        return ref.label if ref else self.key

    @property
    def category(self) -> str:
        ref = self.reference
        return ref.category if ref else SkillKind.FORGOTTEN_DOMAIN


class CharacterLanguage(models.Model):
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="languages")
    key = models.CharField(
        _("langue"),
        max_length=32,
        choices=[(lang.key, lang.label) for lang in reference.LANGUAGES],
    )
    level = models.PositiveSmallIntegerField(_("niveau"), default=0)
    writing = models.BooleanField(_("écriture"), default=False)

    class Meta:
        ordering = ["key", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["character", "key"], name="character_language_once"),
            models.CheckConstraint(
                condition=Q(level__gte=0, level__lte=10), name="character_language_level_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_key_display()} {self.level}"

    @property
    def level_meaning(self) -> str:
        return reference.LANGUAGE_LEVELS.get(self.level, "")


class ChangeAction(models.TextChoices):
    CREATE = "create", _("Création")
    EDIT = "edit", _("Modification")
    DAMAGE = "damage", _("Dégâts")
    REST = "rest", _("Repos")
    STABILISE = "stabilise", _("Stabilisation")
    HEAL = "heal", _("Soins")
    RESTORE = "restore", _("Restauration")
    IMPORT = "import", _("Import")
    TABLE = "table", _("À la table")  # paid or changed by a table action (roll, Moral, combat)


class CharacterChange(models.Model):
    """One value changed on a sheet: who, when, what, old → new. `version` is the sheet's version
    after the change; a stale edit of `field` conflicts iff a change of `field` is newer than it."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="changes")
    version = models.PositiveIntegerField()
    field = models.CharField(max_length=160)
    old_value = models.JSONField(null=True, blank=True)
    new_value = models.JSONField(null=True, blank=True)
    action = models.CharField(max_length=16, choices=ChangeAction.choices, default="edit")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # What caused the change, when the writer says it: « Une attaque », « Critique subi »…
    note = models.CharField(max_length=120, blank=True, default="")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-version", "-pk"]
        indexes = [models.Index(fields=["character", "field", "version"])]

    def __str__(self) -> str:
        return f"{self.field}: {self.old_value} → {self.new_value}"
