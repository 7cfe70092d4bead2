"""Values written by hand into the sheet's and the table's HTML (common/html_text.py) come out
as Django's template would write them: the same characters, escaped the same way."""

import datetime
from decimal import Decimal

import pytest
from django.test import override_settings
from django.utils import translation
from django.utils.formats import localize
from django.utils.functional import lazy
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy
from hypothesis import given
from hypothesis import strategies as st

from common.html_text import escape, shown

TEXT = st.text(alphabet=st.sampled_from(list("aé <>&\"'\n—\u0301\x00")), max_size=12)
VALUE = st.one_of(
    TEXT,
    TEXT.map(mark_safe),
    st.integers(min_value=-(10**7), max_value=10**7),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.decimals(allow_nan=False, allow_infinity=False, places=2),
)
UNUSUAL = [
    gettext_lazy("Modifier"),
    lazy(lambda: mark_safe("<b>sûr</b>"), str)(),
    datetime.date(2026, 12, 5),
    Decimal("12345.50"),
    1234567,
    [1, "<a>"],
]


@given(VALUE)
def test_escape_is_conditional_escape(value):
    assert escape(value) == conditional_escape(value)


@given(VALUE)
def test_shown_is_the_templates_value(value):
    with translation.override("fr"):
        assert shown(value) == conditional_escape(localize(value))


@pytest.mark.parametrize("value", UNUSUAL, ids=repr)
@pytest.mark.parametrize("separated", [False, True])
def test_lazy_safe_dated_and_grouped_values_too(value, separated):
    with override_settings(USE_THOUSAND_SEPARATOR=separated), translation.override("fr"):
        assert escape(value) == conditional_escape(value)
        assert shown(value) == conditional_escape(localize(value))


def test_thousands_are_separated_when_the_settings_say_so():
    with override_settings(USE_THOUSAND_SEPARATOR=True), translation.override("fr"):
        assert shown(1234567) != "1234567"
        assert shown(1234567) == conditional_escape(localize(1234567))
