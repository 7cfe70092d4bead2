"""Combat at the table (§13, §15): the fight's services, reads, pages and API.

Its public face — the only modules the rest of the project imports:

- `fights`: the fight's services (open, join, initiative, turns, statuses, end);
- `selectors`: the tracker and the bestiary as a member may see them;
- `urls`: the pages (appended to sessions/urls.py);
- `api_urls`: the API routes (appended to sessions/api_urls.py);
- `demo`: the demo campaign's bestiary and fight in progress (sessions/demo.py).

Everything else (attacks, blows, grapples, holds, harm, masks, spells, turns, regeneration, steps,
strikes, summary, notify, forms, serializers, views, screen, spell_views, tracker_actions, api,
spell_api, summary_api) is the package's own; a `protected` contract in .importlinter keeps it so.
"""
