"""A roll's body checked on fields built once (common/shared_fields.py) gives what a new RollIn
gives: the same validated data, or the same errors, whatever the body."""

import pytest
from django.http import QueryDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from common import shared_fields
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


# Bodies a client sends: each field in or just out of its range, its choices, clean or padded
# text, some fields left out (then their defaults), the odd value of the wrong type.
_NEAR = {
    "character": st.one_of(st.none(), st.integers(min_value=0, max_value=3), st.just(2**63)),
    "characteristic": st.sampled_from(["strength", "agility", "finesse", "Strength", ""]),
    "skills": st.lists(st.sampled_from(["melee", "athletics", " melee", "x" * 121]), max_size=11),
    "complexity": st.integers(min_value=-1, max_value=21),
    "difficulty": st.integers(min_value=-1, max_value=201),
    "expertise": st.sampled_from([True, False, None, 0, "true"]),
    "hope": st.integers(min_value=-1, max_value=11),
    "hope_source": st.sampled_from(["personal", "group", "serenity", "other"]),
    "label": st.sampled_from(["", "Crocheter", " Crocheter", "Écrire", "a\x00b", "x" * 121]),
    "injuries": st.lists(st.integers(min_value=-1, max_value=3), max_size=21),
    "critical_success_from": st.integers(min_value=1, max_value=11),
    "visibility": st.sampled_from(["public", "secret", "hidden", "storyteller", "nope"]),
    "idempotency_key": st.sampled_from(["k1", "x" * 64, "x" * 65, " k1 ", 12]),
    "play_session": st.one_of(st.none(), st.integers(min_value=0, max_value=2)),
}
NEAR_BODY = st.fixed_dictionaries(
    {"characteristic": _NEAR["characteristic"]},
    optional={name: strategy for name, strategy in _NEAR.items() if name != "characteristic"},
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(NEAR_BODY)
def test_a_body_taken_as_it_is_is_what_a_new_serializer_gives(body):
    assert _outcome(lambda: validated(RollIn, body)) == _outcome(lambda: _fresh(body))


def test_a_plain_body_is_taken_without_running_the_fields(monkeypatch):
    validated(RollIn, {"characteristic": "strength"})  # the fields built once
    template = shared_fields._TEMPLATES[RollIn]
    monkeypatch.setattr(template, "run_validation", lambda data: pytest.fail("fields run"))
    body = {"character": 3, "characteristic": "agility", "skills": ["melee"], "difficulty": 9}
    taken = validated(RollIn, {**body, "idempotency_key": "k1", "unknown": [1]})
    assert taken == dict(_fresh(body), idempotency_key="k1")
    assert taken["hope_source"] == "personal" and taken["injuries"] == []


_VALID = {
    "character": st.one_of(st.none(), st.sampled_from([1, 2**63 - 1])),
    "skills": st.lists(st.sampled_from(["melee", "athletics", "x" * 120]), max_size=10),
    "complexity": st.integers(min_value=0, max_value=20),
    "difficulty": st.sampled_from([0, 9, 200]),
    "expertise": st.booleans(),
    "hope_source": st.sampled_from(["personal", "group", "serenity"]),
    "label": st.sampled_from(["Crocheter", "x" * 120, "a b"]),
    "injuries": st.lists(st.sampled_from([1, 2**63 - 1]), max_size=20),
    "critical_failure_to": st.integers(min_value=1, max_value=9),
    "characteristic_value": st.one_of(st.none(), st.sampled_from([0, 50])),
    "visibility": st.sampled_from(["public", "hidden", "storyteller"]),
    "idempotency_key": st.sampled_from(["k1", "x" * 64]),
}
VALID_BODY = st.fixed_dictionaries(
    {"characteristic": st.sampled_from(["strength", "agility"])}, optional=_VALID
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(VALID_BODY)
def test_a_valid_body_taken_as_it_is_is_what_a_new_serializer_gives(body):
    assert _outcome(lambda: validated(RollIn, body)) == ("valid", dict(_fresh(body)))
