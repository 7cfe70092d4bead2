"""Writes to campaigns: every page and API endpoint goes through these functions."""

import secrets
from datetime import timedelta
from urllib.parse import urljoin

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns import compendium_examples
from campaigns.models import (
    Ability,
    Arc,
    ArcStatus,
    Asset,
    Branch,
    Campaign,
    CharacterClass,
    Flaw,
    Invitation,
    Membership,
    Role,
    Species,
)
from common.mail import mail_send

INVITATION_DAYS_DEFAULT = 7
INVITATION_DAYS_MAX = 90


@transaction.atomic
def campaign_create(*, creator, name: str, description: str = "", **fields) -> Campaign:
    """A new campaign whose creator is its Conteur."""
    campaign = Campaign(name=name, description=description, **fields)
    campaign.full_clean()
    campaign.save()
    Membership.objects.create(campaign=campaign, user=creator, role=Role.STORYTELLER)
    return campaign


@transaction.atomic
def campaign_update(*, campaign: Campaign, **fields) -> Campaign:
    for name, value in fields.items():
        setattr(campaign, name, value)
    campaign.full_clean()
    campaign.save(update_fields=list(fields))
    return campaign


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    """Remove a player; the Conteur must hand the role over before leaving.

    Access is checked from the membership row on every request, so it ends at once.
    """
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == Role.STORYTELLER:
        raise ValidationError(
            _("Le Conteur ne peut pas être retiré : confiez d'abord le rôle à un autre membre.")
        )
    membership.delete()


@transaction.atomic
def campaign_delete(*, campaign: Campaign) -> None:
    """Delete the campaign and everything in it (members, characters, rolls, arcs…)."""
    campaign.delete()


@transaction.atomic
def storyteller_hand_over(*, campaign: Campaign, to: Membership) -> Membership:
    """Make `to` the Conteur; the current Conteur becomes a player. Returns the new Conteur's."""
    memberships = Membership.objects.select_for_update().filter(campaign=campaign)
    current = memberships.get(role=Role.STORYTELLER)
    target = memberships.get(pk=to.pk)
    if target.pk == current.pk:
        raise ValidationError(_("Ce membre est déjà le Conteur."))
    current.role = Role.PLAYER
    current.save(update_fields=["role"])
    target.role = Role.STORYTELLER
    target.save(update_fields=["role"])
    return target


@transaction.atomic
def invitation_create(
    *, campaign: Campaign, by, days: int = INVITATION_DAYS_DEFAULT, max_uses: int = 5
) -> Invitation:
    if not 1 <= days <= INVITATION_DAYS_MAX:
        raise ValidationError(
            {
                "days": _("La durée de validité doit être entre 1 et %(days)s jours.")
                % {"days": INVITATION_DAYS_MAX}
            }
        )
    if not 1 <= max_uses <= 100:
        raise ValidationError({"max_uses": _("Le nombre d'utilisations doit être entre 1 et 100.")})
    return Invitation.objects.create(
        campaign=campaign,
        created_by=by,
        token=secrets.token_urlsafe(24),
        expires_at=timezone.now() + timedelta(days=days),
        max_uses=max_uses,
    )


def invitation_mail(*, invitation: Invitation, to: str, site: str, by) -> bool:
    """Mail the invitation's link on `site` (the address the Conteur uses, e.g.
    "https://altherion.example/") to `to`; whether it left (a refused or silent relay is not an
    error: the Conteur still has the link to send by hand)."""
    link = urljoin(site, reverse("campaigns:join", args=[invitation.token]))
    context = {"campaign": invitation.campaign, "invitation": invitation, "link": link, "by": by}
    try:
        mail_send(to=to, template="campaigns/mail/invitation", context=context)
    except OSError:  # smtplib's errors are OSErrors
        return False
    return True


@transaction.atomic
def invitation_revoke(*, invitation: Invitation) -> Invitation:
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


def invitation_problem(invitation: Invitation | None, *, user) -> str | None:
    """Why this invitation cannot be used by this user now, in French; None if it can. A visitor
    not signed in is told only what is wrong with the link itself."""
    if invitation is None:
        return _("Ce lien d'invitation n'existe pas.")
    if invitation.revoked_at is not None:
        return _("Ce lien d'invitation a été révoqué par le Conteur.")
    if invitation.expires_at <= timezone.now():
        return _("Ce lien d'invitation a expiré : demandez-en un nouveau au Conteur.")
    membership = None
    if user.is_authenticated:
        membership = Membership.objects.filter(campaign=invitation.campaign_id, user=user).first()
    if membership is not None:
        if membership.role == Role.STORYTELLER:
            return _("Vous êtes le Conteur de cette campagne : ce lien est pour vos joueurs.")
        return _("Vous êtes déjà membre de cette campagne.")
    if invitation.uses >= invitation.max_uses:
        return _("Ce lien d'invitation a déjà servi autant de fois que permis.")
    return None


@transaction.atomic
def invitation_accept(*, token: str, user) -> Membership:
    """Join the invitation's campaign as a player, counting one use; refused with a reason."""
    invitation = Invitation.objects.select_for_update().filter(token=token).first()
    problem = invitation_problem(invitation, user=user)
    if problem:
        raise ValidationError(problem)
    try:
        with transaction.atomic():
            membership = Membership.objects.create(
                campaign_id=invitation.campaign_id, user=user, role=Role.PLAYER
            )
    except IntegrityError as error:
        raise ValidationError(_("Vous êtes déjà membre de cette campagne.")) from error
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    return membership


@transaction.atomic
def entry_save(*, entry):
    """Validate and save an arc, play session or compendium entry (model rules, one path).

    A concurrent save of the same name loses at the unique constraint: reported, not a 500.
    """
    entry.full_clean()
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError as error:
        raise ValidationError(
            _("Une entrée identique vient d'être enregistrée : rechargez la page.")
        ) from error
    campaign_revision_bump(entry.campaign_id)
    return entry


def campaign_revision_bump(campaign_id: int) -> None:
    """The campaign's compendium changed: a new revision, so every fragment keyed on it is new."""
    Campaign.objects.filter(pk=campaign_id).update(revision=F("revision") + 1)


@transaction.atomic
def arc_close(*, arc: Arc) -> Arc:
    """Close an open arc (its experience can then be awarded); closing twice changes nothing."""
    updated = Arc.objects.filter(pk=arc.pk, status=ArcStatus.OPEN).update(
        status=ArcStatus.CLOSED, closed_at=timezone.now()
    )
    if updated:
        arc.refresh_from_db(fields=["status", "closed_at"])
    return arc


@transaction.atomic
def arc_reopen(*, arc: Arc) -> Arc:
    updated = Arc.objects.filter(pk=arc.pk, status=ArcStatus.CLOSED).update(
        status=ArcStatus.OPEN, closed_at=None
    )
    if updated:
        arc.refresh_from_db(fields=["status", "closed_at"])
    return arc


@transaction.atomic
def compendium_examples_load(*, campaign: Campaign) -> int:
    """Add the shipped example compendium to a campaign; entries whose name exists are kept
    as the Conteur left them. Returns how many entries were added (0 the second time)."""
    added = 0

    def missing(model, **lookup) -> bool:
        return not model.objects.filter(campaign=campaign, **lookup).exists()

    for data in compendium_examples.SPECIES:
        if missing(Species, name=data["name"]):
            entry_save(entry=Species(campaign=campaign, **data))
            added += 1
    classes = {}
    for data in compendium_examples.CLASSES:
        fields = {key: value for key, value in data.items() if key != "branches"}
        character_class = CharacterClass.objects.filter(
            campaign=campaign, name=data["name"]
        ).first()
        if character_class is None:
            character_class = entry_save(entry=CharacterClass(campaign=campaign, **fields))
            added += 1
        classes[data["name"]] = character_class
        for name, description in data["branches"]:
            if missing(Branch, character_class=character_class, name=name):
                entry_save(
                    entry=Branch(
                        campaign=campaign,
                        character_class=character_class,
                        name=name,
                        description=description,
                    )
                )
                added += 1
    for data in compendium_examples.ABILITIES:
        fields = {key: value for key, value in data.items() if key != "class"}
        if missing(Ability, name=data["name"]):
            character_class = classes.get(data["class"]) if data["class"] else None
            entry_save(entry=Ability(campaign=campaign, character_class=character_class, **fields))
            added += 1
    for model, rows in ((Asset, compendium_examples.ASSETS), (Flaw, compendium_examples.FLAWS)):
        for data in rows:
            if missing(model, name=data["name"]):
                entry_save(entry=model(campaign=campaign, **data))
                added += 1
    return added


@transaction.atomic
def entry_delete(*, entry) -> None:
    entry.delete()
    campaign_revision_bump(entry.campaign_id)
