"""Forms of the combat pages: they check shapes; `sessions.combat` decides what is allowed."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from rules import reference
from sessions.forms import fresh_key
from sessions.models import CombatantStatus, StatBlock


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
            "hidden": _("Les joueurs ne voient pas ce profil dans le bestiaire."),
        }
        widgets = {"notes": forms.Textarea(attrs={"rows": 4})}


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
