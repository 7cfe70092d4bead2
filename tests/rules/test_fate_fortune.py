"""§14 — Fortune and Fatalité are spent, never beyond what is held."""

import pytest

from rules.errors import RuleError
from rules.states import spend_capped


def test_fatalite_is_spent_to_worsen_a_situation():
    # RULES.md §14: "Fatalité: … at most 5; spent to worsen a situation at the right moment or
    # to give maluses to luck rolls." (« dépensée pour aggraver une situation »)
    assert spend_capped(5, 2) == 3
    assert spend_capped(1, 1) == 0


def test_fortune_is_spent_several_at_once():
    # RULES.md §14: "Fortune: … spent (several at once, with the Conteur's agreement)".
    assert spend_capped(4, 3, "Fortune") == 1


@pytest.mark.parametrize("held, spent", [(2, 3), (0, 1), (3, 0), (3, -1)])
def test_more_than_is_held_or_nothing_is_refused_in_french(held, spent):
    with pytest.raises(RuleError) as refused:
        spend_capped(held, spent)
    assert refused.value.violations[0].field == "points"
    assert "Fatalité" in str(refused.value)
    assert ("disponible" in str(refused.value)) or ("au moins 1" in str(refused.value))
