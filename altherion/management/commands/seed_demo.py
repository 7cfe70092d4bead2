from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from altherion.demo import DEMO_USERS, demo_seed


class Command(BaseCommand):
    help = "Charge les données de démonstration (idempotent) et affiche les identifiants."

    def handle(self, *args, **options) -> None:
        campaign = demo_seed()
        self.stdout.write(self.style.SUCCESS(_("Données de démonstration prêtes.")))
        self.stdout.write(_("Campagne de démonstration : %(name)s") % {"name": campaign.name})
        self.stdout.write(_("Identifiants de démonstration :"))
        for demo in DEMO_USERS:
            self.stdout.write(f"  {demo.role:<8}  {demo.username} / {demo.password}")
