"""Reference data of RULES.md as plain, immutable data: the tables the engine reads, no branches.

Labels are the French UI terms; keys are the English code names of GLOSSARY.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

# §1 — the 3×3 grid. Reading (§1): placement follows the order in which the source lists them.
COLUMNS: Mapping[str, tuple[str, str, str]] = MappingProxyType(
    {
        "body": ("strength", "vigor", "agility"),
        "soul": ("power", "charisma", "perception"),
        "mind": ("intellect", "will", "wisdom"),
    }
)
ROWS: Mapping[str, tuple[str, str, str]] = MappingProxyType(
    {
        "impact": ("strength", "power", "intellect"),
        "resilience": ("vigor", "charisma", "will"),
        "finesse": ("agility", "perception", "wisdom"),
    }
)
CHARACTERISTICS: tuple[str, ...] = (
    "strength",
    "vigor",
    "agility",
    "power",
    "charisma",
    "perception",
    "intellect",
    "will",
    "wisdom",
)
LABELS: Mapping[str, str] = MappingProxyType(
    {
        "strength": "Force",
        "vigor": "Vigueur",
        "agility": "Agilité",
        "power": "Pouvoir",
        "charisma": "Charisme",
        "perception": "Perception",
        "intellect": "Intellect",
        "will": "Volonté",
        "wisdom": "Sagesse",
        "body": "Corps",
        "soul": "Âme",
        "mind": "Esprit",
        "impact": "Impact",
        "resilience": "Résilience",
        "finesse": "Finesse",
        "origin": "Origine",
        "combativeness": "Combativité",
        "might": "Puissance",
        "harmony": "Harmonie",
        "exaltation": "Exaltation",
        "vitality": "Vitalité",
        "energy": "Énergie",
        "confidence": "Confiance",
    }
)
# §3 — each gauge belongs to a column.
GAUGE_COLUMNS: Mapping[str, str] = MappingProxyType(
    {"vitality": "body", "energy": "soul", "confidence": "mind"}
)
GAUGES: tuple[str, ...] = ("vitality", "energy", "confidence")

COMBATIVENESS_START = 1
COMBATIVENESS_MAX = 5
EXALTATION_MIN, EXALTATION_MAX = 1, 9
SKILL_MIN, SKILL_MAX = 0, 10
FRAGILITY_MAX = 6  # 6 = death (§8)
EXHAUSTION_MAX = 6  # 6 = death (§8)
FORTUNE_MAX = 5  # §14
FATE_MAX = 5  # §14


@dataclass(frozen=True)
class Skill:
    key: str
    label: str
    category: str  # "combat" | "practical" | "theoretical"
    expertises: tuple[str, ...] = ()

    @property
    def rolled(self) -> bool:
        """Theoretical skills are a knowledge level and are never rolled (§2)."""
        return self.category != "theoretical"


def _skills(category: str, rows: list[tuple[str, str, tuple[str, ...]]]) -> tuple[Skill, ...]:
    return tuple(Skill(key, label, category, ex) for key, label, ex in rows)


# §2 — the source's skills with its example expertises.
SKILLS: tuple[Skill, ...] = (
    _skills(
        "combat",
        [
            ("adresse", "Adresse", ("Esquive", "Lancer", "Équitation")),
            ("bagarre", "Bagarre", ("Pugilat", "Kick", "Prises", "Projection")),
            ("melee", "Mêlée", ("Lames légères", "Lames lourdes", "Haches", "Lances", "Masses")),
            ("rigidite", "Rigidité", ("Blocage", "Armure", "Poison", "Psyché", "Spirituel")),
            (
                "tir",
                "Tir",
                ("Arcs", "Pistolets", "Fusil d'assaut", "Sniper", "Fusil à pompe", "Arbalète"),
            ),
        ],
    )
    + _skills(
        "practical",
        [
            ("artisanat", "Artisanat", ("Sculpture", "Forge", "Peinture")),
            ("animalisme", "Animalisme", ("Comportement", "Communication")),
            ("conduite", "Conduite", ("Moto", "Voiture", "Calèche", "Avion")),
            ("empathie", "Empathie", ("Émotions", "Verbale", "Non verbale")),
            ("enquete", "Enquête", ("Recherche", "Interrogation")),
            ("expression", "Expression", ("Diplomatie", "Bluff", "Intimidation", "Chant")),
            ("furtivite", "Furtivité", ("Faufilage", "Larcin", "Crochetage")),
            ("focalisation", "Focalisation", ()),
            ("intuition", "Intuition", ("Prédiction", "Faiblesse", "Talent")),
            ("medecine", "Médecine", ("Premiers soins", "Examen", "Maladie")),
            ("occulte", "Occulte", ("Perception", "Utilisation", "Compréhension")),
            ("reflexion", "Réflexion", ("Stratégie", "Mémoire", "Adaptation")),
            ("sorcellerie", "Sorcellerie", ("Catégories de sorts",)),
            ("sport", "Sport", ("Course", "Escalade", "Natation")),
            ("vigilance", "Vigilance", ("Dangers", "Suspicion")),
        ],
    )
    + _skills(
        "theoretical",
        [
            ("apparence", "Apparence", ("Haute société", "Reclus")),
            ("cosmologie", "Cosmologie", ("Chaque plan",)),
            ("droit", "Droit", ("Criminel", "Entreprenariat")),
            ("economie", "Économie", ("Service", "Objet", "Propriété")),
            ("histoire", "Histoire", ("Chaque continent",)),
            ("nature", "Nature", ("Forêt", "Marais", "Montagne")),
            ("religion", "Religion", ("Chaque continent",)),
            ("sciences", "Sciences", ("Chimie", "Physique", "Alchimie")),
            ("technologie", "Technologie", ("Ordinateur", "Robotique", "Voiture", "Avion")),
            ("urbanisme", "Urbanisme", ("Architecture", "Métropole")),
        ],
    )
)
SKILLS_BY_KEY: Mapping[str, Skill] = MappingProxyType({s.key: s for s in SKILLS})


def skills_in(category: str) -> tuple[Skill, ...]:
    """Return the skills of one category (combat, practical, theoretical), in source order."""
    return tuple(s for s in SKILLS if s.category == category)


@dataclass(frozen=True)
class Language:
    key: str
    label: str
    people: str
    aliases: tuple[str, ...] = ()
    from_primordial: bool = True
    note: str = ""
    magical: bool = False


# §2 — Reading: the union of the source's two lists, with aliases.
LANGUAGES: tuple[Language, ...] = (
    Language("occidental", "Occidental", "Emeshar"),
    Language("oriental", "Oriental", "Nasuna", note="Divisée en plusieurs patois régionaux."),
    Language("septentrional", "Septentrional", "Mivellun", aliases=("Nordique",)),
    Language("meridional", "Méridional", "Alrayisa"),
    Language("central", "Central", "Yvelère"),
    Language("mashaya", "Mashaya", "Mashayana"),
    Language("atlante", "Atlante", "Atlantis", note="Quasiment oubliée de tous."),
    Language("tropical", "Tropical", "Toxanacl", aliases=("Toxanacl",)),
    Language("draconique", "Draconique", "les Dragons", from_primordial=False),
    Language("aquatique", "Aquatique", "les Océanides"),
    Language("geant", "Géant", "les géants", from_primordial=False),
    Language("primordial", "Primordial", "les Entités", note="Origine de la plupart des langues."),
    Language(
        "vrai_primordial",
        "Vrai Primordial",
        "les Entités",
        magical=True,
        note=(
            "Langue magique : son locuteur est compris de toute créature parlant une langue "
            "issue du Primordial, mais ne les comprend pas."
        ),
    ),
)
LANGUAGES_BY_KEY: Mapping[str, Language] = MappingProxyType({lang.key: lang for lang in LANGUAGES})
TRUE_PRIMORDIAL, PRIMORDIAL = "vrai_primordial", "primordial"


# §2 — the source's meaning of each language level.
LANGUAGE_LEVELS: Mapping[int, str] = MappingProxyType(
    {
        0: "Aucune connaissance de la langue.",
        1: "Connaît les formules de base de la langue.",
        2: "Connaît les termes généraux (les couleurs primaires par exemple).",
        3: "Parle correctement avec quelqu'un connaissant la langue.",
        4: "Tient une conversation non complexe avec un très mauvais accent.",
        5: "Connaissance étendue, accès aux expressions.",
        6: "Parle presque couramment, avec un mauvais accent.",
        7: "Niveau d'un habitué de la langue.",
        8: "Connaît des mots rares.",
        9: "Use d'un langage très soutenu.",
        10: "Connaissance parfaite de la langue.",
    }
)

# §3 — Reading: bonus totals by Exaltation 1..9 (the source's "Bonus total" row).
EXALTATION_BONUS_TOTAL: tuple[int, ...] = (0, 0, 15, 30, 60, 90, 135, 195, 315)
PREMICE_TOTAL = 45  # §3 Reading: three prémices chosen at creation sum to 45, each ≥ 1.


@dataclass(frozen=True)
class RestRank:
    key: str
    label: str
    formula: str  # "might+harmony" | "might" | "harmony" | "one" | "zero"


# §4 — ranks from easiest to hardest.
REST_RANKS: tuple[RestRank, ...] = (
    RestRank("quick", "Rapide", "might+harmony"),
    RestRank("normal", "Normale", "might"),
    RestRank("hard", "Difficile", "harmony"),
    RestRank("very_hard", "Très difficile", "one"),
    RestRank("impossible", "Impossible", "zero"),
)
REST_RANK_KEYS: tuple[str, ...] = tuple(r.key for r in REST_RANKS)
DEFAULT_REST_RANK = "normal"


@dataclass(frozen=True)
class AggravationEffect:
    """One row of the Aggravation table, with its mechanical consequences as data (§8)."""

    low: int
    high: int
    key: str
    label: str
    description: str
    fragility: int = 0  # Fragilité points gained
    scar: bool = False  # a visible scar on face or chest
    agony: int = 0  # Agonie gained at once
    agony_locked_until_healed: bool = False
    bane_dice: int = 0  # impuissance dice on the rolls of `bane_scope`
    bane_scope: str = ""
    unusable_limb: str = ""  # "arm" | "leg": unusable until healed
    lost_limb: str = ""  # "arm" | "leg" | "eye" | "ear"
    lose_weapon_or_armour_flaw: bool = False
    prone: bool = False
    damaged_item: bool = False
    harder_rest_gauges: tuple[str, ...] = ()  # one rank harder for these gauges (§4)
    death: bool = False


def _row(*effects: AggravationEffect, extra_fragility: int = 0) -> tuple[AggravationEffect, ...]:
    if not extra_fragility:
        return effects
    return tuple(
        AggravationEffect(**{**e.__dict__, "fragility": e.fragility + extra_fragility})
        for e in effects
    )


E = AggravationEffect
# §8 — the Aggravation table, keyed by the victim's Fragilité (0..5).
AGGRAVATION_TABLE: Mapping[int, tuple[AggravationEffect, ...]] = MappingProxyType(
    {
        0: _row(
            E(1, 5, "fragilisation", "Fragilisation", "La victime subit 1 de Fragilité.", 1),
            E(6, 10, "protection", "Protection", "Rien."),
        ),
        1: _row(
            E(1, 5, "fragilisation", "Fragilisation", "La victime subit 1 de Fragilité.", 1),
            E(
                6,
                8,
                "disarmed",
                "Désarmement",
                "Perd son arme, ou obtient une faille dans son armure.",
                lose_weapon_or_armour_flaw=True,
            ),
            E(9, 10, "off_balance", "Perte d'équilibre", "Se retrouve au sol.", prone=True),
        ),
        2: _row(
            E(1, 6, "scarred", "Balafre", "1 de Fragilité et une balafre.", 1, scar=True),
            E(
                7,
                9,
                "broken_bones",
                "Os de bras ou de jambe fracturés",
                "1 dé d'impuissance pour tout jet usant de ce membre.",
                bane_dice=1,
                bane_scope="limb",
            ),
            E(
                10,
                10,
                "damaged_item",
                "Équipement abîmé",
                "Un équipement est brisé.",
                0,
                damaged_item=True,
            ),
        ),
        3: _row(
            E(
                1,
                1,
                "stomach",
                "Estomac",
                "1 point d'Agonie immédiat (perdu seulement après guérison) et 1 de Fragilité.",
                1,
                agony=1,
                agony_locked_until_healed=True,
            ),
            E(
                2,
                4,
                "arm_tendons",
                "Tendons de bras",
                "Bras inutilisable jusqu'à guérison.",
                1,
                unusable_limb="arm",
            ),
            E(
                5,
                7,
                "leg_tendons",
                "Tendons de jambe",
                "Jambe inutilisable jusqu'à guérison.",
                1,
                unusable_limb="leg",
            ),
            E(
                8,
                10,
                "ear",
                "Oreille",
                "Perd une oreille : 1 dé d'impuissance aux jets de Perception auditive.",
                bane_dice=1,
                bane_scope="hearing",
                lost_limb="ear",
            ),
        ),
        4: _row(
            E(
                1,
                2,
                "rib_cage",
                "Cage thoracique",
                "Restauration de Vitalité et d'Énergie plus difficile d'un cran.",
                harder_rest_gauges=("vitality", "energy"),
            ),
            E(
                3,
                4,
                "eye",
                "Œil",
                "1 dé d'impuissance aux jets de Perception visuelle et de vision en profondeur.",
                bane_dice=1,
                bane_scope="sight",
                lost_limb="eye",
            ),
            E(5, 7, "arm_lost", "Bras", "Perd un bras.", lost_limb="arm"),
            E(8, 10, "leg_lost", "Jambe", "Perd une jambe.", lost_limb="leg"),
            extra_fragility=1,
        ),
        5: _row(
            E(1, 2, "head", "Tête", "La tête est atteinte : mort.", death=True),
            E(3, 4, "beheaded", "Décapitation", "Perd sa tête : mort.", death=True),
            E(5, 6, "chest", "Thorax", "La cage thoracique est atteinte : mort.", death=True),
            E(7, 8, "heart", "Cœur", "Le cœur est atteint : mort.", death=True),
            E(9, 10, "neck", "Cou", "Le cou est atteint : mort.", death=True),
        ),
    }
)
del E

# §11 — training durations in in-game days: alone / with a trainer / educational trainer.
TRAINER_KINDS: tuple[str, ...] = ("alone", "trainer", "educational")
TRAINING_DAYS: Mapping[str, dict[str, int]] = MappingProxyType(
    {
        "characteristic": {"alone": 30, "trainer": 21, "educational": 14},
        "skill": {"alone": 120, "trainer": 90, "educational": 60},
        "specialty": {"alone": 30, "trainer": 21, "educational": 14},
        "forgotten_domain": {"alone": 365, "trainer": 270, "educational": 180},
    }
)
# §11 Reading: these finish at the end of the ellipse in which they are bought.
END_OF_ELLIPSE_TRAININGS: frozenset[str] = frozenset({"combativeness", "ability"})

# §10 — XP costs.
XP_COSTS: Mapping[str, int] = MappingProxyType(
    {
        "characteristic": 5,
        "skill": 10,
        "combativeness": 25,
        "forgotten_domain": 25,
        "specialty": 5,
    }
)
ABILITY_XP_COSTS: Mapping[str, int] = MappingProxyType(
    {"founding": 10, "superior": 15, "heroic": 20, "legendary": 30, "supreme": 50}
)

# §10 — arc length multiplier.
LENGTH_MULTIPLIERS: Mapping[str, int] = MappingProxyType(
    {"hours": 1, "days": 2, "weeks": 3, "months": 4, "years": 5}
)
LENGTH_LABELS: Mapping[str, str] = MappingProxyType(
    {"hours": "heures", "days": "jours", "weeks": "semaines", "months": "mois", "years": "années"}
)
# §11 — ellipse XP trainer multiplier.
TRAINER_MULTIPLIERS: Mapping[str, int] = MappingProxyType(
    {"free": 1, "superior": 2, "very_good": 3, "expert": 4, "peak": 5}
)

# §9 — creation costs (points per step).
CREATION_BUDGET = 75
CREATION_COSTS: Mapping[str, int] = MappingProxyType(
    {
        "characteristic": 1,
        "skill": 2,
        "language": 2,  # Reading §2: languages bought like a skill.
        # Reading §2: Vrai Primordial "possède sa propre base d'achat" and is « extrêmement
        # difficile à apprendre »: its own base, twice a language's (+1 = 4), `language_cost`.
        "true_primordial": 4,
        "expertise": 1,
        "combativeness": 5,
        "founding_class": 3,
        "founding_ability": 1,
        "species_ability": 1,
    }
)
CHARACTERISTIC_START = 2  # §1, also Origine (Reading §1)
CHARACTERISTIC_BASE_MAX = 8  # §1: 8 + the species' favourite bonus


@dataclass(frozen=True)
class HealingThreshold:
    """Healing complexity when scars ≥ `fraction` × gauge maximum (§15)."""

    fraction: Fraction
    complexity: int


# §15 — from the highest threshold down; "at least one scar" → 2; "no scar" → 1.
HEALING_THRESHOLDS: tuple[HealingThreshold, ...] = (
    HealingThreshold(Fraction(3, 4), 7),
    HealingThreshold(Fraction(1, 2), 6),
    HealingThreshold(Fraction(1, 4), 5),
    HealingThreshold(Fraction(1, 5), 4),
    HealingThreshold(Fraction(1, 10), 3),
)
HEALING_ANY_SCAR, HEALING_NO_SCAR = 2, 1


@dataclass(frozen=True)
class ChecklistItem:
    key: str
    label: str
    points: int


# §10 — the Conteur's end-of-arc checklist.
DANGER_LEVELS: Mapping[int, str] = MappingProxyType(
    {
        1: "Très peu dangereux",
        2: "Peu dangereux",
        3: "Dangereux",
        4: "Très dangereux",
        5: "Mortel",
    }
)
BALANCE_ITEMS: tuple[ChecklistItem, ...] = (
    ChecklistItem("all_active", "Tous les personnages présents étaient actifs", 1),
    ChecklistItem("no_monopoly", "Personne n'a monopolisé la parole", 1),
    ChecklistItem("even_speech", "Tout le monde a parlé de manière équilibrée", 1),
    ChecklistItem("coordinated", "Les personnages ont agi de manière coordonnée", 1),
    ChecklistItem("suggestions", "Suggestions ou retours constructifs sur l'histoire", 1),
)
INGENUITY_ITEMS: tuple[ChecklistItem, ...] = (
    ChecklistItem("arc_finished", "Les joueurs ont fini l'arc narratif", 1),
    ChecklistItem("wanted_result", "Les joueurs ont obtenu le résultat souhaité", 1),
    ChecklistItem("good_idea", "Une bonne idée a été utilisée", 1),
    ChecklistItem("deductions", "Des déductions correctes ont été faites", 1),
    ChecklistItem("other_challenge", "L'arc était un défi sur un autre plan que le danger", 1),
)
BOUNTY_ITEMS: tuple[ChecklistItem, ...] = (
    ChecklistItem("took_part", "A participé à l'arc", 2),
    ChecklistItem("funny", "A été particulièrement amusant", 1),
    ChecklistItem("roleplay", "RP particulièrement intéressant", 1),
    ChecklistItem("curious", "A été curieux", 1),
)
ENDING_BASE: Mapping[str, int] = MappingProxyType({"none": 0, "chapter": 1, "act": 2})
ENDING_ITEMS: tuple[ChecklistItem, ...] = (
    ChecklistItem("main_objectives", "La majorité des objectifs principaux ont été remplis", 1),
    ChecklistItem("hard_to_finish", "Difficile à finir", 1),
    ChecklistItem("satisfying_ending", "Fin satisfaisante", 1),
)
OPTIONAL_OBJECTIVE_POINTS = 1

# §11 Reading: ellipse lengths in days (weeks of 7, months of 30, years of 365).
DAYS_PER_WEEK, DAYS_PER_MONTH, DAYS_PER_YEAR = 7, 30, 365
MEDIUM_ELLIPSE_MIN_DAYS = 14
MAJOR_ELLIPSE_MIN_DAYS = 90
ELLIPSE_KINDS: tuple[str, ...] = ("minor", "medium", "major")
ELLIPSE_ACTIONS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "minor": ("learn_other_class_ability", "rest_exhaustion", "train_xp"),
        "medium": ("train_xp", "learn_branch", "lower_thresholds"),
        "major": ("gain_class", "lower_thresholds", "train_xp"),
    }
)
ELLIPSE_ACTION_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "learn_other_class_ability": "Apprendre une aptitude d'une classe non possédée (enseignant)",
        "rest_exhaustion": "Se reposer pour effacer l'Épuisement",
        "train_xp": "Dépenser son expérience en s'entraînant",
        "learn_branch": "Apprendre une branche d'une classe possédée",
        "lower_thresholds": "Se reposer pour faire baisser ses Seuils",
        "gain_class": "Obtenir une classe dont on remplit les prérequis (entraîneur)",
    }
)
SURCHARGE_SERIOUS_WOUNDS = 20  # §11: serious wounds self-inflicted in a week for +1 XP
