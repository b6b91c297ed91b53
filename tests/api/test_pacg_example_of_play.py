"""The rulebook's Example of Play (Dangerous Waters) posted through the HTTP API event by event, read back."""

from __future__ import annotations

from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS

GAME = "pacg-skull-and-shackles"


def read(api, campaign, path, key, **params):
    """A view's answer (the routes wrap it as `{position, <name>: ...}`)."""
    answer = api.get(campaign, path, **params)
    assert answer.status_code == 200, answer.text
    return answer.json()[key]


def test_the_example_of_play_posted_over_http_ends_in_the_states_the_text_describes(api):
    campaign = api.new_campaign(GAME, name="Dangerous Waters", options=OPTIONS)
    wrecked_at = None
    for payload in PAYLOADS:
        answer = api.append(campaign, [payload])
        assert answer.status_code == 201, (payload, answer.text)
        if payload["type"] == "ship.damaged" and payload["data"].get("wrecked"):
            wrecked_at = answer.json()["last_position"]

    lirianne = read(api, campaign, "/characters/lirianne", "character")
    assert lirianne["zones"]["hand"] == {"Powder Horn": 1}
    assert lirianne["location"] == "Raker Shoals"
    seltyiel = read(api, campaign, "/characters/seltyiel", "character")
    assert seltyiel["zones"]["hand"] == {"Boarding Axe": 1, "Cutlass +1": 1, "Mace": 1, "Pearl of Wisdom": 1}
    alahazra = read(api, campaign, "/characters/alahazra", "character")
    assert alahazra["counts"]["hand"] == 6 and alahazra["location"] == "Cannibal Isle"

    fleet = read(api, campaign, "/fleet", "fleet")
    assert (fleet["current"], fleet["wrecked"], fleet["plunder"]) == ("Merchantman", False, 0)
    assert read(api, campaign, "/fleet", "fleet", at=wrecked_at)["wrecked"] is True

    vault = read(api, campaign, "/vault", "vault")
    assert vault["cards"]["Find Traps"] == 1

    scenario = read(api, campaign, "/scenario", "scenario")
    assert scenario["hourglass"]["left"] == 26
    assert {loc["name"]: loc["status"] for loc in scenario["locations"]} == {
        "Cannibal Isle": "closed",
        "Fog Bank": "open",
        "Raker Shoals": "closed",
        "Shipwreck Graveyard": "open",
        "Tempest Cay": "open",
    }


def test_a_rejected_move_answers_422_with_where_the_card_really_is(api):
    campaign = api.new_campaign(GAME, options=OPTIONS)
    setup = PAYLOADS[: PAYLOADS.index(next(p for p in PAYLOADS if p["type"] == "hourglass.advanced"))]
    assert api.append(campaign, setup).status_code == 201
    answer = api.append(
        campaign,
        [
            {
                "type": "card.moved",
                "data": {
                    "card": "Pistol",
                    "verb": "discard",
                    "from": {"zone": "hand", "character_id": "seltyiel"},
                    "to": {"zone": "discard", "character_id": "seltyiel"},
                },
            }
        ],
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"][0]["reason"] == (
        "Pistol is not in Seltyiel's hand: copies are in Lirianne's deck, Lirianne's hand and the vault. "
        "This cannot be recorded, even against the rules."
    )
    assert answer.json()["errors"][0]["kind"] == "integrity" and answer.json()["overridable"] is False


def test_an_unknown_character_view_answers_404(api):
    campaign = api.new_campaign(GAME, options=OPTIONS)
    answer = api.get(campaign, "/characters/lem")
    assert answer.status_code == 404, answer.text
