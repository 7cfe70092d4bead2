"""New model instances built as a row read from the database is: the field values in order.

`Model(**values)` matches each keyword to its field and sets a related object through its
descriptor, which checks it and asks the database routers; for the table's busiest write (a
roll and its log line, built on every roll) that is most of what making them costs.
`new_row(Model, **values)` gives the same instance (tests/common/test_new_rows.py compares):
each field's value or default, in order, to Django's positional `__init__`, a related object
given as its key with the object kept in the instance's cache, as the descriptor keeps it.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import router
from django.db.models import Model

M = TypeVar("M", bound=Model)

_LAYOUTS: dict[type, tuple] = {}


def new_row(model: type[M], **values: Any) -> M:
    """`model(**values)` for a new row (concrete fields only, by name or a relation's attname)."""
    layout = _LAYOUTS.get(model) or _LAYOUTS.setdefault(model, _layout(model))
    args, related = [], []
    for field, name, attname, target in layout:
        if target is not None and name in values:
            obj = values.pop(name)
            args.append(None if obj is None else getattr(obj, target))
            related.append((name, obj))
        elif attname in values:  # a plain field's name, or a relation's key by its attname
            args.append(values.pop(attname))
        else:
            args.append(field.get_default())
    if values:
        raise TypeError(f"{model.__name__}() got unexpected keyword arguments: {', '.join(values)}")
    row = model(*args)
    for name, obj in related:
        if obj is not None:
            _related(row, obj)
        row._state.fields_cache[name] = obj
    return row


def _related(row: Model, obj: Model) -> None:
    """What the relation's descriptor does for a related object: each row's database as the
    routers say, and their refusal of a relation across databases."""
    if row._state.db is None:
        row._state.db = router.db_for_write(type(row), instance=obj)
    if obj._state.db is None:
        obj._state.db = router.db_for_write(type(obj), instance=row)
    if not router.allow_relation(obj, row):
        raise ValueError(f"Cannot relate {obj!r} to {row!r}: they are on different databases.")


def _layout(model: type[Model]) -> tuple:
    """(field, name, attname, the related key's attname or None) for each concrete field."""
    return tuple(
        (
            field,
            field.name,
            field.attname,
            field.target_field.attname if field.many_to_one or field.one_to_one else None,
        )
        for field in model._meta.concrete_fields
    )
