"""The whole Skull Tales chapter posted through the HTTP API, read back through the views."""

from __future__ import annotations

from tests.unit.skull_tales.chapter_one import (
    ADVENTURE,
    CAMPAIGN,
    CHAPTER_ONE,
    CREW,
    OPTIONS,
    PORT,
    VOYAGE,
    WITCH,
    event,
)

GAME = "skull-tales-full-sail"


def read(api, campaign, name, **params):
    """A view's answer (the route wraps it as `{position, <name>: ...}`)."""
    answer = api.get(campaign, f"/views/{name}", **params)
    assert answer.status_code == 200, answer.text
    return answer.json()[name]


def test_a_whole_chapter_posted_over_http_ends_in_the_hand_worked_record_sheets(api):
    campaign = api.new_campaign(GAME, options=OPTIONS)
    for batch in (CREW, CHAPTER_ONE, PORT, VOYAGE, ADVENTURE, CAMPAIGN[-2:]):
        answer = api.append(campaign, batch)
        assert answer.status_code == 201, answer.text

    sheets = {p["id"]: p for p in read(api, campaign, "pirates")}
    # The same sheets as tests/unit/skull_tales/test_chapter.py, worked out there line by line.
    assert (sheets["anne"]["fame"], sheets["anne"]["coins"]) == (97, 85)
    assert (sheets["mary"]["fame"], sheets["mary"]["coins"]) == (21, 28)
    assert sheets["mary"]["injuries"] == ["Right hand"]
    assert sheets["jack"]["status"] == "retired"
    assert sheets["jack"]["attributes"]["perception"] == 2
    assert (sheets["ned"]["fame"], sheets["ned"]["coins"], sheets["ned"]["destiny_points"]) == (2, 23, 0)

    anne = read(api, campaign, "pirate", pirate_id="anne")
    assert anne["captain"] is True
    ship = read(api, campaign, "ship")
    assert ship["crew_booty"] == 20 and ship["ship"]["cannons"] == 4 and ship["ship"]["cargo_rate"] == 2
    chapter = read(api, campaign, "chapter")
    assert (chapter["chapter"], chapter["phase"]) == (3, "port")
    ledger = read(api, campaign, "ledger")
    assert sum(ledger["balances"].values()) == ledger["from_sources"] - ledger["to_sinks"]


def test_the_skill_learned_is_recorded_with_its_catalogue_facts(api):
    campaign = api.new_campaign(GAME, options=OPTIONS)
    assert api.append(campaign, CREW + CHAPTER_ONE + PORT[:6]).status_code == 201
    history = api.get(campaign, "/events", type="skill.learned").json()["events"]
    data = history[-1]["data"]
    assert (data["skill_class"], data["teacher"], data["coins"], data["fame"], data["special"]) == (
        "Duelist",
        "Francisco Carranza",
        100,
        60,
        True,
    )


def test_a_refused_skill_answers_422_with_the_reason(api):
    campaign = api.new_campaign(GAME, options=OPTIONS)
    assert api.append(campaign, CREW + CHAPTER_ONE + PORT[:2]).status_code == 201
    answer = api.append(campaign, [event("skill.learned", pirate_id="jack", skill="Sweeping Strike")])
    assert answer.status_code == 422
    assert "Jack cannot learn Sweeping Strike: it costs 130 Coins and Jack has 70." in answer.text


def test_the_pirate_view_at_an_earlier_position_shows_the_sheet_then(api):
    campaign = api.new_campaign(GAME, options=OPTIONS)
    first = api.append(campaign, CREW + CHAPTER_ONE).json()
    api.append(campaign, PORT)
    then = read(api, campaign, "pirate", pirate_id="mary", at=first["last_position"])
    now = read(api, campaign, "pirate", pirate_id="mary")
    assert (then["coins"], now["coins"]) == (120, 28)


def test_a_purge_roll_posted_over_http_frees_the_cursed_pirate_and_a_second_is_refused(api):
    campaign = api.new_campaign(GAME, options=OPTIONS)
    at_sea = [
        *CREW[:2],
        WITCH,
        event("chapter.started", number=1, phases=["voyage"]),
        event("phase.started", phase="voyage"),
        event("curse.gained", pirate_id="jack"),
    ]
    assert api.append(campaign, at_sea).status_code == 201
    answer = api.append(campaign, [event("purge.used", pirate_id="tia", roll=3, cursed_id="jack")])
    assert answer.status_code == 201, answer.text
    assert read(api, campaign, "pirate", pirate_id="jack")["cursed"] is False
    again = api.append(campaign, [event("purge.used", pirate_id="tia", roll=6, cursed_id="jack")])
    assert again.status_code == 422
    assert "Tia has already used Purge in this Voyage Phase" in again.text
