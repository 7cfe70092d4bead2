"""Issue 13 §9 and §7: rules the app used to compute itself, now the engine's — each test quotes
RULES.md (and the source's French where it helps)."""

import pytest

from rules import check, ellipse, experience, morale, rest, states
from rules.errors import RuleError
from rules.gauges import Gauge, take_damage

# --- §3 / §8: damage ---------------------------------------------------------------------------


def test_serious_wounds_are_scars_added_with_the_damage():
    # §3: "serious wounds (blessures/dégâts graves) = scars".
    hit = take_damage(Gauge(maximum=20, current=20, scars=1), 6, serious=4)
    assert (hit.current, hit.scars) == (14, 5)
    assert take_damage(Gauge(maximum=20, current=20), 6).scars == 0


def test_serious_wounds_never_exceed_the_damage_dealt():
    with pytest.raises(RuleError, match="ne peuvent dépasser les dégâts"):
        take_damage(Gauge(maximum=20, current=20), 3, serious=4)
    with pytest.raises(RuleError):
        take_damage(Gauge(maximum=20, current=20), 3, serious=-1)


def test_reaching_zero_vitality_gives_one_agony():
    # §8: "Agonie: reaching 0 Vitalité gives 1 (if 0)".
    before, after = Gauge(maximum=10, current=4), Gauge(maximum=10, current=0)
    assert states.agony_after_hit(0, before, after) == 1
    assert states.agony_after_hit(2, before, after) == 2  # "gives 1 (if 0)"
    # Already at 0, or still above it: nothing (the turns at 0 add theirs).
    assert states.agony_after_hit(1, after, after) == 1
    assert states.agony_after_hit(0, before, Gauge(maximum=10, current=1)) == 0


# --- §1 / §4: Résilience back after a rest -----------------------------------------------------


def test_resilience_points_all_come_back_on_a_rest_with_no_scars_and_no_wounds():
    # §4: "Résilience points all come back on a rest with no scars and no wounds."
    fresh = {"vitality": Gauge(maximum=10, current=10)}
    hurt = {"vitality": Gauge(maximum=10, current=7)}
    result = rest.rest(fresh, "normal", might=3, harmony=2)
    assert result.resilience_points(1, 4) == 4
    assert rest.rest(hurt, "normal", might=3, harmony=2).resilience_points(1, 4) == 1


# --- §5 / §8 / §1: the table's payments -------------------------------------------------------


def test_each_hope_and_despair_option_costs_one_point():
    # §5: "Hope: +1 to the result; or cancel a critical failure …; or use Puissance in place of
    # a main characteristic … Despair: enter Acharnement; or … a narrow success …; or every
    # character gains 1 Fortune and the Conteur 1 Fatalité."
    assert check.morale_points(hope=2) == (2, 0)
    assert check.morale_points(hope=1, cancel_critical_failure=True, substitute=True) == (3, 0)
    assert check.morale_points(narrow_success=True, fury=True, fortune_fate=True) == (0, 3)
    with pytest.raises(RuleError):
        check.morale_points(hope=-1)


def test_impact_points_buy_a_surpuissance_die_each():
    # §1: "Impact points buy a surpuissance die each".
    assert states.pay_impact(3, 2) == 1
    with pytest.raises(RuleError, match="n'a que 1 point d'Impact"):
        states.pay_impact(1, 2, "Aelis")


def test_resilience_cancels_a_critical_one_point_per_aggravation_level():
    # §1: "Résilience points cancel a critical's effect (one point per Aggravation level)".
    assert states.pay_resilience(5, 3) == 2
    with pytest.raises(RuleError, match="il en faut 3"):
        states.pay_resilience(2, 3, "Brann")


@pytest.mark.parametrize(("fragility", "row"), [(-1, 0), (0, 0), (3, 3), (5, 5), (6, 5)])
def test_the_aggravation_row_is_the_fragility_up_to_the_death_row(fragility, row):
    # §8: the table's rows are Fragilité 0..5; "5 (death, every result)".
    assert states.aggravation_row(fragility) == row


def test_the_acharnement_option_makes_the_roll_itself_in_acharnement():
    # §5: "Despair: enter Acharnement"; §7: "Acharnement: spend a despair point under stress";
    # Reading: the roll it is declared on is made in it.
    assert states.roll_state(None, fury=True) == states.FURY
    assert states.roll_state(states.ZONE, fury=False) == states.ZONE
    assert states.state_dice(states.roll_state(None, fury=True)) == (1, 0)  # "+1 surpuissance"


# --- §11: the ellipse's rest -------------------------------------------------------------------


def test_weeks_of_rest_are_the_ellipse_whole_weeks_for_everyone():
    # §11: "X = weeks of rest / 2"; Reading: weeks of 7 days, every character rests them.
    assert [ellipse.rest_weeks(d) for d in (6, 7, 13, 14, 100)] == [0, 1, 1, 2, 14]


def test_major_and_medium_ellipses_lower_fragility_x_and_x_minus_one_times():
    # §11: "Medium: … start lowering thresholds X−1 times. Major: … lower thresholds X times.
    # X = weeks of rest / 2 (Reading: rounded down; X−1 never below 0; thresholds are Fragilité)".
    major = ellipse.ellipse_rest("major", 100, fragility=6)  # 14 weeks: X = 7
    assert (major.weeks, major.fragility, major.fragility_removed) == (14, 0, 6)
    medium = ellipse.ellipse_rest("medium", 42, fragility=4)  # 6 weeks: X = 3, X − 1 = 2
    assert (medium.fragility, medium.fragility_removed) == (2, 2)
    assert ellipse.ellipse_rest("medium", 14, fragility=4).fragility == 4  # X = 1: X − 1 = 0
    assert ellipse.ellipse_rest("major", 90, fragility=0).fragility == 0  # never below 0


def test_a_minor_ellipse_rest_clears_exhaustion():
    # §11: "Minor: … rest to clear Épuisement"; §8: "a full rest of [Épuisement] days with no
    # wounds removes 1 point" (« se reposer totalement pendant [Epuisement] jours »).
    week = ellipse.ellipse_rest("minor", 7, fragility=2, exhaustion=3)  # 3 + 2 + 1 = 6 days
    assert (week.exhaustion, week.exhaustion_removed, week.fragility) == (0, 3, 2)
    assert ellipse.ellipse_rest("minor", 4, fragility=0, exhaustion=3).exhaustion == 2  # 3, then 1
    assert ellipse.ellipse_rest("minor", 2, fragility=0, exhaustion=3).exhaustion == 3
    assert ellipse.ellipse_rest("minor", 7, fragility=0, exhaustion=3, wounds=1).exhaustion == 3
    # The rest that clears Épuisement is the minor ellipse's (§11), not the longer ones'.
    assert ellipse.ellipse_rest("major", 100, fragility=0, exhaustion=2).exhaustion == 2


def test_exhaustion_after_rest_days_repeats_the_full_rest_rule():
    assert ellipse.exhaustion_after_rest_days(0, 10, 0) == 0
    assert ellipse.exhaustion_after_rest_days(5, 14, 0) == 1  # 5 + 4 + 3 + 2 = 14 days
    assert ellipse.exhaustion_after_rest_days(5, 12, 0) == 2  # 5 + 4 + 3 = 12 days
    assert ellipse.exhaustion_after_rest_days(5, 11, 0) == 3  # 5 + 4, then 2 days < 3


def test_classes_and_branches_run_like_aptitudes_and_carry_over():
    # §11 Reading: "Combativité and aptitudes … finish at the end of the ellipse in which they
    # are bought"; a class and a branch have no duration either (§10).
    assert ellipse.timer_kind("class") == ellipse.timer_kind("branch") == "ability"
    assert ellipse.timer_kind("skill") == "skill"
    learning = ellipse.Training("1", "ana", "class")
    assert learning.days_needed is None
    moved = ellipse.advance([learning, ellipse.Training("2", "ana", "skill")], 10)
    assert ellipse.carried_over(moved.trainings) == moved.trainings  # kept, days done and all
    assert [t.days_done for t in moved.trainings] == [0, 10]


# --- §10 / §7: spending XP now ---------------------------------------------------------------


def test_one_opposition_level_counts_for_every_skill_and_forgotten_domain():
    # §10: "skill 10 (… only if an opposition had a level ≥ the skill's); … forgotten domain 25
    # (… same opposition condition as skills)".
    record = experience.ActRecord(
        used_in_arc=frozenset({"melee", "astrologie"}), opposition_level=4
    )
    skill = experience.Improvement("skill", "melee", level=4)
    domain = experience.Improvement("forgotten_domain", "astrologie", level=4)
    assert experience.can_spend(skill, record, 100)[0]
    assert experience.can_spend(domain, record, 100)[0]
    higher = experience.Improvement("skill", "melee", level=5)
    assert not experience.can_spend(higher, record, 100)[0]
    assert experience.opposition_level_for(experience.ActRecord(), "melee") == -1


def test_spending_with_a_hope_point_takes_the_character_own_hope():
    # §10: "XP is spent in training during an ellipse (§11), with a hope point, or right when
    # it is received"; Reading: the character's personal hope, through the Moral's rules.
    group = morale.Morale(hope=2, members=(morale.Member("ana", exaltation=3, hope=1),))
    after, events = experience.spend_hope_for_xp(group, "ana")
    assert (after.hope, after.member("ana").hope) == (2, 0)
    assert events[0].kind == "hope_spent" and "personnel" in events[0].message
    with pytest.raises(RuleError):
        experience.spend_hope_for_xp(after, "ana")


def test_at_reception_lasts_from_the_award_paid_until_the_next_arc():
    assert experience.just_received(last_arc_paid=True, paid_arc_is_current=True)
    assert not experience.just_received(last_arc_paid=False, paid_arc_is_current=True)
    assert not experience.just_received(last_arc_paid=True, paid_arc_is_current=False)


def test_leftover_experience_may_be_distributed_in_a_special_state():
    # §7: "Common effects of Zone, Acharnement, Flamboyance and Apaisement: … leftover experience
    # may be distributed" (« Si il reste de l'Expérience, elle peut être répartie »).
    assert not experience.needs_training_time("special_state")
    for state in states.SPECIAL_STATES:
        refused = experience.spending_now_refusals(
            "special_state", personal_hope=0, received_now=False, state=state
        )
        assert refused == []
    for state in (None, states.COMEDOWN):
        refused = experience.spending_now_refusals(
            "special_state", personal_hope=0, received_now=False, state=state
        )
        assert refused and "état spécial" in refused[0]


def test_spending_now_refusals_per_mode():
    def refused(mode, **kw):
        values = {"personal_hope": 0, "received_now": False, "state": None, **kw}
        return experience.spending_now_refusals(mode, **values)

    assert refused("hope") == ["Il faut un point d'espoir personnel pour dépenser ainsi."]
    assert refused("hope", personal_hope=1) == []
    assert refused("on_receipt") and refused("on_receipt", received_now=True) == []
    assert refused("training")  # training takes an ellipse's time
    with pytest.raises(RuleError):
        refused("whenever")


def test_surcharge_is_counted_in_weeks_of_the_ellipse():
    # §11: "surcharge +1 per week at most when the character inflicts on itself 20 serious
    # wounds that week".
    assert ellipse.checked_surcharge_weeks(21, 3) == 3
    with pytest.raises(RuleError, match="entre 0 et 3"):
        ellipse.checked_surcharge_weeks(21, 4)
    with pytest.raises(RuleError):
        ellipse.checked_surcharge_weeks(21, -1)
    assert ellipse.ellipse_xp(3, "superior", surcharge_weeks=2) == 8


# --- §2: languages -----------------------------------------------------------------------------


def test_vrai_primordial_has_its_own_purchase_base():
    # §2: "Vrai Primordial: magical (depends on magic), its own purchase base" (« possède sa
    # propre base d'achat »); "languages are bought at creation like a skill (+1 = 2 points)".
    from rules import creation

    assert creation.language_cost("occidental") == creation.language_cost("primordial") == 2
    assert creation.language_cost("vrai_primordial") == 4
    draft = creation.Draft(languages={"primordial": 2, "vrai_primordial": 2})
    lines = {line.field: line.points for line in creation.evaluate(draft).lines}
    assert lines["languages.primordial"] == 4 and lines["languages.vrai_primordial"] == 8


# --- §1 / §2: improvement caps -------------------------------------------------------------


def test_an_improvement_stops_at_the_rules_maximum():
    # §1: "maximum 8 + the species' favourite bonus for it"; "Combativité … maximum 5";
    # §2: "Skill levels 0..10".
    assert experience.raised("characteristic", 7) == 8
    with pytest.raises(RuleError, match=r"déjà au plus haut \(8\)"):
        experience.raised("characteristic", 8)
    assert experience.raised("characteristic", 8, favourite_bonus=1) == 9
    with pytest.raises(RuleError, match=r"\(5\)"):
        experience.raised("combativeness", 5)
    with pytest.raises(RuleError, match=r"\(10\)"):
        experience.raised("skill", 10)
    assert experience.raised("forgotten_domain", 9) == 10
    assert experience.improvement_maximum("specialty") is None
