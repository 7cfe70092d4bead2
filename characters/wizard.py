"""The creation wizard (filled in below the sheet work)."""

from django.http import Http404


def create(request, campaign_pk: int):
    raise Http404


def budget(request, campaign_pk: int):
    raise Http404
