"""The tests' own d10s: a random source (`randint` is all the engine asks of one, §5 Product)
that answers the faces a test gives, in order, and the one place production draws are routed
to it (`rules.check.system_rng`, imported by name by the modules that roll)."""

from __future__ import annotations

# Every module that calls `system_rng()` for a production draw.
DRAWS = ("rules.check", "sessions.combat.blows", "sessions.consequences", "rules.morale")


class Faces:
    """The given faces in order, then `then` for every later draw (None: a test that draws
    more dice than it gave fails)."""

    def __init__(self, *faces: int, then: int | None = None):
        self.faces, self.then = list(faces), then
        self.drawn: list[int] = []

    def next(self, *faces: int, then: int | None = 5) -> None:
        """The faces of the next step (a source shared by a whole fight)."""
        self.faces, self.then, self.drawn = list(faces), then, []

    def randint(self, a: int, b: int) -> int:
        if self.faces:
            face = self.faces.pop(0)
        elif self.then is None:
            raise AssertionError("The test drew more dice than it gave.")
        else:
            face = self.then
        assert a <= face <= b, f"scripted face {face} outside {a}..{b}"
        self.drawn.append(face)
        return face

    def spent(self, *faces: int) -> None:
        """The step drew exactly `faces` since `next`: what the rules foresaw, in that order."""
        assert self.drawn == list(faces), f"drawn {self.drawn}, expected {list(faces)}"


def sevens() -> Faces:
    return Faces(then=7)


def route_draws(monkeypatch, source: Faces) -> Faces:
    """Every production draw comes from `source` for the rest of the test."""
    for module in DRAWS:
        monkeypatch.setattr(f"{module}.system_rng", lambda: source)
    return source
