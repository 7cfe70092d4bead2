"""Page images: checked by Pillow before they are stored, streamed back only through a view that
asks visibility.py (never a public URL; MEDIA is not served)."""

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext as _
from PIL import Image

IMAGE_MAX_BYTES = 5 * 1024 * 1024
# Pillow's format name → the stored file's extension and the type it is served with.
IMAGE_FORMATS = {
    "JPEG": ("jpg", "image/jpeg"),
    "PNG": ("png", "image/png"),
    "WEBP": ("webp", "image/webp"),
    "GIF": ("gif", "image/gif"),
}
CONTENT_TYPES = {extension: content_type for extension, content_type in IMAGE_FORMATS.values()}


def image_checked(upload: UploadedFile) -> UploadedFile:
    """The upload, renamed after its real format; ValidationError (in French) when it is too big
    or not a JPEG, PNG, WebP or GIF image."""
    if upload.size is None or upload.size > IMAGE_MAX_BYTES:
        raise ValidationError(
            _("Image trop lourde : %(max)d Mo au plus.") % {"max": IMAGE_MAX_BYTES // 2**20},
            code="image_size",
        )
    try:
        upload.seek(0)
        with Image.open(upload) as image:
            image_format = image.format
            image.verify()
    except Exception as error:  # Pillow raises many types for a damaged or foreign file
        raise ValidationError(
            _("Ce fichier n'est pas une image lisible (JPEG, PNG, WebP ou GIF)."),
            code="image_type",
        ) from error
    if image_format not in IMAGE_FORMATS:
        raise ValidationError(
            _("Format d'image refusé : JPEG, PNG, WebP ou GIF seulement."), code="image_type"
        )
    upload.seek(0)
    upload.name = f"image.{IMAGE_FORMATS[image_format][0]}"
    return upload


def content_type_of(name: str) -> str:
    return CONTENT_TYPES.get(name.rsplit(".", 1)[-1].lower(), "application/octet-stream")
