"""Pages of combat (namespace `sessions`, appended to sessions/urls.py): the bestiary, the
Conteur's page of the fight and the tracker's actions at the table."""

from django.urls import path

from common import converters  # noqa: F401 (registers <rowid:…>)
from sessions.combat import screen as combat_screen
from sessions.combat import spell_views, views

campaign = ""  # under `campaigns/<rowid:pk>/`, as sessions/urls.py
combat = "table/combat/"
encounter = combat + "<rowid:encounter_pk>/"
combatant = encounter + "combatants/<rowid:combatant_pk>/"

urlpatterns = [
    path(campaign + "bestiary/", views.bestiary, name="bestiary"),
    path(campaign + "bestiary/new/", views.stat_block_create, name="stat_block_create"),
    path(
        campaign + "bestiary/<rowid:block_pk>/edit/", views.stat_block_edit, name="stat_block_edit"
    ),
    path(
        campaign + "bestiary/<rowid:block_pk>/delete/",
        views.stat_block_delete,
        name="stat_block_delete",
    ),
    path(combat, views.combat_page, name="combat"),
    path(combat + "tracker/", views.combat_tracker, name="combat_tracker"),
    path(combat + "open/", views.encounter_open, name="combat_open"),
    path(encounter + "party/", views.combatants_party, name="combat_party"),
    path(encounter + "block/", views.combatants_block, name="combat_block"),
    path(encounter + "quick/", views.combatants_quick, name="combat_quick"),
    path(encounter + "initiative/", views.initiative, name="combat_initiative"),
    path(encounter + "next/", views.turn_next, name="combat_next"),
    path(encounter + "delay/", views.turn_delay, name="combat_delay"),
    path(encounter + "end/", views.encounter_end, name="combat_end"),
    path(encounter + "screen/", combat_screen.combat_screen, name="combat_screen"),
    path(encounter + "attack/", views.attack, name="combat_attack"),
    path(encounter + "defend/", views.defend, name="combat_defend"),
    path(encounter + "regeneration/", views.regeneration, name="combat_regeneration"),
    path(encounter + "grapple/", views.grapple, name="combat_grapple"),
    path(encounter + "escape/", views.escape, name="combat_escape"),
    path(encounter + "spell/", spell_views.spell_form, name="combat_spell"),
    path(encounter + "spell/preview/", spell_views.spell_preview, name="combat_spell_preview"),
    path(encounter + "spell/cast/", spell_views.spell_cast, name="combat_spell_cast"),
    path(encounter + "spell/resolve/", spell_views.spell_resolve, name="combat_spell_resolve"),
    path(combatant + "reveal/", views.combatant_reveal, name="combatant_reveal"),
    path(combatant + "status/", views.combatant_status, name="combatant_status"),
    path(combatant + "remove/", views.combatant_remove, name="combatant_remove"),
    path(combatant + "release/", views.grapple_release, name="combatant_release"),
    path(combatant + "stand-up/", views.grapple_stand_up, name="combatant_stand_up"),
]
