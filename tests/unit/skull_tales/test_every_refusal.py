"""The rest of the fold's refusals, each triggered by the events that reach it and read back word for word.

`test_refusals.py` walks through the refusals a table meets most; this file covers every other guard of the fold
and of options parsing, one case per `raise Rejection(` site. Each case names the behaviour it checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from quartermaster.events.pacg import HourglassAdvanced
from quartermaster.projections.game import Meta, Rejection
from quartermaster.projections.skull_tales import GAME
from quartermaster.projections.skull_tales.booty import move
from quartermaster.service.application.catalog import CatalogError, skull_tales as catalogue
from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, SOLO_ALLIES, WITCH, event
from tests.unit.skull_tales.stages import adventuring, at_sea, crew, in_port
from tests.unit.skull_tales.table import CATALOG, at_sea as witch_at_sea, given, refused

TO_ADVENTURE = [
    event("phase.ended", phase="port"),
    event("phase.started", phase="voyage"),
    event("phase.ended", phase="voyage"),
    event("phase.started", phase="adventure"),
]


def first_adventure(*extra: dict[str, Any]):
    """Chapter 1's Adventure: no Captain and no ship yet."""
    return crew(event("chapter.started", number=1), event("phase.started", phase="adventure"), *extra)


COOK = {"ally_id": "cook", "archetype": "Cook", "charisma": 2, "salary": 10, "fame_cost": 5}
ALLIES = [
    {"ally_id": a, "archetype": a.capitalize(), "charisma": 2, "salary": 0, "fame_cost": 0}
    for a in ("witch", "surgeon", "gunner", "lookout", "freedman")
]
DICE_3_4_5 = [{"sides": 6, "face": f} for f in (3, 4, 5)]


def solo_port(*extra: dict[str, Any]):
    """Solo Mode: Anne alone, in a Port-only first chapter."""
    return given(
        CREW[0],
        *SOLO_ALLIES,
        event("chapter.started", number=1, phases=["port"]),
        event("phase.started", phase="port"),
        *extra,
        options={"solo": True},
    )


Case = tuple[str, Callable[[], Any], dict[str, Any], str]

CASES: list[Case] = [
    # --- pirates and record sheets ---
    (
        "a pirate needs the classes printed on the card",
        lambda: crew(),
        {**CREW[0], "data": {**CREW[0]["data"], "pirate_id": "x", "name": "Xena", "classes": []}},
        "Xena needs the class or classes printed on the Captain's Daughter card.",
    ),
    (
        "an attribute below 1 is not on any card",
        lambda: crew(),
        {
            **CREW[0],
            "data": {
                **CREW[0]["data"],
                "pirate_id": "x",
                "name": "Xena",
                "attributes": {**CREW[0]["data"]["attributes"], "agility": 0},
            },
        },
        "Xena's agility cannot be 0.",
    ),
    (
        "a card with no Health is not possible",
        lambda: crew(),
        {**CREW[0], "data": {**CREW[0]["data"], "pirate_id": "x", "name": "Xena", "health": 0}},
        "Xena's card values (Health, Action Points, Destiny Points, Salary) are not possible.",
    ),
    (
        "only a retired pirate can be replaced",
        lambda: crew(),
        {**CREW[0], "data": {**CREW[0]["data"], "pirate_id": "x", "name": "Xena", "replaces": "jack"}},
        "Xena can only replace a retired pirate, and 'jack' has not retired.",
    ),
    (
        "a change of no Fame is left out",
        lambda: in_port(),
        event("fame.changed", pirate_id="jack", amount=0, source="event"),
        "A change of 0 Fame changes nothing; leave it out.",
    ),
    (
        "Fame needs a source",
        lambda: in_port(),
        event("fame.changed", pirate_id="jack", amount=3, source=""),
        "Say where Jack's Fame comes from (an Enemy, a Goal, a Search card, an Event...).",
    ),
    (
        "an unconscious pirate gains no Fame in the Adventure",
        lambda: first_adventure(event("pirate.unconscious", pirate_id="jack")),
        event("fame.changed", pirate_id="jack", amount=3, source="enemy"),
        "Jack is Unconscious and cannot gain Fame until revived.",
    ),
    (
        "a Fame penalty larger than the Fame held is refused when the option says so",
        lambda: in_port(options={**OPTIONS, "penalty_floor": "reject"}),
        event("fame.changed", pirate_id="jack", amount=-50, source="event"),
        "Jack cannot lose 50 Fame for event: Jack has 47.",
    ),
    (
        "a pirate cannot recover wounds they do not have",
        lambda: in_port(),
        event("wounds.changed", pirate_id="jack", amount=-1),
        "Jack cannot recover 1 Wound: Jack has 0.",
    ),
    (
        "a Destiny Point for +1 per die is spent one at a time",
        lambda: in_port(),
        event("destiny.changed", pirate_id="anne", amount=-2, plus_one=True),
        "Anne spends exactly one Destiny Point for +1 to each die of a roll.",
    ),
    (
        "a pirate already unconscious cannot fall again",
        lambda: first_adventure(event("pirate.unconscious", pirate_id="jack")),
        event("pirate.unconscious", pirate_id="jack"),
        "Jack is already Unconscious.",
    ),
    (
        "an unconscious pirate carrying items names the one lost",
        lambda: first_adventure(event("item.gained", pirate_id="jack", item="Pistol")),
        event("pirate.unconscious", pirate_id="jack"),
        "Jack falls Unconscious and must lose one random non-starting Gear card or Legendary item: "
        "name it (lost_item) from Pistol.",
    ),
    (
        "nobody falls unconscious between phases",
        lambda: crew(),
        event("pirate.unconscious", pirate_id="jack"),
        "Jack can only fall Unconscious during a phase.",
    ),
    (
        "only an unconscious pirate is revived",
        lambda: first_adventure(),
        event("pirate.revived", pirate_id="jack", reviver_id="anne"),
        "Jack is not Unconscious.",
    ),
    (
        "a pirate cannot revive themselves",
        lambda: first_adventure(event("pirate.unconscious", pirate_id="jack")),
        event("pirate.revived", pirate_id="jack", reviver_id="jack"),
        "Jack cannot revive themselves.",
    ),
    (
        "an item not on the record sheet cannot be lost",
        lambda: in_port(event("item.gained", pirate_id="jack", item="Pistol")),
        event("item.lost", pirate_id="jack", item="Cutlass"),
        "Jack does not carry Cutlass; Jack's Record Sheet lists Pistol.",
    ),
    (
        "starting gear is never lost or given",
        lambda: in_port(),
        event("item.given", from_pirate="jack", to_pirate="mary", item="Axe"),
        "Jack cannot give Axe: it is starting gear, which always stays with its owner.",
    ),
    (
        "a fourth item does not fit",
        lambda: in_port(*(event("item.gained", pirate_id="jack", item=i) for i in ("Pistol", "Cutlass", "Rope"))),
        event("item.gained", pirate_id="jack", item="Spyglass"),
        "Jack cannot carry Spyglass: Jack already carries Pistol, Cutlass, Rope, and there is room for starting gear "
        "plus 3 items (Rum and Brew take half a space).",
    ),
    (
        "there is one copy of each Legendary item",
        lambda: in_port(event("item.gained", pirate_id="jack", item="Cursed Compass", kind="legendary")),
        event("item.gained", pirate_id="mary", item="Cursed Compass", kind="legendary"),
        "There is only one Cursed Compass, and Jack holds it.",
    ),
    (
        "there are five Legendary items",
        lambda: in_port(
            *(
                event("item.gained", pirate_id=p, item=f"Relic {n}", kind="legendary")
                for n, p in enumerate(("jack", "jack", "mary", "mary", "anne"))
            )
        ),
        event("item.gained", pirate_id="anne", item="Relic 9", kind="legendary"),
        "All 5 Legendary items are already held; Relic 9 cannot be a sixth.",
    ),
    (
        "a cursed pirate is not cursed twice",
        lambda: in_port(event("curse.gained", pirate_id="jack")),
        event("curse.gained", pirate_id="jack"),
        "Jack is already Cursed.",
    ),
    (
        "only the cursed choose a penance",
        lambda: in_port(),
        event("penance.chosen", pirate_id="jack", penance="wroth"),
        "Jack is not Cursed and has nothing to atone for.",
    ),
    (
        "one penance at a time",
        lambda: in_port(
            event("curse.gained", pirate_id="jack"), event("penance.chosen", pirate_id="jack", penance="wroth")
        ),
        event("penance.chosen", pirate_id="jack", penance="greedy"),
        "Jack is already doing the penance for the Wroth.",
    ),
    (
        "a curse not there cannot be lifted",
        lambda: at_sea(),
        event("curse.removed", pirate_id="jack", by="purge", purger_id="mary"),
        "Jack is not Cursed.",
    ),
    (
        "atonement waits for a later port",
        lambda: in_port(
            event("curse.gained", pirate_id="jack"), event("penance.chosen", pirate_id="jack", penance="wroth")
        ),
        event("curse.removed", pirate_id="jack", by="atonement"),
        "Jack must first choose a penance and fulfil it in the next Adventure, then return to the Chapel in a later "
        "Port Phase.",
    ),
    (
        "purge names the mystic who used it",
        lambda: at_sea(event("curse.gained", pirate_id="jack")),
        event("curse.removed", pirate_id="jack", by="purge"),
        "Name the Mystic who used Purge.",
    ),
    (
        "only a pirate who knows Purge lifts a curse with it",
        lambda: at_sea(event("curse.gained", pirate_id="jack")),
        event("curse.removed", pirate_id="jack", by="purge", purger_id="mary"),
        "Mary does not know Purge.",
    ),
    (
        "purge is used at sea",
        lambda: given(
            *CREW[:2],
            WITCH,
            event("chapter.started", number=1, phases=["port"]),
            event("phase.started", phase="port"),
            event("curse.gained", pirate_id="jack"),
            options=OPTIONS,
        ),
        event("purge.used", pirate_id="tia", roll=4, cursed_id="jack"),
        "Tia's Purge happens in the Voyage Phase, and this is the port phase.",
    ),
    (
        "only a pirate who knows Purge rolls for it",
        lambda: witch_at_sea(),
        event("purge.used", pirate_id="anne", roll=4, cursed_id="jack"),
        "Anne does not know Purge.",
    ),
    (
        "the purge roll is one die",
        lambda: witch_at_sea(),
        event("purge.used", pirate_id="tia", roll=7, cursed_id="jack"),
        "Tia's Purge is a Charisma roll on one die; 7 is not a face.",
    ),
    (
        "purge frees only a cursed pirate",
        lambda: witch_at_sea(),
        event("purge.used", pirate_id="tia", roll=4, cursed_id="anne"),
        "Tia cannot Purge Anne: Anne is not Cursed.",
    ),
    (
        "purge needs someone cursed",
        lambda: witch_at_sea(
            event("purge.used", pirate_id="tia", roll=1, cursed_id="jack"),
            event("phase.ended", phase="voyage"),
            event("chapter.ended", number=1),
            event("chapter.started", number=2, phases=["voyage"]),
            event("phase.started", phase="voyage"),
            event("purge.used", pirate_id="tia", roll=5, cursed_id="jack"),
            event("phase.ended", phase="voyage"),
            event("chapter.ended", number=2),
            event("chapter.started", number=3, phases=["voyage"]),
            event("phase.started", phase="voyage"),
        ),
        event("purge.used", pirate_id="tia", roll=4),
        "Tia has nobody to Purge: no Pirate of the crew is Cursed.",
    ),
    (
        "a successful purge names the pirate it frees",
        lambda: witch_at_sea(event("curse.gained", pirate_id="anne")),
        event("purge.used", pirate_id="tia", roll=2),
        "Tia's Purge succeeds with 6 against Charisma 5: name the Cursed Pirate it frees (cursed_id) from Anne, Jack.",
    ),
    (
        "purge is once per voyage",
        lambda: witch_at_sea(event("purge.used", pirate_id="tia", roll=1)),
        event("purge.used", pirate_id="tia", roll=6, cursed_id="jack"),
        "Tia has already used Purge in this Voyage Phase; it is used once per Voyage Phase (Book II: Feats, Classes and Skills, Mystic Skills).",
    ),
    (
        "a broken penance lifts no curse",
        lambda: in_port(
            event("curse.gained", pirate_id="jack"),
            event("penance.chosen", pirate_id="jack", penance="greedy"),
            *TO_ADVENTURE,
            event("coins.changed", pirate_id="jack", amount=2, source="fallen_enemy"),
            event(
                "phase.ended",
                phase="adventure",
                degrees={"anne": "total_success", "jack": "total_success", "mary": "total_success"},
            ),
            event("chapter.ended", number=2),
            event("chapter.started", number=3),
            event("phase.started", phase="port"),
        ),
        event("curse.removed", pirate_id="jack", by="atonement"),
        "Jack broke the penance for the Greedy: Jack took 2 Coins from a Fallen Enemy token in the Adventure after "
        "choosing it, so the Chapel does not lift the Curse; Jack may choose a new penance.",
    ),
    (
        "charity gives one wound or one destiny point",
        lambda: in_port(),
        event("port.service_bought", pirate_id="jack", service="charity", wounds=1, destiny=1),
        "Charity gives Jack either 1 Wound recovered or 1 Destiny Point, once per visit.",
    ),
    (
        "charity cannot heal a wound that is not there",
        lambda: in_port(),
        event("port.service_bought", pirate_id="jack", service="charity", wounds=1),
        "Jack cannot recover 1 Wound: Jack has 0.",
    ),
    (
        "only the captain rests at the docks",
        lambda: in_port(),
        event("port.service_bought", pirate_id="jack", service="rest", wounds=2),
        "Jack cannot Rest at the Docks: only the Captain can.",
    ),
    (
        "each time unit of rest gives two",
        lambda: in_port(),
        event("port.service_bought", pirate_id="anne", service="rest", destiny=1, times=1),
        "Each Time Unit of Rest gives Anne two of Wounds and Destiny Points together (1 Time Unit gives 2).",
    ),
    (
        "luxury treatment is once per visit",
        lambda: in_port(event("manor.entered", pirate_id="anne")),
        event("port.service_bought", pirate_id="anne", service="luxury_treatment", times=2),
        "Luxury Treatment is taken once per visit.",
    ),
    (
        "time units are spent in positive numbers",
        lambda: in_port(),
        event("time.spent", pirate_id="jack", amount=0),
        "Jack spends a positive number of Time Units, not 0.",
    ),
    (
        "a retired pirate does nothing more",
        lambda: in_port(
            event("injury.suffered", pirate_id="jack", roll=1),
            event("injury.suffered", pirate_id="jack", roll=6),
            event("pirate.retired", pirate_id="jack"),
        ),
        event("salary.collected", pirate_id="jack"),
        "Jack has retired from the campaign.",
    ),
    # --- injuries, retirement, matelotage, prostheses ---
    (
        "the injury chart is read on one die",
        lambda: in_port(),
        event("injury.suffered", pirate_id="jack", roll=7, injury="Left eye", pair="eyes"),
        "The Permanent Injury chart is read on one die; 7 is not a face of it.",
    ),
    (
        "a pirate who lost a pair suffers no further injury",
        lambda: in_port(
            event("injury.suffered", pirate_id="jack", roll=1), event("injury.suffered", pirate_id="jack", roll=6)
        ),
        event("injury.suffered", pirate_id="jack", roll=2),
        "Jack has already lost a pair and must retire.",
    ),
    (
        "retiring with honours needs the Legendary Pirate feat",
        lambda: in_port(),
        event("pirate.retired", pirate_id="jack", reason="legendary_pirate"),
        "Jack cannot retire with the highest honours without the Legendary Pirate Feat.",
    ),
    (
        "matelotage follows a retirement",
        lambda: in_port(),
        event("matelotage.done", retired_id="jack", new_id="mary", coins=0),
        "Jack has not retired; matelotage follows a retirement.",
    ),
    (
        "matelotage passes only to the replacement",
        lambda: in_port(
            event("injury.suffered", pirate_id="jack", roll=1),
            event("injury.suffered", pirate_id="jack", roll=6),
            event("pirate.retired", pirate_id="jack"),
        ),
        event("matelotage.done", retired_id="jack", new_id="mary", coins=0),
        "Mary did not replace Jack; matelotage passes to the new Pirate only.",
    ),
    (
        "a prosthesis is bought once",
        lambda: in_port(
            event("injury.suffered", pirate_id="jack", roll=4),
            event("prosthesis.bought", pirate_id="jack", prosthesis="hook"),
        ),
        event("prosthesis.bought", pirate_id="jack", prosthesis="hook"),
        "Jack already has a Hook.",
    ),
    # --- booty, loans, salaries ---
    (
        "a change of no coins is left out",
        lambda: in_port(),
        event("coins.changed", pirate_id="jack", amount=0, source="event"),
        "A change of 0 Coins changes nothing; leave it out.",
    ),
    (
        "coins change for someone",
        lambda: in_port(),
        event("coins.changed", amount=5, source="event"),
        "Coins change for a pirate or an Ally: name one.",
    ),
    (
        "coins go only where the rules send them",
        lambda: in_port(),
        event("coins.changed", pirate_id="jack", amount=-5, source="tax"),
        "Jack cannot lose Coins to 'tax'; Coins go to black_market, bribe, card_game, event, gambling, gear, magic, penalty, "
        "rum_and_brew, rumor, storytelling, surrender.",
    ),
    (
        "a coin penalty larger than the purse is refused when the option says so",
        lambda: in_port(options={**OPTIONS, "penalty_floor": "reject"}),
        event("coins.changed", pirate_id="jack", amount=-80, source="penalty"),
        "Jack cannot lose 80 Coins for penalty: Jack has 70.",
    ),
    (
        "an ally not hired finds no coins",
        lambda: adventuring(),
        event("coins.changed", ally_id="cook", amount=5, source="search_card"),
        "There is no hired Ally 'cook' to take those Coins.",
    ),
    (
        "an ally's coins are only found",
        lambda: in_port(event("ally.hired", pirate_id="jack", **COOK), *TO_ADVENTURE),
        event("coins.changed", ally_id="cook", amount=-5, source="search_card"),
        "An Ally's Coins are only found, then shared at the end of the Adventure.",
    ),
    (
        "an ally's coins come from where the rules find them",
        lambda: in_port(event("ally.hired", pirate_id="jack", **COOK), *TO_ADVENTURE),
        event("coins.changed", ally_id="cook", amount=5, source="salary"),
        "Coins cannot come from 'salary'; they come from assignment, card_game, event, fallen_enemy, gambling, goal, "
        "island, rumor, search_card.",
    ),
    (
        "coins given are a positive number",
        lambda: in_port(),
        event("coins.given", from_pirate="jack", to="mary", amount=0),
        "Jack can only give a positive number of Coins, not 0.",
    ),
    (
        "a pirate cannot give coins to themselves",
        lambda: in_port(),
        event("coins.given", from_pirate="jack", to="jack", amount=5),
        "Jack cannot give Coins to themselves.",
    ),
    (
        "booty is buried in positive amounts",
        lambda: at_sea(),
        event("booty.buried", pirate_id="anne", island="B", amount=0),
        "Anne must bury a positive amount of Coins, not 0.",
    ),
    (
        "the captain buries only what the crew's booty holds",
        lambda: at_sea(),
        event("booty.buried", pirate_id="anne", island="B", amount=10),
        "Anne cannot bury 10 Coins: the Crew's Booty holds 0.",
    ),
    (
        "only what was buried is recovered",
        lambda: at_sea(),
        event("booty.recovered", pirate_id="anne", island="B", amount=10),
        "Anne cannot recover 10 Coins from island B: Anne buried 0 there.",
    ),
    (
        "a manor loan costs fame",
        lambda: in_port(),
        event("loan.taken", pirate_id="jack", amount=10, lender="manor"),
        "Jack cannot borrow at the Manor without spending Fame: the first 5 Coins cost 1 Time Unit and 1 Fame.",
    ),
    (
        "a manor loan takes no more fame than coins",
        lambda: in_port(),
        event("loan.taken", pirate_id="jack", amount=10, lender="manor", fame=3),
        "Jack spends more Fame than a 10-Coin loan asks for.",
    ),
    (
        "a manor loan's fame comes from the record sheet",
        lambda: crew(event("chapter.started", number=1, phases=["port"]), event("phase.started", phase="port")),
        event("loan.taken", pirate_id="jack", amount=5, lender="manor", fame=1),
        "Jack cannot borrow 5 Coins: it costs 1 Fame and Jack has 0.",
    ),
    (
        "an unconscious pirate revives nobody",
        lambda: adventuring(
            event("pirate.unconscious", pirate_id="jack"), event("pirate.unconscious", pirate_id="mary")
        ),
        event("pirate.revived", pirate_id="jack", reviver_id="mary"),
        "Mary is Unconscious and cannot revive Jack (Book I: Character Actions, Revive).",
    ),
    (
        "nothing is repaid without a loan",
        lambda: in_port(),
        event("loan.repaid", pirate_id="jack", amount=6),
        "Jack owes Monsieur Fontaine nothing.",
    ),
    (
        "a loan is not overpaid",
        lambda: in_port(event("loan.taken", pirate_id="jack", amount=10, lender="market")),
        event("loan.repaid", pirate_id="jack", amount=13),
        "Jack cannot repay 13 Coins: Jack owes 12.",
    ),
    (
        "the crew's booty repays only a ship loan",
        lambda: in_port(event("loan.taken", pirate_id="anne", amount=10, lender="market")),
        event("loan.repaid", pirate_id="anne", amount=12, paid_from="crew_booty"),
        "The Crew's Booty repays only a ship loan, and Anne's loan was personal.",
    ),
    # --- allies ---
    (
        "an ally is hired by one pirate",
        lambda: in_port(event("ally.hired", pirate_id="jack", **COOK)),
        event("ally.hired", pirate_id="mary", **COOK),
        "The Cook (cook) is already hired by Jack.",
    ),
    (
        "five players hire no allies",
        lambda: in_port(options={**OPTIONS, "players": 5}),
        event("ally.hired", pirate_id="jack", **COOK),
        "Jack cannot hire the Cook: with 5 players there are no Allies (Book I: The Characters).",
    ),
    (
        "only the captain pays allies from the crew's booty",
        lambda: in_port(options={**OPTIONS, "crew_booty_pays_allies": "always"}),
        event("ally.hired", pirate_id="jack", paid_from="crew_booty", **COOK),
        "Jack cannot hire the Cook from the Crew's Booty: only the Captain manages it.",
    ),
    (
        "an ally costs its fame",
        lambda: in_port(),
        event("ally.hired", pirate_id="jack", **{**COOK, "fame_cost": 50}),
        "Jack cannot hire the Cook: it costs 50 Fame and Jack has 47.",
    ),
    (
        "an ally's upkeep is paid once a port",
        lambda: in_port(event("ally.hired", pirate_id="jack", **COOK)),
        event("ally.upkeep_paid", ally_id="cook"),
        "The Cook is already paid for this Port Phase.",
    ),
    (
        "upkeep is paid for a hired ally",
        lambda: in_port(),
        event("ally.upkeep_paid", ally_id="cook"),
        "There is no hired Ally 'cook'.",
    ),
    (
        "solo mode hires four allies at most",
        lambda: solo_port(event("ally.hired", pirate_id="anne", **ALLIES[0])),
        event("ally.hired", pirate_id="anne", **ALLIES[1]),
        "Anne cannot hire the Surgeon: in Solo Mode the Captain hires at most 4 Allies (Book II: Locations, Tavern).",
    ),
    # --- captaincy, trust, mutiny, command, assignments ---
    (
        "the captaincy is taken after an adventure",
        lambda: crew(),
        event("captain.elected", pirate_id="anne"),
        "Anne can take the captaincy only after an Adventure Phase ends (Book I: End of the Adventure).",
    ),
    (
        "a tie for the most adventure fame needs the charisma roll",
        lambda: first_adventure(
            event("fame.changed", pirate_id="anne", amount=10, source="goal"),
            event("fame.changed", pirate_id="jack", amount=10, source="goal"),
            # The captaincy is decided after a successful Adventure (Book I: End of the Adventure).
            event(
                "phase.ended",
                phase="adventure",
                outcome="success",
                degrees={"anne": "total_success", "jack": "total_success", "mary": "partial_success"},
            ),
        ),
        event("captain.elected", pirate_id="anne"),
        "Anne, Jack tie with 10 Fame: a confronted Charisma roll breaks the tie (log it, then elect with method "
        "charisma_tie).",
    ),
    (
        "trust belongs to someone aboard",
        lambda: at_sea(),
        event("trust.changed", character_id="bart", amount=1),
        "There is no Character 'bart' aboard.",
    ),
    (
        "a dismissed ally gains no trust",
        lambda: in_port(
            event("ally.hired", pirate_id="jack", **COOK),
            event("ally.dismissed", ally_id="cook"),
            event("phase.ended", phase="port"),
            event("phase.started", phase="voyage"),
        ),
        event("trust.changed", character_id="cook", amount=1),
        "The Cook is not a hired Ally.",
    ),
    (
        "a mutiny needs a captain",
        lambda: crew(event("chapter.started", number=1, phases=["voyage"]), event("phase.started", phase="voyage")),
        event("mutiny.resolved", instigator="jack", bids={"jack": 1}),
        "There is no Captain to mutiny against.",
    ),
    (
        "the captain does not mutiny",
        lambda: at_sea(),
        event("mutiny.resolved", instigator="anne", bids={"anne": 1}),
        "Anne is the Captain and cannot mutiny against themselves.",
    ),
    (
        "the instigator bids",
        lambda: at_sea(event("trust.changed", character_id="jack", amount=3)),
        event("mutiny.resolved", instigator="jack", bids={"anne": 0}),
        "Jack instigates the Mutiny and must bid.",
    ),
    (
        "the captain bids too",
        lambda: at_sea(event("trust.changed", character_id="jack", amount=3)),
        event("mutiny.resolved", instigator="jack", bids={"jack": 1}),
        "The Captain Anne bids in the Mutiny too (0 coins if nothing).",
    ),
    (
        "an ally mutiny needs a captain",
        lambda: crew(event("chapter.started", number=1, phases=["voyage"]), event("phase.started", phase="voyage")),
        event("ally_mutiny.resolved", ally_id="cook", coins_spent=0, ally_roll=3),
        "There is no Captain for an Ally to mutiny against.",
    ),
    (
        "only a hired ally mutinies",
        lambda: at_sea(),
        event("ally_mutiny.resolved", ally_id="cook", coins_spent=0, ally_roll=3),
        "There is no hired Ally 'cook'.",
    ),
    (
        "an ally mutinies only above the captain's trust",
        lambda: in_port(
            event("ally.hired", pirate_id="jack", **COOK),
            event("phase.ended", phase="port"),
            event("phase.started", phase="voyage"),
        ),
        event("ally_mutiny.resolved", ally_id="cook", coins_spent=0, ally_roll=3),
        "The Cook has 0 Trust Points and Anne has 0: an Ally mutinies only when it exceeds the Captain.",
    ),
    (
        "the ally rolls one die",
        lambda: in_port(
            event("ally.hired", pirate_id="jack", **COOK),
            event("phase.ended", phase="port"),
            event("phase.started", phase="voyage"),
            event("trust.changed", character_id="cook", amount=2),
        ),
        event("ally_mutiny.resolved", ally_id="cook", coins_spent=0, ally_roll=7),
        "The Ally rolls one die; 7 is not a face.",
    ),
    (
        "the captain spends coins in tens against an ally",
        lambda: in_port(
            event("ally.hired", pirate_id="jack", **COOK),
            event("phase.ended", phase="port"),
            event("phase.started", phase="voyage"),
            event("trust.changed", character_id="cook", amount=2),
        ),
        event("ally_mutiny.resolved", ally_id="cook", coins_spent=15, ally_roll=3),
        "Anne spends Coins in tens, 1 Charisma for each 10 (Book III: Voyage Phase, Mutiny), not 15.",
    ),
    (
        "a tied ally mutiny needs the charisma roll",
        # Anne's Charisma 4 + 10 Coins = 5 against the Cook's Charisma 2 + a 3.
        lambda: in_port(
            event("ally.hired", pirate_id="jack", **COOK),
            event("phase.ended", phase="port"),
            event("phase.started", phase="voyage"),
            event("trust.changed", character_id="cook", amount=2),
        ),
        event("ally_mutiny.resolved", ally_id="cook", coins_spent=10, ally_roll=3),
        "Anne and the Cook tie at 5: name the confronted roll's winner.",
    ),
    (
        "orders need a captain",
        lambda: crew(event("chapter.started", number=1, phases=["voyage"]), event("phase.started", phase="voyage")),
        event("command.issued", points=1),
        "There is no Captain to give orders.",
    ),
    (
        "the quarterdeck holds someone aboard",
        lambda: at_sea(),
        event("command.issued", points=1, quarterdeck_id="bart"),
        "There is no Character 'bart' on the «Quarterdeck».",
    ),
    (
        "command points are one, plus the quarterdeck's charisma",
        lambda: at_sea(),
        event("command.issued", points=5, quarterdeck_id="jack"),
        "Anne has 4 Command Points this round, not 5 (Book III: Voyage Phase, Command Points).",
    ),
    (
        "one assignment at a time",
        lambda: in_port(event("assignment.taken", pirate_id="anne", assignment="Escort")),
        event("assignment.taken", pirate_id="anne", assignment="Smuggle"),
        "The Captain already has the Assignment Escort: one at a time until it succeeds or fails.",
    ),
    (
        "no assignment, nothing to resolve",
        lambda: in_port(),
        event("assignment.resolved", pirate_id="anne", success=True),
        "There is no active Assignment to resolve.",
    ),
    (
        "an assignment's result goes to its captain",
        lambda: in_port(event("assignment.taken", pirate_id="anne", assignment="Escort")),
        event("assignment.resolved", pirate_id="jack", success=True),
        "The Assignment's result goes to Anne, Captain when it was completed, not Jack (Book II: Port Phase, Setup).",
    ),
    # --- one of a thing is written in the singular ---
    (
        "one coin is one Coin",
        lambda: crew(),
        event("coins.changed", pirate_id="jack", amount=-1, source="gear"),
        "Jack cannot spend 1 Coin on gear: it costs 1 Coin and there are 0.",
    ),
    (
        "one command point is one Command Point",
        lambda: at_sea(),
        event("command.issued", points=2),
        "Anne has 1 Command Point this round, not 2 (Book III: Voyage Phase, Command Points).",
    ),
    (
        "one destiny point is one Destiny Point",
        lambda: crew(options={**OPTIONS, "starting_destiny_points": "zero"}),
        event("destiny.changed", pirate_id="jack", amount=-1),
        "Jack cannot spend 1 Destiny Point: Jack has 0.",
    ),
    (
        "one trust point is one Trust Point",
        lambda: at_sea(
            event("trust.changed", character_id="anne", amount=1, reason="a Voyage Event"),
            event("trust.changed", character_id="jack", amount=2),
            event("trust.changed", character_id="mary", amount=1),
        ),
        event("mutiny.resolved", instigator="jack", bids={"jack": 1, "mary": 1, "anne": 0}),
        "Mary cannot join the Mutiny: Mary has 1 Trust Point and the Captain Anne has 1; a Mutineer must exceed the "
        "Captain (Book III: Voyage Phase, Mutiny).",
    ),
    # --- chapters and phases ---
    (
        "a chapter ends before the next starts",
        lambda: crew(event("chapter.started", number=1)),
        event("chapter.started", number=2),
        "Chapter 1 has not ended yet.",
    ),
    (
        "a chapter's phases are all different",
        lambda: crew(),
        event("chapter.started", number=1, phases=["port", "port"]),
        "Chapter 1 needs one to three different phases, not port, port.",
    ),
    (
        "a phase starts inside a chapter",
        lambda: crew(),
        event("phase.started", phase="adventure"),
        "No chapter is open: start a chapter first.",
    ),
    (
        "one phase at a time",
        lambda: first_adventure(),
        event("phase.started", phase="adventure"),
        "The adventure phase has not ended yet.",
    ),
    (
        "a chapter plays its phases once",
        lambda: crew(*CHAPTER_ONE[:-2]),
        event("phase.started", phase="adventure"),
        "Chapter 1 has played all its phases (adventure).",
    ),
    (
        "only the phase in play ends",
        lambda: first_adventure(),
        event("phase.ended", phase="port"),
        "The port phase cannot end: this is the adventure phase.",
    ),
    (
        "a voyage is not repeated",
        lambda: at_sea(),
        event("phase.ended", phase="voyage", outcome="repeat"),
        "Only an Adventure is repeated; a Voyage succeeds or fails.",
    ),
    (
        "an adventure's degrees name pirates of the crew",
        lambda: first_adventure(),
        event(
            "phase.ended",
            phase="adventure",
            degrees={"anne": "total_success", "jack": "total_success", "mary": "total_success", "bart": "failure"},
        ),
        "There is no pirate 'bart' in this crew.",
    ),
    (
        "only the open chapter ends",
        lambda: crew(event("chapter.started", number=1)),
        event("chapter.ended", number=2),
        "Chapter 2 is not the open chapter.",
    ),
    (
        "a chapter ends after its phase",
        lambda: first_adventure(),
        event("chapter.ended", number=1),
        "The adventure phase of chapter 1 has not ended yet.",
    ),
    # --- dice ---
    ("a roll has dice", lambda: crew(), event("dice.rolled", dice=[], total=0), "A roll needs at least one die."),
    (
        "a d6 shows one to six",
        lambda: crew(),
        event("dice.rolled", dice=[{"sides": 6, "face": 7}], total=7),
        "A d6 shows 1 to 6, not 7.",
    ),
    (
        "the total is the dice and the modifier",
        lambda: crew(),
        event("dice.rolled", dice=DICE_3_4_5, modifier=1, total=12),
        "The dice show 12 and the modifier is 1, so the total is 13, not 12.",
    ),
    (
        "success follows from the successes needed",
        lambda: crew(),
        event("dice.rolled", dice=DICE_3_4_5, total=12, target=4, required=2, success=True),
        "1 success of 2 needed is a failure.",
    ),
    # --- the ship, goods and groups ---
    (
        "impacts are counted up",
        lambda: at_sea(),
        event("ship.damaged", hold=-1),
        "Impacts are counted up; repairs take them away.",
    ),
    (
        "a lost column discards only goods the hold has",
        lambda: at_sea(),
        event("ship.damaged", hold=1, discarded_goods={"Metal": 1}),
        "The Hold has 0 Metal and cannot lose 1.",
    ),
    (
        "a lost column discards only cannons the ship has",
        lambda: at_sea(),
        event("ship.damaged", hold=1, discarded_cannons=4),
        "The ship has 3 Cannons and cannot lose 4.",
    ),
    (
        "only damage is repaired",
        lambda: in_port(),
        event("ship.repaired", pirate_id="anne", sails=1),
        "Anne cannot repair 1 Sail and 0 Hold Impacts: the ship has 0 damaged Sails and 0 Hold Impacts.",
    ),
    (
        "sails stop at the ship type's maximum",
        lambda: in_port(
            event("coins.changed", pirate_id="anne", amount=300, source="event"),
            event("coins.given", from_pirate="anne", to="crew_booty", amount=300),
            *(event("ship.upgraded", pirate_id="anne", upgrade="Auxiliary Sail") for _ in range(3)),
        ),
        event("ship.upgraded", pirate_id="anne", upgrade="Auxiliary Sail"),
        "Anne cannot buy the Auxiliary Sail upgrade: the Brigantine's Sails are at their maximum of 6.",
    ),
    (
        "a single mortar",
        lambda: in_port(
            event("salary.collected", pirate_id="anne"), event("ship.upgraded", pirate_id="anne", upgrade="Mortar")
        ),
        event("ship.upgraded", pirate_id="anne", upgrade="Mortar"),
        "Anne cannot buy the Mortar upgrade: the ship already has 1 and may have 1.",
    ),
    (
        "an upgrade is used only if the ship has it",
        lambda: at_sea(),
        event("upgrade.used", upgrade="Signal Codex"),
        "The ship has no Signal Codex to use (upgrades: none).",
    ),
    (
        "a group is lost only if the ship has one",
        lambda: at_sea(*(event("group.lost") for _ in range(4))),
        event("group.lost"),
        "The ship has no Group of Pirates left to lose.",
    ),
    (
        "goods are traded in positive numbers",
        lambda: in_port(),
        event("goods.traded", pirate_id="anne", goods="Rum", quantity=0, direction="sell"),
        "Anne trades a positive number of Rum, not 0.",
    ),
    (
        "sugar's die shows one to six",
        lambda: in_port(event("goods.gained", goods="Sugar", quantity=1, source="plunder")),
        event("goods.traded", pirate_id="anne", goods="Sugar", quantity=1, direction="sell", roll=7),
        "Sugar's price is one die x 10: log the die (roll 1-6).",
    ),
    (
        "the docks sell only wood, supplies and rum when the option says so",
        lambda: in_port(options={**OPTIONS, "goods_buyable": "wood_supplies_rum"}),
        event("goods.traded", pirate_id="anne", goods="Metal", quantity=1, direction="buy"),
        "Anne cannot buy Metal: the Docks sell only Wood, Supplies and Rum.",
    ),
    (
        "prisoners are not bought",
        lambda: in_port(),
        event("goods.traded", pirate_id="anne", goods="Prisoners", quantity=1, direction="buy"),
        "Prisoners cannot be bought or sold.",
    ),
    (
        "goods that sell are not delivered",
        lambda: in_port(),
        event("goods.traded", pirate_id="anne", goods="Rum", quantity=1, direction="deliver"),
        "Rum tokens are sold, not delivered.",
    ),
    (
        "goods are gained in positive numbers",
        lambda: at_sea(),
        event("goods.gained", goods="Wood", quantity=0, source="plunder"),
        "The crew gains a positive number of Wood, not 0.",
    ),
    (
        "only goods in the hold are spent",
        lambda: at_sea(),
        event("goods.spent", goods="Wood", purpose="repairs"),
        "The Hold has 0 Wood; it cannot spend 1.",
    ),
    # --- skills and feats ---
    (
        "a pirate is not their own master",
        lambda: in_port(event("coins.changed", pirate_id="anne", amount=100, source="event")),
        event("skill.learned", pirate_id="anne", skill="Riposte", master_id="anne"),
        "Anne cannot be their own master.",
    ),
    (
        "a feat costs its coins",
        lambda: in_port(),
        event("feat.gained", pirate_id="anne", feat="Bravery", requires={}),
        "Anne cannot accomplish the Bravery Feat: it costs 75 Coins and Anne has 60.",
    ),
    (
        "a feat costs its fame",
        lambda: in_port(event("coins.changed", pirate_id="anne", amount=100, source="event")),
        event("feat.gained", pirate_id="anne", feat="Legendary Pirate", requires={}),
        "Anne cannot accomplish the Legendary Pirate Feat: it costs 150 Fame and Anne has 82.",
    ),
    (
        "a feat is accomplished once",
        lambda: in_port(
            event("coins.changed", pirate_id="anne", amount=100, source="event"),
            event("feat.gained", pirate_id="anne", feat="Bravery", requires={}),
        ),
        event("feat.gained", pirate_id="anne", feat="Bravery", requires={}),
        "Anne already has the Bravery Feat.",
    ),
    (
        "a feat's counter is one the tracker keeps",
        lambda: in_port(),
        event("feat.gained", pirate_id="anne", feat="Bravery", requires={"krakens": 1}),
        "The Feat names a counter the tracker does not keep: 'krakens'.",
    ),
]


@pytest.mark.parametrize(("setup", "payload", "sentence"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_fold_refuses_with_its_sentence(setup, payload, sentence):
    assert refused(setup(), payload) == sentence


def test_an_event_of_another_game_is_not_understood():
    with pytest.raises(Rejection) as caught:
        GAME.apply(crew(), HourglassAdvanced(character_id="anne"), Meta(position=9))
    assert caught.value.reason == "Skull Tales does not know what a HourglassAdvanced event means."


def test_coins_are_never_taken_from_an_account_that_lacks_them():
    # Every rule checks the price first; the ledger's own guard stands behind them.
    with pytest.raises(Rejection) as caught:
        move(in_port(), "pirate:jack", "sink:bribe", 71, "a bribe")
    assert caught.value.reason == "Jack cannot pay 71 Coins for a bribe: only 70 are there."


@pytest.mark.parametrize(
    ("options", "sentence"),
    [
        ({"chapter_one_phases": []}, "The first chapter needs one to three different phases."),
        ({"special_skill_capacity": -1}, "The Special Skill capacity cannot be negative."),
        ({"settings": [OPTIONS["settings"][0], OPTIONS["settings"][0]]}, "A setting is chosen twice."),
        (
            {"settings": [{**OPTIONS["settings"][0], "fame": -2}]},
            "The setting admiral.adventure.critical_fail has -2 Fame, which does not fit admiral mode.",
        ),
        (
            {"penalty_floor": "sometimes"},
            "These campaign options cannot be used: Invalid enum value 'sometimes' - at `$.penalty_floor`.",
        ),
        ({"house_rule": True}, "These campaign options cannot be used: Object contains unknown field `house_rule`."),
    ],
    ids=[
        "chapter one has phases",
        "capacity is not negative",
        "a setting once",
        "admiral settings add fame",
        "an option takes its listed values",
        "an unknown option is refused",
    ],
)
def test_bad_campaign_options_are_refused_with_a_sentence(options, sentence):
    with pytest.raises(Rejection) as caught:
        GAME.initial(options)
    assert caught.value.reason == sentence


@pytest.mark.parametrize(
    ("event_type", "data", "sentence"),
    [
        (
            "ship.upgraded",
            {"pirate_id": "anne", "upgrade": "Ammunition"},
            "Ammunition is bought as chainshot or grapeshot: say which (ammunition).",
        ),
        (
            "goods.traded",
            {"pirate_id": "anne", "goods": "Sugar", "quantity": 1, "direction": "sell"},
            "Sugar's price is one die x 10: log the die (roll).",
        ),
        (
            "pirate.recruited",
            {"pirate_id": "x", "name": "Xena", "archetype": "Witch"},
            "The rulebook does not print the Witch's classes: give them from the card (classes).",
        ),
        (
            "feat.gained",
            {"pirate_id": "anne", "feat": "Braveri"},
            "Skull Tales has no Feat called 'Braveri'. Did you mean Bravery?",
        ),
        (
            "ship.upgraded",
            {"pirate_id": "anne", "upgrade": "Cannon", "cost": 50},
            "The catalogue says of the upgrade Cannon: cost is 100, not 50. Leave it out and the server fills in the "
            "catalogue's, or log it with an override saying why.",
        ),
        (
            "goods.traded",
            {"pirate_id": "anne", "goods": "Rum", "quantity": 1, "direction": "sell", "price": 5, "sellable": False},
            "The catalogue says of Rum: sellable is True, not False; price is 10, not 5. Leave them out and the server "
            "fills in the catalogue's, or log it with an override saying why.",
        ),
    ],
    ids=[
        "ammunition names its type",
        "sugar needs its die",
        "an archetype without printed classes",
        "an unknown feat",
        "a cost against the catalogue",
        "a price against the catalogue",
    ],
)
def test_the_catalogue_refuses_what_it_cannot_expand(event_type, data, sentence):
    with pytest.raises(CatalogError) as caught:
        catalogue.expand(CATALOG, event_type, data)
    assert str(caught.value) == sentence


def test_a_fact_against_the_catalogue_is_kept_as_sent_under_an_override():
    data = {"pirate_id": "anne", "upgrade": "Cannon", "cost": 50}
    assert catalogue.expand(CATALOG, "ship.upgraded", data, overridden=True)["cost"] == 50
