"""Random valid Skull & Shackles campaigns: each event is chosen from what the current state allows, then folded.

Used by the property tests (driven by hypothesis's random) and by benchmarks/pacg_fold.py.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec

from quartermaster.events.campaign import CampaignStarted
from quartermaster.projections.game import Meta, step
from quartermaster.projections.pacg import GAME
from quartermaster.projections.pacg.decks import cards_list
from quartermaster.projections.pacg.feats import groups
from quartermaster.projections.pacg.hands import hand_size
from quartermaster.projections.pacg.state import State
from tests.unit.pacg.pacg_world import AnyEvent, card, character_card

BOON_TYPES = ("weapon", "spell", "armor", "item", "ally", "blessing")

BOX = [
    *[card(f"Weapon {i}", "weapon", 4, "Basic") for i in range(6)],
    *[card(f"Spell {i}", "spell", 4, "Basic") for i in range(6)],
    *[card(f"Armor {i}", "armor", 4, "Basic") for i in range(4)],
    *[card(f"Item {i}", "item", 4, "Basic") for i in range(6)],
    *[card(f"Ally {i}", "ally", 4, "Basic") for i in range(6)],
    card("Blessing of the Gods", "blessing", 90, "Basic"),
    *[card(f"Monster {i}", "monster", 6) for i in range(6)],
    *[card(f"Barrier {i}", "barrier", 6) for i in range(4)],
    card("Villain", "villain", 2),
    card("Henchman", "henchman", 10),
    card("Loot Blade", "loot", 2, loot_type="weapon", product="1"),
]
TOTALS: dict[str, int] = {}
for _entry in BOX:
    TOTALS[_entry["type"]] = TOTALS.get(_entry["type"], 0) + _entry["count"]

PARTY = ("ann", "bo", "cy")
LOCATIONS = ("North Reef", "South Reef", "Fog Bank", "Tempest Cay")


def _ev(type_: str, **data: Any) -> Any:
    return msgspec.convert({"type": type_, **data}, AnyEvent)


def _zone(kind: str, who: str | None = None, location: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"zone": kind}
    if who:
        found["character_id"] = who
    if location:
        found["location"] = location
    return found


def _moved(card_: Any, verb: str, source: dict[str, Any], target: dict[str, Any]) -> Any:
    return _ev("card.moved", card=card_, verb=verb, **{"from": source, "to": target})


def _cards(state: State, key: str) -> list[str]:
    pile = state.zones.get(key)
    return [name for name, count in pile.known.items() for _ in range(count)] if pile else []


class Campaign:
    """Folds as it generates, so every event it yields was accepted by the fold."""

    def __init__(self, rng: random.Random, party: tuple[str, ...] = PARTY) -> None:
        self.rng = rng
        self.party = party
        self.position = 1
        self.state: State = step(GAME, None, CampaignStarted(name="r", game=GAME.id, options={}), Meta(1))  # type: ignore[assignment]
        self.events: list[Any] = []

    def emit(self, event: Any) -> None:
        self.position += 1
        self.state = step(GAME, self.state, event, Meta(self.position))  # type: ignore[assignment]
        self.events.append(event)

    # ------------------------------------------------------------------------------------------ setup

    def setup(self) -> None:
        self.emit(_ev("vault.products_added", product="B", cards=BOX))
        if len(self.party) > 4:
            # Five or six character decks need the Character Add-On Deck (Between Games).
            self.emit(_ev("vault.products_added", product="C", cards=[card("Add-On Ally", "ally", 2, "Basic")]))
        for who in self.party:
            self.emit(
                _ev(
                    "character.joined", character_id=who, name=who.title(), player=who, card=character_card(who.title())
                )
            )
            self.emit(_ev("deck.built", character_id=who, cards=self.deck_for(who, {})))

    def deck_for(self, who: str, own: dict[str, int], new: bool = False) -> list[str]:
        """A deck meeting the cards list: own cards first, then spare cards, then Basic cards of the vault."""
        state = self.state
        wanted = cards_list(state.characters[who])
        spare = Counter() if new else Counter(_cards(state, "set_aside"))
        vault = Counter(state.zones["vault"].known)
        available = Counter({t: state.vault_types.get(t, 0) - state.face_down_out.get(t, 0) for t in wanted})
        deck: list[str] = []
        own_left = Counter(own)
        for card_type, count in wanted.items():
            chosen = []
            for pool in (own_left, spare):
                for name in sorted(pool):
                    while pool[name] > 0 and len(chosen) < count and state.cards[name].counts_as == card_type:
                        chosen.append(name)
                        pool[name] -= 1
            for name in sorted(vault):
                info = state.cards[name]
                while (
                    len(chosen) < count
                    and vault[name] > 0
                    and info.type == card_type
                    and "Basic" in info.traits
                    and available[card_type] > 0
                ):
                    chosen.append(name)
                    vault[name] -= 1
                    available[card_type] -= 1
            deck.extend(chosen)
        return deck

    def start_scenario(self) -> None:
        names = list(LOCATIONS[: self.rng.randint(2, 4)])
        locations = [
            {
                "name": name,
                "deck": {t: self.rng.randint(0, 2) for t in ("monster", "barrier", "weapon", "item", "blessing")},
            }
            for name in names
        ]
        self.emit(
            _ev(
                "scenario.started",
                scenario=f"Scenario {self.state.scenarios_played + 1}",
                locations=locations,
                villains=["Villain"],
                henchmen=["Henchman"],
            )
        )
        self.emit(_ev("plunder.stashed", roll=self.rng.randint(1, 5)))
        for who in self.state.scenario.party:
            self.emit(_ev("character.moved", character_id=who, to=self.rng.choice(names)))
            for name in self.rng.sample(_cards(self.state, f"{who}:deck"), 3):
                self.emit(_moved(name, "draw", _zone("deck", who), _zone("hand", who)))

    def next_draw(self, who: str) -> str | None:
        """A card a draw may take: the known top card, the first recharged card when only those are left, or any
        card between them."""
        state = self.state
        deck = Counter(_cards(state, f"{who}:deck"))
        if not deck:
            return None
        order = state.deck_order.get(who)
        if order is None:
            return self.rng.choice(sorted(deck.elements()))
        if order.top:
            return order.top[0]
        between = deck - Counter(order.bottom)
        if not between:
            return order.bottom[0]
        return self.rng.choice(sorted(between.elements()))

    def reset(self, who: str) -> None:
        """The end-of-turn reset: any discards, then down to the hand size, then draws up to it."""
        size = hand_size(self.state.characters[who]) or 3
        self.emit(_ev("hand.reset", character_id=who))
        hand = _cards(self.state, f"{who}:hand")
        keep = self.rng.randint(0, min(size, len(hand)))
        for name in self.rng.sample(hand, len(hand) - keep):
            self.emit(_moved(name, "discard", _zone("hand", who), _zone("discard", who)))
        while len(_cards(self.state, f"{who}:hand")) < size:
            deck_left = len(_cards(self.state, f"{who}:deck"))
            if deck_left < size - len(_cards(self.state, f"{who}:hand")):
                self.emit(_ev("character.died", character_id=who))
                return
            name = self.next_draw(who)
            if name is None:
                self.emit(_ev("character.died", character_id=who))
                return
            self.emit(_moved(name, "draw", _zone("deck", who), _zone("hand", who)))

    # ------------------------------------------------------------------------------------------ play

    def living(self) -> list[str]:
        scenario = self.state.scenario
        return [who for who in scenario.party if self.state.characters[who].alive]

    def turn(self) -> None:
        state, rng = self.state, self.rng
        scenario = state.scenario
        living = self.living()
        plunder = state.zones.get("plunder")
        if (
            state.fleet.wrecked
            and plunder
            and plunder.hidden
            and scenario.turn
            and not scenario.plunder_banished_this_turn
        ):
            self.emit(_ev("plunder.banished", card_type=rng.choice(sorted(plunder.hidden))))
        # The turn passes around the table in the party's order, skipping the dead (Your Turn: End Your Turn).
        party = scenario.party
        if scenario.turn is None:
            who = living[0]
        else:
            start = party.index(scenario.turn)
            who = next(c for c in party[start + 1 :] + party[: start + 1] if self.state.characters[c].alive)
        self.emit(_ev("hourglass.advanced", character_id=who))
        if self.state.scenario is None:
            return  # The hourglass ran out: the loss ended the scenario at once.
        for _ in range(rng.randint(1, 6)):
            if self.state.scenario is None or not self.state.characters[who].alive:
                return
            self.action(who)
        scenario = self.state.scenario
        if scenario is not None and self.state.characters[who].alive and self.state.owed is None:
            self.reset(who)

    def action(self, who: str) -> None:
        rng, state = self.rng, self.state
        hand = _cards(state, f"{who}:hand")
        deck = _cards(state, f"{who}:deck")
        roll = rng.random()
        if roll < 0.3:
            self.explore(who)
        elif roll < 0.45 and deck:
            self.emit(_moved(self.next_draw(who), "draw", _zone("deck", who), _zone("hand", who)))
        elif roll < 0.55 and hand:
            verb, target = rng.choice(
                [
                    ("discard", "discard"),
                    ("recharge", "deck"),
                    ("bury", "buried"),
                    ("display", "displayed"),
                    ("reload", "deck"),
                ]
            )
            self.emit(_moved(rng.choice(hand), verb, _zone("hand", who), _zone(target, who)))
        elif roll < 0.62:
            amount = rng.randint(0, 3)
            self.emit(_ev("damage.dealt", character_id=who, amount=amount))
            for name in rng.sample(hand, min(amount, len(hand))):
                self.emit(_moved(name, "discard", _zone("hand", who), _zone("discard", who)))
        elif roll < 0.68:
            prevent = min(len(hand), rng.randint(0, 2))
            amount = prevent + rng.randint(0, 2)
            self.emit(_ev("ship.damaged", amount=amount, prevented=prevent))
            for name in rng.sample(hand, prevent):
                self.emit(_moved(name, "discard", _zone("hand", who), _zone("discard", who)))
        elif (
            roll < 0.72
            and state.fleet.wrecked
            and not state.scenario.moved_this_turn
            and state.scenario.step in ("start", "give", "move")
        ):
            self.emit(_ev("ship.repaired", character_id=who))
        elif roll < 0.76 and not state.fleet.wrecked:
            self.emit(
                _ev("plunder.stashed", roll=6, card_type=rng.choice(["weapon", "spell", "armor", "item", "ally"]))
            )
        elif roll < 0.82 and state.scenario.step in ("start", "give", "move") and not state.scenario.moved_this_turn:
            here = state.characters[who].location
            riders = [o for o in self.living() if o != who and state.characters[o].location == here]
            along = riders if not state.fleet.wrecked and state.fleet.anchored is None else []
            # A character moves to her own location only when there is no other (Core Rules FAQ).
            elsewhere = [name for name in state.scenario.places if name != here] or [here]
            self.emit(_ev("character.moved", character_id=who, to=rng.choice(elsewhere), moved_with=along))
        elif roll < 0.86 and hand and state.scenario.step in ("start", "give") and not state.scenario.gave_this_turn:
            here = state.characters[who].location
            others = [o for o in self.living() if o != who and state.characters[o].location == here]
            if others:
                self.emit(_moved(rng.choice(hand), "give", _zone("hand", who), _zone("hand", rng.choice(others))))
        elif roll < 0.9:
            name = rng.choice(["Monster 0", "Henchman", "Item 1", "Blessing of the Gods"])
            self.emit(_moved(name, "summon", _zone("vault"), _zone("encounter")))
            self.emit(_moved(name, "banish", _zone("encounter"), _zone("vault")))
        elif roll < 0.92:
            for name in ("Blessing of the Gods",):
                if name in hand:
                    self.emit(_moved(name, "discard", _zone("hand", who), _zone("discard", who)))
        elif roll < 0.925 and not deck:
            self.emit(_ev("character.died", character_id=who))
        elif roll < 0.95:
            self.enemy_ship(who)
        else:
            self.close(who)

    def enemy_ship(self, who: str) -> None:
        """An enemy ship: the commander encounters it, anyone else banishes it (rulebook, Encountering Ships)."""
        rng, state = self.rng, self.state
        # The enemy is never the ship the party sails: once the party has seized the Raider, it meets the Privateer.
        ship = "Raider" if state.fleet.current != "Raider" else "Privateer"
        anchored = state.fleet.anchored
        if anchored is not None and state.characters[who].location != anchored:
            self.emit(_ev("ship.banished", ship=ship, character_id=who))
            return
        card = {"name": ship, "cannot_be_seized": rng.random() < 0.5}
        self.emit(_ev("ship.encountered", ship=ship, ship_card=card))
        outcome = rng.choice(["evaded", "defeated", "damaged"])
        if outcome == "evaded":
            self.emit(_ev("ship.evaded", ship=ship))
        elif outcome == "defeated":
            self.emit(_ev("ship.defeated", ship=ship))
            if not self.state.fleet.wrecked and rng.random() < 0.5:
                self.emit(_ev("plunder.stashed", roll=rng.randint(1, 5)))
            if not card["cannot_be_seized"] and rng.random() < 0.3:
                self.emit(_ev("ship.seized", ship=ship, ship_card=card))
        else:
            self.emit(_ev("ship.damaged", amount=1))

    def explore(self, who: str) -> None:
        rng, state = self.rng, self.state
        location = state.characters[who].location
        key = f"location:{location}"
        pile = state.zones.get(key)
        if pile is None or not (pile.known or pile.hidden):
            return
        if pile.known and rng.random() < 0.5:
            name = rng.choice(sorted(pile.known))
        else:
            label = rng.choice(sorted(pile.hidden)) if pile.hidden else None
            if label is None:
                return
            if label == "dealt":
                dealt = state.zones.get("dealt")
                options = sorted(dealt.known) + [n for t in sorted(dealt.hidden) for n in self.names_in_vault(t)[:1]]
            else:
                options = self.names_in_vault(label)
                if rng.random() < 0.1 or not options:
                    # A card of the open box nobody named before, or another copy of one the log knows.
                    options = [f"Unlisted {label} {rng.randint(1, 3)}"]
            name = rng.choice(options)
        place = _zone("location", location=location)
        first_seen = {"card_type": name.split()[1]} if name not in self.state.cards else {}
        self.emit(
            _ev("card.moved", card=name, verb="reveal", **{"from": place, "to": _zone("encounter")}, **first_seen)
        )
        info = self.state.cards[name]
        if info.type == "villain":
            self.villain(who, name, location)
            return
        if info.type in BOON_TYPES and rng.random() < 0.6 and not name.startswith("Unlisted"):
            self.emit(_moved(name, "acquire", _zone("encounter"), _zone("hand", who)))
        elif info.type not in BOON_TYPES and rng.random() < 0.3:
            # An undefeated bane is shuffled back; a boon not acquired is banished (Attempting a Check).
            self.emit(_moved(name, "shuffle", _zone("encounter"), place))
        else:
            self.emit(_moved(name, "banish", _zone("encounter"), _zone("vault")))

    def villain(self, who: str, name: str, location: str) -> None:
        """The villain's end-game: others temporarily close their locations, then the encounter ends one of three
        ways (Skull & Shackles Rulebook, Encountering a Villain)."""
        rng, place = self.rng, _zone("location", location=location)
        for other in self.living():
            where = self.state.characters[other].location
            spot = self.state.scenario.places[where]
            if where != location and not spot.closed and not spot.temporarily_closed and rng.random() < 0.5:
                self.emit(_ev("location.closed", location=where, temporary=True, by=other))
        outcome = rng.choice(["defeated", "undefeated", "evaded"])
        pile = self.state.zones.get(f"location:{location}")
        if outcome == "defeated" and pile is not None and pile.hidden.get("dealt"):
            outcome = "undefeated"  # Its deck still hides dealt cards nobody has examined: keep the test simple.
        self.emit(_ev("encounter.ended", card=name, outcome=outcome))
        if outcome == "evaded":
            self.emit(_moved(name, "shuffle", _zone("encounter"), place))
            return
        if outcome == "defeated":
            self.emit(_ev("location.closed", location=location, by=who, how="villain"))
        open_places = [n for n, p in self.state.scenario.places.items() if not p.closed and not p.temporarily_closed]
        if open_places:
            self.emit(_ev("villain.escaped", villain=name, to=open_places, defeated=outcome == "defeated"))
        else:
            self.emit(_moved(name, "banish", _zone("encounter"), _zone("vault")))
            self.emit(_ev("scenario.ended", result="won"))

    def names_in_vault(self, card_type: str) -> list[str]:
        state = self.state
        return sorted(n for n, c in state.zones["vault"].known.items() if c > 0 and state.cards[n].type == card_type)

    def close(self, who: str) -> None:
        """Close her location when the rules give the opportunity: a henchman from its deck defeated, or an empty
        deck (Skull & Shackles Rulebook, Closing a Location)."""
        state = self.state
        location = state.characters[who].location
        place = state.scenario.places[location]
        if place.closed:
            return
        pile = state.zones.get(f"location:{location}")
        empty = pile is None or not (pile.known or pile.hidden)
        if location in state.scenario.may_close:
            if pile and (pile.hidden.get("dealt") or any(state.cards[n].type == "villain" for n in pile.known)):
                return
            self.emit(_ev("location.closed", location=location, by=who, how="henchman"))
        elif empty:
            self.emit(_ev("location.closed", location=location, by=who, how="empty"))

    # ------------------------------------------------------------------------------------------ between

    def between(self) -> None:
        rng, state = self.rng, self.state
        for who in self.party:
            character = state.characters[who]
            if not character.alive:
                self.emit(
                    _ev(
                        "character.joined",
                        character_id=who,
                        name=who.title(),
                        player=who,
                        card=character_card(who.title()),
                    )
                )
                self.emit(_ev("deck.built", character_id=who, cards=self.deck_for(who, {}, new=True)))
                continue
            if state.completed and rng.random() < 0.5:
                for kind in ("skill", "power", "card"):
                    boxes = groups(self.state.characters[who], kind)
                    prefix = "role|" if kind == "power" and self.state.characters[who].role else f"{kind}|"
                    open_groups = [
                        g
                        for g, labels in boxes.items()
                        if self.state.characters[who].feats.get(prefix + g, 0) < len(labels)
                    ]
                    if open_groups:
                        group = rng.choice(sorted(open_groups))
                        index = self.state.characters[who].feats.get(prefix + group, 0)
                        self.emit(
                            _ev("feat.gained", character_id=who, kind=kind, feat=f"{group} {boxes[group][index]}")
                        )
            if rng.random() < 0.1 and self.state.characters[who].role is None and self.roles_open():
                self.emit(_ev("role.chosen", character_id=who, role="Infiltrator"))
            if rng.random() < 0.2:
                self.emit(_ev("hero_point.awarded", character_id=who))
        plunder = self.state.zones.get("plunder")
        if plunder and plunder.hidden:
            for label, count in sorted(plunder.hidden.items()):
                for _ in range(count):
                    options = self.names_in_vault(label)
                    self.emit(
                        _ev("loot.awarded", card=rng.choice(options), to=rng.choice(self.party), source="plunder")
                    )
        for who in self.party:
            own = {}
            pile = self.state.zones.get(f"{who}:deck")
            if pile:
                own = dict(pile.known)
            self.emit(_ev("deck.rebuilt", character_id=who, cards=self.deck_for(who, own)))

    def roles_open(self) -> bool:
        """Role cards are handed out once the party has completed the adventures the campaign's option says."""
        state = self.state
        return len(state.path_completed) >= state.options.roles_after_adventures

    def play(self, scenarios: int) -> list[Any]:
        self.setup()
        for _ in range(scenarios):
            self.start_scenario()
            while self.state.scenario is not None:
                if self.state.scenario.turns > 40 or self.rng.random() < 0.01:
                    self.emit(_ev("scenario.ended", result=self.rng.choice(["won", "lost"])))
                    break
                self.turn()
            if self.state.scenario is not None:
                self.emit(_ev("scenario.ended", result="lost"))
            self.between()
        return self.events


def campaign(seed: int, scenarios: int) -> Iterator[Any]:
    """The events of a random valid campaign of this many scenarios."""
    return iter(Campaign(random.Random(seed)).play(scenarios))
