# The moved tables take the app's own names, and their content types follow (issue 11).

from django.db import migrations

from common.migration_moves import content_types_follow

MODELS = ["playsession", "roll", "injury", "tableevent", "moralepool"]


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("play", "0001_moved_from_campaigns"),
        ("campaigns", "0005_move_out_sessions_progression"),
    ]

    operations = [
        *[migrations.AlterModelTable(name=model, table=None) for model in MODELS],
        migrations.RunPython(*content_types_follow("campaigns", "play", MODELS)),
    ]
