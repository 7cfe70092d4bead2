"""A roll's body checked on fields built once (common/shared_fields.py) gives what a new RollIn
gives: the same validated data, or the same errors, whatever the body."""

from django.http import QueryDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from common.shared_fields import validated
from sessions.serializers import RollIn

# Values around what each field takes: in range and just out of it, the wrong types, nulls,
# blanks, surrounding spaces, NUL characters, lists too long.
VALUE = st.one_of(
    st.integers(min_value=-3, max_value=12),
    st.sampled_from([0, 1, 10, 20, 21, 50, 51, 200, 201, 2**63 - 1, 2**63]),
    st.sampled_from(
        ["strength", "agility", "melee", "public", "secret", "personal", "group", "serenity"]
    ),
    st.sampled_from(["", "  ", " melee ", "a\x00b", "x" * 121, "12", "true", "1.0"]),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-5, max_value=300),
    st.lists(st.sampled_from(["melee", "athletics", " ", 3, None]), max_size=12),
    st.lists(st.integers(min_value=-1, max_value=3), max_size=22),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
BODY = st.dictionaries(st.sampled_from([*RollIn().fields, "unknown"]), VALUE, max_size=12)


def _outcome(check):
    try:
        return "valid", dict(check())
    except ValidationError as error:
        return "refused", error.detail


def _fresh(data):
    serializer = RollIn(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BODY)
def test_the_fields_built_once_judge_every_body_as_a_new_serializer_does(body):
    assert _outcome(lambda: validated(RollIn, body)) == _outcome(lambda: _fresh(body))


def test_a_valid_roll_body_is_taken_with_its_defaults_each_time_anew():
    body = {"characteristic": "strength", "skills": [" melee "], "complexity": 2}
    first, second = validated(RollIn, body), validated(RollIn, {"characteristic": "agility"})
    assert first == _fresh(body) and first["skills"] == ["melee"]
    assert second["skills"] == [] and second["injuries"] == []
    second["skills"].append("athletics")  # a default list is the body's own, not shared
    assert validated(RollIn, {"characteristic": "agility"})["skills"] == []


def test_a_form_body_goes_through_a_new_serializer():
    form = QueryDict("characteristic=strength&expertise=true")
    assert validated(RollIn, form)["expertise"] is True  # a query string's spelling of true
