"""Writes to the world: pages (each save a new version kept in PageRevision), restores, players'
notes. Only the Conteur writes pages; a stale edit is refused with the current page."""

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import NAME_LENGTH, Campaign, Membership
from world.images import image_checked
from world.models import (
    BODY_LENGTH,
    TAG_LENGTH,
    Page,
    PageAudience,
    PageKind,
    PageNote,
    PageRevision,
)
from world.visibility import is_storyteller_of, may_see_page, public_text

TAGS_MAX = 20
EDITABLE = ("title", "kind", "tags", "body", "audience", "readers", "image", "remove_image")


class StalePage(ValidationError):
    """The page changed since the editor loaded it: `.page` is the current page, to show."""

    def __init__(self, page: Page):
        super().__init__(
            _(
                "Cette page a été modifiée entre-temps (version %(version)d) : voici le texte "
                "actuel, reprenez votre modification."
            )
            % {"version": page.version},
            code="stale",
        )
        self.page = page


def _require_storyteller(*, user, campaign_id: int) -> None:
    if not is_storyteller_of(user=user, campaign_id=campaign_id):
        raise PermissionDenied(_("Seul le Conteur de la campagne écrit le monde."))


def _title_clean(*, campaign_id: int, title: str, page_pk: int | None = None) -> str:
    title = " ".join((title or "").split())
    if not title:
        raise ValidationError({"title": _("Donnez un titre à la page.")}, code="required")
    if len(title) > NAME_LENGTH or "[" in title or "]" in title or "|" in title:
        raise ValidationError(
            {
                "title": _("Un titre tient en %(max)d signes, sans [, ] ni |.")
                % {"max": NAME_LENGTH}
            },
            code="invalid",
        )
    taken = Page.objects.filter(campaign_id=campaign_id, title__iexact=title)
    if page_pk is not None:
        taken = taken.exclude(pk=page_pk)
    if taken.exists():
        raise ValidationError(
            {"title": _("Une page « %(title)s » existe déjà dans ce monde.") % {"title": title}},
            code="duplicate",
        )
    return title


def _tags_clean(tags: Iterable[str] | str) -> list[str]:
    if isinstance(tags, str):
        tags = tags.split(",")
    cleaned: list[str] = []
    for tag in tags:
        tag = " ".join(str(tag).split()).lower()
        if len(tag) > TAG_LENGTH:
            raise ValidationError(
                {"tags": _("Une étiquette tient en %(max)d signes.") % {"max": TAG_LENGTH}}
            )
        if tag and tag not in cleaned:
            cleaned.append(tag)
    if len(cleaned) > TAGS_MAX:
        raise ValidationError({"tags": _("%(max)d étiquettes au plus.") % {"max": TAGS_MAX}})
    return cleaned


def _choice_clean(value: str, choices, field: str) -> str:
    if value not in choices.values:
        raise ValidationError({field: _("Choix inconnu : %(value)s.") % {"value": value}})
    return value


def _body_clean(body: str) -> str:
    body = (body or "").replace("\r\n", "\n")
    if len(body) > BODY_LENGTH:
        raise ValidationError(
            {"body": _("Le texte tient en %(max)d signes.") % {"max": BODY_LENGTH}}
        )
    return body


def _reader_ids(*, campaign_id: int, audience: str, readers: Iterable) -> list[int]:
    """The chosen members' user ids (none unless the audience is « Membres choisis »)."""
    if audience != PageAudience.CHOSEN:
        return []
    ids = {getattr(reader, "pk", reader) for reader in readers or ()}
    members = set(
        Membership.objects.filter(campaign_id=campaign_id, user_id__in=ids).values_list(
            "user_id", flat=True
        )
    )
    if ids - members:
        raise ValidationError({"readers": _("Choisissez des membres de la campagne.")})
    return sorted(ids)


def _revision_save(*, page: Page, by) -> PageRevision:
    return PageRevision.objects.create(
        page=page,
        version=page.version,
        title=page.title,
        kind=page.kind,
        tags=page.tags,
        body=page.body,
        audience=page.audience,
        reader_ids=sorted(page.readers.values_list("pk", flat=True)),
        saved_by=by,
    )


@transaction.atomic
def page_create(
    *,
    campaign: Campaign,
    by,
    title: str,
    kind: str,
    body: str = "",
    tags: Iterable[str] | str = (),
    audience: str = PageAudience.STORYTELLER,
    readers: Iterable = (),
    image: UploadedFile | None = None,
) -> Page:
    """A new page (version 1, its first revision kept)."""
    _require_storyteller(user=by, campaign_id=campaign.pk)
    audience = _choice_clean(audience, PageAudience, "audience")
    page = Page(
        campaign=campaign,
        title=_title_clean(campaign_id=campaign.pk, title=title),
        kind=_choice_clean(kind, PageKind, "kind"),
        tags=_tags_clean(tags),
        body=_body_clean(body),
        audience=audience,
        created_by=by,
        updated_by=by,
    )
    reader_ids = _reader_ids(campaign_id=campaign.pk, audience=audience, readers=readers)
    page.public_text = public_text(page.body)
    if image:
        page.image = image_checked(image)
    page.save()
    page.readers.set(reader_ids)
    _revision_save(page=page, by=by)
    return page


def _locked(page: Page, version: int) -> Page:
    current = Page.objects.select_for_update().get(pk=page.pk)
    if current.version != version:
        raise StalePage(current)
    return current


def _store(*, current: Page, by, reader_ids: list[int], old_image_name: str) -> Page:
    current.version += 1
    current.updated_by = by
    current.public_text = public_text(current.body)
    current.save()
    current.readers.set(reader_ids)
    _revision_save(page=current, by=by)
    if old_image_name and old_image_name != current.image.name:
        transaction.on_commit(lambda: current.image.storage.delete(old_image_name))
    return current


@transaction.atomic
def page_update(*, page: Page, by, version: int, **fields) -> Page:
    """The page with the fields given changed, as a new version; StalePage when `version` is not
    the page's current one. `image` replaces the image, `remove_image=True` drops it."""
    _require_storyteller(user=by, campaign_id=page.campaign_id)
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise ValueError(f"not editable: {sorted(unknown)}")
    current = _locked(page, version)
    old_image_name = current.image.name
    if "title" in fields:
        current.title = _title_clean(
            campaign_id=current.campaign_id, title=fields["title"], page_pk=current.pk
        )
    if "kind" in fields:
        current.kind = _choice_clean(fields["kind"], PageKind, "kind")
    if "tags" in fields:
        current.tags = _tags_clean(fields["tags"])
    if "body" in fields:
        current.body = _body_clean(fields["body"])
    if "audience" in fields:
        current.audience = _choice_clean(fields["audience"], PageAudience, "audience")
    readers = fields.get("readers", current.readers.all())
    reader_ids = _reader_ids(
        campaign_id=current.campaign_id, audience=current.audience, readers=readers
    )
    if fields.get("remove_image"):
        current.image = None
    if fields.get("image"):
        current.image = image_checked(fields["image"])
    return _store(current=current, by=by, reader_ids=reader_ids, old_image_name=old_image_name)


@transaction.atomic
def page_restore(*, page: Page, by, revision: PageRevision, version: int) -> Page:
    """The page set back to an older revision's text, kind, tags and audience, as a new version
    (the image stays; chosen members who have left the campaign are not restored)."""
    _require_storyteller(user=by, campaign_id=page.campaign_id)
    if revision.page_id != page.pk:
        raise ValidationError(_("Cette version n'est pas celle de cette page."), code="invalid")
    current = _locked(page, version)
    current.title = _title_clean(
        campaign_id=current.campaign_id, title=revision.title, page_pk=current.pk
    )
    current.kind, current.tags, current.body = revision.kind, revision.tags, revision.body
    current.audience = revision.audience
    reader_ids = sorted(
        Membership.objects.filter(
            campaign_id=current.campaign_id, user_id__in=revision.reader_ids
        ).values_list("user_id", flat=True)
    )
    if current.audience != PageAudience.CHOSEN:
        reader_ids = []
    return _store(current=current, by=by, reader_ids=reader_ids, old_image_name="")


@transaction.atomic
def page_delete(*, page: Page, by) -> None:
    """The page gone with its history and notes (its image file removed after the commit)."""
    _require_storyteller(user=by, campaign_id=page.campaign_id)
    image = page.image
    if image:
        name, storage = image.name, image.storage
        transaction.on_commit(lambda: storage.delete(name))
    page.delete()


@transaction.atomic
def note_save(*, page: Page, user, text: str) -> PageNote:
    """The member's private note on a page they may see (an empty text keeps an empty note)."""
    if not may_see_page(user=user, page=page):
        raise PermissionDenied(_("Cette page n'est pas visible pour vous."))
    text = (text or "").replace("\r\n", "\n").strip()
    if len(text) > PageNote.text.field.max_length:
        raise ValidationError(
            {
                "text": _("Une note tient en %(max)d signes.")
                % {"max": PageNote.text.field.max_length}
            }
        )
    note, _created = PageNote.objects.update_or_create(
        page=page, user=user, defaults={"text": text}
    )
    return note
