"""What a Skull & Shackles scenario report counts: turns, checks, cards, ships and plunder.

A turn starts when the hourglass advances (Skull & Shackles Rulebook, Your Turn: Advance the Blessings Deck); what
comes before the first is the setup. Cards gained and lost are the difference between the cards each character
holds (deck, hand, discards, buried, displayed, recovery) when the scenario starts and when it ends, as the fold
keeps them: a card handed to another character is lost by one and gained by the other. Banished cards are the ones
banished from a character's own cards; banes banished after an encounter were never anyone's.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from quartermaster.events.pacg import CHARACTER_ZONES
from quartermaster.projections import dice
from quartermaster.projections.game import Rejection
from quartermaster.projections.pacg.fleet import PLUNDER_TABLE
from quartermaster.service.application.audit.episodes import count_in
from quartermaster.service.application.audit.rolls import roll, success_rates

REWARD_TYPES = ("loot.awarded", "feat.gained", "ship.awarded")


def read(event: Any) -> Any:
    """A roll as the rules read it: a check logged with its difficulty but not its result succeeds when its total is
    greater than or equal to the difficulty (Skull & Shackles Rulebook, Attempting a Check), the fold's own reading."""
    if event.success is not None or event.difficulty is None:
        return event
    try:
        return dice.plain(event)
    except Rejection:
        return event


def holdings(state: Any) -> dict[str, Counter[str]]:
    """Every character's known cards, over all her zones."""
    held: dict[str, Counter[str]] = {}
    if state is None:
        return held
    for character_id in state.characters:
        cards: Counter[str] = Counter()
        for zone in CHARACTER_ZONES:
            pile = state.zones.get(f"{character_id}:{zone}")
            if pile is not None:
                cards.update(pile.known)
        held[character_id] = cards
    return held


def _sorted(counter: Counter[str]) -> dict[str, int]:
    return {name: count for name, count in sorted(counter.items()) if count > 0}


class ScenarioTally:
    reads = frozenset(
        {
            "hourglass.advanced",
            "dice.rolled",
            "card.moved",
            "ship.damaged",
            "ship.repaired",
            "ship.seized",
            "plunder.stashed",
            "plunder.banished",
            "loot.awarded",
            "scenario.ended",
            "character.died",
            "location.closed",
            *REWARD_TYPES,
        }
    )
    # Most of a scenario's log is cards moving, and only banishing is counted here: only those moves are read.
    skim = {"card.moved": {"verb": "banish"}}

    def __init__(self, names: dict[str, str], scenario: str) -> None:
        self.names = names
        self.scenario = scenario
        self.turns: list[dict[str, Any]] = [self._turn(0, None, None)]
        self.rolls: list[dict[str, Any]] = []
        self.banished: dict[str, Counter[str]] = {}
        self.damage: list[dict[str, Any]] = []
        self.repaired: list[int] = []
        self.seized: list[str] = []
        self.stashed: list[str] = []
        self.plunder_banished: list[str] = []
        self.plunder_won: list[dict[str, Any]] = []
        self.rewards: list[dict[str, Any]] = []
        self.closed: list[str] = []
        self.died: list[str] = []
        self.outcome: str | None = None

    def _turn(self, number: int, character: str | None, position: int | None) -> dict[str, Any]:
        return {
            "number": number,
            "character": character,
            "name": self.names.get(character or "", character),
            "first": position,
            "last": position,
            "events": 0,
            "checks": [],
        }

    def add(self, position: int, type_: str, event: Any) -> None:
        if type_ == "hourglass.advanced":
            self.turns.append(self._turn(len(self.turns), event.character_id, position))
        turn = count_in(self.turns, position)
        if event is None:
            return
        match type_:
            case "dice.rolled":
                rolled = roll(position, read(event), self.names.get(event.character_id or ""))
                self.rolls.append(rolled)
                turn["checks"].append(rolled)
            case "card.moved" if event.verb == "banish" and event.from_.character_id is not None:
                name = event.card if isinstance(event.card, str) else f"a face-down {event.card.hidden}"
                self.banished.setdefault(event.from_.character_id, Counter())[name] += 1
            case "ship.damaged":
                self.damage.append(
                    {
                        "position": position,
                        "amount": event.amount,
                        "prevented": event.prevented,
                        "wrecked": bool(event.wrecked),
                    }
                )
            case "ship.repaired":
                self.repaired.append(position)
            case "ship.seized":
                self.seized.append(event.ship)
            case "plunder.stashed":
                self.stashed.append(event.card_type or PLUNDER_TABLE.get(event.roll or 0, "card"))
            case "plunder.banished":
                self.plunder_banished.append(event.card or f"a face-down {event.card_type}")
            case "loot.awarded" if event.source == "plunder":
                self.plunder_won.append({"card": event.card, "to": event.to})
            case "location.closed" if not event.temporary:
                self.closed.append(event.location)
            case "character.died":
                self.died.append(event.character_id)
            case "scenario.ended":
                self.outcome = event.result
        if type_ in REWARD_TYPES:
            self.reward(position, type_, event)

    def reward(self, position: int, type_: str, event: Any) -> None:
        """A reward given for this scenario (after its end, before the next scenario starts)."""
        if event.reward_of != self.scenario:
            return
        match type_:
            case "loot.awarded":
                what = {"loot": event.card, "to": event.to}
            case "feat.gained":
                what = {"feat": f"{event.kind} feat {event.feat}", "to": event.character_id}
            case _:
                what = {"ship": event.ship, "to": "fleet"}
        self.rewards.append({"position": position, **what})

    def result(self, before: Any, after: Any) -> dict[str, Any]:
        start, end = holdings(before), holdings(after)
        party = list(after.scenario.party) if after is not None and after.scenario is not None else []
        concerned = [
            *party,
            *(c for c in end if c not in party and (end[c] != start.get(c, Counter()) or c in self.banished)),
        ]
        cards = {
            c: {
                "name": self.names.get(c, c),
                "gained": _sorted(end.get(c, Counter()) - start.get(c, Counter())),
                "lost": _sorted(start.get(c, Counter()) - end.get(c, Counter())),
                "banished": _sorted(self.banished.get(c, Counter())),
            }
            for c in concerned
        }
        return {
            "outcome": self.outcome or "playing",
            "turns": self.turns if self.turns[0]["first"] is not None else self.turns[1:],
            "checks": len(self.rolls),
            "success_rate": success_rates(self.rolls, self.names),
            "cards": cards,
            "ships": {
                "damaged": self.damage,
                "damage": sum(d["amount"] for d in self.damage),
                "prevented": sum(d["prevented"] for d in self.damage),
                "wrecked": sum(d["wrecked"] for d in self.damage),
                "repaired": len(self.repaired),
                "seized": self.seized,
            },
            "plunder": {"stashed": self.stashed, "banished": self.plunder_banished, "won": self.plunder_won},
            "locations_closed": self.closed,
            "died": self.died,
            "rewards": self.rewards,
        }
