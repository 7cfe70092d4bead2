"""Forms of the combat pages: they check shapes; `sessions.combat` decides what is allowed."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from rules import combat as rules_combat
from rules import reference
from sessions.attack_profiles import (
    GAUGE_KEYS,
    LEVEL_MAX,
    MAX_PROFILES,
    NPC_CHARACTERISTICS,
    WEAPON_LENGTH,
    profile_label,
)
from sessions.checks import ROLLED_SKILLS
from sessions.combat.blows import DEFENCE_LABELS
from sessions.forms import fresh_key
from sessions.injuries import injury_label
from sessions.models import CombatantStatus, StatBlock

SKILL_CHOICES_BLOCK = [("", _("— aucune —"))] + [(s.key, s.label) for s in ROLLED_SKILLS]


class StatBlockForm(forms.ModelForm):
    class Meta:
        model = StatBlock
        fields = [
            "name",
            "agility",
            "perception",
            "wisdom",
            "strength",
            "vigor",
            "combativeness",
            "vitality_max",
            "energy_max",
            "confidence_max",
            "vitality_regeneration",
            "energy_regeneration",
            "confidence_regeneration",
            "armour",
            "shield",
            "annulation",
            "resistance",
            "notes",
            "hidden",
        ]
        help_texts = {
            "agility": _("Agilité, Perception et Sagesse donnent la Finesse (l'initiative)."),
            "armour": _("Valeur d'armure pour le Blocage (vide : aucune)."),
            "vitality_regeneration": _("Points rendus à la fin de chaque tour (0 : aucun)."),
            "hidden": _("Les joueurs ne voient pas ce profil dans le bestiaire."),
        }
        widgets = {"notes": forms.Textarea(attrs={"rows": 4})}

    REGENERATIONS = ("vitality_regeneration", "energy_regeneration", "confidence_regeneration")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.REGENERATIONS:
            self.fields[name].required = False  # left empty: the creature regenerates nothing

    def clean(self):
        data = super().clean()
        for name in self.REGENERATIONS:
            if data.get(name) is None and name not in self.errors:
                data[name] = 0
        return data


class AttackProfileForm(forms.Form):
    """One weapon of a stat block (sessions.attack_profiles); a row left without a weapon is
    dropped."""

    weapon = forms.CharField(label=_("Arme"), max_length=WEAPON_LENGTH, required=False)
    characteristic = forms.ChoiceField(
        label=_("Caractéristique"),
        choices=[(key, reference.LABELS[key]) for key in NPC_CHARACTERISTICS],
        initial="strength",
    )
    skill = forms.ChoiceField(
        label=_("Compétence"), choices=SKILL_CHOICES_BLOCK, required=False, initial="melee"
    )
    level = forms.IntegerField(label=_("Niveau"), min_value=0, max_value=LEVEL_MAX, initial=0)
    damage = forms.IntegerField(label=_("Dégâts"), min_value=0, max_value=1000, initial=0)
    gauge = forms.ChoiceField(
        label=_("Constitution visée"),
        choices=[(key, reference.LABELS[key]) for key in GAUGE_KEYS],
        initial="vitality",
    )
    ranged = forms.BooleanField(label=_("À distance"), required=False)
    nonlethal = forms.BooleanField(label=_("Non létale"), required=False)


AttackProfileFormSet = forms.formset_factory(
    AttackProfileForm, extra=2, max_num=MAX_PROFILES, validate_max=True
)


def profiles_formset(data=None, block: StatBlock | None = None):
    """The block's attack rows; a POST without them (an older client) leaves them as they are."""
    initial = list(block.attacks) if block is not None else []
    if data is not None and "attacks-TOTAL_FORMS" not in data:
        data = None
    return AttackProfileFormSet(data, initial=initial, prefix="attacks")


def profiles_of(formset, block: StatBlock) -> list[dict]:
    """The attacks a valid formset describes (rows with a weapon), or the block's own."""
    if not formset.is_bound:
        return list(block.attacks)
    return [
        {**row, "skill": row.get("skill") or ""}
        for row in formset.cleaned_data
        if row and row.get("weapon")
    ]


class EncounterOpenForm(forms.Form):
    name = forms.CharField(label=_("Nom du combat"), max_length=120, required=False)


class PartyForm(forms.Form):
    characters = forms.TypedMultipleChoiceField(
        label=_("Personnages"), coerce=int, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [(c.pk, c.name) for c in characters]


class BlockJoinForm(forms.Form):
    stat_block = forms.TypedChoiceField(label=_("Profil du bestiaire"), coerce=int)
    count = forms.IntegerField(label=_("Nombre"), min_value=1, max_value=20, initial=1)
    hidden = forms.TypedChoiceField(
        label=_("Visibles des joueurs ?"),
        choices=[("", _("selon le profil")), ("1", _("cachés")), ("0", _("visibles"))],
        coerce=lambda value: value == "1",
        empty_value=None,
        required=False,
    )
    idempotency_key = forms.CharField(max_length=64, widget=forms.HiddenInput, initial=fresh_key)

    def __init__(self, *args, blocks=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["stat_block"].choices = [(b.pk, b.name) for b in blocks]


class QuickNpcForm(forms.Form):
    name = forms.CharField(label=_("Nom"), max_length=110)
    finesse = forms.IntegerField(label=_("Finesse"), min_value=0, max_value=20, initial=2)
    combativeness = forms.IntegerField(
        label=_("Combativité"), min_value=1, max_value=reference.COMBATIVENESS_MAX, initial=1
    )
    hidden = forms.BooleanField(label=_("Caché aux joueurs"), required=False)
    idempotency_key = forms.CharField(max_length=64, widget=forms.HiddenInput, initial=fresh_key)


class TurnForm(forms.Form):
    """The step the page showed: a second click on the same step is refused, not applied."""

    turn = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class StatusForm(forms.Form):
    status = forms.ChoiceField(label=_("État"), choices=CombatantStatus.choices)


# --- attacks and defences (§8, §13) ------------------------------------------------------------

CHARACTERISTIC_CHOICES = [
    (key, reference.LABELS[key]) for key in (*reference.CHARACTERISTICS, *reference.COLUMNS)
]
SKILL_CHOICES = [("", _("— aucune —"))] + [(s.key, s.label) for s in ROLLED_SKILLS]
GAUGE_CHOICES = [
    ("vitality", _("Vitalité (physique)")),
    ("energy", _("Énergie (magique)")),
    ("confidence", _("Confiance (sociale)")),
]


CRITICAL_CHOICES = [
    ("table", _("table d'Aggravation")),
    ("resilience", _("dépenser la Résilience")),
]


class SpendsForm(forms.Form):
    """What a combat roll carries besides its check, as every table roll (§5, §13): the
    expertise die, boon and bane dice, Impact and hope spent, the despair option."""

    expertise = forms.BooleanField(label=_("Expert (+1d10 sans critique)"), required=False)
    boon = forms.IntegerField(
        label=_("Dés de surpuissance"), min_value=0, max_value=20, initial=0, required=False
    )
    bane = forms.IntegerField(
        label=_("Dés d'impuissance"), min_value=0, max_value=20, initial=0, required=False
    )
    impact = forms.IntegerField(
        label=_("Points d'Impact dépensés (1 dé de surpuissance chacun)"),
        min_value=0,
        max_value=100,
        initial=0,
        required=False,
    )
    hope = forms.IntegerField(
        label=_("Espoir dépensé pour +1 chacun"), min_value=0, max_value=10, initial=0,
        required=False,
    )  # fmt: skip
    cancel_critical_failure = forms.BooleanField(
        label=_("Espoir : annuler un échec critique"), required=False
    )
    narrow_success = forms.BooleanField(
        label=_("Désespoir : un échec devient une réussite de justesse"), required=False
    )
    injuries = forms.TypedMultipleChoiceField(
        label=_("Blessures qui gênent ce jet"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, injuries=(), **kwargs):
        """`injuries`: the roller's open injuries, the ones it may declare (§8)."""
        super().__init__(*args, **kwargs)
        self.fields["injuries"].choices = [(i.pk, injury_label(i)) for i in injuries]
        if not injuries:
            del self.fields["injuries"]

    def spends(self) -> dict:
        """The spends, zeros for the numbers left empty."""
        data = self.cleaned_data
        numbers = ("boon", "bane", "impact", "hope")
        return {
            **{
                name: (data.get(name) or 0) if name in numbers else bool(data.get(name))
                for name in ("expertise", *numbers, "cancel_critical_failure", "narrow_success")
            },
            "injuries": tuple(data.get("injuries") or ()),
        }


class AttackForm(SpendsForm):
    """An attack by the combatant acting now: its check (§5) and its blow (§8)."""

    turn = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    idempotency_key = forms.CharField(max_length=64, widget=forms.HiddenInput, initial=fresh_key)
    riposte = forms.BooleanField(required=False, widget=forms.HiddenInput)
    # Not asked of a riposte: its target is the last blow's attacker (`attacks._target`).
    target = forms.TypedChoiceField(label=_("Cible"), coerce=int, required=False, empty_value=0)
    profile = forms.IntegerField(
        label=_("Attaque du profil"),
        min_value=0,
        max_value=MAX_PROFILES - 1,
        required=False,
        help_text=_("Elle donne caractéristique, compétence, dégâts, portée et létalité."),
    )
    characteristic = forms.ChoiceField(
        label=_("Caractéristique"), choices=CHARACTERISTIC_CHOICES, initial="strength"
    )
    skill = forms.ChoiceField(
        label=_("Compétence"), choices=SKILL_CHOICES, required=False, initial="melee"
    )
    complexity = forms.IntegerField(label=_("Complexité"), min_value=0, max_value=20, initial=0)
    difficulty = forms.IntegerField(label=_("Difficulté"), min_value=0, max_value=200, initial=0)
    damage = forms.IntegerField(
        label=_("Dégâts de base"), min_value=0, max_value=10_000, initial=0,
        help_text=_("Ceux de l'arme ou du sort ; le bonus de colonne s'ajoute."),
    )  # fmt: skip
    gauge = forms.ChoiceField(label=_("Type de dégâts"), choices=GAUGE_CHOICES)
    nonlethal = forms.BooleanField(label=_("Non létale"), required=False)
    ranged = forms.BooleanField(label=_("À distance"), required=False)
    hidden = forms.BooleanField(label=_("Dissimulée"), required=False)
    characteristic_value = forms.IntegerField(
        label=_("Valeur (PNJ)"), min_value=0, max_value=50, required=False
    )
    skill_level = forms.IntegerField(
        label=_("Niveau de compétence (PNJ)"), min_value=0, max_value=10, required=False
    )

    def __init__(self, *args, targets=(), profiles=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = [(c.pk, c.name) for c in targets]
        self.implied_target = bool(self.initial.get("riposte"))  # the riposte form: none asked
        self.profiles = list(profiles)
        if self.profiles:  # an NPC with attack profiles: the first is chosen
            self.fields["profile"].widget = forms.Select(
                choices=[(i, profile_label(p)) for i, p in enumerate(self.profiles)]
                + [("", _("— une autre attaque (saisie libre) —"))]
            )
            self.fields["profile"].initial = 0

    critical = forms.ChoiceField(
        label=_("Si l'attaquant subit un critique"),
        choices=CRITICAL_CHOICES,
        initial="table",
        required=False,
    )

    def clean(self):
        data = super().clean()
        if not data.get("riposte") and not data.get("target") and "target" not in self.errors:
            self.add_error("target", forms.Field.default_error_messages["required"])
        return data

    def strike(self) -> dict:
        data = dict(self.cleaned_data)
        skill = data.pop("skill")
        for name in ("turn", "idempotency_key", "profile"):
            data.pop(name, None)
        critical = data.pop("critical") or "table"
        return {**data, **self.spends(), "critical": critical, "skills": (skill,) if skill else ()}


class DefenceForm(SpendsForm):
    """The target's answer: a defence, none, or a reactive confrontation (with its reply)."""

    attack = forms.CharField(max_length=64, widget=forms.HiddenInput)
    defence = forms.ChoiceField(
        label=_("Défense"), choices=list(DEFENCE_LABELS.items()), widget=forms.RadioSelect
    )
    complexity = forms.IntegerField(
        label=_("Complexité"), min_value=0, max_value=20, initial=0, required=False
    )
    skill_level = forms.IntegerField(
        label=_("Niveau de compétence (PNJ)"), min_value=0, max_value=10, required=False
    )
    critical = forms.ChoiceField(
        label=_("Si un critique est subi"),
        choices=CRITICAL_CHOICES,
        initial="table",
        required=False,
    )
    reply_characteristic = forms.ChoiceField(
        label=_("Réplique : caractéristique"),
        choices=CHARACTERISTIC_CHOICES,
        initial="strength",
        required=False,
    )
    reply_skill = forms.ChoiceField(
        label=_("Réplique : compétence"), choices=SKILL_CHOICES, required=False, initial="melee"
    )
    reply_damage = forms.IntegerField(
        label=_("Réplique : dégâts de base"), min_value=0, max_value=10_000, initial=0,
        required=False,
    )  # fmt: skip
    reply_value = forms.IntegerField(
        label=_("Réplique : valeur (PNJ)"), min_value=0, max_value=50, required=False
    )


class RegenerationForm(forms.Form):
    """A forced regeneration: it costs the action and leaves as many serious wounds (§13)."""

    turn = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    gauge = forms.ChoiceField(label=_("Constitution"), choices=GAUGE_CHOICES)
    points = forms.IntegerField(label=_("Points régénérés"), min_value=1, max_value=10_000)


# --- grapples (§13) ----------------------------------------------------------------------------

GRAPPLE_CHOICES = [(key, label) for key, (label, _note) in rules_combat.GRAPPLES.items()]
GRAPPLE_CHARACTERISTIC_CHOICES = [
    (key, reference.LABELS[key]) for key in rules_combat.GRAPPLE_CHARACTERISTICS
]


class GrappleForm(forms.Form):
    """A grapple by the combatant acting now: bare hands, Bagarre, Force or Agilité (§13)."""

    turn = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    idempotency_key = forms.CharField(max_length=64, widget=forms.HiddenInput, initial=fresh_key)
    target = forms.TypedChoiceField(label=_("Cible"), coerce=int)
    grapple = forms.ChoiceField(
        label=_("Prise"), choices=GRAPPLE_CHOICES, initial=rules_combat.EMBRACE
    )
    characteristic = forms.ChoiceField(
        label=_("Caractéristique"),
        choices=GRAPPLE_CHARACTERISTIC_CHOICES,
        initial="strength",
        help_text=_("Selon la façon dont vous décrivez la prise."),
    )
    distance = forms.IntegerField(
        label=_("Distance de projection (m)"),
        min_value=1,
        max_value=rules_combat.THROW_DISTANCE_MAX,
        initial=1,
        required=False,
        help_text=_("Projection seulement : 1 dégât de moins par mètre au-delà du premier."),
    )
    heavy = forms.BooleanField(label=_("Cible grosse ou lourde (+2 en complexité)"), required=False)
    nonlethal = forms.BooleanField(label=_("Non létale"), required=False)
    complexity = forms.IntegerField(label=_("Complexité"), min_value=0, max_value=20, initial=0)
    difficulty = forms.IntegerField(label=_("Difficulté"), min_value=0, max_value=200, initial=0)
    characteristic_value = forms.IntegerField(
        label=_("Valeur (PNJ)"),
        min_value=0,
        max_value=50,
        required=False,
        help_text=_("Vide : celle de son profil."),
    )
    skill_level = forms.IntegerField(
        label=_("Niveau en Bagarre (PNJ)"), min_value=0, max_value=10, required=False
    )

    def __init__(self, *args, targets=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = [(c.pk, c.name) for c in targets]

    def strike(self) -> dict:
        data = dict(self.cleaned_data)
        for name in ("turn", "idempotency_key"):
            data.pop(name)
        return {**data, "distance": data["distance"] or 0}


class EscapeForm(forms.Form):
    """A held combatant tries to free itself: Force or Agilité and Bagarre (§13)."""

    turn = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    idempotency_key = forms.CharField(max_length=64, widget=forms.HiddenInput, initial=fresh_key)
    characteristic = forms.ChoiceField(
        label=_("Caractéristique"), choices=GRAPPLE_CHARACTERISTIC_CHOICES, initial="strength"
    )
    complexity = forms.IntegerField(label=_("Complexité"), min_value=0, max_value=20, initial=0)
    characteristic_value = forms.IntegerField(
        label=_("Valeur (PNJ)"), min_value=0, max_value=50, required=False
    )
    skill_level = forms.IntegerField(
        label=_("Niveau en Bagarre (PNJ)"), min_value=0, max_value=10, required=False
    )
