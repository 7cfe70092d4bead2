"""The progression API (§10–§11): who gets what on every route, and what a client notices —
an arc paid once however often it is confirmed, the rules' reasons on a refused spend, reserved XP
given back on cancel, odd input refused, notifications read. (The ellipse routes' story:
test_api_ellipses.py.)"""

import json

import pytest
from django.urls import reverse

from campaigns.models import Campaign, Notification
from characters.models import Character
from progression import api_urls as progression_api_urls
from progression import ellipses, experience, trainings
from progression.models import (
    ArcAward,
    Ellipse,
    EllipseStatus,
    JobStatus,
    Training,
    XpEntry,
)
from rules.experience import NOT_USED_IN_ARC
from tests.progression.helpers import GROUP, make_arc, make_character, pay

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "other", "player", "storyteller")


def api_checklist(characters, group=None, **ticks):
    return {
        "group": group or GROUP,
        "characters": [{"character": c.pk, "bounty": ["took_part"], **ticks} for c in characters],
    }


@pytest.fixture
def world(campaign, storyteller, player, other_player, django_capture_on_commit_callbacks):
    """Aelis (the player's) and Brann; an arc paid (15 XP each, melee used), a newer open arc,
    an open ellipse where Aelis trains Strength, a notification for each persona."""
    aelis = make_character(campaign, player, "Aelis", personal_hope=1)
    brann = make_character(campaign, other_player, "Brann")
    awarded = make_arc(campaign, title="La tour engloutie")
    pay(
        django_capture_on_commit_callbacks,
        awarded,
        [aelis, brann],
        storyteller,
        used=["melee", "strength"],
        opposition_level=5,
    )
    arc = make_arc(campaign, title="Le phare éteint")
    ellipse = ellipses.ellipse_open(campaign=campaign, length_days=60)
    training = trainings.training_queue(
        character=aelis, ellipse=ellipse, kind="characteristic", target="strength", by=player
    )
    return {
        "campaign": campaign,
        "aelis": aelis,
        "brann": brann,
        "awarded": awarded,
        "arc": arc,
        "ellipse": ellipse,
        "training": training,
    }


def expect(*, outsider=404, other, player, storyteller, anonymous=401):
    return {
        "anonymous": anonymous,
        "outsider": outsider,
        "other": other,
        "player": player,
        "storyteller": storyteller,
    }


MEMBERS_READ = expect(other=200, player=200, storyteller=200)
ANY_USER = expect(outsider=200, other=200, player=200, storyteller=200)


def conteur(status):
    return expect(other=403, player=403, storyteller=status)


def c(w):
    return {"campaign_id": w["campaign"].pk}


def arc(key):
    return lambda w: {"campaign_id": w["campaign"].pk, "arc_id": w[key].pk}


def aelis(w):
    return {"campaign_id": w["campaign"].pk, "character_id": w["aelis"].pk}


def training(w):
    return {**aelis(w), "training_id": w["training"].pk}


def ellipse(w):
    return {"campaign_id": w["campaign"].pk, "ellipse_id": w["ellipse"].pk}


def close_ellipses(w):
    Ellipse.objects.update(status=EllipseStatus.CLOSED)


# route name → (url kwargs, {method: (body, expected status by persona[, prepare])})
MATRIX = {
    "arc-experience": (
        arc("arc"),
        {
            "GET": (None, conteur(200)),
            # The Conteur's second POST would return the same job: 202 again, paid once.
            "POST": (lambda w: api_checklist([w["aelis"], w["brann"]]), conteur(202)),
        },
    ),
    "arc-experience-preview": (
        arc("arc"),
        {"POST": (lambda w: api_checklist([w["aelis"]]), conteur(200))},
    ),
    "arc-experience-correct": (
        arc("awarded"),
        {"POST": (lambda w: api_checklist([w["aelis"]]), conteur(202))},
    ),
    "character-ledger": (aelis, {"GET": (None, MEMBERS_READ)}),
    "character-improvements": (
        aelis,
        {"GET": (None, expect(other=403, player=200, storyteller=200))},
    ),
    "character-spend": (
        aelis,
        {
            # The same key twice: the Conteur's request returns the player's entry.
            "POST": (
                lambda w: {"kind": "skill", "target": "melee", "mode": "hope", "key": "k-1"},
                expect(other=403, player=201, storyteller=201),
            )
        },
    ),
    "character-trainings": (
        aelis,
        {
            "GET": (None, MEMBERS_READ),
            # Once per act: the player queued Melee, so the Conteur's identical request is refused.
            "POST": (
                lambda w: {"kind": "skill", "target": "melee"},
                expect(other=403, player=201, storyteller=400),
            ),
        },
    ),
    "training-cancel": (
        training,
        {"POST": (None, expect(other=403, player=200, storyteller=200))},
    ),
    "training-trainer": (training, {"POST": (lambda w: {"confirmed": True}, conteur(200))}),
    "ellipse-list": (
        c,
        {
            "GET": (None, MEMBERS_READ),
            "POST": (lambda w: {"length_days": 30}, conteur(201), close_ellipses),
        },
    ),
    "ellipse-detail": (ellipse, {"GET": (None, MEMBERS_READ)}),
    "ellipse-advance": (ellipse, {"POST": (lambda w: {"days": 5, "key": "a"}, conteur(202))}),
    "ellipse-close": (ellipse, {"POST": (lambda w: {"key": "end"}, conteur(202))}),
    "ellipse-xp-trainer": (
        ellipse,
        {
            "POST": (
                lambda w: {"character": w["aelis"].pk, "trainer": "superior"},
                conteur(200),
            )
        },
    ),
    "notification-list": (lambda w: {}, {"GET": (None, ANY_USER)}),
    "notification-read": (lambda w: {}, {"POST": (lambda w: {}, ANY_USER)}),
}
CASES = [(name, method) for name, (_kwargs, methods) in MATRIX.items() for method in methods]


def test_the_table_names_every_route_and_every_method_it_allows():
    routes = {pattern.name: pattern for pattern in progression_api_urls.urlpatterns}
    assert set(routes) == set(MATRIX), "a route of progression_api has no row (or a row no route)"
    for name, pattern in routes.items():
        allowed = set(pattern.callback.cls().allowed_methods) - {"HEAD", "OPTIONS"}
        assert allowed == set(MATRIX[name][1]), name


@pytest.mark.parametrize(("name", "method"), CASES, ids=[f"{n}-{m}" for n, m in CASES])
def test_status_by_persona(name, method, world, clients, django_capture_on_commit_callbacks):
    url_kwargs, methods = MATRIX[name]
    body, expected, *prepare = methods[method]
    for step in prepare:
        step(world)
    url = reverse(f"progression_api:{name}", kwargs=url_kwargs(world))
    seen, bodies = {}, {}
    for persona in PERSONAS:
        with django_capture_on_commit_callbacks(execute=True):
            response = clients[persona].generic(
                method,
                url,
                data=None if body is None else json.dumps(body(world)),
                content_type="application/json",
            )
        seen[persona] = response.status_code
        bodies[persona] = response.content.decode()
        assert response["Content-Type"] == "application/json", (persona, response.content)
        if response.status_code >= 400:
            assert response.json()["detail"], (persona, response.content)
        if response.status_code == 401:
            assert response["WWW-Authenticate"] == "Token"
    assert seen == expected, bodies


def test_another_campaigns_rows_are_not_found(world, clients, other_campaign):
    """World's ids under the outsider's own campaign: 404, even for that campaign's Conteur."""
    client = clients["outsider"]
    for name, (url_kwargs, methods) in MATRIX.items():
        kwargs = url_kwargs(world)
        if len(kwargs) < 2:
            continue
        kwargs["campaign_id"] = other_campaign.pk
        for method in methods:
            response = client.generic(
                method,
                reverse(f"progression_api:{name}", kwargs=kwargs),
                data="{}",
                content_type="application/json",
            )
            assert response.status_code == 404, (name, method, response.content)


def test_a_training_of_another_character_is_not_found(world, clients):
    kwargs = {**training(world), "character_id": world["brann"].pk}
    url = reverse("progression_api:training-cancel", kwargs=kwargs)
    assert clients["storyteller"].post(url).status_code == 404
    assert Training.objects.get(pk=world["training"].pk).is_active


# --- the arc's award -----------------------------------------------------------------------


def test_the_award_is_paid_once_however_often_it_is_confirmed(
    campaign, player, other_player, clients, django_capture_on_commit_callbacks
):
    heroes = [make_character(campaign, player, "Aelis"), make_character(campaign, other_player)]
    the_arc = make_arc(campaign)
    url = reverse(
        "progression_api:arc-experience", kwargs={"campaign_id": campaign.pk, "arc_id": the_arc.pk}
    )
    client = clients["storyteller"]

    before = client.get(url).json()
    assert before["award"] is None
    assert {row["character"] for row in before["checklist"]["characters"]} == {h.pk for h in heroes}
    assert before["preview"], "the default checklist is previewed"

    body = api_checklist(heroes, group={**GROUP, "balance": ["all_active"]})
    for _ in range(2):  # a double click
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(url, body, format="json")
        assert response.status_code == 202
    assert XpEntry.objects.filter(source_key=f"arc:{the_arc.pk}").count() == 2
    assert ArcAward.objects.filter(arc=the_arc).count() == 1
    assert [experience.xp_balance(character=h) for h in heroes] == [18, 18]

    after = client.get(url).json()
    assert after["arc"]["status"] == "closed"
    assert after["award"]["status"] == JobStatus.DONE and after["award"]["percent"] == 100
    assert {row["paid"] for row in after["award"]["summary"]} == {18}
    lines = after["preview"][0]["lines"]
    assert {"label": "Danger : Dangereux", "points": 3} in lines
    assert Notification.objects.filter(user=player, kind="award").count() == 1


def test_a_correction_writes_the_difference(
    campaign, player, storyteller, clients, django_capture_on_commit_callbacks
):
    hero = make_character(campaign, player, "Aelis")
    the_arc = make_arc(campaign)
    url = reverse(
        "progression_api:arc-experience-correct",
        kwargs={"campaign_id": campaign.pk, "arc_id": the_arc.pk},
    )
    client = clients["storyteller"]
    refused = client.post(url, api_checklist([hero]), format="json")
    assert refused.status_code == 409 and "confirmez d'abord" in refused.json()["detail"]

    pay(django_capture_on_commit_callbacks, the_arc, [hero], storyteller)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url, api_checklist([hero], group={**GROUP, "danger": 4}), format="json"
        )
    assert response.status_code == 202
    assert response.json()["award"]["revision"] == 2
    correction = XpEntry.objects.get(character=hero, kind="correction")
    assert correction.amount == 3  # one more danger point × weeks (3)
    assert experience.xp_balance(character=hero) == 18


def test_a_checklist_is_refused_with_the_rules_reason(
    campaign, player, clients, other_campaign, outsider
):
    hero = make_character(campaign, player, "Aelis")
    stranger = make_character(other_campaign, outsider, "Intrus")
    the_arc = make_arc(campaign)
    kwargs = {"campaign_id": campaign.pk, "arc_id": the_arc.pk}
    client = clients["storyteller"]
    url = reverse("progression_api:arc-experience", kwargs=kwargs)

    bad_danger = client.post(
        url, api_checklist([hero], group={**GROUP, "danger": 9}), format="json"
    )
    assert bad_danger.status_code == 400
    assert bad_danger.json()["errors"]["danger"] == ["Le danger se choisit entre 1 et 5."]
    foreign = client.post(url, api_checklist([stranger]), format="json")
    assert foreign.status_code == 400
    assert "n'est pas dans la campagne" in foreign.json()["detail"]
    preview = client.post(
        reverse("progression_api:arc-experience-preview", kwargs=kwargs),
        api_checklist([stranger]),
        format="json",
    )
    assert preview.status_code == 400
    assert not ArcAward.objects.exists() and not XpEntry.objects.exists()


# --- the ledger, spending and trainings -----------------------------------------------------


def ledger(client, w):
    return client.get(reverse("progression_api:character-ledger", kwargs=aelis(w))).json()


def test_the_ledger_shows_balance_reserved_and_available(world, clients):
    body = ledger(clients["player"], world)
    assert (body["balance"], body["reserved"], body["available"]) == (15, 5, 10)
    assert body["count"] == 1 and body["results"][0]["amount"] == 15
    assert body["results"][0]["breakdown"][0] == {"label": "Danger : Dangereux", "points": 3}


def test_a_refused_spend_gives_the_rules_reasons_and_changes_nothing(world, clients):
    url = reverse("progression_api:character-spend", kwargs=aelis(world))
    response = clients["player"].post(
        url,
        {"kind": "characteristic", "target": "wisdom", "mode": "hope", "key": "k"},
        format="json",
    )
    assert response.status_code == 400
    assert NOT_USED_IN_ARC in response.json()["detail"]
    too_dear = clients["player"].post(
        url, {"kind": "combativeness", "mode": "hope", "key": "k2"}, format="json"
    )
    assert too_dear.status_code == 400
    assert "points d'expérience" in json.dumps(too_dear.json(), ensure_ascii=False)
    assert XpEntry.objects.filter(kind="spend").count() == 0
    assert Character.objects.get(pk=world["aelis"].pk).personal_hope == 1


def test_a_spend_is_paid_once_per_key(world, clients):
    url = reverse("progression_api:character-spend", kwargs=aelis(world))
    body = {"kind": "skill", "target": "melee", "mode": "hope", "key": "once"}
    first = clients["player"].post(url, body, format="json")
    again = clients["player"].post(url, body, format="json")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json() and first.json()["amount"] == -10
    assert ledger(clients["player"], world)["balance"] == 5
    hero = Character.objects.get(pk=world["aelis"].pk)
    assert hero.personal_hope == 0 and hero.skills.get(key="melee").level == 3


def test_improvements_list_costs_and_reasons(world, clients):
    url = reverse("progression_api:character-improvements", kwargs=aelis(world))
    body = clients["player"].get(url, {"page_size": 100}).json()
    rows = {(row["kind"], row["target"]): row for row in body["results"]}
    melee = rows[("skill", "melee")]
    assert (melee["cost"], melee["allowed"], melee["reasons"]) == (10, True, [])
    wisdom = rows[("characteristic", "wisdom")]
    assert not wisdom["allowed"]
    assert NOT_USED_IN_ARC in wisdom["reasons"]


def test_queueing_and_cancelling_a_training_reserves_then_refunds(world, clients):
    client = clients["player"]
    url = reverse("progression_api:character-trainings", kwargs=aelis(world))
    queued = client.post(
        url, {"kind": "skill", "target": "melee", "trainer": "trainer"}, format="json"
    )
    assert queued.status_code == 201
    row = queued.json()
    assert (row["status"], row["xp_reserved"], row["trainer_confirmed"]) == ("queued", 10, False)
    assert ledger(client, world)["available"] == 0

    listed = client.get(url).json()["results"]
    assert [t["label"] for t in listed] == ["Force +1", "Mêlée 3"]
    day = Campaign.objects.get(pk=world["campaign"].pk).in_game_day
    # Strength alone: 30 days; Melee alone (the trainer is not confirmed yet) follows it.
    assert listed[0]["expected_day"] == day + 30
    assert listed[1]["expected_day"] == day + 30 + listed[1]["days_needed"]

    cancel = reverse(
        "progression_api:training-cancel", kwargs={**aelis(world), "training_id": row["id"]}
    )
    assert client.post(cancel).json()["status"] == "cancelled"
    assert client.post(cancel).status_code == 200  # twice is harmless
    assert ledger(client, world)["available"] == 10
    assert not XpEntry.objects.filter(kind="training").exists()


def test_the_conteur_confirms_a_trainer_and_the_timer_shortens(world, clients):
    client = clients["player"]
    url = reverse("progression_api:character-trainings", kwargs=aelis(world))
    row = client.post(
        url, {"kind": "skill", "target": "melee", "trainer": "educational"}, format="json"
    ).json()
    trainer = reverse(
        "progression_api:training-trainer", kwargs={**aelis(world), "training_id": row["id"]}
    )
    assert client.post(trainer, {"confirmed": True}, format="json").status_code == 403
    confirmed = clients["storyteller"].post(trainer, {"confirmed": True}, format="json").json()
    assert confirmed["trainer_confirmed"] and confirmed["days_needed"] < row["days_needed"]


def test_training_needs_an_open_ellipse(world, clients):
    Ellipse.objects.update(status=EllipseStatus.CLOSED)
    url = reverse("progression_api:character-trainings", kwargs=aelis(world))
    response = clients["player"].post(url, {"kind": "skill", "target": "melee"}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == "Il n'y a pas d'ellipse en cours pour s'entraîner."


def test_odd_input_is_a_400_or_a_404_never_a_500(world, clients):
    client = clients["storyteller"]
    huge = 2**64
    assert (
        client.get(
            reverse("progression_api:ellipse-detail", kwargs={**ellipse(world), "ellipse_id": huge})
        ).status_code
        == 404
    )
    assert (
        client.get(
            reverse(
                "progression_api:character-ledger", kwargs={**aelis(world), "character_id": huge}
            )
        ).status_code
        == 404
    )
    advance = reverse("progression_api:ellipse-advance", kwargs=ellipse(world))
    for body in ({"days": 10**30}, {"days": "many"}, {"days": True}, {"days": 0}, [], "x"):
        assert client.post(advance, body, format="json").status_code == 400, body
    spend = reverse("progression_api:character-spend", kwargs=aelis(world))
    for target in ("²", "9" * 30, "-1"):
        response = client.post(
            spend, {"kind": "ability", "target": target, "mode": "hope", "key": "k"}, format="json"
        )
        assert response.status_code == 400, target
    trainer = reverse("progression_api:ellipse-xp-trainer", kwargs=ellipse(world))
    response = client.post(trainer, {"character": 10**30, "trainer": "free"}, format="json")
    assert response.status_code == 400
    preview = reverse("progression_api:arc-experience-preview", kwargs=arc("arc")(world))
    odd = api_checklist([world["aelis"]], group={**GROUP, "balance": ["nope"]})
    assert client.post(preview, odd, format="json").status_code == 400
    twice = api_checklist([world["aelis"], world["aelis"]])
    assert client.post(preview, twice, format="json").status_code == 400
    assert (
        client.post(
            reverse("progression_api:notification-read"), {"notification": 10**30}, format="json"
        ).status_code
        == 400
    )


# --- notifications ---------------------------------------------------------------------------


def test_notifications_list_filter_and_read(world, clients, player, storyteller):
    client = clients["player"]
    url = reverse("progression_api:notification-list")
    mine = client.get(url).json()
    assert mine["count"] == 1 and "reçoit 15 points" in mine["results"][0]["text"]
    Notification.objects.create(user=player, kind="x", key="x", text="Deux")
    Notification.objects.create(user=storyteller, kind="x", key="x", text="Pas à vous")
    first = Notification.objects.filter(user=player).order_by("pk").first()

    read = reverse("progression_api:notification-read")
    one = client.post(read, {"notification": first.pk}, format="json").json()
    assert one == {"marked": 1, "unread": 1}
    unread = client.get(url, {"unread": "true"}).json()["results"]
    assert [n["text"] for n in unread] == ["Deux"]
    assert client.get(url, {"unread": "false"}).json()["count"] == 1
    # Someone else's notification is not yours to mark.
    other = Notification.objects.get(user=storyteller, key="x")
    assert client.post(read, {"notification": other.pk}, format="json").json()["marked"] == 0
    assert client.post(read, {}, format="json").json() == {"marked": 1, "unread": 0}
    assert Notification.objects.get(pk=other.pk).read_at is None
