"""An input serializer's validation with its fields built once, for the hottest requests.

DRF builds a serializer's fields anew for each instance, a deep copy of every declared field:
for a roll's 26 fields that is most of what checking the body costs. `validated` runs the same
validation (`Serializer.run_validation`: each field's own checks, the serializer's validators)
on one instance per class whose fields were built once. Only for a JSON object and for a
serializer whose fields need no context (no request, no `CurrentUserDefault`, no mutable
default): any other input goes through a new instance, as before. The errors are the
serializer's own (tests/common/test_shared_fields.py compares both on generated bodies).
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from rest_framework import serializers

_TEMPLATES: dict[type, serializers.Serializer] = {}


def validated(serializer_class: type[serializers.Serializer], data: Any) -> dict:
    """`serializer_class(data=data)`'s validated data, or its ValidationError."""
    if not isinstance(data, dict) or isinstance(data, QueryDict):
        serializer = serializer_class(data=data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data
    template = _TEMPLATES.get(serializer_class)
    if template is None:
        template = _TEMPLATES.setdefault(serializer_class, serializer_class())
    return template.run_validation(data)
