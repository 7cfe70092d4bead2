"""Querysets compiled by the ORM once and run again with new parameters (issue 15).

A sheet read asks the same few queries every time; compiling a wide `select_related` or a UNION
costs Django several times what PostgreSQL takes to answer it. `Precompiled` builds the
queryset once with marker values, keeps its SQL and what the ORM needs to turn rows into
objects (the selected columns, the related rows' populators, the annotations, the converters),
then runs that SQL with the real values: the same model instances the queryset gives, its
`select_related` objects and annotations included (tests/common/test_precompiled.py compares).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators


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
            compiler = self._build(*self._markers).query.get_compiler(connection=connection)
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

    def rows(self, *values: Any) -> list:
        """The query's rows, converted as the ORM converts them (values_list's tuples)."""
        connection = connections[self._using]
        plan = self._plan(connection)
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, [c if i is None else values[i] for i, c in plan.params])
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
