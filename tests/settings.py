"""The test suite's settings: the project's own, with a fast password hasher (hundreds of users are
made; the real hasher is what the accounts' own tests and every subprocess server use)."""

from altherion.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The in-process live server of the browser tests is WSGI, which cannot hold an event stream:
# its pages follow the table by polling, as a page does while its stream is down (the push path
# has its own tests against `bin/web`).
LIVE_PUSH = False
LIVE_POLL_SECONDS = 1.5

# Webhook deliveries run inline when eager (not in a thread): the tests see their result at once.
WEBHOOK_EAGER_IN_THREAD = False
WEBHOOK_ALLOW_LOOPBACK = True
