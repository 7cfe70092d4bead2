"""Is the database still there? Asked by a read that a cache would answer without it
(common/generations.kept_or_read, which issue 38 retires; this goes with it): while the database
is away that read fails as a query would, a 503 like every other request's (issue 12).

A connection the server has ended (a restart) is noticed by Django's own health check
(CONN_HEALTH_CHECKS), run on the connection's first use in each request, and replaced."""

from django.db import close_old_connections, connection, transaction


def confirm_reachable() -> None:
    """Raise `OperationalError` if the database is away; otherwise leave an open connection."""
    if not transaction.get_autocommit():
        return  # inside a transaction the connection is in use: it answered
    close_old_connections()  # the next use of a kept connection checks its health again
    with connection.cursor():
        pass  # opening a cursor connects (or checks the kept connection): no statement is run
