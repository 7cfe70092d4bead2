"""Forms of the table page: their shape only (types, ranges); the services decide what is allowed."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import Arc, Campaign
from rules import reference
from sessions import checks, consequences, morale
from sessions.checks import RollRequest
from sessions.models import PlaySession, Visibility

SOURCE_CHOICES = [
    (morale.PERSONAL, _("mes points personnels")),
    (morale.GROUP, _("le Moral du groupe")),
    (morale.SERENITY, _("l'Apaisement (le Moral gagne le point opposé)")),
]
CHARACTERISTIC_CHOICES = [
    (_("Principales"), [(k, reference.LABELS[k]) for k in checks.MAIN_CHARACTERISTICS]),
    (_("Secondaires"), [(k, reference.LABELS[k]) for k in checks.SECONDARY_CHARACTERISTICS]),
]
SKILL_CHOICES = [(s.key, s.label) for s in checks.ROLLED_SKILLS]


def _small(label, high=20, **kw) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=high, initial=0, **kw)


class RollForm(forms.Form):
    """A check as the player declares it (§5). `characters` are those the user may roll for."""

    character = forms.TypedChoiceField(label=_("Personnage"), coerce=int, required=False)
    characteristic = forms.ChoiceField(
        label=_("Caractéristique"), choices=CHARACTERISTIC_CHOICES, initial="strength"
    )
    skills = forms.MultipleChoiceField(
        label=_("Compétences"),
        choices=SKILL_CHOICES,
        required=False,
        help_text=_("Plusieurs compétences : la plus basse compte."),
        widget=forms.SelectMultiple(attrs={"size": 5}),
    )
    complexity = _small(_("Complexité"))
    difficulty = _small(_("Difficulté"), high=200)
    expertise = forms.BooleanField(label=_("Expert (+1d10 sans critique)"), required=False)
    boon = _small(_("Dés de surpuissance (situation)"))
    bane = _small(_("Dés d'impuissance (situation, blessures)"))
    impact = _small(_("Points d'Impact dépensés (1 dé de surpuissance chacun)"))
    hope = _small(_("Espoir dépensé pour +1 chacun"), high=10)
    hope_source = forms.ChoiceField(
        label=_("L'espoir vient de"), choices=SOURCE_CHOICES, initial=morale.PERSONAL
    )
    cancel_critical_failure = forms.BooleanField(
        label=_("1 espoir : annuler un échec critique"), required=False
    )
    substitute = forms.BooleanField(
        label=_("1 espoir : Puissance (ou Harmonie) à la place de la caractéristique"),
        required=False,
    )
    despair_source = forms.ChoiceField(
        label=_("Le désespoir vient de"), choices=SOURCE_CHOICES, initial=morale.PERSONAL
    )
    narrow_success = forms.BooleanField(
        label=_("1 désespoir : un échec devient une réussite de justesse"), required=False
    )
    fury = forms.BooleanField(label=_("1 désespoir : entrer en Acharnement"), required=False)
    fortune_fate = forms.BooleanField(
        label=_("1 désespoir : chacun gagne 1 Fortune, le Conteur 1 Fatalité"), required=False
    )
    critical_success_from = forms.IntegerField(
        label=_("Réussite critique dès le"),
        min_value=2,
        max_value=10,
        initial=10,
        required=False,
        help_text=_("10 sans capacité ; 9 si une capacité élargit la plage (9 et 10)."),
    )
    critical_failure_to = forms.IntegerField(
        label=_("Échec critique jusqu'au"),
        min_value=1,
        max_value=9,
        initial=1,
        required=False,
        help_text=_("1 sans capacité ; les explosions restent sur les 10 et les 1 naturels."),
    )
    characteristic_value = forms.IntegerField(
        label=_("Valeur de caractéristique (PNJ)"), min_value=0, max_value=50, required=False
    )
    skill_level = forms.IntegerField(
        label=_("Niveau de compétence (PNJ)"), min_value=0, max_value=10, required=False
    )
    label = forms.CharField(label=_("Intitulé"), max_length=120, required=False)
    injuries = forms.TypedMultipleChoiceField(
        label=_("Blessures qui gênent ce jet"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    visibility = forms.ChoiceField(
        label=_("Visibilité"), choices=Visibility.choices, initial=Visibility.PUBLIC
    )
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args, characters=(), storyteller: bool = False, injuries=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["injuries"].choices = [
            (i.pk, f"{i.character.name} — {i.label}") for i in injuries
        ]
        if not injuries:
            del self.fields["injuries"]
        choices = [(c.pk, c.name) for c in characters]
        if storyteller:
            choices = [("", _("— PNJ du Conteur —")), *choices]
            self.fields["visibility"].choices = [
                (Visibility.PUBLIC, _("Public")),
                (Visibility.HIDDEN, _("Caché (vous seul)")),
            ]
        else:
            self.fields["visibility"].choices = [
                (Visibility.PUBLIC, _("Public")),
                (Visibility.STORYTELLER, _("Secret (vous et le Conteur)")),
            ]
            del self.fields["characteristic_value"]
            del self.fields["skill_level"]
        self.fields["character"].choices = choices
        self.fields["character"].required = not storyteller
        self.fields["character"].empty_value = None
        if not self.is_bound:
            self.initial.setdefault("idempotency_key", uuid.uuid4().hex)

    def roll_request(self) -> RollRequest:
        data = self.cleaned_data
        return RollRequest(
            characteristic=data["characteristic"],
            skills=tuple(data.get("skills") or ()),
            complexity=data["complexity"],
            difficulty=data["difficulty"],
            expertise=data["expertise"],
            boon=data["boon"],
            bane=data["bane"],
            impact=data["impact"],
            hope=data["hope"],
            hope_source=data["hope_source"],
            cancel_critical_failure=data["cancel_critical_failure"],
            substitute=data["substitute"],
            despair_source=data["despair_source"],
            narrow_success=data["narrow_success"],
            fury=data["fury"],
            fortune_fate=data["fortune_fate"],
            characteristic_value=data.get("characteristic_value"),
            skill_level=data.get("skill_level"),
            label=data.get("label") or "",
            injuries=tuple(data.get("injuries") or ()),
            **_critical_ranges(data),
        )


def _critical_ranges(data: dict) -> dict[str, int]:
    """The widened critical ranges asked for; a field left empty keeps the rules' default."""
    return {
        name: data[name]
        for name in ("critical_success_from", "critical_failure_to")
        if data.get(name) is not None
    }


def fresh_key() -> str:
    return uuid.uuid4().hex


class MoraleForm(forms.Form):
    action = forms.ChoiceField(choices=list(morale.MORALE_ACTIONS.items()))
    character = forms.IntegerField(required=False)
    source = forms.ChoiceField(
        choices=[(morale.GROUP, _("groupe")), (morale.PERSONAL, _("personnel"))],
        required=False,
    )
    taker = forms.IntegerField(required=False)
    agreeing = forms.TypedMultipleChoiceField(coerce=int, required=False)
    state = forms.CharField(max_length=16, required=False)
    effect = forms.ChoiceField(
        choices=[("", "—"), ("hope", _("espoir")), ("despair", _("désespoir"))], required=False
    )

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["agreeing"].choices = [(c.pk, c.name) for c in characters]

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {
            "action": data["action"],
            "character_id": data.get("character"),
            "source": data.get("source") or morale.GROUP,
            "taker_id": data.get("taker"),
            "agreeing": data.get("agreeing") or (),
            "state": data.get("state") or "",
            "effect": data.get("effect") or "",
        }


class FateSpendForm(forms.Form):
    """The Conteur spends Fatalité (§14): how many points, and what for."""

    points = forms.IntegerField(label=_("Points"), min_value=1, max_value=5, initial=1)
    reason = forms.CharField(label=_("Pour quoi"), max_length=200)
    visibility = forms.ChoiceField(
        label=_("Visibilité"),
        choices=[(Visibility.PUBLIC, _("Public")), (Visibility.STORYTELLER, _("Secret"))],
        initial=Visibility.PUBLIC,
    )
    idempotency_key = forms.CharField(max_length=64, initial=fresh_key)

    def service_kwargs(self) -> dict:
        return dict(self.cleaned_data)


class FortuneRequestForm(forms.Form):
    """A player asks the Conteur to spend Fortune points (§14), several at once."""

    character = forms.IntegerField(min_value=1)
    points = forms.IntegerField(label=_("Points"), min_value=1, max_value=5, initial=1)
    reason = forms.CharField(label=_("Pour quoi"), max_length=200)
    idempotency_key = forms.CharField(max_length=64, initial=fresh_key)

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        data["character_id"] = data.pop("character")
        return data


class FortuneAnswerForm(forms.Form):
    answer = forms.ChoiceField(choices=[("accept", _("Accepter")), ("refuse", _("Refuser"))])

    def service_kwargs(self) -> dict:
        return {"accept": self.cleaned_data["answer"] == "accept"}


class ConsequenceForm(forms.Form):
    kind = forms.ChoiceField(choices=list(consequences.CONSEQUENCES.items()))
    victim = forms.IntegerField(required=False)
    mode = forms.ChoiceField(
        choices=[
            (consequences.TABLE, _("table d'Aggravation")),
            (consequences.RESILIENCE, _("Résilience")),
        ],
        required=False,
    )
    face = forms.IntegerField(min_value=1, max_value=10, required=False)

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {
            "kind": data["kind"],
            "victim_id": data.get("victim"),
            "mode": data.get("mode") or consequences.TABLE,
            "face": data.get("face"),
        }


class PlaySessionForm(forms.ModelForm):
    scheduled_at = forms.DateTimeField(
        label=_("Date et heure"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%d/%m/%Y %H:%M"],
    )

    class Meta:
        model = PlaySession
        fields = ["title", "scheduled_at", "arc", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 10})}
        help_texts = {"notes": _("En Markdown : **gras**, *italique*, listes, liens.")}

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.campaign = campaign
        self.fields["arc"].queryset = Arc.objects.filter(campaign=campaign)
        self.fields["arc"].empty_label = _("— aucun arc —")
