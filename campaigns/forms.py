"""Forms check shape (types, ranges); services and model rules decide what is allowed."""

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import (
    CHARACTERISTICS,
    MODIFIER_MAX,
    MODIFIER_MIN,
    Ability,
    Arc,
    Asset,
    Branch,
    Campaign,
    CharacterClass,
    Flaw,
    Species,
    SpellEntry,
)
from campaigns.services import INVITATION_DAYS_DEFAULT, INVITATION_DAYS_MAX


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "description", "creation_budget", "tier", "in_game_day"]
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}
        help_texts = {
            "creation_budget": _("75 pour un personnage normal."),
            "tier": _("Héritage : caractéristiques moyennes de 3 ; Héros : de 5."),
        }


class InvitationForm(forms.Form):
    days = forms.IntegerField(
        label=_("Valable (jours)"),
        min_value=1,
        max_value=INVITATION_DAYS_MAX,
        initial=INVITATION_DAYS_DEFAULT,
    )
    max_uses = forms.IntegerField(
        label=_("Nombre d'utilisations"), min_value=1, max_value=100, initial=5
    )
    email = forms.EmailField(
        label=_("Envoyer le lien à (facultatif)"),
        required=False,
        help_text=_("L'adresse e-mail d'un joueur : le lien lui est envoyé."),
    )


class ArcForm(forms.ModelForm):
    class Meta:
        model = Arc
        fields = ["title", "summary", "chapter", "act", "closes", "length_unit"]
        widgets = {"summary": forms.Textarea(attrs={"rows": 4})}
        help_texts = {
            "closes": _("Un arc qui clôt un chapitre ou un acte rapporte plus d'expérience."),
            "length_unit": _("Multiplie l'expérience de l'arc : heures ×1 … années ×5."),
        }


# --- compendium -----------------------------------------------------------------------------


class SpeciesForm(forms.ModelForm):
    """The two JSON fields are edited as nine checkboxes and nine small integers."""

    favourites = forms.MultipleChoiceField(
        label=_("Caractéristiques favorites"),
        choices=CHARACTERISTICS,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    class Meta:
        model = Species
        fields = ["name", "description", "innate_abilities"]
        widgets = {
            "description": forms.Textarea(attrs={"rows": 2}),
            "innate_abilities": forms.Textarea(attrs={"rows": 2}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["favourites"].initial = list(self.instance.favourite_characteristics or [])
        modifiers = self.instance.modifiers or {}
        for name, label in CHARACTERISTICS:
            self.fields[f"modifier_{name}"] = forms.IntegerField(
                label=label,
                min_value=MODIFIER_MIN,
                max_value=MODIFIER_MAX,
                initial=modifiers.get(name, 0),
                required=False,
                widget=forms.NumberInput(attrs={"class": "modifier"}),
            )

    def main_fields(self):
        return [self[name] for name in ("name", "description", "innate_abilities", "favourites")]

    def modifier_fields(self):
        return [self[f"modifier_{name}"] for name, _label in CHARACTERISTICS]

    def clean(self):
        cleaned = super().clean()
        self.instance.favourite_characteristics = [
            name for name, _label in CHARACTERISTICS if name in cleaned.get("favourites", [])
        ]
        self.instance.modifiers = {
            name: cleaned[f"modifier_{name}"]
            for name, _label in CHARACTERISTICS
            if cleaned.get(f"modifier_{name}")
        }
        return cleaned


class CharacterClassForm(forms.ModelForm):
    class Meta:
        model = CharacterClass
        fields = ["name", "tier", "description", "prerequisites"]
        widgets = {
            "description": forms.Textarea(attrs={"rows": 2}),
            "prerequisites": forms.Textarea(attrs={"rows": 2}),
        }


class CampaignScopedForm(forms.ModelForm):
    """A form whose class choices are the campaign's own classes."""

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character_class"].queryset = CharacterClass.objects.filter(campaign=campaign)


class BranchForm(CampaignScopedForm):
    class Meta:
        model = Branch
        fields = ["character_class", "name", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}
        labels = {"character_class": _("Classe")}


class AbilityForm(CampaignScopedForm):
    class Meta:
        model = Ability
        fields = ["name", "character_class", "tier", "cost", "prerequisites", "description"]
        widgets = {
            "prerequisites": forms.Textarea(attrs={"rows": 2}),
            "description": forms.Textarea(attrs={"rows": 2}),
        }
        labels = {"character_class": _("Classe")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character_class"].empty_label = _("— aptitude d'espèce —")


class AssetForm(forms.ModelForm):
    class Meta:
        model = Asset
        fields = ["name", "cost", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}


class SpellEntryForm(forms.ModelForm):
    class Meta:
        model = SpellEntry
        fields = ["name", "spell_points", "energy_cost", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}
        help_texts = {"energy_cost": _("Payé au début de l'incantation ; le double en surcharge.")}


class FlawForm(forms.ModelForm):
    class Meta:
        model = Flaw
        fields = ["name", "value", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}
        help_texts = {"value": _("Points de création rendus au personnage.")}


class WebhookForm(forms.Form):
    """The hook's address; `campaigns.webhooks.webhook_url_check` decides whether it may serve."""

    url = forms.CharField(
        label=_("Adresse du webhook"),
        max_length=500,
        widget=forms.URLInput(attrs={"placeholder": "https://discord.com/api/webhooks/…"}),
        help_text=_(
            "Un webhook Discord (Paramètres du salon › Intégrations › Webhooks) ou toute adresse "
            "qui accepte du JSON. Seul le Conteur la voit."
        ),
    )
