"""Permanent Injuries and retirement: an injury rolled on the chart, a Pirate retired, Matelotage, a prosthesis."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.skull_tales.pirates import Hand, PirateId

Prosthesis = Literal["hook", "eye_patch", "peg_leg"]


class InjurySuffered(Event, kw_only=True, tag="injury.suffered"):
    """A failed Revive left a Pirate with a Permanent Injury, rolled on the chart.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Permanent Injuries and Retirement, Permanent Injury Chart.
    Send `pirate_id` and `roll`: the chart's facts come from the catalogue.
    """

    pirate_id: PirateId
    roll: Annotated[int, Meta(description="The die rolled on the Permanent Injury Chart.")]
    injury: Annotated[str, Meta(description="The injury (`Left eye`).")]
    pair: Annotated[str, Meta(description="The pair it belongs to: `eyes`, `hands` or `legs`.")]
    hand: Annotated[Hand | None, Meta(description="For a lost hand, which one.")] = None
    attribute_changes: Annotated[dict[str, int], Meta(description="Attribute changes, by attribute.")] = {}
    movement: Annotated[int, Meta(description="The change to movement.")] = 0

    EXAMPLES = ({"pirate_id": "mary", "roll": 4},)
    VIEWS = ("pirates", "pirate", "turn")


class PirateRetired(Event, kw_only=True, tag="pirate.retired"):
    """A Pirate left the campaign: both of a pair lost, or the Legendary Pirate Feat.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Permanent Injuries and Retirement, Character Retirement.
    """

    pirate_id: PirateId
    reason: Annotated[
        Literal["injury", "legendary_pirate"], Meta(description="`injury` (a lost pair) or `legendary_pirate`.")
    ] = "injury"

    EXAMPLES = ({"pirate_id": "jack", "reason": "injury"},)
    VIEWS = ("pirates", "pirate", "ship", "turn")


class MatelotageDone(Event, kw_only=True, tag="matelotage.done"):
    """A retired Pirate gave the new one half their Coins and one non-starting item.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Permanent Injuries and Retirement, Character Retirement (Matelotage).
    """

    retired_id: Annotated[str, Meta(description="The retired Pirate, by id.")]
    new_id: Annotated[str, Meta(description="The Pirate who replaces them, by id.")]
    coins: Annotated[int, Meta(description="The Coins handed over: half the retired Pirate's.")]
    item: Annotated[str | None, Meta(description="The non-starting item handed over.")] = None
    free_skill: Annotated[
        str | None, Meta(description="Legendary Pirate: a skill of the retired Pirate the new one learns for free.")
    ] = None

    EXAMPLES = ({"retired_id": "jack", "new_id": "ned", "coins": 28},)
    VIEWS = ("pirates", "pirate", "ledger", "turn")


class ProsthesisBought(Event, kw_only=True, tag="prosthesis.bought"):
    """A Pirate bought a Hook, an Eye patch or a Peg leg: 1 Time Unit and 10 Coins.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Market Square.
    """

    pirate_id: PirateId
    prosthesis: Annotated[Prosthesis, Meta(description="`hook`, `eye_patch` or `peg_leg`.")]

    EXAMPLES = ({"pirate_id": "mary", "prosthesis": "hook"},)
    VIEWS = ("pirates", "pirate", "ledger", "turn")


__all__ = ["InjurySuffered", "MatelotageDone", "PirateRetired", "Prosthesis", "ProsthesisBought"]
