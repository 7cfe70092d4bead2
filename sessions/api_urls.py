"""Routes of the sessions API, under /api/campaigns/<campaign_id>/ (see sessions/api.py)."""

from django.urls import path

from sessions import api
from sessions.combat import api as combat_api
from sessions.combat import spell_api as combat_spell_api

app_name = "sessions_api"

IN_CAMPAIGN = "campaigns/<int:campaign_id>/"

urlpatterns = [
    path(IN_CAMPAIGN + "sessions/", api.PlaySessionList.as_view(), name="play-session-list"),
    path(
        IN_CAMPAIGN + "sessions/<int:pk>/",
        api.PlaySessionDetail.as_view(),
        name="play-session-detail",
    ),
    path(IN_CAMPAIGN + "rolls/", api.RollList.as_view(), name="roll-list"),
    path(IN_CAMPAIGN + "rolls/<int:pk>/", api.RollDetail.as_view(), name="roll-detail"),
    path(
        IN_CAMPAIGN + "rolls/<int:pk>/consequences/",
        api.RollConsequence.as_view(),
        name="roll-consequence",
    ),
    path(IN_CAMPAIGN + "injuries/<int:pk>/heal/", api.InjuryHeal.as_view(), name="injury-heal"),
    path(IN_CAMPAIGN + "log/", api.TableLog.as_view(), name="log"),
    path(IN_CAMPAIGN + "arcs/<int:arc_id>/used/", api.UsedInArc.as_view(), name="used-in-arc"),
    path(IN_CAMPAIGN + "odds/", api.Odds.as_view(), name="odds"),
    path(IN_CAMPAIGN + "morale/", api.Morale.as_view(), name="morale"),
    path(IN_CAMPAIGN + "morale/actions/", api.MoraleAction.as_view(), name="morale-action"),
    path(IN_CAMPAIGN + "morale/fate/spend/", api.FateSpend.as_view(), name="fate-spend"),
    path(
        IN_CAMPAIGN + "morale/fortune/requests/",
        api.FortuneRequest.as_view(),
        name="fortune-request",
    ),
    path(
        IN_CAMPAIGN + "morale/fortune/requests/<int:pk>/answer/",
        api.FortuneAnswer.as_view(),
        name="fortune-answer",
    ),
    # combat (§13): the bestiary, encounters and their turns (sessions/combat/api.py)
    path(IN_CAMPAIGN + "stat-blocks/", combat_api.StatBlockList.as_view(), name="stat-block-list"),
    path(
        IN_CAMPAIGN + "stat-blocks/<int:pk>/",
        combat_api.StatBlockDetail.as_view(),
        name="stat-block-detail",
    ),
    path(IN_CAMPAIGN + "encounters/", combat_api.EncounterList.as_view(), name="encounter-list"),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/",
        combat_api.EncounterDetail.as_view(),
        name="encounter-detail",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/combatants/",
        combat_api.EncounterCombatants.as_view(),
        name="encounter-combatants",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/combatants/<int:combatant_id>/",
        combat_api.CombatantDetail.as_view(),
        name="combatant-detail",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/combatants/<int:combatant_id>/status/",
        combat_api.CombatantStatusChange.as_view(),
        name="combatant-status",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/combatants/<int:combatant_id>/reveal/",
        combat_api.CombatantReveal.as_view(),
        name="combatant-reveal",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/initiative/",
        combat_api.EncounterInitiative.as_view(),
        name="encounter-initiative",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/next/",
        combat_api.EncounterNext.as_view(),
        name="encounter-next",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/delay/",
        combat_api.EncounterDelay.as_view(),
        name="encounter-delay",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/attacks/",
        combat_api.EncounterAttacks.as_view(),
        name="encounter-attacks",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/defence/",
        combat_api.AttackDefence.as_view(),
        name="encounter-defence",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/regeneration/",
        combat_api.EncounterRegeneration.as_view(),
        name="encounter-regeneration",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/escape/",
        combat_api.EncounterEscape.as_view(),
        name="encounter-escape",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/combatants/<int:combatant_id>/release/",
        combat_api.CombatantRelease.as_view(),
        name="combatant-release",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/combatants/<int:combatant_id>/stand-up/",
        combat_api.CombatantStandUp.as_view(),
        name="combatant-stand-up",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/end/",
        combat_api.EncounterEnd.as_view(),
        name="encounter-end",
    ),
    # spells (§15): sessions/combat/spell_api.py
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/spells/",
        combat_spell_api.EncounterSpells.as_view(),
        name="encounter-spells",
    ),
    path(
        IN_CAMPAIGN + "encounters/<int:pk>/spells/preview/",
        combat_spell_api.EncounterSpellPreview.as_view(),
        name="encounter-spell-preview",
    ),
]
