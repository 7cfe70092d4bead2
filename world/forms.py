"""Forms of the world's pages: they check shape; services.py decides what is allowed."""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from campaigns.models import NAME_LENGTH, Campaign, Role
from world.images import IMAGE_MAX_BYTES
from world.models import BODY_LENGTH, NOTE_LENGTH, PageAudience, PageKind

BODY_HELP = _(
    "En Markdown. Liens : [[Nom de la page]] ou [[Nom de la page|texte affiché]]. Secret : une "
    "ligne « :::secret @pseudo », le texte, puis une ligne « ::: » — seuls le Conteur et les "
    "membres nommés le lisent."
)


class PageForm(forms.Form):
    title = forms.CharField(label=_("Titre"), max_length=NAME_LENGTH)
    kind = forms.ChoiceField(label=_("Genre"), choices=PageKind.choices)
    tags = forms.CharField(
        label=_("Étiquettes"),
        required=False,
        max_length=600,
        help_text=_("Séparées par des virgules, par exemple : port, nord."),
    )
    body = forms.CharField(
        label=_("Texte"),
        required=False,
        max_length=BODY_LENGTH,
        widget=forms.Textarea(attrs={"rows": 14}),
        help_text=BODY_HELP,
    )
    audience = forms.ChoiceField(
        label=_("Visible par"),
        choices=PageAudience.choices,
        widget=forms.RadioSelect,
        initial=PageAudience.STORYTELLER,
    )
    readers = forms.ModelMultipleChoiceField(
        label=_("Membres choisis"),
        required=False,
        queryset=get_user_model().objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Seulement si la page est visible par des membres choisis (le Conteur voit tout)."
        ),
    )
    image = forms.FileField(
        label=_("Image"),
        required=False,
        help_text=_("JPEG, PNG, WebP ou GIF, %(max)d Mo au plus.")
        % {"max": IMAGE_MAX_BYTES // 2**20},
        widget=forms.ClearableFileInput(
            attrs={"accept": "image/jpeg,image/png,image/webp,image/gif"}
        ),
    )
    remove_image = forms.BooleanField(label=_("Retirer l'image"), required=False)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    def __init__(self, *args, campaign: Campaign, has_image: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["readers"].queryset = (
            get_user_model()
            .objects.filter(memberships__campaign=campaign, memberships__role=Role.PLAYER)
            .order_by("username")
        )
        self.fields["readers"].label_from_instance = lambda user: user.get_username()
        if not has_image:
            del self.fields["remove_image"]


class NoteForm(forms.Form):
    text = forms.CharField(
        label=_("Ma note privée"),
        required=False,
        max_length=NOTE_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Vous seul la lisez, pas même le Conteur."),
    )


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Rechercher"), required=False, max_length=200)
