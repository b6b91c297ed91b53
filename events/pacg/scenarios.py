"""Adventures and scenarios: their start, the hourglass, closing locations, encounters, the end."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.campaign import ALL_VIEWS
from quartermaster.events.pacg.cards import SCENARIO, CardEntry, LocationName, LocationSetup, ShipCard

# ----------------------------------------------------------------------------------------------- scenarios


class AdventureStarted(Event, kw_only=True, tag="adventure.started"):
    """An adventure began: its scenarios in order, and its Adventure Deck into the vault when given.

    Rulebook: Skull & Shackles Rulebook, After the Scenario: Ending a Scenario, Adventure, or Adventure Path.
    Send only `adventure` to take its scenarios from the catalogue.
    """

    adventure: Annotated[str, Meta(description="The adventure's name.")]
    number: Annotated[int, Meta(description="Its Adventure Deck number (#); 0 for the base set.")] = 0
    scenarios: Annotated[list[str], Meta(description="Its scenarios, in order.")] = []
    scenario_count: Annotated[
        Annotated[int, Meta(ge=1)] | None,
        Meta(
            description="How many scenarios its card lists, when `scenarios` names only the first of them: the "
            "scenarios played as part of it after the named ones complete the list, in the order they are played."
        ),
    ] = None
    product: Annotated[str | None, Meta(description="The product its cards come from, when `cards` are given.")] = None
    cards: Annotated[list[CardEntry], Meta(description="Its Adventure Deck, into the vault.")] = []

    EXAMPLES = (
        {
            "adventure": "The Wormwood Mutiny",
            "number": 1,
            "scenarios": ["Press-Ganged!", "Man Overboard!", "The Wormwood Mutiny"],
        },
    )
    VIEWS = ("scenario", "vault")


class ScenarioStarted(Event, kw_only=True, tag="scenario.started"):
    """A scenario began: its locations and their decks, its villains and henchmen, and the party's ship.

    Rulebook: Skull & Shackles Rulebook, Setting Up.
    Send only `scenario` and the locations' names to take the rest from the catalogue.
    """

    scenario: Annotated[str, Meta(description="The scenario's name.")]
    adventure: Annotated[str | None, Meta(description="The adventure it belongs to.")] = None
    number: Annotated[int, Meta(description="The adventure deck number of the scenario (#); 0 for the base set.")] = 0
    locations: Annotated[list[LocationSetup], Meta(description="The locations in play, with their deck lists.")]
    villains: Annotated[list[str], Meta(description="Its villains.")] = []
    henchmen: Annotated[list[str], Meta(description="Its henchmen.")] = []
    ship: Annotated[str, Meta(description="The party's ship for this scenario.")] = "Merchantman"
    ship_card: Annotated[ShipCard | None, Meta(description="The ship card's facts.")] = None
    anchored_at: Annotated[str | None, Meta(description="The location the ship starts anchored at, if any.")] = None
    hourglass: Annotated[
        int | None, Meta(description="Blessings in the hourglass; none takes the campaign's option (30 by default).")
    ] = None
    listed_locations: Annotated[
        dict[str, list[str]],
        Meta(
            description="The locations the scenario card lists for a number of players (every one listed for that "
            "number or fewer), by that number, as far as the catalogue knows the card: filled in by the server."
        ),
    ] = {}

    EXAMPLES = (
        {
            "scenario": "Dangerous Waters",
            "ship": "Merchantman",
            "locations": [
                {"name": "Cannibal Isle", "deck": {"monster": 1, "barrier": 1, "item": 1, "blessing": 1}},
                {"name": "Fog Bank", "deck": {"monster": 1, "spell": 1, "ally": 1, "blessing": 1}},
                {"name": "Raker Shoals", "deck": {"barrier": 1, "armor": 1, "blessing": 1}},
                {"name": "Shipwreck Graveyard", "deck": {"monster": 1, "weapon": 1, "item": 1}},
                {"name": "Tempest Cay", "deck": {"monster": 1, "weapon": 1, "blessing": 1}},
            ],
        },
    )
    VIEWS = ("scenario", "fleet", "vault", "character", "turn")


class HourglassAdvanced(Event, kw_only=True, tag="hourglass.advanced"):
    """A character's turn began: the top blessing of the hourglass went to its discards.

    Rulebook: Skull & Shackles Rulebook, Your Turn: Advance the Blessings Deck.
    """

    character_id: Annotated[str, Meta(description="The character whose turn begins, by id.")]
    card: Annotated[str | None, Meta(description="The blessing flipped, when the table says which.")] = None

    EXAMPLES = ({"character_id": "seltyiel", "card": "Blessing of Cayden Cailean"},)
    VIEWS = SCENARIO


ClosingHow = Literal["henchman", "empty", "villain", "power"]


class LocationClosed(Event, kw_only=True, tag="location.closed"):
    """A location was closed, permanently or, while a character encounters the villain, temporarily.

    Rulebook: Skull & Shackles Rulebook, Closing a Location; Encountering a Villain.
    """

    location: LocationName
    temporary: Annotated[
        bool,
        Meta(
            description="Closed only during the encounter with the villain, by a character at it, so that the villain "
            "cannot escape there."
        ),
    ] = False
    by: Annotated[
        str | None,
        Meta(
            description="The character who closes it; for a temporary closure one at that location, for a closure "
            "after a defeated henchman or an empty deck one at that location."
        ),
    ] = None
    how: Annotated[
        ClosingHow | None,
        Meta(
            description="The opportunity to close it: `henchman` (a henchman from its deck defeated), `empty` (its "
            "deck ran out), `villain` (the villain defeated there), `power` (a card or the scenario says "
            "so). Left out, the fold finds it among the first three."
        ),
    ] = None

    EXAMPLES = (
        {"location": "Shipwreck Graveyard", "temporary": True, "by": "seltyiel"},
        {"location": "Cannibal Isle", "by": "alahazra", "how": "villain"},
    )
    VIEWS = SCENARIO


class EncounterEnded(Event, kw_only=True, tag="encounter.ended"):
    """The encounter with a card ended: the card was defeated, stayed undefeated, or was evaded.

    Rulebook: Skull & Shackles Rulebook, Encountering a Card (Apply Any Evasion Effects; Attempt the Check);
    Encountering a Villain.
    The card then goes where the rules send it, as a card.moved: an evaded or undefeated bane back into its location
    deck, a defeated one to the vault; a villain defeated or undefeated escapes (villain.escaped) unless cornered.
    """

    card: Annotated[str, Meta(description="The card encountered, now in the encounter.")]
    outcome: Annotated[
        Literal["defeated", "undefeated", "evaded"],
        Meta(description="`defeated`, `undefeated` or `evaded` (neither defeated nor undefeated)."),
    ]

    EXAMPLES = ({"card": "Jemma Redclaw", "outcome": "defeated"},)
    VIEWS = SCENARIO


class VillainEscaped(Event, kw_only=True, tag="villain.escaped"):
    """The villain escaped: shuffled with blessings and dealt to the open locations.

    Rulebook: Skull & Shackles Rulebook, Encountering a Villain.
    """

    villain: Annotated[str, Meta(description="The villain's name.")]
    to: Annotated[list[str], Meta(description="The open locations one card was dealt to.")]
    defeated: Annotated[bool, Meta(description="Whether the villain was defeated before escaping.")] = True

    EXAMPLES = ({"villain": "Jemma Redclaw", "to": ["Fog Bank", "Tempest Cay"]},)
    VIEWS = ("scenario", "vault", "turn")


class ScenarioEnded(Event, kw_only=True, tag="scenario.ended"):
    """The scenario ended, won or lost.

    Rulebook: Skull & Shackles Rulebook, After the Scenario.
    """

    result: Annotated[Literal["won", "lost"], Meta(description="`won` or `lost`.")]

    EXAMPLES = ({"result": "won"},)
    VIEWS = ALL_VIEWS


__all__ = [
    "AdventureStarted",
    "ClosingHow",
    "EncounterEnded",
    "HourglassAdvanced",
    "LocationClosed",
    "ScenarioEnded",
    "ScenarioStarted",
    "VillainEscaped",
]
