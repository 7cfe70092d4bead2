

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


# Progression's models move here from `campaigns` and `characters` (issue 11): state only, their
# tables and rows stay; 0002 renames the tables.

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
                    name='Ellipse',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('length_days', models.PositiveIntegerField(verbose_name='durée en jours')),
                        ('kind', models.CharField(choices=[('minor', 'Mineure'), ('medium', 'Moyenne'), ('major', 'Majeure')], max_length=16, verbose_name='type')),
                        ('deadline', models.DateTimeField(blank=True, null=True, verbose_name='échéance réelle')),
                        ('status', models.CharField(choices=[('open', 'En cours'), ('closed', 'Close')], default='open', max_length=16)),
                        ('days_elapsed', models.PositiveIntegerField(default=0)),
                        ('start_day', models.PositiveIntegerField(default=1)),
                        ('xp_trainers', models.JSONField(blank=True, default=dict)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('closed_at', models.DateTimeField(blank=True, null=True)),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ellipses', to='campaigns.campaign')),
                    ],
                    options={
                        'db_table': 'campaigns_ellipse',
                        'ordering': ['-created_at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='Advance',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(max_length=80, unique=True)),
                        ('days', models.PositiveIntegerField(default=0)),
                        ('closes', models.BooleanField(default=False)),
                        ('status', models.CharField(choices=[('pending', 'En attente'), ('running', 'En cours'), ('done', 'Terminé')], default='pending', max_length=16)),
                        ('summary', models.JSONField(blank=True, default=dict)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('requested_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('ellipse', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='advances', to='progression.ellipse')),
                    ],
                    options={
                        'db_table': 'campaigns_advance',
                        'ordering': ['-created_at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='Training',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('characteristic', 'Caractéristique'), ('skill', 'Compétence'), ('specialty', 'Spécialité'), ('forgotten_domain', 'Domaine oublié'), ('combativeness', 'Combativité'), ('ability', 'Aptitude'), ('class', 'Classe'), ('branch', 'Branche')], max_length=20)),
                        ('target', models.CharField(blank=True, max_length=120)),
                        ('detail', models.CharField(blank=True, max_length=120)),
                        ('label', models.CharField(max_length=200)),
                        ('trainer', models.CharField(choices=[('alone', 'Seul'), ('trainer', 'Avec un entraîneur'), ('educational', 'Avec un entraîneur pédagogue')], default='alone', max_length=16)),
                        ('trainer_confirmed', models.BooleanField(default=False)),
                        ('days_needed', models.PositiveIntegerField(blank=True, null=True)),
                        ('days_done', models.PositiveIntegerField(default=0)),
                        ('position', models.PositiveIntegerField(default=0)),
                        ('xp_reserved', models.PositiveIntegerField(default=0)),
                        ('act', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('status', models.CharField(choices=[('queued', 'En file'), ('running', 'En cours'), ('done', 'Terminé'), ('cancelled', 'Annulé')], default='queued', max_length=16)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('finished_day', models.PositiveIntegerField(blank=True, null=True)),
                        ('character', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='trainings', to='characters.character')),
                        ('ellipse', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='trainings', to='progression.ellipse')),
                    ],
                    options={
                        'db_table': 'characters_training',
                        'ordering': ['position', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='XpEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('source_key', models.CharField(max_length=80)),
                        ('kind', models.CharField(choices=[('award', "Fin d'arc"), ('correction', 'Correction'), ('ellipse', 'Ellipse'), ('spend', 'Dépense'), ('training', 'Entraînement')], max_length=16)),
                        ('amount', models.IntegerField()),
                        ('label', models.CharField(max_length=200)),
                        ('breakdown', models.JSONField(blank=True, default=list)),
                        ('act', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('improvement', models.CharField(blank=True, max_length=200)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('character', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='xp_entries', to='characters.character')),
                    ],
                    options={
                        'db_table': 'characters_xpentry',
                        'ordering': ['-created_at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='ArcAward',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('checklist', models.JSONField(default=dict)),
                        ('revision', models.PositiveIntegerField(default=1)),
                        ('status', models.CharField(choices=[('pending', 'En attente'), ('running', 'En cours'), ('done', 'Terminé')], default='pending', max_length=16)),
                        ('total', models.PositiveIntegerField(default=0)),
                        ('paid', models.PositiveIntegerField(default=0)),
                        ('summary', models.JSONField(blank=True, default=list)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('arc', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='award', to='campaigns.arc')),
                        ('created_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'campaigns_arcaward',
                        'constraints': [models.CheckConstraint(condition=models.Q(('paid__lte', models.F('total'))), name='arc_award_progress'), models.CheckConstraint(condition=models.Q(('revision__gte', 1)), name='arc_award_revision')],
                    },
                ),
                migrations.AddIndex(
                    model_name='ellipse',
                    index=models.Index(fields=['status', 'deadline'], name='ellipse_due'),
                ),
                migrations.AddConstraint(
                    model_name='ellipse',
                    constraint=models.UniqueConstraint(condition=models.Q(('status', 'open')), fields=('campaign',), name='ellipse_one_open_per_campaign', violation_error_message='Une ellipse est déjà en cours dans cette campagne.'),
                ),
                migrations.AddConstraint(
                    model_name='ellipse',
                    constraint=models.CheckConstraint(condition=models.Q(('length_days__gte', 1)), name='ellipse_length'),
                ),
                migrations.AddConstraint(
                    model_name='ellipse',
                    constraint=models.CheckConstraint(condition=models.Q(('days_elapsed__lte', models.F('length_days'))), name='ellipse_elapsed'),
                ),
                migrations.AddIndex(
                    model_name='training',
                    index=models.Index(fields=['character', 'status'], name='training_active'),
                ),
                migrations.AddConstraint(
                    model_name='training',
                    constraint=models.CheckConstraint(condition=models.Q(('days_needed__isnull', True), ('days_done__lte', models.F('days_needed')), _connector='OR'), name='training_days_done_le_needed'),
                ),
                migrations.AddConstraint(
                    model_name='xpentry',
                    constraint=models.UniqueConstraint(fields=('character', 'source_key'), name='xp_entry_once'),
                ),
            ],
            database_operations=[],
        ),
    ]
