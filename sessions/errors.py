"""How the table says no: a refusal about one field of the request, or a rules move refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError

from rules.errors import RuleError


def violation(field: str, message: str) -> ValidationError:
    """The ValidationError a service raises about one field of its request."""
    return ValidationError({field: message})


def rule_call(call: Callable[[], Any]) -> Any:
    """Run a rules transition; its French refusals become one ValidationError about the move
    (the engine's field names, "group" or "hope", are not this request's fields)."""
    try:
        return call()
    except RuleError as error:
        raise ValidationError([v.message for v in error.violations]) from error
