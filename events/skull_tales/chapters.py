"""Chapters and their phases: Port, Voyage, Adventure."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from quartermaster.events.base import Event

Phase = Literal["port", "voyage", "adventure"]

# The chapter a chapter's event opens or closes.
ChapterNumber = Annotated[int, Meta(description="The chapter's number.")]

Degree = Literal["total_success", "partial_success", "failure"]

Outcome = Literal["success", "failure", "repeat"]


class ChapterStarted(Event, kw_only=True, tag="chapter.started"):
    """A chapter of the campaign began.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Chapters; Chapter Phases.
    """

    number: ChapterNumber
    title: Annotated[str, Meta(description="The chapter's title.")] = ""
    phases: Annotated[
        list[Phase] | None,
        Meta(description="Its phases in order; none: chapter 1 takes the option, later ones Port, Voyage, Adventure."),
    ] = None
    solo: Annotated[bool, Meta(description="Played by a Lone Pirate.")] = False

    EXAMPLES = ({"number": 3, "title": "The Black Pearl"},)
    VIEWS = ("chapter", "turn")


class PhaseStarted(Event, kw_only=True, tag="phase.started"):
    """A phase of the chapter began: Port, Voyage or Adventure.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Chapter Phases.
    """

    phase: Annotated[Phase, Meta(description="`port`, `voyage` or `adventure`.")]
    allies: Annotated[
        list[str] | None,
        Meta(
            description="Solo Mode, an Adventure: the hired Allies the Captain takes along (at most three, four "
            "with the Cabin Boy setting); none: every hired Ally, when they are few enough."
        ),
    ] = None

    EXAMPLES = ({"phase": "port"}, {"phase": "adventure", "allies": ["cook", "witch", "gunner"]})
    VIEWS = ("chapter", "pirates", "pirate", "turn")


class PhaseEnded(Event, kw_only=True, tag="phase.ended"):
    """A phase ended: at-risk Fame and Coins were banked, halved or lost, and the settings' Fame applied.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Adventure Phase, End of the Adventure; Book II: End of the Port Phase; Book III: End of the Voyage
    Phase.
    """

    phase: Annotated[Phase, Meta(description="The phase ending.")]
    outcome: Annotated[Outcome, Meta(description="`success`, `failure` or `repeat`.")] = "success"
    degrees: Annotated[dict[str, Degree], Meta(description="Adventure: each Pirate's degree of success, by id.")] = {}

    EXAMPLES = ({"phase": "port"},)
    VIEWS = ("chapter", "pirates", "pirate", "ship", "ledger", "turn")


class ChapterEnded(Event, kw_only=True, tag="chapter.ended"):
    """A chapter ended.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Chapters.
    """

    number: ChapterNumber

    EXAMPLES = ({"number": 2},)
    VIEWS = ("chapter", "turn")


__all__ = ["ChapterEnded", "ChapterStarted", "Degree", "Outcome", "Phase", "PhaseEnded", "PhaseStarted"]
