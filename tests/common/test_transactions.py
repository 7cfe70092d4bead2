"""`without_atomic`: a service's body without its own savepoint, and nothing else peeled off."""

import functools

import pytest
from django.db import transaction

from characters import condition, services
from common.transactions import without_atomic


@transaction.atomic
def atomic_service(value):
    return value + 1


def test_it_gives_the_function_the_atomic_decorator_wraps():
    assert without_atomic(atomic_service)(1) == 2
    assert without_atomic(atomic_service) is atomic_service.__wrapped__
    assert without_atomic(services.character_update).__name__ == "character_update"
    assert without_atomic(condition.character_damage).__name__ == "character_damage"


def logged(function):
    @functools.wraps(function)
    def run(*args, **kwargs):
        return function(*args, **kwargs)

    return run


@pytest.mark.parametrize(
    "service",
    [services.field_value, logged(atomic_service), logged(services.field_value)],
    ids=["plain", "another-decorator-on-top", "another-decorator"],
)
def test_it_refuses_a_function_that_is_not_atomic_on_the_outside(service):
    with pytest.raises(TypeError):
        without_atomic(service)
