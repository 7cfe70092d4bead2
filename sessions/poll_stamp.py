"""The poll's stamp: "nothing new for this page since", answered without the database.

A page open at the table asks every 1.5 s, and almost always nothing is new. Each campaign has a
counter in the shared cache, moved at the commit of every change to its log or its members
(signals, `register`). A poll that read the database answers with a stamp: an HMAC of who asks,
which log (campaign, filter), the cursor it answered with and the counter read *before* its
statement. The page sends it back with its next poll; while the counter has not moved, that
poll's answer is the same "nothing newer than the cursor" and is given from the stamp alone.

Why it is exact: a change committed after the poll's statement moves the counter after that
read, so the next poll sees another counter and reads the database; a change committed before
was seen by the statement. The stamp is never given for an answer cut at `POLL_LIMIT` (the page
has more to fetch). A counter lost from the cache (evicted, expired every `generations.TTL`, the
cache down) is a database poll and a fresh counter; a counter that missed a move (the cache down
at that commit) is stale for `generations.TTL` at most (common/generations.py).
"""

from __future__ import annotations

import hmac

from django.db.models.signals import post_delete, post_save
from django.utils.crypto import salted_hmac

from common import generations

SALT = "altherion.sessions.poll_stamp"


def generation_key(campaign_id: int) -> str:
    return f"table-gen:{campaign_id}"


def generation(campaign_id: int) -> int | None:
    """The campaign's counter now, started afresh (at a random value) when the cache has none;
    None if the cache cannot be read."""
    return generations.read_or_start(generation_key(campaign_id))


def generation_for(request, campaign_id: int) -> int | None:
    """`generation(campaign_id)`, or the value the idle poll read of it earlier in this request
    (altherion/idle_poll.py: before any statement of the request, as a stamp needs it)."""
    kept = getattr(request, "table_generation", None)
    if kept is not None and kept[0] == campaign_id:
        return kept[1]
    return generation(campaign_id)


def stamp(*, user_id: int, campaign_id: int, filter_id: int | None, after: int, gen: int) -> str:
    """`<user id>.<HMAC>`: the user named in clear, so that an idle poll can read its session,
    its user and the counter in one round trip (altherion/idle_poll.py)."""
    message = f"{user_id}:{campaign_id}:{filter_id or 0}:{after}:{gen}"
    return f"{user_id}." + salted_hmac(SALT, message, algorithm="sha256").hexdigest()[:32]


def row_id(text: str | None) -> int | None:
    """`text` as a row id if it is one in plain ASCII digits (at most 18 of them), else None."""
    if text is None or not (text.isascii() and text.isdigit() and len(text) <= 18):
        return None
    return int(text)


def stamp_user(given: str) -> int | None:
    """The user a stamp names (not yet checked), or None if it is not one's shape."""
    user, dot, digest = given.partition(".")
    return row_id(user) if dot and len(digest) == 32 else None


def still_fresh(
    given: str, *, user_id: int, campaign_id: int, filter_id: int | None, after: int, gen: int
) -> bool:
    expected = stamp(
        user_id=user_id, campaign_id=campaign_id, filter_id=filter_id, after=after, gen=gen
    )
    return hmac.compare_digest(given, expected)


def _on_change(sender, instance, **kwargs) -> None:
    """Every stamp of the campaign is spent when the change commits."""
    generations.move(generation_key(instance.campaign_id), now=False)


def register() -> None:
    """A log line written (or changed, or removed) and a membership given, changed or taken:
    the counter moves at commit."""
    from campaigns.models import Membership
    from sessions.models import TableEvent

    for model in (TableEvent, Membership):
        post_save.connect(_on_change, sender=model, dispatch_uid=f"poll-stamp-save-{model}")
        post_delete.connect(_on_change, sender=model, dispatch_uid=f"poll-stamp-delete-{model}")
