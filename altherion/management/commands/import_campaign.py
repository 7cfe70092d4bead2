"""`manage.py import_campaign file.json`: a campaign exported by export_campaign, with new ids."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

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
            raise CommandError(f"Impossible de lire {path} : {error.strerror}.") from error
        except json.JSONDecodeError as error:
            raise CommandError(
                f"{path} n'est pas du JSON valide (ligne {error.lineno}, colonne {error.colno})."
            ) from error
        try:
            result = campaign_import(data=data)
        except PortabilityError as error:
            raise CommandError(f"Import refusé, rien n'a changé : {error}") from error
        campaign = result.campaign
        self.stdout.write(
            self.style.SUCCESS(
                f"Campagne « {campaign.name} » importée (identifiant {campaign.pk})."
            )
        )
        if result.created_users:
            self.stdout.write(
                "Utilisateurs créés, sans mot de passe utilisable (à réinitialiser) : "
                + ", ".join(result.created_users)
                + "."
            )
