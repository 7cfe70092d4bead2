"""Altherion's game engine: pure functions over frozen dataclasses, no Django, stdlib only.

Every page, API call and background job goes through these modules; see RULES.md §1–§15.
"""
