"""API shapes: input serializers check types and ranges; output serializers show the sheet with
its derived values (from `rules`). Input and output are kept apart; services decide the rest."""

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from characters import sheet
from characters.condition import POINTS_MAX
from characters.fields import SHEET_FIELDS
from characters.forms import GAUGE_CHOICES, REST_CHOICES
from characters.models import Character, CharacterChange, CharacterLanguage, CharacterSkill
from common.api_fields import BooleanField, TextField
from rules import reference


def _version_field() -> serializers.IntegerField:
    """The version the sheet was read at (a write may send an If-Match header instead)."""
    return serializers.IntegerField(min_value=1, required=False)


def _input_field(spec) -> serializers.Field:
    """A sheet field as a request takes it, described by its French name (and who may write it)."""
    text = str(spec.label) + (" (le Conteur seul)" if spec.storyteller_only else "")
    if spec.kind == "int":
        return serializers.IntegerField(
            min_value=spec.low, max_value=spec.high, required=False, help_text=text
        )
    if spec.kind == "bool":
        return BooleanField(required=False, help_text=text)
    if spec.kind == "choice":
        return serializers.ChoiceField(choices=spec.choices, required=False, help_text=text)
    if spec.kind == "species":
        return serializers.IntegerField(
            allow_null=True, required=False, help_text=f"{text} : l'id d'une espèce du compendium"
        )
    return TextField(max_length=spec.high, allow_blank=True, required=False, help_text=text)


LANGUAGE_KEYS = [lang.key for lang in reference.LANGUAGES]


class CharacterPatchIn(serializers.Serializer):
    """The sheet fields to change, by name, each with its own type and bounds — at least one —
    and the `version` they were read at (or an If-Match header). Fields not sent are unchanged."""

    requires_a_field_besides = ("version",)  # the schema says so (a PATCH of nothing is a 400)
    version = _version_field()

    def get_fields(self):
        """Every sheet field for the schema; for a request, only those it sends (the others
        are optional and absent: 46 fields built per PATCH would be most of its CPU)."""
        fields = super().get_fields()
        sent = getattr(self, "initial_data", None)
        names = (
            SHEET_FIELDS if not isinstance(sent, dict) else [n for n in sent if n in SHEET_FIELDS]
        )
        for name in names:
            fields[name] = _input_field(SHEET_FIELDS[name])
        return fields


class SkillOut(serializers.ModelSerializer):
    label = serializers.CharField(read_only=True)
    category = serializers.CharField(read_only=True)

    class Meta:
        model = CharacterSkill
        fields = ["key", "kind", "label", "category", "level", "expertises"]


class SkillIn(serializers.Serializer):
    key = TextField(max_length=120, required=False)
    kind = serializers.ChoiceField(choices=["skill", "forgotten_domain"], default="skill")
    level = serializers.IntegerField(min_value=reference.SKILL_MIN, max_value=reference.SKILL_MAX)
    expertises = serializers.ListField(
        child=TextField(max_length=120), required=False, max_length=50
    )
    version = _version_field()


class SkillCreateIn(SkillIn):
    """POST: the same, naming the skill in `key` (the URL names it for PUT)."""

    key = TextField(max_length=120)


class LanguageOut(serializers.ModelSerializer):
    label = serializers.CharField(source="get_key_display", read_only=True)
    level_meaning = serializers.CharField(read_only=True)

    class Meta:
        model = CharacterLanguage
        fields = ["key", "label", "level", "writing", "level_meaning"]


class LanguageIn(serializers.Serializer):
    key = serializers.ChoiceField(
        choices=[lang.key for lang in reference.LANGUAGES], required=False
    )
    level = serializers.IntegerField(min_value=0, max_value=10)
    writing = BooleanField(default=False)
    version = _version_field()


class LanguageCreateIn(LanguageIn):
    """POST: the same, naming the language in `key` (the URL names it for PUT)."""

    key = serializers.ChoiceField(choices=[lang.key for lang in reference.LANGUAGES])


class EntriesIn(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1), max_length=200
    )
    version = _version_field()


class EntryOut(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()


class CharacterSummaryOut(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.get_username")

    class Meta:
        model = Character
        fields = ["id", "campaign", "name", "owner", "version", "updated_at"]


class CharacterOut(serializers.ModelSerializer):
    """The full sheet: stored values, rows, owned entries and every derived value."""

    owner = serializers.CharField(source="owner.get_username")
    updated_by = serializers.CharField(source="updated_by.get_username", default=None)
    species = EntryOut(allow_null=True)
    premices = serializers.SerializerMethodField()
    skills = SkillOut(many=True)
    languages = LanguageOut(many=True)
    classes = EntryOut(many=True)
    branches = EntryOut(many=True)
    abilities = EntryOut(many=True)
    assets = EntryOut(many=True)
    flaws = EntryOut(many=True)
    derived = serializers.SerializerMethodField()

    class Meta:
        model = Character
        fields = [
            "id",
            "campaign",
            "owner",
            "version",
            "updated_at",
            "updated_by",
            *(f for f in SHEET_FIELDS if f not in ("species", "private_notes")),
            "species",
            "private_notes",
            "premices",
            "skills",
            "languages",
            "classes",
            "branches",
            "abilities",
            "assets",
            "flaws",
            "derived",
        ]

    def get_premices(self, character) -> dict:
        return {g: getattr(character, f"premice_{g}") for g in reference.GAUGES}

    def get_derived(self, character) -> dict:
        return sheet.derive(character).to_dict()

    def to_representation(self, character):
        data = super().to_representation(character)
        if not getattr(character, "can_see_private", False):
            data.pop("private_notes", None)
        return data


# The sheet's stored values as `CharacterOut` lists them, between its header and `species`.
SCALAR_FIELDS = tuple(f for f in SHEET_FIELDS if f not in ("species", "private_notes"))
_DATETIME = serializers.DateTimeField()


def _entry(entry) -> dict:
    return {"id": entry.pk, "name": str(entry.name)}


class CreatedOut(CharacterOut):
    """A new sheet, with what its creation left to say."""

    warnings = serializers.ListField(
        child=serializers.CharField(),
        help_text=(
            "Phrases en français sur la création acceptée : les points de création laissés "
            "sans emploi, par budget. Vide quand tout est dépensé."
        ),
    )

    class Meta(CharacterOut.Meta):
        fields = [*CharacterOut.Meta.fields, "warnings"]


def character_out(character) -> dict:
    """`CharacterOut(character).data` as a plain dict built from the loaded rows: the same JSON,
    key for key — CharacterOut stays its schema. Takes a character with its rows read by
    `selectors.character_load_rows` (its `.entries`, one query for every compendium relation)."""
    data = {
        "id": character.pk,
        "campaign": character.campaign_id,
        "owner": character.owner.get_username(),
        "version": character.version,
        "updated_at": _DATETIME.to_representation(character.updated_at),
        "updated_by": character.updated_by.get_username() if character.updated_by else None,
        **{name: getattr(character, name) for name in SCALAR_FIELDS},
        "species": _entry(character.species) if character.species else None,
    }
    if getattr(character, "can_see_private", False):
        data["private_notes"] = character.private_notes
    data["premices"] = {g: getattr(character, f"premice_{g}") for g in reference.GAUGES}
    data["skills"] = [
        {
            "key": row.key,
            "kind": row.kind,
            "label": str(row.label),
            "category": str(row.category),
            "level": row.level,
            "expertises": row.expertises,
        }
        for row in character.skills.all()
    ]
    data["languages"] = [
        {
            "key": row.key,
            "label": str(row.get_key_display()),
            "level": row.level,
            "writing": row.writing,
            "level_meaning": str(row.level_meaning),
        }
        for row in character.languages.all()
    ]
    for relation, entries in character.entries.items():
        data[relation] = [_entry(entry) for entry in entries]
    data["derived"] = sheet.derive(character).to_dict()
    return data


# --- damage, rest and care: the page forms' choices and bounds; the services decide the rest ---


class DamageIn(serializers.Serializer):
    gauge = serializers.ChoiceField(choices=GAUGE_CHOICES)
    amount = serializers.IntegerField(min_value=1, max_value=POINTS_MAX)
    scars = serializers.IntegerField(
        min_value=0, max_value=POINTS_MAX, default=0, help_text="Dont blessures graves."
    )
    version = _version_field()


class RestIn(serializers.Serializer):
    """A rest's conditions (§4); the rules give its rank. Unhealed injuries (a rib cage) are read
    from the character's record, never sent."""

    rank = serializers.ChoiceField(
        choices=REST_CHOICES,
        default=reference.DEFAULT_REST_RANK,
        help_text="Les conditions du repos avant les décalages (normale d'ordinaire).",
    )
    slept_badly = BooleanField(default=False, help_text="Mal dormi : un cran plus dur.")
    ate_badly = BooleanField(default=False, help_text="Mal mangé : un cran plus dur.")
    whole_day_of_rest = BooleanField(
        default=False, help_text="Une journée entière de repos : un cran plus facile."
    )
    version = _version_field()


class ObjectiveIn(serializers.Serializer):
    version = _version_field()


class HealIn(serializers.Serializer):
    gauge = serializers.ChoiceField(choices=GAUGE_CHOICES)
    points = serializers.IntegerField(min_value=1, max_value=POINTS_MAX)
    version = _version_field()


class StabiliseIn(serializers.Serializer):
    gauge = serializers.ChoiceField(choices=GAUGE_CHOICES)
    version = _version_field()


class CharacterActionOut(serializers.Serializer):
    """What an action did, in French, and the sheet after it."""

    notes = serializers.ListField(child=serializers.CharField())
    character = CharacterOut()


class ChangeOut(serializers.ModelSerializer):
    by = serializers.CharField(source="by.get_username", default=None)
    note = serializers.CharField(
        read_only=True,
        help_text="Ce qui a causé le changement, s'il est dit : « Une attaque » (un PNJ caché), "
        "« Attaque de Brann », « Critique subi » ; vide sinon.",
    )

    class Meta:
        model = CharacterChange
        fields = ["id", "version", "field", "old_value", "new_value", "action", "by", "note", "at"]


class ClosedMapIn(serializers.Serializer):
    """An object whose keys are a closed list of names (each an optional field): any other key
    is refused, and the schema says `additionalProperties: false`."""

    request_schema_extra = {"additionalProperties": False}
    unknown_message = gettext_lazy("Nom inconnu.")

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = [key for key in data if key not in self.fields]
            if unknown:
                raise serializers.ValidationError({key: [self.unknown_message] for key in unknown})
        return super().to_internal_value(data)


class CreationSkillIn(serializers.Serializer):
    """One skill of a new character: its level and its expertises."""

    level = serializers.IntegerField(
        min_value=reference.SKILL_MIN, max_value=reference.SKILL_MAX, default=0
    )
    expertises = serializers.ListField(
        child=TextField(max_length=120, allow_blank=True), max_length=50, default=list
    )


class CreationLanguageIn(serializers.Serializer):
    """One language of a new character: its level, and whether it is written."""

    level = serializers.IntegerField(
        min_value=reference.SKILL_MIN, max_value=reference.SKILL_MAX, default=0
    )
    writing = BooleanField(default=False)


class CreationCharacteristicsIn(ClosedMapIn):
    """The nine characteristics by name (those not sent keep their starting value)."""

    unknown_message = gettext_lazy("Caractéristique inconnue.")

    def get_fields(self):
        return {
            name: serializers.IntegerField(
                min_value=0, max_value=20, required=False, help_text=SHEET_FIELDS[name].label
            )
            for name in reference.CHARACTERISTICS
        }


class CreationPremicesIn(ClosedMapIn):
    """The prémices of the three gauges by name."""

    unknown_message = gettext_lazy("Jauge inconnue.")

    def get_fields(self):
        return {
            gauge: serializers.IntegerField(min_value=0, max_value=45, required=False)
            for gauge in reference.GAUGES
        }


class CreationSkillsIn(ClosedMapIn):
    """The skills by key (`tir`, `melee`…), each with its level and expertises; the others are
    not bought."""

    unknown_message = gettext_lazy("Compétence inconnue.")

    def get_fields(self):
        return {
            skill.key: CreationSkillIn(required=False, help_text=str(skill.label))
            for skill in reference.SKILLS
        }


class CreationLanguagesIn(ClosedMapIn):
    """The languages by key (`occidental`…), each with its level and writing."""

    unknown_message = gettext_lazy("Langue inconnue.")

    def get_fields(self):
        return {
            lang.key: CreationLanguageIn(required=False, help_text=str(lang.label))
            for lang in reference.LANGUAGES
        }


class CreationIn(serializers.Serializer):
    """A new character: the same data the creation wizard sends, checked by the same rules."""

    campaign = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="La campagne.")
    owner = serializers.IntegerField(
        min_value=1,
        max_value=2**63 - 1,
        required=False,
        allow_null=True,
        help_text="Le joueur à qui il sera (le Conteur seul choisit un autre que lui-même).",
    )
    name = TextField(max_length=120)
    species = serializers.IntegerField(allow_null=True, required=False)
    lineage = TextField(max_length=120, allow_blank=True, required=False)
    notes = TextField(max_length=20_000, allow_blank=True, required=False)
    characteristics = CreationCharacteristicsIn(required=False)
    origin = serializers.IntegerField(min_value=0, max_value=20, required=False)
    combativeness = serializers.IntegerField(min_value=0, max_value=10, required=False)
    premices = CreationPremicesIn(required=False)
    skills = CreationSkillsIn(required=False)
    languages = CreationLanguagesIn(required=False)
    classes = serializers.ListField(child=serializers.IntegerField(), required=False)
    abilities = serializers.ListField(child=serializers.IntegerField(), required=False)
    assets = serializers.ListField(child=serializers.IntegerField(), required=False)
    flaws = serializers.ListField(child=serializers.IntegerField(), required=False)


# --- a sheet's export, as the import takes it back ----------------------------------------


class ExportedSkillIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["skill", "forgotten_domain"], default="skill")
    key = serializers.CharField(max_length=120)
    level = serializers.IntegerField(min_value=reference.SKILL_MIN, max_value=reference.SKILL_MAX)
    expertises = serializers.ListField(
        child=serializers.CharField(max_length=120), required=False, max_length=50
    )


class ExportedLanguageIn(serializers.Serializer):
    key = serializers.ChoiceField(choices=[lang.key for lang in reference.LANGUAGES])
    level = serializers.IntegerField(min_value=0, max_value=10)
    writing = BooleanField(default=False)


class CharacterExportIn(serializers.Serializer):
    """A sheet as the export writes it: stored values, rows, and entries and species by name."""

    format = serializers.ChoiceField(choices=["altherion.character/1"])
    premices = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=45), required=False
    )
    skills = ExportedSkillIn(many=True, required=False)
    languages = ExportedLanguageIn(many=True, required=False)

    def get_fields(self):
        fields = super().get_fields()
        for name, spec in SHEET_FIELDS.items():
            if name == "species":
                fields[name] = serializers.CharField(
                    max_length=120, allow_null=True, required=False, help_text="Son nom."
                )
            else:
                fields[name] = _input_field(spec)
        for relation in ("classes", "branches", "abilities", "assets", "flaws"):
            fields[relation] = serializers.ListField(
                child=serializers.CharField(max_length=120), required=False, help_text="Par nom."
            )
        return fields


class CharacterImportIn(serializers.Serializer):
    """The import's body: an exported sheet, and whose character it will be."""

    character = CharacterExportIn()
    owner = serializers.IntegerField(
        min_value=1,
        max_value=2**63 - 1,
        required=False,
        allow_null=True,
        help_text="Le joueur à qui il sera (le Conteur seul choisit un autre que lui-même).",
    )
