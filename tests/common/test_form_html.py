"""`common.form_html.form_html` writes what `templates/_form.html` writes, byte for byte: the
sheet's action forms, empty and with errors, and a form with every kind of field the template
tells apart (hidden, checkbox, a group in a fieldset, help text, errors, characters to escape)."""

import pytest
from django import forms
from django.template.loader import render_to_string
from django.utils import translation

from characters.forms import DamageForm, HealForm, RestForm, StabiliseForm
from common.form_html import form_html


class EveryKind(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    secret = forms.CharField(widget=forms.HiddenInput, required=False)
    name = forms.CharField(label="Nom <du> « héros » & co", help_text="<b>gras</b> & aide")
    brave = forms.BooleanField(label="Courageux ?", required=False, help_text="coché = oui")
    sure = forms.BooleanField(label="Sûr")
    pick = forms.MultipleChoiceField(
        label="Plusieurs",
        choices=[("a", "A <1>"), ("b", "B & 2")],
        widget=forms.CheckboxSelectMultiple,
        help_text="au moins un",
    )
    one = forms.ChoiceField(
        label="Un seul", choices=[("x", "X"), ("y", "Y")], widget=forms.RadioSelect
    )
    count = forms.IntegerField(label="Nombre", min_value=0, max_value=3)

    def clean(self):
        raise forms.ValidationError(["Tout est <faux>", "et & encore"])


FORMS = {
    "damage": lambda data: DamageForm(data),
    "rest": lambda data: RestForm(data),
    "heal": lambda data: HealForm(data),
    "stabilise": lambda data: StabiliseForm(data),
    "every kind": lambda data: EveryKind(data),
}
DATA = {
    "empty": None,
    "wrong": {"gauge": "nope", "points": "-3", "rank": "x", "count": "9", "pick": ["z"]},
    "some right": {"version": "2", "name": "<script>", "brave": "on", "one": "x", "count": "2"},
}


@pytest.mark.parametrize("data", DATA, ids=str)
@pytest.mark.parametrize("kind", FORMS, ids=str)
def test_the_same_markup_as_the_template(kind, data):
    with translation.override("fr"):
        form = FORMS[kind](DATA[data])
        assert form_html(form) == render_to_string("_form.html", {"form": form})


def test_the_sample_shows_every_branch_of_the_template():
    with translation.override("fr"):
        html = form_html(EveryKind(DATA["wrong"]))
    for shown in ('role="alert"', "<fieldset", "aria-describedby=", "field-checkbox", "has-error"):
        assert shown in html
    assert "_helptext" in html and "_error" in html and 'type="hidden"' in html
    assert "<b>gras</b> &amp; aide" not in html and "<b>gras</b> & aide" in html  # |safe
    assert "Nom &lt;du&gt;" in html and "Tout est &lt;faux&gt;" in html


def test_an_actions_empty_form_is_drawn_once_per_process_and_language():
    from characters.sheet_page import action_fields

    with translation.override("fr"):
        first = action_fields(RestForm)
        assert first == form_html(RestForm())
        assert action_fields(RestForm) is first
