"""Ellipses (§11): the Conteur opens one, confirms each character's trainer multiplier for its XP,
and asks for advances (N days, or its end) that a background job runs (`progression.advances`);
the beat ends the ellipses whose real-world deadline passed.

An advance is recorded under an idempotency key before it is queued: the same key twice (a double
click, the deadline sweep running again) records and runs it once.
"""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import Campaign
from characters.models import Character
from characters.services import rule_error_to_validation_error
from progression.models import Advance, Ellipse, EllipseStatus
from progression.services import ADVANCE_RUN, job_queue
from rules import ellipse as rules_ellipse
from rules import reference
from rules.errors import RuleError

ALREADY_OPEN = gettext_lazy("Une ellipse est déjà en cours dans cette campagne.")
CLOSED = gettext_lazy("Cette ellipse est close.")


def ellipse_allowed_actions(kind: str) -> list[str]:
    """The French labels of what an ellipse of this kind allows (§11)."""
    return [reference.ELLIPSE_ACTION_LABELS[a] for a in rules_ellipse.allowed_actions(kind)]


def ellipse_rest_weeks(ellipse: Ellipse) -> int:
    """The ellipse's weeks of rest, the same for every character (§11, the rules engine's)."""
    return rules_ellipse.rest_weeks(ellipse.length_days)


@transaction.atomic
def ellipse_open(
    *, campaign: Campaign, length_days: int, deadline: datetime | None = None
) -> Ellipse:
    """Open an ellipse of `length_days` in-game days; its kind follows from the length (§11)."""
    try:
        kind = rules_ellipse.classify(length_days)
    except RuleError as error:
        raise rule_error_to_validation_error(error) from error
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    if Ellipse.objects.filter(campaign=campaign, status=EllipseStatus.OPEN).exists():
        raise ValidationError({"__all__": [ALREADY_OPEN]})
    campaign.refresh_from_db(fields=["in_game_day"])
    try:
        with transaction.atomic():
            return Ellipse.objects.create(
                campaign=campaign,
                length_days=length_days,
                kind=kind,
                deadline=deadline,
                start_day=campaign.in_game_day,
            )
    except IntegrityError as error:
        raise ValidationError({"__all__": [ALREADY_OPEN]}) from error


@transaction.atomic
def ellipse_set_xp_trainer(
    *, ellipse: Ellipse, character_id: int, trainer: str, surcharge_weeks: int | None = None
) -> Ellipse:
    """The Conteur confirms a character's trainer multiplier for the ellipse's XP (§11) and, when
    given, its weeks of surcharge (20 serious wounds self-inflicted that week, +1 XP each)."""
    if trainer not in reference.TRAINER_MULTIPLIERS:
        raise ValidationError({"trainer": [_("Ce niveau d'entraîneur n'existe pas.")]})
    locked = Ellipse.objects.select_for_update().get(pk=ellipse.pk)
    if not locked.is_open:
        raise ValidationError({"__all__": [CLOSED]})
    if not Character.objects.filter(pk=character_id, campaign_id=locked.campaign_id).exists():
        raise ValidationError({"character": [_("Ce personnage n'est pas dans la campagne.")]})
    locked.xp_trainers = {**locked.xp_trainers, str(character_id): trainer}
    update = ["xp_trainers"]
    if surcharge_weeks is not None:
        try:
            weeks = rules_ellipse.checked_surcharge_weeks(locked.length_days, surcharge_weeks)
        except RuleError as error:
            raise rule_error_to_validation_error(error) from error
        locked.surcharge_weeks = {**locked.surcharge_weeks, str(character_id): weeks}
        update.append("surcharge_weeks")
    locked.save(update_fields=update)
    return locked


@transaction.atomic
def advance_request(
    *, ellipse: Ellipse, key: str, days: int = 0, closes: bool = False, by=None
) -> Advance:
    """Record an advance (N days, or the ellipse's end) under an idempotency key and queue the
    job that runs it. The same key twice returns the first request and queues nothing."""
    if days < 0 or (days == 0 and not closes):
        raise ValidationError({"days": [_("Avancez d'au moins un jour.")]})
    existing = Advance.objects.filter(key=key).first()
    if existing is not None:
        return existing
    if not ellipse.is_open:
        raise ValidationError({"__all__": [CLOSED]})
    try:
        with transaction.atomic():
            advance = Advance.objects.create(
                ellipse=ellipse, key=key, days=days, closes=closes, requested_by=by
            )
    except IntegrityError:
        return Advance.objects.get(key=key)
    job_queue(ADVANCE_RUN, advance.pk)
    return advance


def ellipse_deadlines_sweep(*, now: datetime | None = None) -> list[Advance]:
    """The beat job: request the end of every open ellipse whose real-world deadline passed."""
    now = now or timezone.now()
    due = Ellipse.objects.filter(status=EllipseStatus.OPEN, deadline__lte=now)
    return [
        advance_request(ellipse=ellipse, key=f"deadline:{ellipse.pk}", closes=True)
        for ellipse in due
    ]
