"""The test suite's settings: the project's own, with a fast password hasher (hundreds of users are
made; the real hasher is what the accounts' own tests and every subprocess server use)."""

from altherion.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
