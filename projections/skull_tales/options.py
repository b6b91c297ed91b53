"""Campaign rule options: every point the rulebook leaves AMBIGUOUS, and the Cabin Boy / Admiral settings.

Each option names the doubt in the Skull Tales: Full Sail! rulebook (the sections that disagree, or the silence)
and its default; the catalogue README repeats them for players. The numbers in the comments count the doubts as the
catalogue README's table does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from quartermaster.events.skull_tales import Phase
from quartermaster.projections.game import Rejection, StateStruct

PHASES: tuple[Phase, ...] = ("port", "voyage", "adventure")


class Setting(StateStruct, kw_only=True):
    """One Cabin Boy (negative Fame) or Admiral (positive Fame) setting, applied at the end of each phase of its type."""

    key: str
    mode: Literal["cabin_boy", "admiral"]
    phase: Phase
    fame: int
    text: str = ""
    captain_fame: int | None = None  # "-1 for the Pirates and -3 for the Captain"


class Options(StateStruct, kw_only=True, forbid_unknown_fields=True):
    # 1. Book I: Game Modes, Chapters vs Book I: Game Modes, Chapter Phases: the first chapter starts directly in the Adventure Phase.
    chapter_one_phases: list[Phase] = msgspec.field(default_factory=lambda: ["adventure"])
    # 2. Port "discard Destiny Points" as a benefit (Charity, Rest, Luxury Treatment): "recover" reads it as the
    #    translation slip it almost surely is; "discard" follows the words.
    port_destiny_discard: Literal["recover", "discard"] = "recover"
    # 3. Starting Destiny Points at campaign start: the card maximum (Book I: Adventure Phase, Adventure Phase Setup "their Destiny Points") or none.
    starting_destiny_points: Literal["max", "zero"] = "max"
    # 4. "Half of their Fame" for a Pirate Unconscious at the end of an Adventure or Voyage: the Record Sheet total.
    unconscious_half_fame: Literal["total", "phase"] = "total"
    # 5. Coins earned in an Adventure that is not completed successfully: lost, like Search cards (Book I: Adventure Phase, Cards).
    failed_adventure_coins: Literal["lost", "banked"] = "lost"
    # 7. Trust Points become Fame at the end of a failed Voyage too (Book III: Voyage Phase, Trust Points says so unconditionally; Book III: End of the Voyage Phase does not).
    failed_voyage_trust_to_fame: bool = True
    # 8. Marie Laveau teaches Mystic skills at the Market Square (Book II: Locations, Market Square) or the Chapel (Book II: Feats, Classes and Skills, Mystic Skills).
    marie_laveau_location: Literal["market_square", "chapel"] = "market_square"
    # 9. Analytical requires Fencing as printed (Book II: Feats, Classes and Skills, Scholar Skills).
    analytical_requires_fencing: bool = True
    # 10. Special Skill capacity printed on the Fame Dial, not in the text: this base, +1 per Feat.
    special_skill_capacity: int = 3
    # 12. Retirement compensation (10 Coins from each other Pirate): a sink, or paid to the retiring Pirate.
    retirement_compensation: Literal["sink", "retiree"] = "sink"
    # 12. Lost-Ally compensation (the Ally's Salary): recipient not stated; a sink, or into the Crew's Booty.
    lost_ally_compensation: Literal["sink", "crew_booty"] = "sink"
    # 17. Which Goods the Captain may buy: the chart says "both to buy and sell" (all), the intro Wood/Supplies/Rum.
    goods_buyable: Literal["all", "wood_supplies_rum"] = "all"
    # 17. The Prisoner reward (25 Coins each): into the Crew's Booty (it is trade at the Docks) or the Captain's.
    prisoner_reward_to: Literal["crew_booty", "personal"] = "crew_booty"
    # 18. Whether Allies may be hired and paid from the Crew's Booty outside Solo Mode.
    crew_booty_pays_allies: Literal["solo_only", "always"] = "solo_only"
    # 19. Fame spent for a Manor loan: 5 Coins per Time Unit or Fame, the first 5 Coins cost 1 Time Unit and this Fame.
    loan_first_fame: int = 1
    # 21. A Charisma difficulty is passed by a total that exceeds the number, like every other roll (Book I: Dice Rolls, Difficulty rolls).
    charisma_difficulty: Literal["exceed", "meet"] = "exceed"
    # 22. Mutiny: one bidding coin per 10 Coins on the Record Sheet, remainders rounded down (the natural reading).
    mutiny_coin_rounding: Literal["down", "up"] = "down"
    # 22. A Captain may bid nothing (only a Mutineer "must bid at least 1 coin").
    captain_may_bid_zero: bool = True
    # 23. Allies "do not gain Fame under any circumstances" (Book I: The Characters, Allies), yet at the Voyage's end
    #     "each Character who has hired an Ally gains half of the Fame that Ally has accumulated" (Book III: Voyage
    #     Phase, Trust Points): the hirer gains half the Ally's Trust (rounded up) unless this is false.
    ally_trust_to_hirer: bool = True
    # 24. Groups of Pirates stay with the crew when the Captain buys a new ship.
    ship_purchase_keeps_groups: bool = True
    # A Rum token at sea: "In addition, the Pirates recover 1 Destiny Point" (Book III: Voyage Phase, Voyage
    #     Components): every Pirate aboard ("all"), or only those not Unconscious in the «Sickbay» ("conscious").
    rum_destiny_to: Literal["all", "conscious"] = "all"
    # 26. Admiral "Unconscious Pirates lose twice as much time and Fame": the Port's 5 Fame doubles; Coins too?
    admiral_unconscious_doubles_coins: bool = False
    # 27. All the Characters in the «Sickbay» strips the Record Sheets like a surrender (Book III: End of the Voyage Phase lists it), or only
    #     chooses the annex to play (Book III: End of the Voyage Phase).
    sickbay_surrender_wipe: bool = True
    # The Surrender wipe names the Coins, the items and the Crew's Booty (Book III: End of the Voyage Phase), not the
    # Goods in the Hold nor the ship: both stay by default; "lost" takes them too (a ship lost leaves the crew to buy
    # one at the Docks before the next Voyage).
    surrender_goods: Literal["kept", "lost"] = "kept"
    surrender_ship: Literal["kept", "lost"] = "kept"
    # Solo Mode's Ally Scheme: "make a confronted Charisma roll: If the Captain wins..." (Book III: Crew Round); a
    # Group of Pirates has no Charisma (Book III: Groups of Pirates), so the guard side rolls the Captain's Charisma
    # ("captain"), or a guarding Ally's own ("guard").
    solo_scheme_guard_charisma: Literal["captain", "guard"] = "captain"
    # 28. Luxury Feat: a treasure a Pirate buried as Captain counts after they lose the captaincy.
    luxury_counts_former_captain: bool = True
    # 30. No floor is stated for Fame and Coins: penalties stop at 0 ("clamp"), or may not exceed what is held.
    penalty_floor: Literal["clamp", "reject"] = "clamp"
    # A Greedy penitent taking a Fallen Enemy token's reward, or a Prideful one the Fame for defeating an Enemy, in
    # the penance's Adventure (Book II: Locations, Saint Telmo's Chapel): "breaks" records it and the penance is not fulfilled "to the letter"
    # (Book II: Locations, Saint Telmo's Chapel), so the Chapel does not lift the Curse; "refused" holds the table to "cannot" and refuses the event.
    penance_breach: Literal["breaks", "refused"] = "breaks"
    # Skill discounts stack on the class price with no stated order or minimum: a price never goes below this.
    skill_cost_floor: int = 0
    # Under the Cabin Boy "as if Multi-class" setting a single-class Pirate still pays the single price in class.
    cabin_boy_multiclass_single_keeps_price: bool = True
    # Solo Mode (Book I: Game Modes, Lone Pirates) and the crew's Cabin Boy / Admiral settings.
    solo: bool = False
    players: int | None = None
    settings: list[Setting] = []
    # Who may log an event against a rule of the game, with a reason: the campaign's "owner" (the default), or any
    # of its "players" too. Integrity rules hold for everyone.
    overrides: Literal["owner", "players"] = "owner"


def parse(options: Mapping[str, Any]) -> Options:
    """The campaign's options, or a Rejection naming what is wrong with them."""
    for setting in options.get("settings") or []:
        if isinstance(setting, str):
            raise Rejection(
                f"The setting {setting!r} must be expanded from the catalogue before the campaign starts "
                "(the service does this when it knows the name)."
            )
    try:
        parsed = msgspec.convert(dict(options), Options)
    except msgspec.ValidationError as error:
        raise Rejection(f"These campaign options cannot be used: {error}.") from None
    if not parsed.chapter_one_phases or len(set(parsed.chapter_one_phases)) != len(parsed.chapter_one_phases):
        raise Rejection("The first chapter needs one to three different phases.")
    if parsed.special_skill_capacity < 0:
        raise Rejection("The Special Skill capacity cannot be negative.")
    if parsed.players is not None and not 1 <= parsed.players <= 5:
        raise Rejection(f"Skull Tales is played by 1 to 5 players, not {parsed.players}.")
    keys = [s.key for s in parsed.settings]
    if len(set(keys)) != len(keys):
        raise Rejection("A setting is chosen twice.")
    for setting in parsed.settings:
        if (setting.mode == "cabin_boy") != (setting.fame < 0):
            raise Rejection(
                f"The setting {setting.key} has {setting.fame} Fame, which does not fit {setting.mode} mode."
            )
    return parsed


def active(options: Options, key: str) -> bool:
    return any(setting.key == key for setting in options.settings)
