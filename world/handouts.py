"""Handouts: the Conteur gives chosen players a page, its image or one of its secret blocks during
a séance. A handout is a copy made when given (later edits of the page change nothing of it), it
reaches its recipients' open pages at once (common.push, on each recipient's own channel, so no
one else's stream ever carries it) and stays in their « Documents remis ».

Giving a page does not open the page itself: the copy holds its text without any secret block
(`visibility.public_text`), and the page's own audience still decides who may open it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Membership, Role
from campaigns.policy import campaign_get_for_member
from common import push
from world.models import Handout, HandoutKind, Page
from world.visibility import is_storyteller_of, public_text, secret_blocks

HANDOUTS = "handouts"  # the message type, and the signal the pages' handouts panels listen to
PREVIEW = 60


@dataclass(frozen=True)
class Choice:
    """One thing the Conteur may give: `value` names it in a form ("page:12", "image:12",
    "secret:12:<key>"), `label` says it in French."""

    value: str
    label: str
    page_id: int
    kind: str
    secret_key: str = ""


def choices_for(*, pages: Iterable[Page]) -> list[Choice]:
    """What may be given from these pages: each page, its image if it has one, each secret."""
    found = []
    for page in pages:
        found.append(Choice(f"page:{page.pk}", _("Page « %s »") % page.title, page.pk, "page"))
        if page.image:
            found.append(
                Choice(f"image:{page.pk}", _("Image de « %s »") % page.title, page.pk, "image")
            )
        for block in secret_blocks(page):
            preview = " ".join(block.text.split())
            if len(preview) > PREVIEW:
                preview = preview[: PREVIEW - 1] + "…"
            label = _("Secret n° %(n)d de « %(title)s » : %(preview)s") % {
                "n": block.index + 1,
                "title": page.title,
                "preview": preview,
            }
            found.append(
                Choice(f"secret:{page.pk}:{block.key}", label, page.pk, "secret", block.key)
            )
    return found


def parse_choice(value: str) -> tuple[str, int, str]:
    """("page"|"image"|"secret", page id, secret key) from a form's value; ValidationError."""
    parts = (value or "").split(":")
    if len(parts) in (2, 3) and parts[0] in HandoutKind.values and parts[1].isdigit():
        key = parts[2] if len(parts) == 3 else ""
        if (parts[0] == HandoutKind.SECRET) == bool(key):
            return parts[0], int(parts[1]), key
    raise ValidationError({"what": _("Choisissez ce que vous remettez.")}, code="invalid")


def _recipient_ids(*, campaign_id: int, recipients: Iterable) -> list[int]:
    ids = {getattr(user, "pk", user) for user in recipients or ()}
    if not ids:
        raise ValidationError({"recipients": _("Choisissez au moins un joueur.")}, code="required")
    players = set(
        Membership.objects.filter(
            campaign_id=campaign_id, user_id__in=ids, role=Role.PLAYER
        ).values_list("user_id", flat=True)
    )
    if ids - players:
        raise ValidationError(
            {"recipients": _("Choisissez des joueurs de la campagne.")}, code="invalid"
        )
    return sorted(ids)


def _copy(*, handout: Handout, page: Page, kind: str, secret_key: str) -> None:
    if kind == HandoutKind.PAGE:
        handout.text = public_text(page.body)
    elif kind == HandoutKind.IMAGE:
        if not page.image:
            raise ValidationError({"what": _("Cette page n'a pas d'image.")}, code="invalid")
        with page.image.open("rb") as source:
            handout.image.save(
                page.image.name.rsplit("/", 1)[-1], ContentFile(source.read()), save=False
            )
    else:
        block = next((b for b in secret_blocks(page) if b.key == secret_key), None)
        if block is None:
            raise ValidationError(
                {"what": _("Ce secret n'est plus dans la page : rechargez-la.")}, code="invalid"
            )
        handout.secret_key, handout.text = block.key, block.text


@transaction.atomic
def handout_give(
    *, page: Page, by, kind: str, recipients: Iterable, secret_key: str = ""
) -> Handout:
    """A handout of `page` (the Conteur only) for the players chosen, announced to each of them
    once the transaction commits."""
    if not is_storyteller_of(user=by, campaign_id=page.campaign_id):
        raise PermissionDenied(_("Seul le Conteur remet des documents."))
    if kind not in HandoutKind.values:
        raise ValidationError({"what": _("Choisissez ce que vous remettez.")}, code="invalid")
    ids = _recipient_ids(campaign_id=page.campaign_id, recipients=recipients)
    handout = Handout(
        campaign_id=page.campaign_id, page=page, kind=kind, title=page.title, given_by=by
    )
    _copy(handout=handout, page=page, kind=kind, secret_key=secret_key)
    handout.save()
    handout.recipients.set(ids)
    message = {"type": HANDOUTS, "campaign": page.campaign_id, "handout": handout.pk}
    for user_id in ids:
        push.publish_on_commit(push.user_channel(user_id), message)
    return handout


@transaction.atomic
def handout_give_choice(*, campaign: Campaign, by, what: str, recipients: Iterable) -> Handout:
    """`handout_give` from a form's choice ("secret:12:<key>"…), the page found in `campaign`."""
    kind, page_id, key = parse_choice(what)
    page = Page.objects.filter(campaign_id=campaign.pk, pk=page_id).first()
    if page is None:
        raise ValidationError({"what": _("Cette page n'existe plus.")}, code="invalid")
    return handout_give(page=page, by=by, kind=kind, recipients=recipients, secret_key=key)


def handouts_for(*, user, campaign: Campaign) -> QuerySet[Handout]:
    """The handouts this member may read: every one of the campaign for the Conteur, those given
    to them for a player (none for a non-member)."""
    handouts = Handout.objects.filter(campaign_id=campaign.pk)
    if is_storyteller_of(user=user, campaign_id=campaign.pk):
        return handouts.prefetch_related("recipients")
    membership = Membership.objects.filter(campaign_id=campaign.pk, user_id=user.pk)
    if not membership.exists():
        return handouts.none()
    return handouts.filter(recipients=user)


def handout_get_for_member(*, user, campaign_id: int, pk: int) -> Handout:
    """A handout this member may read; 404 for any other (whether it exists is never told)."""
    campaign = campaign_get_for_member(user=user, pk=campaign_id)
    handout = handouts_for(user=user, campaign=campaign).filter(pk=pk).first()
    if handout is None:
        raise Http404(_("Document introuvable."))
    return handout


def handouts_received(*, user) -> QuerySet[Handout]:
    """The handouts given to `user` in the campaigns they are still a member of (their account
    data): each is a copy given to them, theirs to keep."""
    return (
        Handout.objects.filter(recipients=user, campaign__memberships__user=user)
        .select_related("campaign")
        .order_by("given_at", "pk")
    )
