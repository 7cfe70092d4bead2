"""altherion/urls.py puts the busiest patterns first, which is safe only while no address matches
two patterns: each pattern's own sample address resolves to that pattern."""

import re

from django.urls import URLPattern, get_resolver, resolve

SAMPLES = {"str": "abc", "slug": "abc", "path": "a/b"}  # any other converter: a row id


def routes(patterns, prefix=""):
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLPattern):
            yield route
        else:
            yield from routes(pattern.url_patterns, route)


def sample(route: str) -> str:
    address = re.sub(r"<(?:(\w+):)?\w+>", lambda m: SAMPLES.get(m.group(1), "7"), route)
    return "/" + address.removeprefix("^").removesuffix("$").replace("\\Z", "")


def test_each_address_matches_one_pattern_only():
    checked = 0
    for route in routes(get_resolver().url_patterns):
        if "(" in route or "\\" in route.replace("\\Z", ""):
            continue  # a regular expression with groups (the admin's): no plain sample
        assert resolve(sample(route)).route == route.replace("\\Z", ""), route
        checked += 1
    assert checked > 250
