"""Querysets compiled by the ORM once and run again with new parameters (issue 15).

A sheet read asks the same few queries every time; compiling a wide `select_related` or a UNION
costs Django several times what PostgreSQL takes to answer it. `Precompiled` builds the
queryset once with marker values, keeps its SQL and what the ORM needs to turn rows into
objects (the selected columns, the related rows' populators, the annotations, the converters),
then runs that SQL with the real values: the same model instances the queryset gives, its
`select_related` objects and annotations included (tests/common/test_precompiled.py compares).

`insert_pair` does the same for the table's busiest write: a new row and the new row that names
it (a roll and its log line) in one INSERT statement, its SQL built once; `insert_pair_locked`
puts a precompiled locking read in front of it, in the same statement.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from django.db import connections, transaction
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.signals import post_save, pre_save
from django.db.models.sql import InsertQuery


@dataclass(frozen=True)
class _Plan:
    sql: str
    params: list[
        tuple
    ]  # each SQL parameter: (the index of the value it takes, None) or (None, a constant)
    compiler: Any
    converters: dict
    col_count: int | None  # rows are cut to it when the ORM added columns of its own
    model: Any = None  # the rest: what turns a row into instances (none for values())
    span: tuple[int, int] = (0, 0)
    init_list: tuple[str, ...] = ()
    populators: tuple = ()


class Precompiled:
    """`build(*markers)` is the queryset; `objects(*values)` / `rows(*values)` run it with the
    values in the markers' places; the query's other parameters (constants) stay. Markers must
    be values no constant of the query has."""

    def __init__(self, build: Callable[..., QuerySet], *markers: Any, using: str = "default"):
        self._build = build
        self._markers = markers
        self._using = using
        self._plans: dict[str, _Plan] = {}

    def _plan(self, connection) -> _Plan:
        plan = self._plans.get(connection.vendor)
        if plan is None:
            query = self._build(*self._markers).query
            compiler = query.get_compiler(connection=connection)
            # The ORM compiles a locking read only in a transaction (it runs in one, or in a
            # statement that is its own: `insert_pair_locked`). Compiling runs no query, but
            # inside a transaction the savepoint would: only a locking read takes one.
            locking = query.select_for_update
            with transaction.atomic(using=connection.alias) if locking else nullcontext():
                sql, params = compiler.as_sql()
            missing = [m for m in self._markers if m not in params]
            if missing:
                raise RuntimeError(f"The query does not take these markers: {missing}")
            fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
            plan = _Plan(
                sql=sql,
                params=[
                    (self._markers.index(p), None) if p in self._markers else (None, p)
                    for p in params
                ],
                compiler=compiler,
                converters=compiler.get_converters(fields),
                col_count=compiler.col_count if compiler.has_extra_select else None,
                **self._instances(compiler),
            )
            self._plans[connection.vendor] = plan
        return plan

    def _instances(self, compiler) -> dict:
        klass_info, select = compiler.klass_info, compiler.select
        if not klass_info:
            return {}
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        return {
            "model": klass_info["model"],
            "span": (start, end),
            "init_list": tuple(f[0].target.attname for f in select[start:end]),
            "populators": tuple(get_related_populators(klass_info, select, self._using)),
        }

    def sql(self, connection) -> str:
        return self._plan(connection).sql

    def parameters(self, connection, *values: Any) -> list:
        """The query's parameters: `values` in the markers' places, its constants."""
        return [c if i is None else values[i] for i, c in self._plan(connection).params]

    def rows(self, *values: Any) -> list:
        """The query's rows, converted as the ORM converts them (values_list's tuples)."""
        connection = connections[self._using]
        plan = self._plan(connection)
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, self.parameters(connection, *values))
            rows = cursor.fetchall()
        if plan.col_count is not None:
            rows = [row[: plan.col_count] for row in rows]
        if plan.converters:
            rows = list(plan.compiler.apply_converters(rows, plan.converters))
        return rows

    def objects(self, *values: Any) -> list:
        """The model instances the queryset gives (ModelIterable's work, on the kept plan)."""
        plan = self._plan(connections[self._using])
        start, end = plan.span
        annotations = plan.compiler.annotation_col_map or {}
        found = []
        for row in self.rows(*values):
            obj = plan.model.from_db(self._using, plan.init_list, row[start:end])
            for populator in plan.populators:
                populator.populate(row, obj)
            for name, position in annotations.items():
                setattr(obj, name, row[position])
            found.append(obj)
        return found


# --- two new rows in one statement ------------------------------------------------------------

_PAIR_SQL: dict[tuple, tuple[str, list, list]] = {}


def _insert_sql(model, connection) -> tuple[str, list]:
    """`INSERT INTO <table> (<columns>) VALUES (%s, …)` for every concrete field but the key."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    query = InsertQuery(model)
    query.insert_values(fields, [model()])
    sql, _params = query.get_compiler(connection=connection).as_sql()[0]
    return sql, fields


def _pair_sql(parent_model, child_model, link: str, connection) -> tuple[str, list, list]:
    key = (parent_model, child_model, link, connection.vendor)
    found = _PAIR_SQL.get(key)
    if found is None:
        quote = connection.ops.quote_name
        parent_sql, parent_fields = _insert_sql(parent_model, connection)
        child_sql, child_fields = _insert_sql(child_model, connection)
        parent_key, linked = quote(parent_model._meta.pk.column), child_model._meta.get_field(link)
        # The child's link takes the parent's new key: its placeholder becomes a subquery.
        head, values = child_sql.split(" VALUES ", 1)
        holders = [p.strip() for p in values.strip()[1:-1].split(",")]
        if len(holders) != len(child_fields):
            raise RuntimeError(f"Unexpected placeholders in {child_sql!r}")
        at = next(i for i, f in enumerate(child_fields) if f.attname == linked.attname)
        holders[at] = f"(SELECT {parent_key} FROM parent)"
        found = (
            f"WITH parent AS ({parent_sql} RETURNING {parent_key}) "
            f"{head} VALUES ({', '.join(holders)}) "
            f"RETURNING {quote(linked.column)}, {quote(child_model._meta.pk.column)}",
            parent_fields,
            [f for f in child_fields if f.attname != linked.attname],
        )
        _PAIR_SQL[key] = found
    return found


def _prepared(obj, fields, connection) -> list:
    return [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]


def insert_pair(parent: Model, child: Model, link: str, using: str = "default") -> None:
    """Save two new rows: `parent`, then `child` whose foreign key `link` names it — one
    statement on PostgreSQL (the parent's INSERT in a WITH), two saves elsewhere. Either way as
    `save()` does it: pre_save/post_save sent, `created_at`-like fields filled, keys set
    (tests/sessions/test_lean_writes.py compares the rows with two saves')."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        parent.save(using=using)
        setattr(child, link, parent)
        child.save(using=using)
        return
    sql, parent_fields, child_fields = _pair_sql(type(parent), type(child), link, connection)
    _saving(parent, child, using)
    values = _prepared(parent, parent_fields, connection) + _prepared(
        child, child_fields, connection
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        parent.pk, child.pk = cursor.fetchone()
    setattr(child, link, parent)
    _saved(parent, child, using)


def _saving(parent: Model, child: Model, using: str) -> None:
    """What `save()` does before its INSERT: pre_save."""
    for obj in (parent, child):
        pre_save.send(type(obj), instance=obj, raw=False, using=using, update_fields=None)


def _saved(parent: Model, child: Model, using: str) -> None:
    """What `save()` does after its INSERT: the instances stored, post_save."""
    for obj in (parent, child):
        obj._state.adding, obj._state.db = False, using
        post_save.send(
            type(obj), instance=obj, created=True, update_fields=None, raw=False, using=using
        )


# --- two new rows under a lock, in one statement ----------------------------------------------

_LOCKED_PAIR_SQL: dict[tuple, tuple[str, list, list]] = {}


def _locked_pair_sql(lock: Precompiled, taken: dict, parent_model, child_model, link, connection):
    """`WITH locked AS (<lock>), parent AS (INSERT … SELECT … FROM locked RETURNING …) INSERT …
    SELECT … FROM parent`: the lock's row is read (and locked) first, the parent takes `taken`
    of its columns, and neither row is written if the lock's query finds no row."""
    key = (id(lock), tuple(taken.items()), parent_model, child_model, link, connection.vendor)
    found = _LOCKED_PAIR_SQL.get(key)
    if found is not None:
        return found
    quote = connection.ops.quote_name
    parent_sql, parent_fields = _insert_sql(parent_model, connection)
    child_sql, child_fields = _insert_sql(child_model, connection)
    parent_head, child_head = parent_sql.split(" VALUES ", 1)[0], child_sql.split(" VALUES ", 1)[0]
    parent_key, linked = quote(parent_model._meta.pk.column), child_model._meta.get_field(link)
    parent_values = [
        f"locked.{quote(taken[f.attname])}" if f.attname in taken else "%s" for f in parent_fields
    ]
    child_values = [
        f"parent.{parent_key}" if f.attname == linked.attname else "%s" for f in child_fields
    ]
    returned = [quote(parent_model._meta.get_field(name).column) for name in taken]
    sql = (
        f"WITH locked AS ({lock.sql(connection)}), "
        f"parent AS ({parent_head} SELECT {', '.join(parent_values)} FROM locked "
        f"RETURNING {', '.join([parent_key, *returned])}) "
        f"{child_head} SELECT {', '.join(child_values)} FROM parent "
        f"RETURNING {quote(linked.column)}, {quote(child_model._meta.pk.column)}, "
        + ", ".join(f"(SELECT {column} FROM parent)" for column in returned)
    )
    found = (
        sql,
        [f for f in parent_fields if f.attname not in taken],
        [f for f in child_fields if f.attname != linked.attname],
    )
    _LOCKED_PAIR_SQL[key] = found
    return found


def insert_pair_locked(
    lock: Precompiled,
    lock_values: tuple,
    taken: dict[str, str],
    parent: Model,
    child: Model,
    link: str,
    using: str = "default",
) -> bool:
    """`insert_pair` behind a locking read, in one statement (PostgreSQL only): `lock` (a
    `SELECT … FOR UPDATE` of one row, run with `lock_values`) is taken first, the parent's fields
    named in `taken` get the locked row's columns (`{"arc_id": "open_arc_id"}`), then both rows
    are written. Outside a transaction the statement is one: the lock is held only while it
    runs. False, with nothing written, when the lock's query finds no row."""
    connection = connections[using]
    sql, parent_fields, child_fields = _locked_pair_sql(
        lock, taken, type(parent), type(child), link, connection
    )
    _saving(parent, child, using)
    values = (
        lock.parameters(connection, *lock_values)
        + _prepared(parent, parent_fields, connection)
        + _prepared(child, child_fields, connection)
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        row = cursor.fetchone()
    if row is None:
        return False
    parent.pk, child.pk = row[0], row[1]
    for name, value in zip(taken, row[2:], strict=True):
        setattr(parent, name, value)
    setattr(child, link, parent)
    _saved(parent, child, using)
    return True
