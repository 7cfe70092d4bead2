"""The creation wizard: one page where every change re-counts the budget live (HTMX).

The form only reads shapes; `creation.creation_report` asks the rules engine for the points per
line, what remains, and the French errors, which come back next to the field concerned. Saving
goes through `creation.character_create`, which refuses a sheet that breaks a creation rule.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.models import Ability, Asset, CharacterClass, Flaw, Species
from campaigns.policy import campaign_get_for_member, is_storyteller
from characters import creation
from rules import reference
from rules.french import de

CHARACTERISTIC_NAMES = (*reference.CHARACTERISTICS, "origin")


class CreationForm(forms.Form):
    """The wizard's fields, named for the page; `to_data()` gives the services' plain data."""

    name = forms.CharField(label=gettext_lazy("Nom"), max_length=120, required=False)
    species = forms.ModelChoiceField(
        label=gettext_lazy("Espèce"),
        queryset=Species.objects.none(),
        required=False,
        empty_label=gettext_lazy("Aucune"),
    )
    lineage = forms.CharField(label=gettext_lazy("Lignée"), max_length=120, required=False)
    combativeness = forms.IntegerField(
        label=gettext_lazy("Combativité"), min_value=0, max_value=10, initial=1
    )
    notes = forms.CharField(
        label=gettext_lazy("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.fields["species"].queryset = Species.objects.filter(campaign=campaign)
        for name in CHARACTERISTIC_NAMES:
            self.fields[name] = forms.IntegerField(
                label=reference.LABELS[name], min_value=0, max_value=20, initial=2
            )
        for gauge in reference.GAUGES:
            self.fields[f"premice_{gauge}"] = forms.IntegerField(
                label=reference.LABELS[gauge], min_value=0, max_value=45, initial=15
            )
        for skill in reference.SKILLS:
            self.fields[f"skill_{skill.key}"] = forms.IntegerField(
                label=skill.label, min_value=0, max_value=10, initial=0
            )
            self.fields[f"skillexp_{skill.key}"] = forms.CharField(
                label=_("Expertises %(of_skill)s") % {"of_skill": de(skill.label)},
                required=False,
                max_length=500,
                widget=forms.TextInput(attrs={"placeholder": _("Expertises")}),
            )
        for language in reference.LANGUAGES:
            self.fields[f"lang_{language.key}"] = forms.IntegerField(
                label=language.label, min_value=0, max_value=10, initial=0
            )
            self.fields[f"langw_{language.key}"] = forms.BooleanField(
                label=_("Écriture"), required=False
            )
        entries = {
            "classes": (
                gettext_lazy("Classes fondatrices"),
                CharacterClass.objects.filter(campaign=campaign, tier="founding"),
            ),
            "abilities": (
                gettext_lazy("Aptitudes fondatrices et d'espèce"),
                Ability.objects.filter(campaign=campaign, tier="founding"),
            ),
            "assets": (gettext_lazy("Atouts"), Asset.objects.filter(campaign=campaign)),
            "flaws": (gettext_lazy("Handicaps"), Flaw.objects.filter(campaign=campaign)),
        }
        for relation, (label, queryset) in entries.items():
            self.fields[relation] = forms.ModelMultipleChoiceField(
                label=label,
                queryset=queryset,
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )

    def value(self, name):
        """The cleaned value, or the initial one for a field that does not parse yet."""
        cleaned = getattr(self, "cleaned_data", {})
        if name in cleaned:
            return cleaned[name]
        field = self.fields[name]
        return field.initial if field.initial is not None else ([] if name in ENTRIES else "")

    def to_data(self) -> dict:
        skills = {}
        for skill in reference.SKILLS:
            level = self.value(f"skill_{skill.key}") or 0
            expertises = [
                e.strip()
                for e in (self.value(f"skillexp_{skill.key}") or "").split(",")
                if e.strip()
            ]
            if level or expertises:
                skills[skill.key] = {"level": level, "expertises": expertises}
        languages = {}
        for language in reference.LANGUAGES:
            level = self.value(f"lang_{language.key}") or 0
            writing = bool(self.value(f"langw_{language.key}"))
            if level or writing:
                languages[language.key] = {"level": level, "writing": writing}
        species = self.value("species")
        return {
            "name": self.value("name") or "",
            "species": species.pk if species else None,
            "lineage": self.value("lineage") or "",
            "notes": self.value("notes") or "",
            "characteristics": {n: self.value(n) for n in reference.CHARACTERISTICS},
            "origin": self.value("origin"),
            "combativeness": self.value("combativeness"),
            "premices": {g: self.value(f"premice_{g}") for g in reference.GAUGES},
            "skills": skills,
            "languages": languages,
            **{r: [e.pk for e in self.value(r)] for r in ENTRIES},
        }


ENTRIES = ("classes", "abilities", "assets", "flaws")


def slot_of(rule_field: str) -> str:
    """The wizard slot (next to a field) where a rules-engine line or error is shown."""
    if rule_field.startswith("skills."):
        return f"skill_{rule_field.removeprefix('skills.')}"
    if rule_field.startswith("languages."):
        return f"lang_{rule_field.removeprefix('languages.')}"
    if rule_field.startswith("premices"):
        return "premices"
    return {
        "founding_classes": "classes",
        "founding_abilities": "abilities",
        "species_abilities": "abilities",
    }.get(rule_field, rule_field)


def all_slots() -> list[str]:
    return [
        *CHARACTERISTIC_NAMES,
        "combativeness",
        "premices",
        *(f"skill_{s.key}" for s in reference.SKILLS),
        *(f"lang_{lang.key}" for lang in reference.LANGUAGES),
        "expertises",
        *ENTRIES,
        "name",
        "species",
    ]


def slots(report, extra_errors: dict[str, list[str]] | None = None) -> dict[str, dict]:
    """Every slot with its points and its French errors (empty ones too, to clear them)."""
    found = {slot: {"points": 0, "errors": []} for slot in all_slots()}
    for line in report.lines if report else ():
        found.setdefault(slot_of(line.field), {"points": 0, "errors": []})["points"] += line.points
    for violation in report.errors if report else ():
        if violation.field != "budget":
            slot = found.setdefault(slot_of(violation.field), {"points": 0, "errors": []})
            slot["errors"].append(violation.message)
    for field, errors in (extra_errors or {}).items():
        found.setdefault(slot_of(field), {"points": 0, "errors": []})["errors"].extend(errors)
    return found


def _report(form: CreationForm):
    form.is_valid()
    try:
        return creation.creation_report(campaign=form.campaign, data=form.to_data()), {}
    except ValidationError as error:
        return None, error.message_dict


def _context(campaign, form: CreationForm, report, errors) -> dict:
    shape_errors = {slot_of_form(name): list(errs) for name, errs in form.errors.items()}
    merged = {**shape_errors}
    for field, messages_ in errors.items():
        merged.setdefault(field, []).extend(messages_)
    skills = [
        {
            "label": label,
            "rows": [
                (form[f"skill_{s.key}"], form[f"skillexp_{s.key}"], f"skill_{s.key}")
                for s in reference.skills_in(category)
            ],
        }
        for category, label in (
            ("combat", _("Combat")),
            ("practical", _("Pratiques")),
            ("theoretical", _("Théoriques")),
        )
    ]
    languages = [
        (form[f"lang_{lang.key}"], form[f"langw_{lang.key}"], f"lang_{lang.key}")
        for lang in reference.LANGUAGES
    ]
    grid = [
        [form[name] for name in (row[0], row[1], row[2])]
        for row in (
            reference.ROWS["impact"],
            reference.ROWS["resilience"],
            reference.ROWS["finesse"],
        )
    ]
    return {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "form": form,
        "report": report,
        "slots": slots(report, merged),
        "budget_errors": [
            v.message for v in (report.errors if report else ()) if v.field == "budget"
        ],
        "skills": skills,
        "languages": languages,
        "grid": grid,
        "premices": [form[f"premice_{g}"] for g in reference.GAUGES],
    }


def slot_of_form(name: str) -> str:
    if name.startswith("premice_"):
        return "premices"
    if name.startswith("skillexp_"):
        return f"skill_{name.removeprefix('skillexp_')}"
    if name.startswith("langw_"):
        return f"lang_{name.removeprefix('langw_')}"
    return name


@login_required
@require_http_methods(["GET", "POST"])
def create(request, campaign_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=campaign_pk)
    form = CreationForm(request.POST or None, campaign=campaign)
    report, errors = _report(form)
    unspent: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            character = creation.character_create(
                campaign=campaign,
                owner=request.user,
                by=request.user,
                data=form.to_data(),
                # Points left: the page said what is left and the player chose to go on.
                accept_unspent=request.POST.get("unspent_confirmed") == "1",
            )
        except ValidationError as error:
            refused = error.message_dict
            unspent = refused.pop("unspent", [])
            errors = {**errors, **refused}
        else:
            messages.success(
                request, _("« %(name)s » a rejoint la campagne.") % {"name": character.name}
            )
            return redirect("characters:sheet", pk=character.pk)
    context = {**_context(campaign, form, report, errors), "unspent": unspent}
    return render(request, "characters/create.html", context)


@login_required
@require_POST
def budget(request, campaign_pk: int) -> HttpResponse:
    """The budget panel and every field's points and errors, re-counted by the rules engine."""
    campaign = campaign_get_for_member(user=request.user, pk=campaign_pk)
    form = CreationForm(request.POST, campaign=campaign)
    report, errors = _report(form)
    return render(
        request, "characters/_budget_response.html", _context(campaign, form, report, errors)
    )
