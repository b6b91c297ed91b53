"""A whole chapter through the fold, ending in record sheets worked out by hand from the rulebook."""

from __future__ import annotations

from tests.unit.skull_tales.chapter_one import ADVENTURE, CAMPAIGN, CHAPTER_ONE, CREW, OPTIONS, PORT, VOYAGE
from tests.unit.skull_tales.table import given, view


def test_chapter_one_makes_the_pirate_with_the_most_adventure_fame_captain():
    state = given(*CREW, *CHAPTER_ONE, options=OPTIONS)
    sheets = {p["id"]: p for p in view(state, "pirates")}
    # Adventure Fame and Coins are banked at the end (Book I: End of the Adventure), plus the Admiral setting's +2 Fame (Appendix II: Admiral Mode and Cabin Boy Mode, Admiral Mode, Adventure Phase).
    assert (sheets["anne"]["fame"], sheets["anne"]["coins"]) == (80 + 2, 60)
    assert (sheets["jack"]["fame"], sheets["jack"]["coins"]) == (45 + 2, 70)
    assert (sheets["mary"]["fame"], sheets["mary"]["coins"]) == (70 + 2, 120)
    assert view(state, "ship")["captain"] == "anne"


def test_the_port_phase_pays_salaries_teaches_with_a_master_upgrades_and_trades():
    state = given(*CREW, *CHAPTER_ONE, *PORT, options=OPTIONS)
    anne, jack, mary = (view(state, "pirate", pirate_id=p) for p in ("anne", "jack", "mary"))
    # Anne, Captain: Salary 50 instead of her card's 20 (Book II: Locations, Docks); +5 Fame for teaching Fencing (Book II: Feats, Classes and Skills, Master and apprentice).
    assert (anne["coins"], anne["fame"]) == (60 + 50, 82 + 5)
    assert jack["coins"] == 70 + 15
    # Mary (Rogue and Duelist, multi-class) learns Fencing (Duelist, 100 Coins / 60 Fame tier, Book II: Feats, Classes and Skills, Rogue Skills):
    # 100+15 = 115 Coins and 60+10 = 70 Fame (Book II: Feats, Classes and Skills, Master and apprentice), minus the master's 15 Coins and 10 Fame (Book II: Feats, Classes and Skills, Master and apprentice).
    # Francisco Carranza teaches Duelist skills in the Manor: Mary pays its 7 Coins to enter (Book II: Locations,
    # Madame Claude's Manor).
    assert (mary["coins"], mary["fame"]) == (120 + 15 - 100 - 7, 72 - 60)
    assert "Fencing" in mary["skills"] and mary["special_skills"]["used"] == 1
    # Time Units: 20 (Book II: Port Phase, Setup) - 1 for Salary - 7 for the skill (Book II: Locations, Docks).
    assert mary["time_units"] == 0  # the Port has ended and Time Units are gone
    ship = view(state, "ship")
    # Crew's Booty: +100 with the Captain's Salary, -100 for a Cannon (Book II: Locations, Docks), +2 x 10 for two Rum (Book II: Locations, Docks).
    assert ship["crew_booty"] == 100 - 100 + 20
    # The Southern Lady: 3 Cannons +1; 2 Rum and 3 Supplies less the 2 Rum sold (Book III: Voyage Phase, Important Concepts).
    assert ship["ship"]["cannons"] == 4
    assert ship["ship"]["goods"] == {"Supplies": 3}
    # 3 Goods + 4 Cannons = 7 tokens, 4 columns: Cargo Rate 2 (Book III: Voyage Phase Sequence, Crew Round).
    assert ship["ship"]["cargo_rate"] == 2


def test_the_voyage_turns_trust_into_fame_and_a_mutiny_changes_the_captain():
    state = given(*CREW, *CHAPTER_ONE, *PORT, *VOYAGE, options=OPTIONS)
    anne, jack, mary = (view(state, "pirate", pirate_id=p) for p in ("anne", "jack", "mary"))
    # Mutiny: Trust becomes Fame (anne 2, jack 6, mary 4), bids cost 10 Coins per coin to every bidder (Book III: Voyage Phase, Mutiny).
    assert (anne["fame"], anne["coins"]) == (87 + 2, 110 - 20)
    assert (jack["fame"], jack["coins"]) == (47 + 6, 85 - 30)
    assert view(state, "ship")["captain"] == "jack"
    # Mary's 3 Trust after the Mutiny become Fame at the end of the Voyage (Book III: Voyage Phase, Trust Points).
    assert mary["fame"] == 12 + 4 + 3


def test_the_whole_chapter_ends_in_these_record_sheets():
    state = given(*CAMPAIGN, options=OPTIONS)
    sheets = {p["id"]: p for p in view(state, "pirates")}
    anne, jack, mary, ned = sheets["anne"], sheets["jack"], sheets["mary"], sheets["ned"]

    # Anne: 89 Fame + 6 in the Adventure + 2 Admiral; 90 Coins + a 10-Coin Search card; then at the next Port
    # 5 Coins to Mary for her Permanent Injury (Book II: Port Phase, Setup) and 10 for Jack's retirement, a sink (Book II: Port Phase, Setup).
    assert (anne["fame"], anne["coins"]) == (89 + 6 + 2, 90 + 10 - 5 - 10)
    assert (
        anne["captain"] is True
    )  # re-elected with the most Adventure Fame after Jack retired (Book I: End of the Adventure)

    # Mary fell Unconscious: her 2 Adventure Fame are lost (Book I: Character and Enemy States, Unconscious); the failed revive gave her the Right hand
    # (roll 4, Book I: Permanent Injuries and Retirement, Permanent Injury Chart) and cleared her Wounds (Book I: Character Actions, Revive); she ends standing, so her Fame is not halved (Book I: Character and Enemy States, Unconscious).
    assert (mary["fame"], mary["coins"]) == (19 + 2, 28 + 5 + 5 - 10)
    assert mary["injuries"] == ["Right hand"]
    assert mary["wounds"] == 0

    # Jack: Right eye (roll 1) then Left eye (roll 6): two eyes lost, he retires (Book I: Permanent Injuries and Retirement, Character Retirement). Perception 3 - 1 = 2,
    # and the second -1 is ignored at the floor of 2 (Book I: Permanent Injuries and Retirement, Permanent Injury Chart). His 8 at-risk Coins were never written down.
    assert jack["status"] == "retired"
    assert jack["attributes"]["perception"] == 2
    assert jack["injuries"] == ["Right eye", "Left eye"]
    assert (
        jack["coins"] == 0
    )  # half of 55 rounded up (Book I: How to start) went to Ned, the rest to the box (Book I: Permanent Injuries and Retirement, Character Retirement)

    # Ned replaces Jack without Coins, Fame or Destiny Points (Book I: Permanent Injuries and Retirement, Character Retirement); 28 Coins by matelotage; +2 Admiral Fame;
    # 5 Coins to Mary at the Port. He does not pay for Jack's retirement: he is Jack's player's new Pirate.
    assert (ned["fame"], ned["coins"], ned["destiny_points"]) == (2, 28 - 5, 0)

    assert view(state, "ship")["crew_booty"] == 20
    assert view(state, "chapter")["chapter"] == 3 and view(state, "chapter")["phase"] == "port"


def test_the_ledger_of_the_chapter_accounts_for_every_coin():
    state = given(*CAMPAIGN, options=OPTIONS)
    ledger = view(state, "ledger")
    held = sum(ledger["balances"].values())
    assert held == ledger["from_sources"] - ledger["to_sinks"]
    reasons = {(e["from"], e["to"], e["amount"]) for e in ledger["entries"]}
    assert ("pirate:jack", "sink:mutiny_bid", 30) in reasons
    assert ("pirate:anne", "sink:mutiny_bid", 20) in reasons
    assert ("pirate:jack", "pirate:ned", 28) in reasons
    assert ("pirate:jack", "sink:returned_to_box", 27) in reasons
    assert ("source:trade", "crew_booty", 20) in reasons


def test_the_adventure_fame_that_made_the_captain_is_shown_by_the_chapter():
    state = given(*CREW, *CHAPTER_ONE, *PORT, *VOYAGE, *ADVENTURE, options=OPTIONS)
    assert view(state, "chapter")["adventure_fame"] == {"anne": 6, "jack": 0, "mary": 0}
