"""A new group starts Island Hopping over HTTP with the catalogue alone, naming cards as they come up.

Skull & Shackles Rulebook, Setting Up (Island Hopping, by itself); Card Setup (location decks by type, 30 random
blessings); Your Character: Character Cards (the facts the catalogue lacks, given once at join).
"""

from __future__ import annotations

GAME = "pacg-skull-and-shackles"
PARTY = ("lirianne", "seltyiel", "alahazra", "jirelle")
ISLANDS = ("Floating Shipyard", "Shark Island", "Lonely Island", "Tempest Cay")


def ev(type_, **data):
    return {"type": type_, "data": data}


def test_a_group_of_four_starts_island_hopping_from_the_catalogue_and_names_cards_as_they_come_up(api):
    campaign = api.new_campaign(GAME, name="Island Hopping")
    catalogue = api.client.get(f"/v1/catalog/{GAME}").json()
    decks = {c["character_id"]: c["suggested_deck"] for c in catalogue["characters"]["characters"]}
    # Given the base set from the catalogue, and four characters, Jirelle's hand size given once at join
    events = [ev("vault.products_added", product="B")]
    for who in PARTY:
        joined = {"character_id": who, "player": who.title()}
        if who == "jirelle":
            joined["card"] = {"hand_size": 5, "skills": {"Dexterity": {"die": "d10", "feats": ["+1", "+2"]}}}
        events.append(ev("character.joined", **joined))
    for who in PARTY:
        events.append(ev("deck.built", character_id=who, cards=[n for names in decks[who].values() for n in names]))
    answer = api.append(campaign, events)
    assert answer.status_code == 201, answer.text
    # When Island Hopping starts on its own, its location decks given by type
    deck = {"monster": 3, "barrier": 2, "weapon": 1, "item": 1, "ally": 1, "blessing": 1}
    start = [
        ev("scenario.started", scenario="Island Hopping", locations=[{"name": n, "deck": deck} for n in ISLANDS]),
        ev("plunder.stashed", roll=3),
        *[ev("character.moved", character_id=who, to="Shark Island") for who in PARTY],
    ]
    answer = api.append(campaign, start)
    assert answer.status_code == 201, answer.text
    scenario = api.get(campaign, "/scenario").json()["scenario"]
    assert scenario["adventure"] is None and scenario["hourglass"]["left"] == 30
    # Then cards come up by name: a Dire Rat (in the catalogue) and a Sea Devil (the table says it is a monster)
    first_turn = [
        ev("hourglass.advanced", character_id="lirianne", card="Blessing of Abadar"),
        ev(
            "card.moved",
            card="Dire Rat",
            verb="reveal",
            explorer="lirianne",
            **{"from": {"zone": "location", "location": "Shark Island"}, "to": {"zone": "encounter"}},
        ),
        ev("card.moved", card="Dire Rat", verb="banish", **{"from": {"zone": "encounter"}, "to": {"zone": "vault"}}),
        ev(
            "card.moved",
            card="Sea Devil",
            card_type="monster",
            verb="reveal",
            explorer="lirianne",
            explore_again=True,
            **{"from": {"zone": "location", "location": "Shark Island"}, "to": {"zone": "encounter"}},
        ),
    ]
    answer = api.append(campaign, first_turn)
    assert answer.status_code == 201, answer.text
    vault = api.get(campaign, "/vault").json()["vault"]
    assert vault["cards"]["Dire Rat"] == 1
    jirelle = api.get(campaign, "/characters/jirelle").json()["character"]
    assert jirelle["hand_size"] == 5
    # And a card named for the first time without its type is refused with a sentence
    unknown = ev(
        "card.moved",
        card="Sea Wyrm",
        verb="reveal",
        **{"from": {"zone": "location", "location": "Shark Island"}, "to": {"zone": "encounter"}},
    )
    answer = api.append(campaign, [unknown])
    assert answer.status_code == 422
    assert "Quartermaster knows no card named Sea Wyrm: say its type (card_type)" in answer.text
