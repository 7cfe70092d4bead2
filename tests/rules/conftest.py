"""Shared helpers for the rules engine tests (no Django, no database)."""

import math

import pytest
from hypothesis import settings

settings.register_profile("rules", max_examples=60, deadline=None)
settings.load_profile("rules")


def chi_square_p_value(statistic: float, dof: int) -> float:
    """Upper tail of the chi-square distribution (Wilson–Hilferty approximation)."""
    z = ((statistic / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


@pytest.fixture
def p_value():
    return chi_square_p_value
