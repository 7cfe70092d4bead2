"""The one path every mail of the app takes (password resets, invitations): a subject and a
plain-text body rendered from two templates, sent through the configured backend (the console in
the embedded mode, SMTP in production: see EMAIL_HOST in settings)."""

from django.core.mail import EmailMessage
from django.template.loader import render_to_string


def mail_send(*, to: str, template: str, context: dict) -> None:
    """Send `<template>_subject.txt` and `<template>_body.txt` to `to`, rendered with `context`.

    The subject is put on one line: a header with a line break would be refused."""
    subject = " ".join(render_to_string(f"{template}_subject.txt", context).split())
    body = render_to_string(f"{template}_body.txt", context)
    EmailMessage(subject=subject, body=body, to=[to]).send()
