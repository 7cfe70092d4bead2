"""The small example compendium that ships with the app (RULES.md §9: data, never code).

The source names no species, classes, abilities, assets or flaws: these are examples a Conteur can
load into a campaign and then edit or delete. Characteristic keys are the glossary's names.
"""

SPECIES = (
    {
        "name": "Humain",
        "description": "Peuple le plus répandu d'Emeshar, adaptable et obstiné.",
        "favourite_characteristics": ["will", "charisma"],
        "modifiers": {"will": 1},
        "innate_abilities": "Polyvalence : une compétence de plus à la création.",
    },
    {
        "name": "Sylvain",
        "description": "Habitants des forêts anciennes, liés aux esprits de la nature.",
        "favourite_characteristics": ["agility", "perception", "wisdom"],
        "modifiers": {"agility": 1, "perception": 1, "vigor": -1},
        "innate_abilities": "Vision nocturne. Pas de loup : aucun bruit en forêt.",
    },
    {
        "name": "Nain des roches",
        "description": "Mineurs et forgerons des montagnes du nord.",
        "favourite_characteristics": ["strength", "vigor"],
        "modifiers": {"vigor": 2, "agility": -1},
        "innate_abilities": "Résistance aux poisons. Sens de la pierre.",
    },
)

# Founding classes, each with its branches (RULES.md §9: tiers and branches).
CLASSES = (
    {
        "name": "Guerrier",
        "tier": "founding",
        "description": "Maître des armes et de la mêlée.",
        "prerequisites": "",
        "branches": (
            ("Gardien", "Protège ses alliés, bouclier en main."),
            ("Bretteur", "Frappe vite et juste."),
        ),
    },
    {
        "name": "Mage",
        "tier": "founding",
        "description": "Façonne l'Énergie en sortilèges.",
        "prerequisites": "",
        "branches": (
            ("Élémentaliste", "Feu, glace et foudre."),
            ("Guérisseur", "Referme les blessures et apaise les âmes."),
        ),
    },
    {
        "name": "Éclaireur",
        "tier": "founding",
        "description": "Pisteur, archer et espion.",
        "prerequisites": "",
        "branches": (
            ("Rôdeur", "Vit et chasse dans les terres sauvages."),
            ("Ombre", "Se fond dans la foule et les ténèbres."),
        ),
    },
)

ABILITIES = (
    {
        "name": "Coup puissant",
        "class": "Guerrier",
        "tier": "founding",
        "cost": 1,
        "prerequisites": "Mêlée 2",
        "description": "Une fois par tour, ajoute la Force aux dégâts d'une attaque.",
    },
    {
        "name": "Mur de boucliers",
        "class": "Guerrier",
        "tier": "superior",
        "cost": 1,
        "prerequisites": "Rigidité 4, branche Gardien",
        "description": "Les alliés adjacents gagnent un dé de surpuissance en Blocage.",
    },
    {
        "name": "Trait de feu",
        "class": "Mage",
        "tier": "founding",
        "cost": 1,
        "prerequisites": "Sorcellerie 2",
        "description": "Projette une flamme à vingt mètres.",
    },
    {
        "name": "Soins",
        "class": "Mage",
        "tier": "founding",
        "cost": 1,
        "prerequisites": "Médecine 1, Sorcellerie 1",
        "description": "Sort de soin : difficulté égale aux blessures à soigner.",
    },
    {
        "name": "Tir précis",
        "class": "Éclaireur",
        "tier": "founding",
        "cost": 1,
        "prerequisites": "Tir 2",
        "description": "Ignore la couverture légère de la cible.",
    },
    {
        "name": "Souffle des anciens",
        "class": None,
        "tier": "founding",
        "cost": 1,
        "prerequisites": "Espèce Sylvain",
        "description": "Aptitude d'espèce : parle aux arbres une fois par jour.",
    },
)

ASSETS = (
    {"name": "Ambidextre", "cost": 3, "description": "Aucun malus pour la main non directrice."},
    {"name": "Mémoire parfaite", "cost": 4, "description": "Se souvient de tout ce qu'il a lu."},
    {"name": "Fortuné", "cost": 2, "description": "Commence avec une bourse bien remplie."},
)

FLAWS = (
    {"name": "Borgne", "value": 3, "description": "Un dé d'impuissance en Perception à distance."},
    {
        "name": "Phobie",
        "value": 2,
        "description": "Une peur irrationnelle, choisie avec le Conteur.",
    },
    {"name": "Recherché", "value": 4, "description": "Une prime pèse sur sa tête."},
)
