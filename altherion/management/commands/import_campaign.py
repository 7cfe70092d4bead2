"""`manage.py import_campaign file.json`: a campaign exported by export_campaign, with new ids."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from altherion.portability import PortabilityError, campaign_import


class Command(BaseCommand):
    help = "Importe une campagne exportée par export_campaign (dans une transaction)."

    def add_arguments(self, parser):
        parser.add_argument("path", help="Le fichier JSON à lire (« - » pour l'entrée standard).")

    def handle(self, *args, path, **options):
        try:
            if path == "-":
                data = json.load(sys.stdin)
            else:
                with open(path, encoding="utf-8") as file:
                    data = json.load(file)
        except OSError as error:
            raise CommandError(
                _("Impossible de lire %(path)s : %(strerror)s.")
                % {"path": path, "strerror": error.strerror}
            ) from error
        except json.JSONDecodeError as error:
            raise CommandError(
                _("%(path)s n'est pas du JSON valide (ligne %(lineno)s, colonne %(colno)s).")
                % {"path": path, "lineno": error.lineno, "colno": error.colno}
            ) from error
        try:
            result = campaign_import(data=data)
        except PortabilityError as error:
            raise CommandError(
                _("Import refusé, rien n'a changé : %(error)s") % {"error": error}
            ) from error
        campaign = result.campaign
        self.stdout.write(
            self.style.SUCCESS(
                _("Campagne « %(name)s » importée (identifiant %(pk)s).")
                % {"name": campaign.name, "pk": campaign.pk}
            )
        )
        if result.created_users:
            self.stdout.write(
                _("Utilisateurs créés, sans mot de passe utilisable (à réinitialiser) : %(users)s.")
                % {"users": ", ".join(result.created_users)}
            )
