"""The end-of-arc checklist form (§10), read from a POST: as typed, to show it again after an
error, or checked for shape (whole numbers in range) for the services. The rules engine judges
the values; the form only checks that they are there and are numbers."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from characters.models import Character


def checklist_as_typed(post, characters: list[Character]) -> dict[str, Any]:
    """The form as typed (numbers still text), for the characters ticked present."""
    return {
        "group": {
            "danger": post.get("danger"),
            "balance": post.getlist("balance"),
            "ingenuity": post.getlist("ingenuity"),
            "ending": post.get("ending"),
            "ending_items": post.getlist("ending_items"),
            "length": post.get("length"),
        },
        "characters": {
            str(c.pk): {
                "bounty": post.getlist(f"bounty_{c.pk}"),
                "optional_objectives": post.get(f"objectives_{c.pk}"),
                "used": post.getlist(f"used_{c.pk}"),
                "opposition_level": post.get(f"opposition_{c.pk}"),
                "more_combative_enemy": bool(post.get(f"combative_{c.pk}")),
                "nearly_died": bool(post.get(f"nearly_died_{c.pk}")),
                "means": post.getlist(f"means_{c.pk}"),
            }
            for c in characters
            if post.get(f"present_{c.pk}")
        },
    }


def checklist_from_post(post, characters: list[Character]) -> dict[str, Any]:
    """The checklist for the services: numbers read, defaults filled in; ValidationError (per
    field) when a number is not a whole number from 0 to 1000."""
    checklist = checklist_as_typed(post, characters)
    errors: dict[str, list[str]] = {}

    def number(name: str, raw: str | None, default: int | None) -> int | None:
        raw = (raw or "").strip()
        if raw == "":
            return default
        try:
            value = int(raw)
        except ValueError:
            errors.setdefault(name, []).append(_("Entrez un nombre entier."))
            return default
        if value < 0 or value > 1000:
            errors.setdefault(name, []).append(_("Entrez un nombre entre 0 et 1000."))
            return default
        return value

    group = checklist["group"]
    group["danger"] = number("danger", group["danger"], 0)
    group["ending"] = group["ending"] or "none"
    group["length"] = group["length"] or "hours"
    for pk, ticks in checklist["characters"].items():
        ticks["optional_objectives"] = number(f"objectives_{pk}", ticks["optional_objectives"], 0)
        ticks["opposition_level"] = number(f"opposition_{pk}", ticks["opposition_level"], None)
    if errors:
        raise ValidationError(errors)
    return checklist
