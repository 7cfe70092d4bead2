

from django.db import migrations


# XpEntry and Training now belong to `progression` (issue 11): forget them here, keep the tables.

class Migration(migrations.Migration):

    dependencies = [
        ('characters', '0003_training_xpentry'),
        ('progression', '0001_moved_from_campaigns_characters'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='xpentry',
                    name='character',
                ),
                migrations.DeleteModel(
                    name='Training',
                ),
                migrations.DeleteModel(
                    name='XpEntry',
                ),
            ],
            database_operations=[],
        ),
    ]
