

from django.db import migrations


# The table's models now belong to `sessions` (label `play`) and the progression's to `progression`
# (issue 11): forget them here, keep the tables.

class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0004_table'),
        ('characters', '0004_move_out_progression'),
        ('play', '0001_moved_from_campaigns'),
        ('progression', '0001_moved_from_campaigns_characters'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='arcaward',
                    name='arc',
                ),
                migrations.RemoveField(
                    model_name='arcaward',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='ellipse',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='injury',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='injury',
                    name='character',
                ),
                migrations.RemoveField(
                    model_name='injury',
                    name='roll',
                ),
                migrations.RemoveField(
                    model_name='moralepool',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='playsession',
                    name='arc',
                ),
                migrations.RemoveField(
                    model_name='playsession',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='roll',
                    name='play_session',
                ),
                migrations.RemoveField(
                    model_name='roll',
                    name='arc',
                ),
                migrations.RemoveField(
                    model_name='roll',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='roll',
                    name='character',
                ),
                migrations.RemoveField(
                    model_name='roll',
                    name='rolled_by',
                ),
                migrations.RemoveField(
                    model_name='tableevent',
                    name='roll',
                ),
                migrations.RemoveField(
                    model_name='tableevent',
                    name='actor',
                ),
                migrations.RemoveField(
                    model_name='tableevent',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='tableevent',
                    name='character',
                ),
                migrations.DeleteModel(
                    name='Advance',
                ),
                migrations.DeleteModel(
                    name='ArcAward',
                ),
                migrations.DeleteModel(
                    name='Ellipse',
                ),
                migrations.DeleteModel(
                    name='Injury',
                ),
                migrations.DeleteModel(
                    name='MoralePool',
                ),
                migrations.DeleteModel(
                    name='PlaySession',
                ),
                migrations.DeleteModel(
                    name='Roll',
                ),
                migrations.DeleteModel(
                    name='TableEvent',
                ),
            ],
            database_operations=[],
        ),
    ]
