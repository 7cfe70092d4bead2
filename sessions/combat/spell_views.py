"""The spell form of the fight (§15): the acting combatant's player (the Conteur for an NPC)
casts a plain, healing or area spell with its incantation.

Three views, on the tracker's pattern (`sessions.combat.views`, `tracker_actions`):

- `spell_form` (GET): the form. With HTMX, the fragment the tracker's « Lancer un sort » panel
  loads when it opens; without JavaScript, a page of its own.
- `spell_preview` (GET, HTMX): the preview alone — the healing's difficulty and complexity read
  from the target's sheet, what the incantation's spends give, the Combativité left — refreshed
  as the form changes. Nothing is written.
- `spell_cast` (POST): the incantation begins (`sessions.combat.spell_casts.spell_cast`); then
  the tracker (HTMX) or a redirect to the page the form came from, the refusal shown in French.
  Its « Calculer » button (`preview=1`, without JavaScript) shows the form page again with the
  preview of the values sent, and casts nothing.
- `spell_resolve` (POST): at the caster's first slot of the next round, the spell resolves
  (`spell_casts.spell_resolve`); the form shows only that button while the caster incants.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns.models import Campaign, SpellEntry
from campaigns.policy import campaign_get_for_member, is_storyteller
from common.htmx import HtmxHttpRequest
from rules import reference
from rules.french import de
from sessions.combat import incanting, spell_casts
from sessions.combat import selectors as cs
from sessions.combat import spells as combat_spells
from sessions.combat.forms import CHARACTERISTIC_CHOICES, GAUGE_CHOICES, SKILL_CHOICES
from sessions.combat.tracker_actions import (
    BACK_TO,
    form_errors,
    tracker_action,
)
from sessions.forms import fresh_key
from sessions.models import Encounter

KIND_CHOICES = [
    (combat_spells.PLAIN, _("Sort simple")),
    (combat_spells.HEALING, _("Guérison")),
    (combat_spells.AREA, _("Zone")),
]
SPENDS = ("focus", "gestures", "words", "components")


def _points(label, help_text="", maximum=combat_spells.MAX_SPELL_POINTS):
    return forms.IntegerField(
        label=label, min_value=0, max_value=maximum, initial=0, required=False, help_text=help_text
    )


class SpellForm(forms.Form):
    """A spell by the combatant acting now: its kind, its check (§5) and its incantation (§15).
    The shapes only: `sessions.combat.spells` decides what the rules allow."""

    turn = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    idempotency_key = forms.CharField(max_length=64, widget=forms.HiddenInput, initial=fresh_key)
    kind = forms.ChoiceField(
        label=_("Type de sort"),
        choices=KIND_CHOICES,
        initial=combat_spells.PLAIN,
        widget=forms.RadioSelect,
    )
    spell = forms.TypedChoiceField(
        label=_("Sort du compendium"),
        coerce=int,
        required=False,
        empty_value=None,
        help_text=_("Son nom, ses points et son coût, sauf ceux saisis ici."),
    )
    name = forms.CharField(label=_("Nom du sort"), max_length=80, required=False)
    spell_points = _points(_("Points du sort"))
    energy_cost = forms.IntegerField(
        label=_("Coût en Énergie"),
        min_value=0,
        max_value=combat_spells.MAX_ENERGY_COST,
        required=False,
        help_text=_(
            "Vide : celui du compendium. Payé au début de l'incantation ; le double en surcharge."
        ),
    )
    target = forms.TypedChoiceField(
        label=_("Personnage soigné"), coerce=int, required=False, empty_value=None
    )
    gauge = forms.ChoiceField(label=_("Constitution soignée"), choices=GAUGE_CHOICES)
    wounds = forms.IntegerField(
        label=_("Blessures à soigner"),
        min_value=0,
        max_value=combat_spells.MAX_SPELL_POINTS,
        required=False,
        help_text=_("Vide : toutes. Moins de blessures, moins de difficulté."),
    )
    area_targets = forms.TypedMultipleChoiceField(
        label=_("Cibles nommées"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Un jet par cible ; sinon, indiquez le nombre de groupes."),
    )
    targets = forms.IntegerField(
        label=_("Cibles ou groupes touchés"),
        min_value=1,
        max_value=combat_spells.MAX_AREA,
        initial=1,
        required=False,
        help_text=_("Un jet par cible ou groupe."),
    )
    damage = _points(
        _("Dégâts de chaque coup"),
        _("Plus le bonus de colonne du lanceur ; chaque cible nommée s'en défend."),
    )
    area_gauge = forms.ChoiceField(
        label=_("Constitution frappée"), choices=GAUGE_CHOICES, required=False
    )
    nonlethal = forms.BooleanField(label=_("Non létal"), required=False)
    characteristic = forms.ChoiceField(
        label=_("Caractéristique"), choices=CHARACTERISTIC_CHOICES, initial="power"
    )
    skill = forms.ChoiceField(
        label=_("Compétence"), choices=SKILL_CHOICES, required=False, initial="sorcellerie"
    )
    characteristic_value = forms.IntegerField(
        label=_("Valeur (PNJ)"), min_value=0, max_value=50, required=False
    )
    skill_level = forms.IntegerField(
        label=_("Niveau de compétence (PNJ)"), min_value=0, max_value=10, required=False
    )
    expertise = forms.BooleanField(label=_("Expertise (+1d10, sans critique)"), required=False)
    complexity = _points(_("Complexité"), _("Calculée pour une guérison."), maximum=20)
    difficulty = _points(_("Difficulté"), _("Calculée pour une guérison."), maximum=200)
    focus = _points(
        _("Concentration"),
        _("1 Combativité par dé en plus, on garde le meilleur."),
        maximum=reference.COMBATIVENESS_MAX,
    )
    gestures = _points(_("Gestes (points)"), _("Jusqu'aux points du sort ; 1 Combativité."))
    words = _points(_("Paroles (points)"), _("Jusqu'aux points du sort ; 1 Combativité."))
    components = _points(
        _("Composantes (points)"), _("Selon la valeur du composant ; 1 Combativité.")
    )
    overcharge = forms.BooleanField(
        label=_("Surcharger : coût ×2, + les points du sort (1 Combativité)"), required=False
    )

    def __init__(self, *args, healable=(), entries=(), caster_id=None, **kwargs):
        kwargs.setdefault("auto_id", "spell_%s")  # the attack form in the same tracker has id_*
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = [("", _("— choisir —"))] + [
            (c.pk, c.name) for c in healable
        ]
        self.fields["area_targets"].choices = [
            (c.pk, c.name) for c in healable if c.pk != caster_id
        ]
        self.fields["spell"].choices = [("", _("— aucun —"))] + [(e.pk, e.name) for e in entries]

    def spell_request(self) -> combat_spells.SpellRequest:
        data = self.cleaned_data
        return combat_spells.SpellRequest(
            characteristic=data["characteristic"],
            skills=(data["skill"],) if data.get("skill") else (),
            kind=data["kind"],
            name=data.get("name") or "",
            complexity=data.get("complexity") or 0,
            difficulty=data.get("difficulty") or 0,
            characteristic_value=data.get("characteristic_value"),
            skill_level=data.get("skill_level"),
            spell_points=data.get("spell_points") or 0,
            overcharge=bool(data.get("overcharge")),
            target=data.get("target"),
            gauge=(data.get("area_gauge") if data["kind"] == combat_spells.AREA else None)
            or data.get("gauge")
            or "vitality",
            targets=data.get("targets") or 1,
            area_targets=tuple(data.get("area_targets") or ()),
            energy_cost=data.get("energy_cost"),
            spell=data.get("spell"),
            wounds=data.get("wounds"),
            expertise=bool(data.get("expertise")),
            damage=data.get("damage") or 0,
            nonlethal=bool(data.get("nonlethal")),
            **{name: data.get(name) or 0 for name in SPENDS},
        )


class PreviewForm(SpellForm):
    """The same inputs read from a GET: the turn and the key are not needed to compute."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("turn", "idempotency_key"):
            self.fields[name].required = False


def _choices(campaign: Campaign, encounter: Encounter) -> dict:
    """The form's choices: the fight's targets, the compendium's spells."""
    return {
        "healable": healable(campaign, encounter),
        "entries": list(SpellEntry.objects.filter(campaign=campaign).only("pk", "name")),
        "caster_id": (
            encounter.order[encounter.position]["combatant"]
            if encounter.order and encounter.position < len(encounter.order)
            else None
        ),
    }


class ResolveForm(forms.Form):
    """The step the caller read: the spell's own numbers wait on the caster."""

    turn = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


def healable(campaign: Campaign, encounter: Encounter) -> list:
    """The combatants of the fight a spell may target (those this member sees): characters and
    NPCs alike (an NPC is healed on its stat block)."""
    storyteller = is_storyteller(campaign)
    return [
        c
        for c in encounter.combatants.select_related("character").order_by("pk")
        if c.status not in combat_spells.OUT and (storyteller or not c.hidden)
    ]


def _context(request, campaign, encounter, form, preview=None) -> dict:
    tracker = cs.tracker_for_user(campaign=campaign, user=request.user, encounter=encounter)
    back = request.GET.get("back") or request.POST.get("back") or "table"
    caster = tracker.acting.combatant if tracker and tracker.acting else None
    return {
        "campaign": campaign,
        "is_storyteller": is_storyteller(campaign),
        "tracker": tracker,
        "encounter": encounter,
        "caster": caster,
        "incantation": incanting.pending(caster) if caster is not None else {},
        "incantation_due": caster is not None and incanting.due(caster, encounter),
        "incantation_lost": incanting.lost_reason(caster, encounter)
        % {
            "name": caster.name,
            "of_name": de(caster.name),
        }
        if caster is not None
        else "",
        "spell_form": form,
        "preview": preview,
        "back": back if back in BACK_TO else "table",
    }


def _preview(campaign, encounter, form):
    if not form.is_valid():
        return None
    return combat_spells.spell_preview(
        campaign=campaign, encounter=encounter, request=form.spell_request()
    )


@login_required
@require_GET
@vary_on_headers("HX-Request")
def spell_form(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = SpellForm(initial={"turn": encounter.turn}, **_choices(campaign, encounter))
    context = _context(request, campaign, encounter, form)
    if request.htmx:
        return render(request, "sessions/_combat_spell_form.html", context)
    return render(request, "sessions/combat_spell.html", context)


@login_required
@require_GET
def spell_preview(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = PreviewForm(request.GET, **_choices(campaign, encounter))
    preview = _preview(campaign, encounter, form)
    context = {
        **_context(request, campaign, encounter, form, preview),
        "only_preview": True,
        "preview_errors": form_errors(form) if preview is None else "",
    }
    return render(request, "sessions/_combat_spell_form.html", context)


@login_required
@require_POST
def spell_cast(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """The acting combatant casts; the incantation takes its turn (the hand passes on)."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = SpellForm(request.POST, **_choices(campaign, encounter))
    if request.POST.get("preview"):  # « Calculer » without JavaScript: the page, nothing cast
        form.is_valid()
        context = _context(request, campaign, encounter, form, _preview(campaign, encounter, form))
        return render(request, "sessions/combat_spell.html", context)
    return tracker_action(
        request,
        campaign,
        form,
        lambda data: spell_casts.spell_cast(
            campaign=campaign,
            by=request.user,
            encounter_id=encounter.pk,
            turn=data["turn"],
            request=form.spell_request(),
            idempotency_key=data["idempotency_key"],
        ),
    )


@login_required
@require_POST
def spell_resolve(request: HtmxHttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """The caster's spell resolves at its first slot of the next round; the hand passes on."""
    campaign = campaign_get_for_member(user=request.user, pk=pk)
    encounter = cs.encounter_get(campaign=campaign, pk=encounter_pk)
    form = ResolveForm(request.POST)
    return tracker_action(
        request,
        campaign,
        form,
        lambda data: spell_casts.spell_resolve(
            campaign=campaign,
            by=request.user,
            encounter_id=encounter.pk,
            turn=data["turn"],
        ),
    )
