"""An input serializer's validation with its fields built once, for the hottest requests.

DRF builds a serializer's fields anew for each instance, a deep copy of every declared field:
for a roll's 26 fields that is most of what checking the body costs. `validated` runs the same
validation (`Serializer.run_validation`: each field's own checks, the serializer's validators)
on one instance per class whose fields were built once. Only for a JSON object and for a
serializer whose fields need no context (no request, no `CurrentUserDefault`, no mutable
default): any other input goes through a new instance, as before. The errors are the
serializer's own (tests/common/test_shared_fields.py compares both on generated bodies).

A body whose every value is already what its field gives back (an integer in range, true or
false, one of the choices, text without surrounding spaces, lists of those) is taken as it is,
its missing fields given their defaults, without running the fields (`_plan`): what a client
sends most of the time, and what DRF's run of 26 fields would give. Any other value, and any
field or validator the plan does not know, goes through the serializer's validation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core import validators as django_validators
from django.http import QueryDict
from rest_framework import serializers
from rest_framework import validators as drf_validators
from rest_framework.fields import empty

from common.api_fields import BooleanField, TextField

_TEMPLATES: dict[type, serializers.Serializer] = {}
_PLANS: dict[type, list | None] = {}
_NOT_PLAIN = object()


def validated(serializer_class: type[serializers.Serializer], data: Any) -> dict:
    """`serializer_class(data=data)`'s validated data, or its ValidationError."""
    if not isinstance(data, dict) or isinstance(data, QueryDict):
        serializer = serializer_class(data=data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data
    template = _TEMPLATES.get(serializer_class)
    if template is None:
        template = _TEMPLATES.setdefault(serializer_class, serializer_class())
    if serializer_class not in _PLANS:
        _PLANS[serializer_class] = _plan(template)
    plan = _PLANS[serializer_class]
    if plan is not None:
        taken = _taken(plan, data)
        if taken is not None:
            return taken
    return template.run_validation(data)


def _taken(plan: list, data: dict) -> dict | None:
    """The body's validated data if every value is plain, else None."""
    taken = {}
    for name, check, required, default in plan:
        value = data.get(name, empty)
        if value is empty:
            if required:
                return None
            if default is not empty:
                taken[name] = default() if callable(default) else default
            continue
        value = check(value)
        if value is _NOT_PLAIN:
            return None
        taken[name] = value
    return taken


# Validators the plain checks make themselves, with the limit each must carry (the field's own).
_KNOWN_LIMITS = {
    django_validators.MinValueValidator: "min_value",
    django_validators.MaxValueValidator: "max_value",
    django_validators.MaxLengthValidator: "max_length",
    django_validators.ProhibitNullCharactersValidator: None,
    drf_validators.ProhibitSurrogateCharactersValidator: None,
}


def _known_validators(field: serializers.Field) -> bool:
    for validator in field.validators:
        if type(validator) not in _KNOWN_LIMITS:
            return False
        limit = _KNOWN_LIMITS[type(validator)]
        if limit is not None and validator.limit_value != getattr(field, limit, None):
            return False
    return True


def _plan(serializer: serializers.Serializer) -> list | None:
    """(name, check, required, default) for each field, or None if one is not plain to check:
    a serializer-level check (`validate`, validators), a field's source other than its name."""
    if type(serializer).validate is not serializers.Serializer.validate:
        return None
    if serializer.validators:
        return None
    plan = []
    for name, field in serializer.fields.items():
        check = _check(field)
        if check is None or field.read_only or field.source != name:
            return None
        plan.append((name, check, field.required, field.default))
    return plan


def _check(field: serializers.Field) -> Callable[[Any], Any] | None:
    """The field's plain check: the value it gives back, or _NOT_PLAIN (None: no plain check)."""
    if not _known_validators(field):
        return None
    if type(field) is serializers.ListField:
        return _list_check(field)
    null = field.allow_null
    if type(field) in (serializers.BooleanField, BooleanField):
        return lambda v: v if type(v) is bool or (v is None and null) else _NOT_PLAIN
    if isinstance(field, serializers.ChoiceField) and type(field).to_internal_value is (
        serializers.ChoiceField.to_internal_value
    ):
        choices = field.choice_strings_to_values
        return lambda v: choices[v] if type(v) is str and v in choices else _NOT_PLAIN
    if type(field) is serializers.IntegerField:
        low = field.min_value if field.min_value is not None else float("-inf")
        high = field.max_value if field.max_value is not None else float("inf")
        return lambda v: (
            v if (type(v) is int and low <= v <= high) or (v is None and null) else _NOT_PLAIN
        )
    if type(field) in (serializers.CharField, TextField) and field.trim_whitespace:
        longest = field.max_length if field.max_length is not None else float("inf")
        return lambda v: v if _plain_text(v, longest) or (v is None and null) else _NOT_PLAIN
    return None


def _plain_text(value, longest) -> bool:
    """Text a CharField gives back as it is: no surrounding spaces to trim, not blank, no NUL,
    within its length (ASCII: no surrogate to refuse)."""
    return (
        type(value) is str
        and 0 < len(value) <= longest
        and value.isascii()
        and value.strip() == value
        and "\x00" not in value
    )


def _list_check(field: serializers.ListField) -> Callable[[Any], Any] | None:
    item = _check(field.child)
    if item is None or field.min_length or not field.allow_empty:
        return None
    longest = field.max_length if field.max_length is not None else float("inf")
    null = field.allow_null

    def check(value):
        if value is None and null:
            return None
        if type(value) is not list or len(value) > longest:
            return _NOT_PLAIN
        items = [item(v) for v in value]
        return _NOT_PLAIN if _NOT_PLAIN in items else items

    return check
