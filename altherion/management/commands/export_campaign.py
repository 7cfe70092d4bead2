"""`manage.py export_campaign <id> [-o file.json]`: one campaign, everything of it, as JSON."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import gettext as _

from altherion.portability import campaign_export
from campaigns.models import Campaign


class Command(BaseCommand):
    help = "Exporte une campagne entière (membres, fiches, historique, table, progression) en JSON."

    def add_arguments(self, parser):
        parser.add_argument("campaign_id", type=int, help="L'identifiant de la campagne.")
        parser.add_argument(
            "-o", "--output", help="Le fichier à écrire (par défaut : la sortie standard)."
        )

    def handle(self, *args, campaign_id, output=None, **options):
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None:
            raise CommandError(
                _("Aucune campagne n'a l'identifiant %(campaign_id)s.")
                % {"campaign_id": campaign_id}
            )
        text = json.dumps(
            campaign_export(campaign=campaign), cls=DjangoJSONEncoder, ensure_ascii=False, indent=1
        )
        if output is None:
            self.stdout.write(text)
            return
        with open(output, "w", encoding="utf-8") as file:
            file.write(text + "\n")
        self.stderr.write(
            _("Campagne « %(name)s » exportée dans %(output)s.")
            % {"name": campaign.name, "output": output}
        )
