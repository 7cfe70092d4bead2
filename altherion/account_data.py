"""A user's own data, downloaded from the profile (RGPD: the right of access and portability).

What belongs to a user: their account, their memberships, their characters (each sheet in the
format the sheet import reads, with its notes, full history, XP ledger, trainings and injuries),
the rolls they made, their notifications, their private notes on the world's pages and the
handouts given to them. Nothing of another user's: no other player's character or roll, and a
history row names who made each change only by username, as the sheet's history page does.
"""

import json
import unicodedata
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import F, Prefetch
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from campaigns.models import Membership, Notification
from characters.creation import character_export
from characters.models import Character, CharacterChange
from sessions.models import Roll
from world.handouts import handouts_received
from world.selectors import notes_of

FORMAT = "altherion-account"
VERSION = 1

SHEET_RELATIONS = ("skills", "languages", "classes", "branches", "abilities", "assets", "flaws")
TRAINING_FIELDS = (
    "kind", "target", "detail", "label", "trainer", "days_needed", "days_done", "xp_reserved",
    "status", "created_at", "finished_at",
)  # fmt: skip
ACCOUNT_FIELDS = ("username", "email", "first_name", "last_name", "date_joined", "last_login")


def _plain(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


def _rows(queryset, fields: tuple[str, ...], *, campaign: bool = False) -> list[dict[str, Any]]:
    """`fields` of each row, JSON-ready; with `campaign`, the campaign's name under "campaign"."""
    named = {"campaign_name": F("campaign__name")} if campaign else {}
    return [
        {("campaign" if name == "campaign_name" else name): _plain(value)
         for name, value in row.items()}
        for row in queryset.values(*fields, **named)
    ]  # fmt: skip


def _character(character: Character) -> dict[str, Any]:
    return {
        "campaign": character.campaign.name,
        "created_at": _plain(character.created_at),
        "sheet": character_export(character),
        "history": [
            {
                "version": change.version,
                "field": change.field,
                "old_value": change.old_value,
                "new_value": change.new_value,
                "action": change.action,
                "by": change.by.get_username() if change.by else None,
                "at": _plain(change.at),
            }
            for change in character.changes.all()
        ],
        "xp_ledger": _rows(
            character.xp_entries.order_by("created_at", "pk"),
            ("kind", "amount", "label", "breakdown", "act", "improvement", "created_at"),
        ),
        "trainings": _rows(
            character.trainings.all(),
            TRAINING_FIELDS,
        ),
        "injuries": _rows(character.injuries.all(), ("row", "effect", "created_at", "healed_at")),
    }


def _characters(user) -> list[dict[str, Any]]:
    characters = (
        Character.objects.filter(owner=user)
        .select_related("campaign", "species")
        .prefetch_related(
            *SHEET_RELATIONS, Prefetch("changes", CharacterChange.objects.select_related("by"))
        )
        .order_by("campaign__name", "name", "pk")
    )
    return [_character(character) for character in characters]


def _rolls(user) -> list[dict[str, Any]]:
    rolls = (
        Roll.objects.filter(rolled_by=user)
        .select_related("campaign", "character")
        .order_by("created_at", "pk")
    )
    return [
        {
            "campaign": roll.campaign.name,
            "character": roll.character.name if roll.character else None,
            "created_at": _plain(roll.created_at),
            "label": roll.label,
            "visibility": roll.visibility,
            "characteristic": roll.characteristic,
            "skills": roll.skills,
            "inputs": roll.inputs,
            "breakdown": roll.breakdown,
            "outcome": roll.outcome,
            "total": roll.total,
            "target": roll.target,
            "margin": roll.margin,
            "zone": roll.zone,
            "consequences": roll.consequences,
        }
        for roll in rolls
    ]


def account_data_export(*, user) -> dict[str, Any]:
    """Everything the app keeps of `user` (see the module's docstring), JSON-ready."""
    memberships = Membership.objects.filter(user=user).order_by("campaign__name", "pk")
    notifications = Notification.objects.filter(user=user).order_by("created_at", "pk")
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "account": {name: _plain(getattr(user, name)) for name in ACCOUNT_FIELDS},
        "memberships": _rows(memberships, ("role", "joined_at"), campaign=True),
        "characters": _characters(user),
        "rolls": _rolls(user),
        "notifications": _rows(
            notifications,
            ("kind", "text", "link", "created_at", "read_at"),
            campaign=True,
        ),
        "world_notes": [
            {
                "campaign": note.page.campaign.name,
                "page": note.page.title,
                "text": note.text,
                "updated_at": _plain(note.updated_at),
            }
            for note in notes_of(user=user)
        ],
        "world_handouts": [
            {
                "campaign": handout.campaign.name,
                "title": handout.title,
                "kind": handout.kind,
                "text": handout.text,
                "given_at": _plain(handout.given_at),
            }
            for handout in handouts_received(user=user)
        ],
    }


def attachment_name(user, *, today) -> str:
    """« altherion-mes-donnees-<username>-<date>.json », in ASCII so every browser keeps it as
    is: accents dropped (« élise » → « elise »), anything else but letters and digits → « - »."""
    plain = unicodedata.normalize("NFKD", user.get_username()).encode("ascii", "ignore").decode()
    username = "".join(c if c.isalnum() or c in "-_" else "-" for c in plain)
    return f"altherion-mes-donnees-{username}-{today.isoformat()}.json"


@never_cache
@login_required
@require_GET
def download(request: HttpRequest) -> HttpResponse:
    data = account_data_export(user=request.user)
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    name = attachment_name(request.user, today=timezone.localdate())
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
