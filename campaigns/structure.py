"""One counter in the shared cache for what decides who sees a campaign's sheets, and how: the
campaigns (names, compendium revision), their memberships (roles) and the users (names). Any
change to one of them moves it (signals, and `campaign_revision_bump`'s update by hand), so that
a view keeping what it read of them (characters/probe_cache.py, campaigns/member_cache.py) reads
again after any such change. They change rarely: one counter for all is exact, and costs a few
re-reads.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save

from common import generations

KEY = "campaigns-structure-gen"


def moved() -> None:
    generations.move(KEY)


def _on_change(sender, **kwargs) -> None:
    moved()


def register() -> None:
    """Connected in CampaignsConfig.ready: a campaign, a membership or a user saved or deleted."""
    from campaigns.models import Campaign, Membership

    for model in (Campaign, Membership, get_user_model()):
        uid = f"campaigns-structure-{model._meta.label}"
        post_save.connect(_on_change, sender=model, dispatch_uid=f"{uid}-save")
        post_delete.connect(_on_change, sender=model, dispatch_uid=f"{uid}-delete")
