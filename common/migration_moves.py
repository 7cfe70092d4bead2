"""Helpers for the migrations that moved models between apps (issue 11)."""


def content_types_follow(old_app: str, new_app: str, models: list[str]):
    """A RunPython pair: the content types (and so the permissions and admin log entries) of
    moved models follow them to their new app, their ids kept."""

    def forwards(apps, schema_editor):
        _move(apps, old_app, new_app, models)

    def backwards(apps, schema_editor):
        _move(apps, new_app, old_app, models)

    return forwards, backwards


def _move(apps, from_app: str, to_app: str, models: list[str]) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in models:
        old = content_type.objects.filter(app_label=from_app, model=model).first()
        if old is None:
            continue
        # A row the new app made for itself (a migrate run in between) gives way to the old one.
        content_type.objects.filter(app_label=to_app, model=model).delete()
        old.app_label = to_app
        old.save(update_fields=["app_label"])
