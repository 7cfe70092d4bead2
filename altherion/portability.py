"""Backups of one campaign: everything of it in one JSON file, and back into any database.

`campaign_export` writes file-local ids (1, 2, 3… per model, in primary-key order) instead of
the database's ids, users by username, and timestamps as ISO 8601; ids written inside text or
JSON (ledger source keys like "arc:<id>", notification keys and links, an award's checklist…)
are rewritten the same way. `campaign_import` creates everything afresh in one transaction, maps
each file-local id to the new row's id, and sets the timestamps back. So exporting an imported
campaign gives the same file (but `exported_at`), whatever the database held before.

Invitations are not exported: their tokens are secrets that let anyone holding them join the
campaign, and a backup file travels. After an import, the Conteur creates new invitations.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from altherion import portability_fights, portability_world
from altherion.portability_values import Remap, fix_values
from campaigns.models import (
    Ability,
    Arc,
    Asset,
    Branch,
    Campaign,
    CharacterClass,
    Flaw,
    Invitation,
    Membership,
    Notification,
    Species,
    SpellEntry,
    Webhook,
    WebhookDelivery,
)
from characters.models import Character, CharacterChange, CharacterLanguage, CharacterSkill
from progression.models import Advance, ArcAward, Ellipse, Training, XpEntry
from sessions.models import (
    Combatant,
    Encounter,
    Injury,
    MoralePool,
    PlaySession,
    Roll,
    StatBlock,
    TableEvent,
)

FORMAT = "altherion-campaign"
VERSION = 1

USER_FIELDS = ("username", "email", "first_name", "last_name")


@dataclass(frozen=True)
class Section:
    """One model of the file: its key in the file and its path to the campaign."""

    key: str
    model: type[models.Model]
    campaign_path: str


# In an order where every foreign key points to a section already read.
SECTIONS: tuple[Section, ...] = (
    Section("memberships", Membership, "campaign"),
    Section("arcs", Arc, "campaign"),
    Section("play_sessions", PlaySession, "campaign"),
    Section("species", Species, "campaign"),
    Section("classes", CharacterClass, "campaign"),
    Section("branches", Branch, "campaign"),
    Section("abilities", Ability, "campaign"),
    Section("assets", Asset, "campaign"),
    Section("flaws", Flaw, "campaign"),
    Section("spells", SpellEntry, "campaign"),
    Section("characters", Character, "campaign"),
    Section("character_skills", CharacterSkill, "character__campaign"),
    Section("character_languages", CharacterLanguage, "character__campaign"),
    Section("character_changes", CharacterChange, "character__campaign"),
    Section("morale_pools", MoralePool, "campaign"),
    Section("rolls", Roll, "campaign"),
    Section("injuries", Injury, "campaign"),
    Section("table_events", TableEvent, "campaign"),
    Section("stat_blocks", StatBlock, "campaign"),
    Section("encounters", Encounter, "campaign"),
    Section("combatants", Combatant, "encounter__campaign"),
    Section("arc_awards", ArcAward, "arc__campaign"),
    Section("ellipses", Ellipse, "campaign"),
    Section("advances", Advance, "ellipse__campaign"),
    Section("trainings", Training, "character__campaign"),
    Section("xp_entries", XpEntry, "character__campaign"),
    Section("notifications", Notification, "campaign"),
    *(Section(key, model, path) for key, model, path in portability_world.SECTIONS),
)

# Models linked to a campaign that are deliberately left out, and why.
EXCLUDED: dict[type[models.Model], str] = {
    Invitation: "Les jetons d'invitation sont des secrets : ils ne voyagent pas dans un fichier.",
    Webhook: "L'adresse du webhook est un secret : elle ne voyage pas dans un fichier.",
    WebhookDelivery: "Les envois au webhook sont un journal technique, propre à ce serveur.",
}


class PortabilityError(Exception):
    """A file that cannot be imported; the message is French and says why."""


@dataclass
class ImportResult:
    campaign: Campaign
    created_users: list[str] = field(default_factory=list)


# --- export -----------------------------------------------------------------------------------


def _is_user(field_: models.Field) -> bool:
    return field_.is_relation and field_.related_model is get_user_model()


# Columns that are the server's bookkeeping, not the campaign's content (a cache counter).
NOT_EXPORTED = {(Campaign, "revision")}


def _exported_fields(model: type[models.Model]) -> list[models.Field]:
    """Every concrete column but the id, the campaign (implied by the file) and NOT_EXPORTED."""
    return [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key
        and not (f.is_relation and f.related_model is Campaign)
        and (model, f.name) not in NOT_EXPORTED
    ]


def _m2m_fields(model: type[models.Model]) -> list[models.ManyToManyField]:
    return [f for f in model._meta.many_to_many if f.remote_field.through._meta.auto_created]


def _plain(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def campaign_export(*, campaign: Campaign) -> dict[str, Any]:
    """The whole campaign as JSON-ready data (see the module's docstring)."""
    local: dict[type[models.Model], dict[int, int]] = {Campaign: {campaign.pk: 1}}
    querysets = {}
    for section in SECTIONS:
        rows = list(
            section.model.objects.filter(**{section.campaign_path: campaign}).order_by("pk")
        )
        querysets[section.model] = rows
        local[section.model] = {row.pk: index for index, row in enumerate(rows, start=1)}

    def remap(model, pk):
        return local.get(model, {}).get(pk)

    user_ids: set[int] = set()
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "campaign": {
            f.name: _plain(getattr(campaign, f.attname)) for f in _exported_fields(Campaign)
        },
    }
    for section in SECTIONS:
        model = section.model
        fields_ = _exported_fields(model)
        m2m = _m2m_fields(model)
        through_ids: dict[str, dict[int, list[int]]] = {}
        for relation in m2m:
            through = relation.remote_field.through
            source = relation.m2m_field_name()
            target = relation.m2m_reverse_field_name()
            by_source: dict[int, list[int]] = {}
            for source_id, target_id in through.objects.filter(
                **{f"{source}__in": local[model]}
            ).values_list(f"{source}_id", f"{target}_id"):
                by_source.setdefault(source_id, []).append(target_id)
            through_ids[relation.name] = by_source
        rows = []
        for obj in querysets[model]:
            row: dict[str, Any] = {"id": local[model][obj.pk]}
            for f in fields_:
                value = getattr(obj, f.attname)
                if _is_user(f):
                    if value is not None:
                        user_ids.add(value)
                    row[f.name] = value  # replaced by the username below
                elif f.is_relation:
                    row[f.name] = None if value is None else remap(f.related_model, value)
                else:
                    row[f.name] = _plain(value)
            for relation in m2m:
                related = relation.related_model
                if _is_user(relation):  # members chosen: named like every user of the file
                    ids = through_ids[relation.name].get(obj.pk, [])
                    user_ids.update(ids)
                    row[relation.name] = sorted(ids)
                    continue
                row[relation.name] = sorted(
                    remap(related, pk)
                    for pk in through_ids[relation.name].get(obj.pk, [])
                    if remap(related, pk) is not None
                )
            fix_values(model, row, remap)
            portability_fights.fix_row(model, row, remap)
            user_ids.update(portability_world.export_row(model, obj, row))
            rows.append(row)
        data[section.key] = rows

    users = get_user_model().objects.filter(pk__in=user_ids).order_by("username")
    names = {user.pk: user.username for user in users}
    data["users"] = [{name: getattr(user, name) for name in USER_FIELDS} for user in users]
    for section in SECTIONS:
        user_fields = [f.name for f in _exported_fields(section.model) if _is_user(f)]
        user_lists = [f.name for f in _m2m_fields(section.model) if _is_user(f)]
        for row in data[section.key]:
            for name in user_fields:
                row[name] = names.get(row[name])
            for name in user_lists:
                row[name] = sorted(names[pk] for pk in row[name] if pk in names)
            portability_world.name_users(section.model, row, names)
    return data


# --- import -----------------------------------------------------------------------------------


def _fail(message: str) -> PortabilityError:
    return PortabilityError(message)


def _check_header(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail(_("Ce fichier n'est pas un export de campagne Altherion."))
    if data.get("version") != VERSION:
        raise _fail(
            _(
                "Version de fichier %(found)r inconnue : cette version d'Altherion lit la version %(version)s."
            )
            % {"found": data.get("version"), "version": VERSION}
        )
    if not isinstance(data.get("campaign"), dict):
        raise _fail(_("Le fichier ne contient pas de campagne."))
    for key in ("users", *(s.key for s in SECTIONS)):
        if not isinstance(data.get(key, []), list):
            raise _fail(_("La section « %(key)s » du fichier doit être une liste.") % {"key": key})


def _users_import(rows: list[dict[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    user_model = get_user_model()
    wanted = {}
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("username"), str):
            raise _fail(_("Un utilisateur du fichier n'a pas de nom d'utilisateur."))
        wanted[row["username"]] = row
    users = {u.username: u for u in user_model.objects.filter(username__in=wanted)}
    created = []
    for username, row in wanted.items():
        if username in users:
            continue
        user = user_model(**{name: row.get(name) or "" for name in USER_FIELDS})
        user.set_unusable_password()
        user.full_clean(exclude=["password"])
        user.save()
        users[username] = user
        created.append(username)
    return users, sorted(created)


def _build(
    model: type[models.Model],
    row: dict[str, Any],
    *,
    campaign: Campaign,
    users: dict[str, Any],
    remap: Remap,
) -> models.Model:
    if not isinstance(row, dict):
        raise _fail(
            _("Une ligne de « %(model)s » n'est pas un objet.")
            % {"model": model._meta.verbose_name}
        )
    row = dict(row)
    fix_values(model, row, remap)
    portability_world.import_row(model, row, users)
    obj = model()
    for f in _exported_fields(model):
        if f.name not in row:
            continue  # a column absent from the file keeps its default
        value = row[f.name]
        if _is_user(f):
            if value is not None and value not in users:
                raise _fail(
                    _("Utilisateur « %(value)s » inconnu dans le fichier.") % {"value": value}
                )
            setattr(obj, f.attname, None if value is None else users[value].pk)
        elif f.is_relation:
            mapped = None if value is None else remap(f.related_model, value)
            if value is not None and mapped is None:
                raise _fail(
                    _(
                        "« %(model)s » %(id)s renvoie à « %(target_model)s » %(target)s, absent du fichier."
                    )
                    % {
                        "model": model._meta.verbose_name,
                        "id": row.get("id"),
                        "target_model": f.related_model._meta.verbose_name,
                        "target": value,
                    }
                )
            setattr(obj, f.attname, mapped)
        else:
            setattr(obj, f.attname, _clean(model, f, value, row.get("id")))
    for f in model._meta.concrete_fields:
        if f.is_relation and f.related_model is Campaign:
            setattr(obj, f.attname, campaign.pk)
    return obj


def _clean(model: type[models.Model], f: models.Field, raw: Any, local_id: Any) -> Any:
    """The column's value from the file, converted and checked (type, choices, validators)."""
    try:
        value = f.to_python(raw)
        if value is None and not f.null:
            raise ValidationError(_("Valeur manquante."))
        if value not in f.empty_values:
            f.validate(value, None)
            f.run_validators(value)
    except ValidationError as error:
        raise _fail(
            _("« %(model)s » %(id)s, champ « %(field)s » : %(messages)s")
            % {
                "model": model._meta.verbose_name,
                "id": local_id,
                "field": f.name,
                "messages": " ".join(str(m) for m in error.messages),
            }
        ) from error
    return value


def _timestamp_fields(model: type[models.Model]) -> list[str]:
    return [
        f.attname
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]


def _create(model: type[models.Model], objs: list[models.Model]) -> None:
    """Create the rows, then put back the timestamps auto_now(_add) replaced on the way in."""
    stamps = _timestamp_fields(model)
    kept = [{name: getattr(obj, name) for name in stamps} for obj in objs]
    model.objects.bulk_create(objs, batch_size=500)
    if stamps and objs:
        for obj, values in zip(objs, kept, strict=True):
            for name, value in values.items():
                setattr(obj, name, value if value is not None else timezone.now())
        model.objects.bulk_update(objs, stamps, batch_size=500)


def _unique_keys(rolls: list[Roll], advances: list[Advance]) -> None:
    """Idempotency keys already used elsewhere (a copy beside its original) get fresh ones."""
    taken = set(
        Roll.objects.filter(idempotency_key__in={r.idempotency_key for r in rolls}).values_list(
            "rolled_by_id", "idempotency_key"
        )
    )
    for roll in rolls:
        if (roll.rolled_by_id, roll.idempotency_key) in taken:
            roll.idempotency_key = uuid.uuid4().hex
    used = set(
        Advance.objects.filter(key__in={a.key for a in advances}).values_list("key", flat=True)
    )
    for advance in advances:
        if advance.key in used:
            advance.key = f"import:{uuid.uuid4().hex}"


def campaign_import(*, data: Any) -> ImportResult:
    """Create the campaign of an export (new ids); a bad file raises PortabilityError, changes
    nothing. Users are found by username; missing ones are created with no usable password."""
    _check_header(data)
    try:
        with transaction.atomic():
            return _import(data)
    except PortabilityError:
        raise
    except (IntegrityError, DatabaseError) as error:
        raise _fail(
            _("Le fichier contredit une règle de la base de données : %(error)s") % {"error": error}
        ) from error
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise _fail(
            _("Le fichier est mal formé (%(kind)s : %(error)s).")
            % {"kind": type(error).__name__, "error": error}
        ) from error


def _without_hold(row: Any) -> Any:
    """A combatant's row without its holder, set once every combatant exists."""
    if isinstance(row, dict) and "held_by" in row:
        return {k: v for k, v in row.items() if k != "held_by"}
    return row


def _target(relation, local_target: Any, users: dict[str, Any], remap: Remap) -> int | None:
    """The new id a many-to-many value of the file names: a user by username, else a row."""
    if _is_user(relation):
        user = users.get(local_target) if isinstance(local_target, str) else None
        return None if user is None else user.pk
    return remap(relation.related_model, local_target)


def _import(data: dict[str, Any]) -> ImportResult:
    users, created_users = _users_import(data.get("users", []))
    campaign_row = {k: v for k, v in data["campaign"].items() if k != "id"}
    new_ids: dict[type[models.Model], dict[int, int]] = {}

    def remap(model, local_id):
        return new_ids.get(model, {}).get(local_id)

    campaign = Campaign()
    for f in _exported_fields(Campaign):
        if f.name in campaign_row:
            setattr(campaign, f.attname, _clean(Campaign, f, campaign_row[f.name], 1))
    if not campaign.name:
        raise _fail(_("La campagne du fichier n'a pas de nom."))
    _create(Campaign, [campaign])
    new_ids[Campaign] = {1: campaign.pk}

    held_by: dict[int, int] = {}  # a hold names a combatant read in the same section
    for section in SECTIONS:
        model = section.model
        rows, images = portability_world.take_images(model, data.get(section.key, []))
        holders = [row.get("held_by") if isinstance(row, dict) else None for row in rows]
        objs = [
            _build(model, _without_hold(row), campaign=campaign, users=users, remap=remap)
            for row in rows
        ]
        local_ids = [row.get("id") for row in rows]
        if len(set(local_ids)) != len(local_ids) or not all(isinstance(i, int) for i in local_ids):
            raise _fail(
                _("Les identifiants de la section « %(key)s » doivent être uniques.")
                % {"key": section.key}
            )
        if model is Roll:
            _unique_keys(objs, [])
        elif model is Advance:
            _unique_keys([], objs)
        _create(model, objs)
        portability_world.put_images(model, objs, images)
        new_ids[model] = {local: obj.pk for local, obj in zip(local_ids, objs, strict=True)}
        held_by.update({o.pk: h for o, h in zip(objs, holders, strict=True) if isinstance(h, int)})
        for relation in _m2m_fields(model):
            through = relation.remote_field.through
            source = relation.m2m_field_name()
            target = relation.m2m_reverse_field_name()
            links = []
            for row, obj in zip(rows, objs, strict=True):
                for local_target in row.get(relation.name, []):
                    target_id = _target(relation, local_target, users, remap)
                    if target_id is None:
                        raise _fail(
                            _(
                                "« %(model)s » %(id)s renvoie à « %(target_model)s » %(target)s, absent du fichier."
                            )
                            % {
                                "model": model._meta.verbose_name,
                                "id": row["id"],
                                "target_model": relation.related_model._meta.verbose_name,
                                "target": local_target,
                            }
                        )
                    links.append(through(**{f"{source}_id": obj.pk, f"{target}_id": target_id}))
            through.objects.bulk_create(links, batch_size=500)
    portability_fights.after_import(new_ids, held_by)
    return ImportResult(campaign=campaign, created_users=created_users)
