"""The demo campaign's world for `manage.py seed_demo`: the town of Vael, three NPCs, a faction,
one secret, linked from the journal of the session « Arrivée à Vael». Made through the world's
services, once: a second run changes nothing."""

from __future__ import annotations

from django.db import transaction

from campaigns.models import Campaign
from campaigns.services import entry_save
from sessions.demo import DEMO_CURRENT_SESSION
from sessions.models import PlaySession
from world.models import Page, PageAudience, PageKind
from world.services import page_create

PAGES = (
    (
        "Vael",
        PageKind.PLACE,
        ["ville", "port"],
        "Port de pêche accroché aux falaises, noyé de brume neuf jours sur dix. Le phare qui "
        "guidait les navires s'est éteint il y a un mois.\n\n"
        "- La gardienne du phare : [[Maëlle]]\n"
        "- Le bourgmestre : [[Orso Vannier|le maire]]\n"
        "- Sur les quais, on murmure le nom de [[La Confrérie du Sel]].",
    ),
    (
        "Maëlle",
        PageKind.NPC,
        ["phare"],
        "Gardienne du phare de [[Vael]], taciturne et inquiète. Elle jure que la flamme a été "
        "soufflée « de l'intérieur ».",
    ),
    (
        "Orso Vannier",
        PageKind.NPC,
        ["vael", "notable"],
        "Maire de [[Vael]], affable, toujours vêtu de noir. Il presse les voyageurs de repartir "
        "avant la nuit.\n\n"
        ":::secret\n"
        "Orso a fait éteindre le phare : la [[La Confrérie du Sel|Confrérie]] lui paie chaque "
        "navire échoué sur les récifs d'Emeshar.\n"
        ":::",
    ),
    (
        "Tibère le passeur",
        PageKind.NPC,
        ["quais"],
        "Vieux passeur des quais de [[Vael]]. Pour une pièce, il connaît chaque crique de la côte.",
    ),
    (
        "La Confrérie du Sel",
        PageKind.FACTION,
        ["pilleurs"],
        "Des pilleurs d'épaves qui tiennent les quais de [[Vael]]. Nul ne sait qui les commande.",
    ),
)
JOURNAL_LINKS = (
    ("Le groupe arrive au port de **Vael**.", "Le groupe arrive au port de [[Vael]]."),
    ("interroge la gardienne du phare", "interroge [[Maëlle|la gardienne du phare]]"),
)


@transaction.atomic
def demo_world_seed(*, campaign: Campaign, storyteller) -> None:
    """The demo's world pages (each made once), and the current session's journal linked to
    them (once: a journal someone edited keeps its text)."""
    for title, kind, tags, body in PAGES:
        if Page.objects.filter(campaign=campaign, title__iexact=title).exists():
            continue
        page_create(
            campaign=campaign,
            by=storyteller,
            title=title,
            kind=kind,
            tags=tags,
            body=body,
            audience=PageAudience.EVERYONE,
        )
    journal = PlaySession.objects.filter(campaign=campaign, title=DEMO_CURRENT_SESSION).first()
    if journal is not None and "[[" not in journal.notes:
        notes = journal.notes
        for plain, linked in JOURNAL_LINKS:
            notes = notes.replace(plain, linked)
        if notes != journal.notes:
            journal.notes = notes
            entry_save(entry=journal)
