

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


# The table's models move here from `campaigns` (issue 11): state only, their tables and rows stay;
# 0002 renames the tables.

class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('campaigns', '0004_table'),
        ('characters', '0003_training_xpentry'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='PlaySession',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('title', models.CharField(max_length=120, verbose_name='titre')),
                        ('scheduled_at', models.DateTimeField(verbose_name='date et heure')),
                        ('notes', models.TextField(blank=True, max_length=20000, verbose_name='journal')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('arc', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='play_sessions', to='campaigns.arc')),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='play_sessions', to='campaigns.campaign')),
                    ],
                    options={
                        'db_table': 'campaigns_playsession',
                        'ordering': ['-scheduled_at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='Roll',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('label', models.CharField(blank=True, max_length=120, verbose_name='intitulé')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('visibility', models.CharField(choices=[('public', 'Public'), ('storyteller', 'Secret (Conteur seulement)'), ('hidden', 'Caché (Conteur)')], default='public', max_length=16)),
                        ('characteristic', models.CharField(max_length=32)),
                        ('skills', models.JSONField(blank=True, default=list)),
                        ('inputs', models.JSONField(default=dict)),
                        ('breakdown', models.JSONField(default=dict)),
                        ('outcome', models.CharField(max_length=24)),
                        ('total', models.IntegerField()),
                        ('target', models.IntegerField()),
                        ('margin', models.IntegerField()),
                        ('zone', models.BooleanField(default=False)),
                        ('consequences', models.JSONField(blank=True, default=list)),
                        ('idempotency_key', models.CharField(max_length=64)),
                        ('arc', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='campaigns.arc')),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rolls', to='campaigns.campaign')),
                        ('character', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rolls', to='characters.character')),
                        ('play_session', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rolls', to='play.playsession')),
                        ('rolled_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rolls', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'campaigns_roll',
                        'ordering': ['-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='Injury',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('row', models.PositiveSmallIntegerField(verbose_name='ligne de Fragilité')),
                        ('effect', models.CharField(max_length=32, verbose_name='effet')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('healed_at', models.DateTimeField(blank=True, null=True)),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='injuries', to='campaigns.campaign')),
                        ('character', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='injuries', to='characters.character')),
                        ('roll', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='injuries', to='play.roll')),
                    ],
                    options={
                        'db_table': 'campaigns_injury',
                        'ordering': ['created_at', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='TableEvent',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('roll', 'Jet'), ('morale', 'Moral'), ('consequence', 'Conséquence')], max_length=16)),
                        ('visibility', models.CharField(choices=[('public', 'Public'), ('storyteller', 'Secret (Conteur seulement)'), ('hidden', 'Caché (Conteur)')], default='public', max_length=16)),
                        ('summary', models.CharField(max_length=500)),
                        ('payload', models.JSONField(blank=True, default=dict)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('actor', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='table_events', to='campaigns.campaign')),
                        ('character', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='characters.character')),
                        ('roll', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='events', to='play.roll')),
                    ],
                    options={
                        'db_table': 'campaigns_tableevent',
                        'ordering': ['-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='MoralePool',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('hope', models.PositiveSmallIntegerField(default=0, verbose_name='espoir')),
                        ('despair', models.PositiveSmallIntegerField(default=0, verbose_name='désespoir')),
                        ('fate', models.PositiveSmallIntegerField(default=0, verbose_name='Fatalité')),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('campaign', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='morale_pool', to='campaigns.campaign')),
                    ],
                    options={
                        'db_table': 'campaigns_moralepool',
                        'constraints': [models.CheckConstraint(condition=models.Q(('hope__gte', 0)), name='morale_hope_positive'), models.CheckConstraint(condition=models.Q(('despair__gte', 0)), name='morale_despair_positive'), models.CheckConstraint(condition=models.Q(('fate__gte', 0), ('fate__lte', 5)), name='morale_fate_range')],
                    },
                ),
                migrations.AddIndex(
                    model_name='roll',
                    index=models.Index(fields=['campaign', '-id'], name='roll_campaign_id'),
                ),
                migrations.AddIndex(
                    model_name='roll',
                    index=models.Index(fields=['arc', 'character'], name='roll_arc_character'),
                ),
                migrations.AddConstraint(
                    model_name='roll',
                    constraint=models.UniqueConstraint(fields=('rolled_by', 'idempotency_key'), name='roll_idempotency_key_once'),
                ),
                migrations.AddIndex(
                    model_name='injury',
                    index=models.Index(fields=['character', 'healed_at'], name='injury_character_open'),
                ),
                migrations.AddConstraint(
                    model_name='injury',
                    constraint=models.CheckConstraint(condition=models.Q(('row__lte', 5)), name='injury_row_range'),
                ),
                migrations.AddIndex(
                    model_name='tableevent',
                    index=models.Index(fields=['campaign', 'id'], name='table_event_campaign_id'),
                ),
            ],
            database_operations=[],
        ),
    ]
