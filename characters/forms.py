"""Forms check the shape of what is typed (types, storage bounds); rules and services decide.

Every form the sheet page shows at once has its own prefix (POST forms: the names and ids are
prefixed, the views read them so) or its own `auto_id` (the field in edit mode and the odds
form, whose names stay short: the in-place edit posts `value`, the odds are a bookmarkable
query), so no two ids on the page are the same (issue 16 §16).
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import Species
from characters.compendium_lookups import COMPENDIUM_MODELS
from characters.condition import POINTS_MAX
from characters.fields import SheetField
from rules import reference

CHARACTERISTIC_CHOICES = [(name, reference.LABELS[name]) for name in reference.CHARACTERISTICS]
GAUGE_CHOICES = [(gauge, reference.LABELS[gauge]) for gauge in reference.GAUGES]
REST_CHOICES = [(rank.key, rank.label) for rank in reference.REST_RANKS]
# The compendium entries a sheet owns, by relation: the entries form and the history name them so.
ENTRY_LABELS = {
    "classes": _("Classes"),
    "branches": _("Branches"),
    "abilities": _("Aptitudes"),
    "assets": _("Atouts"),
    "flaws": _("Handicaps"),
}


def value_field(spec: SheetField, *, campaign=None) -> forms.Field:
    """The form field that reads one sheet field's value."""
    if spec.kind == "int":
        return forms.IntegerField(label=spec.label, min_value=spec.low, max_value=spec.high)
    if spec.kind == "bool":
        return forms.BooleanField(label=spec.label, required=False)
    if spec.kind == "choice":
        return forms.ChoiceField(label=spec.label, choices=spec.choices)
    if spec.kind == "species":
        return forms.ModelChoiceField(
            label=spec.label,
            queryset=Species.objects.filter(campaign=campaign),
            required=False,
            empty_label=_("Aucune"),
        )
    widget = forms.Textarea(attrs={"rows": 6}) if spec.kind == "longtext" else None
    return forms.CharField(
        label=spec.label,
        max_length=spec.high,
        required=spec.name == "name",
        strip=True,
        widget=widget,
    )


class FieldForm(forms.Form):
    """One field of the sheet and the version it was read at."""

    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    def __init__(self, spec: SheetField, *args, campaign=None, **kwargs):
        kwargs.setdefault("auto_id", f"id_%s_{spec.name}")
        super().__init__(*args, **kwargs)
        self.spec = spec
        self.fields["value"] = value_field(spec, campaign=campaign)
        self.fields["value"].widget.attrs.update(
            {"autofocus": True, "id": f"id_value_{spec.name}", "class": "inplace-input"}
        )

    def cleaned_value(self):
        value = self.cleaned_data["value"]
        if self.spec.kind == "species":
            return value.pk if value is not None else None
        return value


class SkillForm(forms.Form):
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    level = forms.IntegerField(
        label=_("Niveau"), min_value=reference.SKILL_MIN, max_value=reference.SKILL_MAX
    )
    expertises = forms.CharField(
        label=_("Expertises"),
        required=False,
        max_length=2000,
        help_text=_("Séparées par des virgules."),
    )

    def clean_expertises(self) -> list[str]:
        return [part.strip() for part in self.cleaned_data["expertises"].split(",") if part.strip()]


class SkillAddForm(SkillForm):
    prefix = "skill-add"
    skill = forms.ChoiceField(label=_("Compétence"), choices=())
    domain = forms.CharField(label=_("ou domaine oublié"), required=False, max_length=120)

    def __init__(self, *args, owned=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["skill"].choices = [("", "—")] + [
            (s.key, s.label) for s in reference.SKILLS if s.key not in owned
        ]
        self.fields["skill"].required = False

    def clean(self):
        data = super().clean()
        if not data.get("skill") and not data.get("domain"):
            raise forms.ValidationError(_("Choisissez une compétence ou nommez un domaine oublié."))
        return data


class LanguageForm(forms.Form):
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    level = forms.IntegerField(label=_("Niveau"), min_value=0, max_value=10)
    writing = forms.BooleanField(label=_("Écriture"), required=False)


class LanguageAddForm(LanguageForm):
    prefix = "language-add"
    language = forms.ChoiceField(
        label=_("Langue"), choices=[(lang.key, lang.label) for lang in reference.LANGUAGES]
    )


class OddsForm(forms.Form):
    """The check the odds column shows: a characteristic, a complexity and a difficulty."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "id_odds_%s")
        super().__init__(*args, **kwargs)

    characteristic = forms.ChoiceField(
        label=_("Caractéristique"), choices=CHARACTERISTIC_CHOICES, initial="strength"
    )
    complexity = forms.IntegerField(label=_("Complexité"), min_value=0, max_value=20, initial=2)
    difficulty = forms.IntegerField(label=_("Difficulté"), min_value=0, max_value=60, initial=10)

    def values(self) -> dict:
        if self.is_bound and self.is_valid():
            return self.cleaned_data
        return {name: field.initial for name, field in self.fields.items()}

    @property
    def characteristic_label(self) -> str:
        """The chosen characteristic's name, for the printed sheet's caption of the odds."""
        return reference.LABELS[self.values()["characteristic"]]


# The four actions' forms; the API's DamageIn, RestIn, HealIn and StabiliseIn read the same
# choices and bounds, and both call the services in `characters.condition`, which decide the rest.
class DamageForm(forms.Form):
    prefix = "damage"
    gauge = forms.ChoiceField(label=_("Constitution"), choices=GAUGE_CHOICES)
    amount = forms.IntegerField(label=_("Dégâts"), min_value=1, max_value=POINTS_MAX)
    scars = forms.IntegerField(
        label=_("dont blessures graves (cicatrices)"),
        min_value=0,
        max_value=POINTS_MAX,
        initial=0,
        required=False,
    )


class RestForm(forms.Form):
    """A night's rest (§4): its conditions (Normale unless the Conteur says otherwise) and what
    shifts them; the rules give the rank. A recorded rib-cage injury is read from the record."""

    prefix = "rest"
    rank = forms.ChoiceField(
        label=_("Conditions du repos"),
        choices=REST_CHOICES,
        initial=reference.DEFAULT_REST_RANK,
        help_text=_("Normale d'ordinaire ; le Conteur peut en imposer d'autres."),
    )
    slept_badly = forms.BooleanField(label=_("Mal dormi (un cran plus dur)"), required=False)
    ate_badly = forms.BooleanField(label=_("Mal mangé (un cran plus dur)"), required=False)
    whole_day_of_rest = forms.BooleanField(
        label=_("Une journée entière de repos (un cran plus facile)"), required=False
    )


class HealForm(forms.Form):
    prefix = "heal"
    gauge = forms.ChoiceField(label=_("Constitution"), choices=GAUGE_CHOICES)
    points = forms.IntegerField(label=_("Points rendus"), min_value=1, max_value=POINTS_MAX)


class ObjectiveForm(forms.Form):
    """« Objectif atteint »: nothing to type, the rules give the points back (§1)."""

    prefix = "objective"


class StabiliseForm(forms.Form):
    prefix = "stabilise"
    gauge = forms.ChoiceField(label=_("Constitution"), choices=GAUGE_CHOICES)


class EntriesForm(forms.Form):
    """The compendium entries a character owns, as checkboxes."""

    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        for relation, model in COMPENDIUM_MODELS.items():
            self.fields[relation] = forms.ModelMultipleChoiceField(
                label=ENTRY_LABELS[relation],
                queryset=model.objects.filter(campaign=campaign),
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
