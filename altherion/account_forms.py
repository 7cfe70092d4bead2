"""The sign-up, login and password-reset forms: Django's own, with what the pages add to them."""

import hashlib
import logging

from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from common.mail import mail_send

logger = logging.getLogger(__name__)

# Reset mails per address and hour: enough for a lost mail, too few to flood a mailbox. The same
# page is shown past it, so the limit reveals nothing about the address either.
RESET_MAILS_PER_HOUR = 3


def _reset_mails_exhausted(address: str) -> bool:
    """Count one reset mail to `address` this hour; True once past RESET_MAILS_PER_HOUR."""
    key = "password-reset:" + hashlib.sha256(address.lower().encode()).hexdigest()
    cache.add(key, 0, timeout=60 * 60)
    try:
        sent = cache.incr(key)
    except ValueError:  # expired between add and incr: a fresh hour
        cache.set(key, 1, timeout=60 * 60)
        return False
    return sent is not None and sent > RESET_MAILS_PER_HOUR  # None: the cache is down


class SignupForm(UserCreationForm):
    """Django's sign-up form, with the optional e-mail address a forgotten password needs."""

    email = forms.EmailField(
        label=_("Adresse e-mail (facultative)"),
        required=False,
        help_text=_(
            "Pour recevoir un lien si vous oubliez votre mot de passe ; modifiable plus tard "
            "dans votre profil."
        ),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class LoginForm(AuthenticationForm):
    """Django's login form; a refused login marks both fields invalid for assistive technology
    (the error names neither field, so neither gets a field error of its own)."""

    def clean(self):
        try:
            return super().clean()
        except ValidationError:
            for name in ("username", "password"):
                self.fields[name].widget.attrs["aria-invalid"] = "true"
            raise


class PasswordResetMailForm(PasswordResetForm):
    """Django's reset form (nothing sent, and the same page, for an unknown address), its mail sent
    through the app's one mail path in French."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].label = _("Adresse e-mail")

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ):
        if _reset_mails_exhausted(to_email):
            return
        # A relay that fails is logged, not shown: the page must look the same whoever asked.
        try:
            mail_send(to=to_email, template="registration/password_reset", context=context)
        except OSError:
            logger.exception("The password reset mail could not be sent.")
