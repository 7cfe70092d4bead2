"""Request fields that accept what their schema says and nothing more."""

from django.http import QueryDict
from rest_framework import serializers


class TextField(serializers.CharField):
    """DRF's CharField, refusing a number or a boolean where text is expected (DRF would take 12
    as "12", which the schema's `type: string` does not allow)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class UniqueListField(serializers.ListField):
    """A list whose validators refuse duplicates: its schema says `uniqueItems` (a class, not an
    attribute of one field: DRF copies declared fields by building them anew)."""

    unique_items = True


class BooleanField(serializers.BooleanField):
    """true or false, as the schema's boolean says (DRF also takes 0, 1, "yes", "on"…); in a
    query string, their spellings `true` and `false`."""

    def to_internal_value(self, data):
        if isinstance(data, bool):
            return data
        in_query = isinstance(getattr(self.root, "initial_data", None), QueryDict)
        if in_query and data in ("true", "false"):
            return data == "true"
        self.fail("invalid", input=data)
