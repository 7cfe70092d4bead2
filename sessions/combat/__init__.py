"""Combat at the table (§13): the fight's services, reads, pages and API.

The rest of the project imports its public modules only: `fights` (encounters, combatants,
turns), `selectors` (the tracker as a member may see it), `urls` and `api` (routes),
`screen` (the Conteur's screen).
"""
