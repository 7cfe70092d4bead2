# The moved tables take the app's own names, and their content types follow (issue 11).

from django.db import migrations

from common.migration_moves import content_types_follow

FROM_CAMPAIGNS = ["ellipse", "advance", "arcaward"]
FROM_CHARACTERS = ["training", "xpentry"]


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("progression", "0001_moved_from_campaigns_characters"),
        ("campaigns", "0005_move_out_sessions_progression"),
        ("characters", "0004_move_out_progression"),
    ]

    operations = [
        *[
            migrations.AlterModelTable(name=model, table=None)
            for model in FROM_CAMPAIGNS + FROM_CHARACTERS
        ],
        migrations.RunPython(*content_types_follow("campaigns", "progression", FROM_CAMPAIGNS)),
        migrations.RunPython(*content_types_follow("characters", "progression", FROM_CHARACTERS)),
    ]
