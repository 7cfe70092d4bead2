"""What happens at a play session: the séance itself, the group's Moral pool, the rolls, the
table log and the lasting injuries (RULES.md §5–§8, §14). Services in `sessions/services.py`."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaigns.models import NAME_LENGTH, TEXT_LENGTH, Arc, Campaign
from rules.french import de
from sessions.attack_profiles import validate_attack_profiles


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


# --- at the table: the Moral pool, rolls and the table log ---------------------------------


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
        return f"Moral {de(str(self.campaign))}: {self.hope}/{self.despair}"


class Visibility(models.TextChoices):
    PUBLIC = "public", _("Public")
    STORYTELLER = "storyteller", _("Secret (Conteur seulement)")
    HIDDEN = "hidden", _("Caché (Conteur)")


class Roll(models.Model):
    """One check rolled at the table, with its inputs, payment and the engine's full breakdown."""

    # No index of their own for `campaign`, `arc` and `rolled_by`: each leads a composite index
    # below (or the key's constraint), which serves their lookups; a roll writes three fewer.
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="rolls", db_index=False
    )
    play_session = models.ForeignKey(
        PlaySession, on_delete=models.SET_NULL, null=True, blank=True, related_name="rolls"
    )
    arc = models.ForeignKey(
        Arc, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", db_index=False
    )
    character = models.ForeignKey(
        "characters.Character",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rolls",
    )
    label = models.CharField(_("intitulé"), max_length=NAME_LENGTH, blank=True)
    rolled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="rolls",
        db_index=False,
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
    # What was asked with that key (sessions.rolls.request_digest): the same key with another
    # request is refused. Empty on rolls stored before it was kept.
    request_digest = models.CharField(max_length=64, blank=True, default="")

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
    COMBAT = "combat", _("Combat")


class TableEvent(models.Model):
    """One line of the table log; its id is the polling cursor (`?after=<id>`)."""

    # No index of its own: (campaign, id) below serves the foreign key too, and a second one
    # led PostgreSQL to scan a campaign's whole log for the poll's few new lines.
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="table_events", db_index=False
    )
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


# --- combat (§13): the bestiary, encounters and their combatants -------------------------------


NPC_CHARACTERISTIC = [MinValueValidator(1), MaxValueValidator(20)]  # NPCs: a generous bound


class StatBlock(models.Model):
    """An NPC of the campaign's bestiary (kept by the Conteur): what initiative and the defences
    need (§1, §13) and the gauges' maxima. Only the Finesse row's characteristics are kept of
    the nine (with Force and Vigueur for Blocage and Parade); the score is computed as the
    sheet's (`sessions.combat.block_finesse`)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="stat_blocks")
    name = models.CharField(_("nom"), max_length=NAME_LENGTH)
    strength = models.PositiveSmallIntegerField(
        _("Force"), default=2, validators=NPC_CHARACTERISTIC
    )
    vigor = models.PositiveSmallIntegerField(_("Vigueur"), default=2, validators=NPC_CHARACTERISTIC)
    agility = models.PositiveSmallIntegerField(
        _("Agilité"), default=2, validators=NPC_CHARACTERISTIC
    )
    perception = models.PositiveSmallIntegerField(
        _("Perception"), default=2, validators=NPC_CHARACTERISTIC
    )
    wisdom = models.PositiveSmallIntegerField(
        _("Sagesse"), default=2, validators=NPC_CHARACTERISTIC
    )
    combativeness = models.PositiveSmallIntegerField(
        _("Combativité"), default=1, validators=[MinValueValidator(1), MaxValueValidator(5)]
    )
    vitality_max = models.PositiveIntegerField(_("Vitalité maximale"), default=15)
    energy_max = models.PositiveIntegerField(_("Énergie maximale"), default=15)
    confidence_max = models.PositiveIntegerField(_("Confiance maximale"), default=15)
    # Points each gauge regenerates at the end of every turn (§13); 0: none.
    vitality_regeneration = models.PositiveSmallIntegerField(
        _("régénération de Vitalité"), default=0, validators=[MaxValueValidator(1000)]
    )
    energy_regeneration = models.PositiveSmallIntegerField(
        _("régénération d'Énergie"), default=0, validators=[MaxValueValidator(1000)]
    )
    confidence_regeneration = models.PositiveSmallIntegerField(
        _("régénération de Confiance"), default=0, validators=[MaxValueValidator(1000)]
    )
    armour = models.PositiveSmallIntegerField(_("armure"), null=True, blank=True)
    shield = models.BooleanField(_("bouclier"), default=False)
    annulation = models.PositiveSmallIntegerField(_("annulation"), default=0)
    resistance = models.PositiveSmallIntegerField(_("résistance"), default=0)
    notes = models.TextField(_("notes"), blank=True, max_length=TEXT_LENGTH)
    # Its weapons (sessions.attack_profiles): an NPC's attack is one of them and a target.
    attacks = models.JSONField(
        _("attaques"), default=list, blank=True, validators=[validate_attack_profiles]
    )
    hidden = models.BooleanField(_("caché aux joueurs"), default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(combativeness__gte=1, combativeness__lte=5),
                name="stat_block_combativeness_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class EncounterStatus(models.TextChoices):
    PREPARING = "preparing", _("En préparation")
    RUNNING = "running", _("En cours")
    ENDED = "ended", _("Terminée")


class Encounter(models.Model):
    """A fight at the table. `order` is the current round's acting slots (§13), each
    {"combatant": id, "pass": n}, and `position` the slot acting now; `turn` counts every step
    (the precondition a "next turn" sends, so a double click never skips two)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="encounters")
    play_session = models.ForeignKey(
        PlaySession, on_delete=models.SET_NULL, null=True, blank=True, related_name="encounters"
    )
    name = models.CharField(_("nom"), max_length=NAME_LENGTH)
    status = models.CharField(
        max_length=16, choices=EncounterStatus.choices, default=EncounterStatus.PREPARING
    )
    round = models.PositiveIntegerField(default=0)
    turn = models.PositiveIntegerField(default=0)
    order = models.JSONField(default=list, blank=True)
    position = models.PositiveIntegerField(default=0)
    # The attack awaiting its target's defence (§13; one blow at a time), and the last one
    # resolved (a retried defence answers it again): see sessions/combat/attacks.py.
    pending_attack = models.JSONField(default=dict, blank=True)
    last_attack = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign"],
                condition=~Q(status="ended"),
                name="encounter_one_open_per_campaign",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class CombatantStatus(models.TextChoices):
    ACTIVE = "active", _("En lice")
    DEFEATED = "defeated", _("Vaincu")
    UNCONSCIOUS = "unconscious", _("Inconscient")
    DEAD = "dead", _("Mort")
    LEFT = "left", _("Parti")


class Combatant(models.Model):
    """One side of a fight: a character of the party or an NPC (from a stat block, or a quick
    one-off). Finesse and Combativité are read from the sheet (or the block) when they join."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="combatants")
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    stat_block = models.ForeignKey(
        StatBlock, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    name = models.CharField(_("nom"), max_length=NAME_LENGTH)
    finesse = models.PositiveSmallIntegerField(_("Finesse"), default=2)
    combativeness = models.PositiveSmallIntegerField(_("Combativité"), default=1)
    hidden = models.BooleanField(_("caché aux joueurs"), default=False)
    status = models.CharField(
        max_length=16, choices=CombatantStatus.choices, default=CombatantStatus.ACTIVE
    )
    initiative = models.IntegerField(null=True, blank=True)
    initiative_breakdown = models.JSONField(default=dict, blank=True)
    # The fight's own tracks (§1, §8): Finesse points left this turn (they pay the defences);
    # an NPC's Agonie, Aggravation and gauges (a character's are on its sheet); turns left
    # unconscious. `profile` is the NPC's copy of its stat block (sessions/combat/harm.py).
    finesse_points = models.PositiveSmallIntegerField(_("points de Finesse"), default=0)
    agony = models.PositiveSmallIntegerField(_("Agonie"), default=0)
    aggravation = models.PositiveSmallIntegerField(_("Aggravation"), default=0)
    unconscious_turns = models.PositiveSmallIntegerField(_("tours d'inconscience"), default=0)
    profile = models.JSONField(default=dict, blank=True)
    # Grapples (§13, `rules.combat.grapple_state`): held in an Étreinte by `held_by` (the
    # grapple's total in `hold`, with the last attempt to break free), or « à terre » (`prone`).
    held_by = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    prone = models.BooleanField(_("à terre"), default=False)
    hold = models.JSONField(default=dict, blank=True)
    # A spell begun and not yet resolved (§15): see sessions.combat.incanting.
    incantation = models.JSONField(default=dict, blank=True)
    # The request that added it (several at once share one): a retry adds nobody twice.
    idempotency_key = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        indexes = [models.Index(fields=["encounter", "idempotency_key"], name="combatant_key")]

    def __str__(self) -> str:
        return self.name
