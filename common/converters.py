"""Path converters shared by every app's URLs (registered on import)."""

from django.urls import register_converter


class RowIdConverter:
    """A row id: at most 18 digits, so a number too large for the database is a plain 404."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(RowIdConverter, "rowid")
