"""REST API for character sheets (filled in after the pages)."""

from django.http import Http404


def character_export(request, pk: int):
    raise Http404
