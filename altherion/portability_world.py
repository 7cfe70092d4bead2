"""The world in a campaign's backup file (`altherion.portability`): its pages, their history,
the members' notes and the handouts, and the ids and images they hold.

Images travel inside the file, as `data:` URLs (base64): a backup restores the whole world, and
the file stays one file. On import each image is checked again by Pillow (`world.images`) and
stored afresh through the storage API under a new random name. A revision's chosen members
(`reader_ids`) are written as usernames, like every user in the file.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import models
from django.utils.translation import gettext

from world.images import content_type_of, image_checked
from world.models import Handout, Page, PageNote, PageRevision

# (key in the file, model, path to the campaign), read after the sessions' sections.
SECTIONS = (
    ("world_pages", Page, "campaign"),
    ("world_page_revisions", PageRevision, "page__campaign"),
    ("world_page_notes", PageNote, "page__campaign"),
    ("world_handouts", Handout, "campaign"),
)
IMAGED = (Page, Handout)


class BadImage(ValueError):
    """An image of the file that cannot be read back (the import says which row)."""


def export_row(model: type[models.Model], obj: models.Model, row: dict[str, Any]) -> set[int]:
    """Rewrite, in place, what the world writes differently in a file (its images embedded);
    returns the ids of the users it names outside user columns (a revision's readers)."""
    if model in IMAGED:
        row["image"] = _data_url(obj.image) if obj.image else ""
    if model is PageRevision:
        return set(obj.reader_ids)
    return set()


def name_users(model: type[models.Model], row: dict[str, Any], names: dict[int, str]) -> None:
    """A revision's readers by username, as every user of the file."""
    if model is PageRevision:
        row["reader_ids"] = sorted(names[pk] for pk in row["reader_ids"] if pk in names)


def _data_url(image) -> str:
    with image.open("rb") as source:
        data = base64.b64encode(source.read()).decode("ascii")
    return f"data:{content_type_of(image.name)};base64,{data}"


def take_images(model: type[models.Model], rows: list[Any]) -> tuple[list[Any], list[str]]:
    """The rows without their images (the columns hold a stored name, set after), and the
    images by row."""
    if model not in IMAGED:
        return rows, ["" for _ in rows]
    images = [row.get("image") or "" if isinstance(row, dict) else "" for row in rows]
    kept = [
        {k: v for k, v in row.items() if k != "image"} if isinstance(row, dict) else row
        for row in rows
    ]
    return kept, images


def import_row(model: type[models.Model], row: dict[str, Any], users: dict[str, Any]) -> None:
    """Rewrite, in place, a revision's readers from usernames to the users' ids."""
    if model is PageRevision:
        names = row.get("reader_ids") or []
        row["reader_ids"] = sorted(users[name].pk for name in names if name in users)


def put_images(model: type[models.Model], objs: list[models.Model], images: list[str]) -> None:
    """Store each embedded image (checked by Pillow) and save its name on its row."""
    changed = []
    for obj, data_url in zip(objs, images, strict=True):
        if not data_url:
            continue
        upload = _upload(data_url)
        try:
            checked = image_checked(upload)
        except ValidationError as error:
            raise BadImage(" ".join(error.messages)) from error
        obj.image.save(checked.name, ContentFile(checked.read()), save=False)
        changed.append(obj)
    if changed:
        model.objects.bulk_update(changed, ["image"])


def _upload(data_url: Any) -> SimpleUploadedFile:
    if not isinstance(data_url, str) or not data_url.startswith("data:"):
        raise BadImage(gettext("une image doit être une adresse data: en base64"))
    header, _, payload = data_url.partition(",")
    if not header.endswith(";base64"):
        raise BadImage(gettext("une image doit être une adresse data: en base64"))
    try:
        content = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError) as error:
        raise BadImage(gettext("image illisible (base64)")) from error
    return SimpleUploadedFile("image", content)
