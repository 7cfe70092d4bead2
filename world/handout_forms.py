"""The form the Conteur gives a handout with: what (a page, its image or one of its secrets) and
to whom (players of the campaign). Its shape only; `world.handouts` decides what is allowed."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign, Role
from world.handouts import Choice


class HandoutForm(forms.Form):
    what = forms.ChoiceField(label=_("Document à remettre"))
    recipients = forms.ModelMultipleChoiceField(
        label=_("Remis à"),
        queryset=get_user_model().objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choisissez au moins un joueur.")},
    )

    def __init__(self, *args, campaign: Campaign, choices: list[Choice], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["what"].choices = [(c.value, c.label) for c in choices]
        self.fields["recipients"].queryset = (
            get_user_model()
            .objects.filter(memberships__campaign=campaign, memberships__role=Role.PLAYER)
            .order_by("username")
        )
        self.fields["recipients"].label_from_instance = lambda user: user.get_username()
