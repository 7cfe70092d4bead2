"""Permission-scoped reads of characters (placeholder until the character sheets land)."""


def characters_for_campaign(*, campaign, user) -> list:
    """The characters of a campaign that this member may see, for the dashboard."""
    return []
