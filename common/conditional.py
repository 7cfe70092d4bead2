"""HTTP conditional GET for the API's views: whether the client already holds a representation."""


def etag_matches(request, etag: str) -> bool:
    """Whether the request's `If-None-Match` names `etag`, or `*` (the weak comparison RFC 9110
    asks of a GET: `W/"x"` matches `"x"`)."""
    sent = request.headers.get("If-None-Match", "")
    tags = {tag.strip().removeprefix("W/") for tag in sent.split(",")}
    return "*" in tags or etag in tags
