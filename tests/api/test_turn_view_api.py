"""The turn view over HTTP: whose turn it is, the step, the encounter, and what the rules allow now, at any position.

Skull & Shackles Rulebook, Your Turn; Encountering a Card. Skull Tales: the chapter's phase and Time Units.
"""

from __future__ import annotations

from tests.unit.skull_tales import chapter_one

GAME = "pacg-skull-and-shackles"
PARTY = ("lirianne", "seltyiel")
ISLANDS = ("Shark Island", "Tempest Cay")


def ev(type_, **data):
    return {"type": type_, "data": data}


def _started(api):
    campaign = api.new_campaign(GAME, name="Turn view")
    catalogue = api.client.get(f"/v1/catalog/{GAME}").json()
    decks = {c["character_id"]: c["suggested_deck"] for c in catalogue["characters"]["characters"]}
    events = [ev("vault.products_added", product="B")]
    events += [ev("character.joined", character_id=who, player=who.title()) for who in PARTY]
    events += [
        ev("deck.built", character_id=who, cards=[n for names in decks[who].values() for n in names]) for who in PARTY
    ]
    deck = {"monster": 2, "barrier": 1, "weapon": 1, "blessing": 1}
    events += [
        ev("scenario.started", scenario="Island Hopping", locations=[{"name": n, "deck": deck} for n in ISLANDS]),
        ev("plunder.stashed", roll=3),
        *[ev("character.moved", character_id=who, to="Shark Island") for who in PARTY],
    ]
    answer = api.append(campaign, events)
    assert answer.status_code == 201, answer.text
    return campaign, answer.json()["last_position"]


def test_the_turn_view_says_who_may_start_then_whose_turn_it_is_and_what_her_step_allows(api):
    campaign, before = _started(api)
    first = api.get(campaign, "/turn").json()["turn"]
    assert first["character"] is None and first["step"] is None
    assert [o["action"] for o in first["offered"]] == ["start turn"]
    assert {c["character_id"] for c in first["offered"][0]["needs"]["next"]} == set(PARTY)
    answer = api.append(campaign, [ev("hourglass.advanced", character_id="lirianne")])
    assert answer.status_code == 201, answer.text
    turn = api.get(campaign, "/turn").json()["turn"]
    assert turn["character"] == {"character_id": "lirianne", "name": "Lirianne"}
    assert turn["step"] == "start" and turn["location"] == "Shark Island"
    assert turn["blessings_left"] == 29
    assert turn["next"] == [{"character_id": "seltyiel", "name": "Seltyiel"}]
    offered = {o["action"]: o for o in turn["offered"]}
    assert set(offered) == {"move", "explore", "reset"}
    assert offered["move"]["needs"]["to"] == ["Tempest Cay"]
    # At a position before the turn started, the view is as it was then
    assert api.get(campaign, "/turn", at=before).json()["turn"]["character"] is None


def test_an_encounter_in_the_turn_view_offers_only_the_outcomes_its_logged_check_allows(api):
    campaign, _ = _started(api)
    explore = ev(
        "card.moved",
        card="Dire Rat",
        verb="reveal",
        explorer="lirianne",
        **{"from": {"zone": "location", "location": "Shark Island"}, "to": {"zone": "encounter"}},
    )
    roll = ev(
        "dice.rolled", character_id="lirianne", purpose="check", dice=[{"sides": 6, "face": 1}], total=1, difficulty=5
    )
    answer = api.append(campaign, [ev("hourglass.advanced", character_id="lirianne"), explore, roll])
    assert answer.status_code == 201, answer.text
    turn = api.get(campaign, "/turn").json()["turn"]
    encounter = turn["encounter"]
    assert encounter["card"] == "Dire Rat" and encounter["type"] == "monster" and encounter["check"] == "defeat"
    assert encounter["result"] == "failure" and encounter["difficulty"] == 5
    assert [o["outcome"] for o in encounter["outcomes"]] == ["undefeated"]
    # The outcome's events are the ones the fold accepts
    answer = api.append(campaign, encounter["outcomes"][0]["events"])
    assert answer.status_code == 201, answer.text
    assert api.get(campaign, "/turn").json()["turn"]["encounter"] is None


def test_the_skull_tales_turn_view_names_the_phase_and_what_it_allows(api):
    campaign = api.new_campaign("skull-tales-full-sail", name="Turn view")
    turn = api.get(campaign, "/turn").json()["turn"]
    assert turn["phase"] is None and turn["offered"] == []
    assert "fame.changed" in turn["any_phase"]


def test_the_skull_tales_turn_view_names_the_next_step_the_degrees_allowed_and_the_election_when_due(api):
    campaign = api.new_campaign("skull-tales-full-sail", name="Election")
    assert api.get(campaign, "/turn").json()["turn"]["next"] == {"action": "start chapter", "number": 1}
    adventure = chapter_one.CHAPTER_ONE[:-2]  # up to the Adventure's end: no Captain elected yet
    assert api.append(campaign, chapter_one.CREW + adventure[:-1]).status_code == 201
    turn = api.get(campaign, "/turn").json()["turn"]
    assert turn["next"] == {"action": "end phase", "phase": "adventure"} and turn["election"] is None
    assert {p["name"]: p["degrees"] for p in turn["pirates"]}["Anne"] == ["total_success", "partial_success"]
    assert api.append(campaign, adventure[-1:]).status_code == 201
    turn = api.get(campaign, "/turn").json()["turn"]
    # Anne gained the most Fame in the Adventure (Book I: End of the Adventure).
    assert turn["election"] == {
        "method": "most_fame",
        "candidates": [{"pirate_id": "anne", "name": "Anne", "fame": 80}],
    }
    assert turn["next"] == {"action": "end chapter", "number": 1}
    assert api.append(campaign, chapter_one.CHAPTER_ONE[-2:-1]).status_code == 201
    assert api.get(campaign, "/turn").json()["turn"]["election"] is None


def test_the_skull_tales_turn_view_in_port_keeps_a_gear_cards_price_and_lists_skills_items_and_the_hold(api):
    campaign = api.new_campaign("skull-tales-full-sail", name="Market")
    port = chapter_one.PORT[:2]  # chapter 2 started, in Port
    assert api.append(campaign, chapter_one.CREW + chapter_one.CHAPTER_ONE + port).status_code == 201
    bought = [
        ev("item.gained", pirate_id="mary", item="Rum", half_space=True, price=5),
        ev("item.gained", pirate_id="anne", item="Cutlass", value=20),
    ]
    assert api.append(campaign, bought).status_code == 201
    turn = api.get(campaign, "/turn").json()["turn"]
    # The card's printed cost is kept, not what a markup made of it: the next Rum is bought without typing it.
    assert turn["gear_cards"] == [
        {"name": "Cutlass", "price": 20, "half_space": False, "equipped": False},
        {"name": "Rum", "price": 5, "half_space": True, "equipped": False},
    ]
    pirates = {p["pirate_id"]: p for p in turn["pirates"]}
    assert pirates["anne"]["skills"][:2] == ["Fencing", "Deck Officer"]
    assert pirates["mary"]["items"] == [{"name": "Rum", "kind": "gear", "value": 5}]
    # Anne is Captain: she alone trades at the Docks.
    assert [p["pirate_id"] for p in turn["pirates"] if p["captain_actions"]] == ["anne"]
    # The Hold as the ship view holds it: what the Captain may sell at the Docks.
    assert turn["hold"] == api.get(campaign, "/ship").json()["ship"]["ship"]["goods"] == {"Rum": 2, "Supplies": 3}
