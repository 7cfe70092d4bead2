"""How the progression says no: the French reasons of a refused spend, training or improvement,
in the services' error shape (a Django ValidationError the forms and the API show as is)."""

from __future__ import annotations

from django.core.exceptions import ValidationError


def refusal(reasons: list[str] | str, field: str = "__all__") -> ValidationError:
    """A ValidationError carrying the French reasons under one field (the whole form by default)."""
    return ValidationError({field: reasons if isinstance(reasons, list) else [reasons]})
