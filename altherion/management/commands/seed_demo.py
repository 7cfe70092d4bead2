from django.core.management.base import BaseCommand

from altherion.demo import DEMO_USERS, demo_users_seed
from campaigns.demo import demo_campaign_seed
from characters.demo import demo_characters_seed


class Command(BaseCommand):
    help = "Charge les données de démonstration (idempotent) et affiche les identifiants."

    def handle(self, *args, **options) -> None:
        users = demo_users_seed()
        campaign = demo_campaign_seed(users=users)
        demo_characters_seed(campaign=campaign, users=users)
        self.stdout.write(self.style.SUCCESS("Données de démonstration prêtes."))
        self.stdout.write(f"Campagne de démonstration : {campaign.name}")
        self.stdout.write("Identifiants de démonstration :")
        for demo in DEMO_USERS:
            self.stdout.write(f"  {demo.role:<8}  {demo.username} / {demo.password}")
