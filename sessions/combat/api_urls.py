"""Routes of the combat API (§13, §15), under /api/campaigns/<campaign_id>/: the bestiary,
encounters, their turns, blows, grapples and spells. sessions/api_urls.py appends them to its
own (namespace `sessions_api`)."""

from django.urls import path

from sessions.combat import api, spell_api, summary_api

IN_CAMPAIGN = "campaigns/<int:campaign_id>/"  # as sessions/api_urls.py

urlpatterns = [
    # combat (§13): the bestiary, encounters and their turns (api.py)
    path(IN_CAMPAIGN + "stat-blocks/", api.StatBlockList.as_view(), name="stat-block-list"),
    path(
        IN_CAMPAIGN + "stat-blocks/<int:pk>/",
        api.StatBlockDetail.as_view(),
        name="stat-block-detail",
    ),
    path(IN_CAMPAIGN + "encounters/", api.EncounterList.as_view(), name="encounter-list"),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/",
        api.EncounterDetail.as_view(),
        name="encounter-detail",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/summary/",
        summary_api.EncounterSummary.as_view(),
        name="encounter-summary",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/combatants/",
        api.EncounterCombatants.as_view(),
        name="encounter-combatants",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/combatants/<int:combatant_id>/",
        api.CombatantDetail.as_view(),
        name="combatant-detail",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/combatants/<int:combatant_id>/status/",
        api.CombatantStatusChange.as_view(),
        name="combatant-status",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/combatants/<int:combatant_id>/reveal/",
        api.CombatantReveal.as_view(),
        name="combatant-reveal",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/initiative/",
        api.EncounterInitiative.as_view(),
        name="encounter-initiative",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/next/",
        api.EncounterNext.as_view(),
        name="encounter-next",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/delay/",
        api.EncounterDelay.as_view(),
        name="encounter-delay",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/attacks/",
        api.EncounterAttacks.as_view(),
        name="encounter-attacks",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/defence/",
        api.AttackDefence.as_view(),
        name="encounter-defence",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/regeneration/",
        api.EncounterRegeneration.as_view(),
        name="encounter-regeneration",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/escape/",
        api.EncounterEscape.as_view(),
        name="encounter-escape",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/combatants/<int:combatant_id>/release/",
        api.CombatantRelease.as_view(),
        name="combatant-release",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/combatants/<int:combatant_id>/stand-up/",
        api.CombatantStandUp.as_view(),
        name="combatant-stand-up",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/end/",
        api.EncounterEnd.as_view(),
        name="encounter-end",
    ),
    # spells (§15): spell_api.py
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/spells/",
        spell_api.EncounterSpells.as_view(),
        name="encounter-spells",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/spells/resolve/",
        spell_api.EncounterSpellResolve.as_view(),
        name="encounter-spell-resolve",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/spells/preview/",
        spell_api.EncounterSpellPreview.as_view(),
        name="encounter-spell-preview",
    ),
]
