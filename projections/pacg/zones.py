"""Where cards are: zone keys, their names in words, and moving physical copies with the vault's bookkeeping.

Every physical copy is in exactly one zone. The vault counts its copies by name; a face-down card dealt out of it
(a location deck, the hourglass, plunder) stays counted there by name, because nobody knows which copy it is, and
is counted out by type in `face_down_out`. When a face-down card is revealed by name, that name leaves the vault's
count and the face-down count of its type drops by one.
"""

from __future__ import annotations

import msgspec

from quartermaster.events.pacg import CHARACTER_ZONES, HiddenCard
from quartermaster.projections.game import Rejection
from quartermaster.projections.pacg.state import CardInfo, Pile, State

VAULT = "vault"
PLUNDER = "plunder"
HOURGLASS = "hourglass"
HOURGLASS_DISCARD = "hourglass_discard"
ENCOUNTER = "encounter"
SET_ASIDE = "set_aside"
DEALT = "dealt"
SHARED = (VAULT, PLUNDER, HOURGLASS, HOURGLASS_DISCARD, ENCOUNTER, SET_ASIDE, DEALT)

_EMPTY = Pile()


def character_key(character_id: str, zone: str) -> str:
    return f"{character_id}:{zone}"


def location_key(location: str) -> str:
    return f"location:{location}"


def word(state: State, thing: str) -> str:
    """The vault or the box, the hourglass or the blessings deck, as the campaign's naming option says."""
    if state.options.naming == "classic":
        return {"vault": "box", "hourglass": "blessings deck", "hourglass discards": "blessings discard pile"}.get(
            thing, thing
        )
    return thing


_CHARACTER_ZONE_WORDS = {
    "deck": "{}'s deck",
    "hand": "{}'s hand",
    "discard": "{}'s discard pile",
    "buried": "the cards buried under {}'s character card",
    "displayed": "{}'s displayed cards",
    "recovery": "{}'s recovery pile",
}


def describe(state: State, key: str) -> str:
    """A zone in words: "Merisiel's discard pile", "the Raker Shoals location deck"."""
    if key.startswith("location:"):
        return f"the {key[9:]} location deck"
    if key == VAULT:
        return f"the {word(state, 'vault')}"
    if key == PLUNDER:
        ship = state.fleet.current or "ship"
        return f"the plunder under the {ship}"
    if key == HOURGLASS:
        return f"the {word(state, 'hourglass')}"
    if key == HOURGLASS_DISCARD:
        return f"the {word(state, 'hourglass discards')}"
    if key == ENCOUNTER:
        return "the encounter"
    if key == SET_ASIDE:
        return "the set-aside cards"
    if key == DEALT:
        return "the cards dealt face down among the locations"
    character_id, _, zone = key.rpartition(":")
    character = state.characters.get(character_id)
    name = character.name if character else character_id
    return _CHARACTER_ZONE_WORDS.get(zone, "{}'s " + zone).format(name)


def where(state: State, name: str) -> list[str]:
    """The zones holding a known copy of a card, in words, the vault last."""
    places = sorted(describe(state, key) for key, pile in state.zones.items() if key != VAULT and pile.known.get(name))
    if state.zones.get(VAULT, _EMPTY).known.get(name):
        places.append(describe(state, VAULT))
    return places


def a(noun: str) -> str:
    """The noun with its article: "a weapon", "an ally"."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def listing(items: list[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def not_there(state: State, name: str, key: str) -> str:
    """Why a named card cannot come out of a zone, with where its copies really are."""
    if name not in state.cards:
        return (
            f"Quartermaster knows no card named {name}: add it to the {word(state, 'vault')} with "
            "vault.products_added or card.defined first."
        )
    places = where(state, name)
    owner = key.rpartition(":")[0] if ":" in key and not key.startswith("location:") else None
    if owner is not None:
        # A character's own zones answer first: "it is in Merisiel's discard pile", not every copy in the box.
        mine = [
            describe(state, f"{owner}:{zone}")
            for zone in ("hand", "deck", "discard", "buried", "displayed", "recovery")
            if state.zones.get(f"{owner}:{zone}", _EMPTY).known.get(name)
        ]
        places = mine or places
    here = describe(state, key)
    if not places:
        return f"{name} is not in {here}: no copy of it is anywhere in sight."
    if len(places) == 1:
        return f"{name} is not in {here}: it is in {places[0]}."
    return f"{name} is not in {here}: copies are in {listing(places)}."


class Work:
    """A copy-on-write editor over a state's zones and the vault's counts, for one event: the one place a card's
    copies move, so every verb changes the counts the same way."""

    __slots__ = ("state", "known_w", "hidden_w", "vault_types", "face_down_out", "imagined", "cards", "copies")

    def __init__(self, state: State) -> None:
        self.state = state
        # Each zone's two dicts are copied separately, the first time this event changes them.
        self.known_w: dict[str, dict[str, int]] = {}
        self.hidden_w: dict[str, dict[str, int]] = {}
        self.vault_types: dict[str, int] | None = None
        self.face_down_out: dict[str, int] | None = None
        self.imagined: dict[str, int] | None = None
        self.cards: dict[str, CardInfo] | None = None
        self.copies: dict[str, int] | None = None

    # --------------------------------------------------------------------------------------- raw counts

    def _known(self, key: str) -> dict[str, int]:
        counts = self.known_w.get(key)
        if counts is None:
            counts = self.known_w[key] = self.state.zones.get(key, _EMPTY).known.copy()
        return counts

    def _hidden(self, key: str) -> dict[str, int]:
        counts = self.hidden_w.get(key)
        if counts is None:
            counts = self.hidden_w[key] = self.state.zones.get(key, _EMPTY).hidden.copy()
        return counts

    def known(self, key: str, name: str) -> int:
        counts = self.known_w.get(key)
        if counts is None:
            counts = self.state.zones.get(key, _EMPTY).known
        return counts.get(name, 0)

    def hidden(self, key: str, label: str) -> int:
        counts = self.hidden_w.get(key)
        if counts is None:
            counts = self.state.zones.get(key, _EMPTY).hidden
        return counts.get(label, 0)

    def pile(self, key: str) -> tuple[dict[str, int], dict[str, int]]:
        """The zone's counts as they stand now (read only)."""
        old = self.state.zones.get(key, _EMPTY)
        return self.known_w.get(key, old.known), self.hidden_w.get(key, old.hidden)

    def holds(self, key: str) -> bool:
        """Whether the zone holds any card (a count is never left at 0, so an empty zone has empty counts)."""
        known, hidden = self.pile(key)
        return bool(known or hidden)

    def size(self, key: str) -> int:
        known, hidden = self.pile(key)
        return sum(known.values()) + sum(hidden.values())

    @staticmethod
    def _bump(counts: dict[str, int], name: str, by: int) -> None:
        """The one count update: a count that reaches 0 is dropped, so equal states have equal dicts."""
        if not by:
            return
        value = counts.get(name, 0) + by
        if value:
            counts[name] = value
        else:
            del counts[name]

    def add_known(self, key: str, name: str, by: int = 1) -> None:
        self._bump(self._known(key), name, by)

    def add_hidden(self, key: str, label: str, by: int = 1) -> None:
        self._bump(self._hidden(key), label, by)

    def _counts(self, field: str) -> dict[str, int]:
        counts: dict[str, int] | None = getattr(self, field)
        if counts is None:
            counts = getattr(self.state, field).copy()
            setattr(self, field, counts)
        return counts

    def count(self, field: str, name: str) -> int:
        """One of the state's counts by name or type, as this work has changed it so far."""
        return self._counts(field).get(name, 0)

    def bump(self, field: str, name: str, by: int) -> None:
        """Change one of the state's counts by name or type (vault_types, face_down_out, imagined, copies)."""
        self._bump(self._counts(field), name, by)

    def card(self, name: str) -> CardInfo | None:
        cards = self.cards if self.cards is not None else self.state.cards
        return cards.get(name)

    def info(self, name: str) -> CardInfo:
        info = self.card(name)
        if info is None:
            raise Rejection(not_there(self.state, name, VAULT))
        return info

    @property
    def open_box(self) -> bool:
        return self.state.options.box == "open"

    def define(self, name: str, card_type: str) -> None:
        """The table names a card the log has not met yet: it becomes known, with its type (Skull & Shackles Rulebook, Card Types)."""
        known = self.card(name)
        if known is not None:
            if known.type != card_type:
                raise Rejection(f"{name} is {a(known.type)} in this campaign, not {a(card_type)}.")
            return
        if not self.open_box:
            raise Rejection(
                f"Quartermaster knows no card named {name}, and this campaign counts every card of its "
                f"{word(self.state, 'vault')}: add it with card.defined first."
            )
        if self.cards is None:
            self.cards = self.state.cards.copy()
        self.cards[name] = CardInfo(type=card_type, counts_as=card_type)

    def _learn(self, name: str) -> None:
        """One more copy of a card than the log knew of comes out of the open box."""
        self.bump("copies", name, 1)

    # --------------------------------------------------------------------------------------- the vault

    def vault_available(self, card_type: str) -> int:
        """Copies of a type really in the vault: counted ones minus the face-down ones dealt out."""
        types = self.vault_types if self.vault_types is not None else self.state.vault_types
        out = self.face_down_out if self.face_down_out is not None else self.state.face_down_out
        return types.get(card_type, 0) - out.get(card_type, 0)

    def vault_take(self, name: str) -> None:
        card_type = self.info(name).type
        if self.known(VAULT, name) < 1:
            if self.open_box:
                self._learn(name)
                return
            raise Rejection(not_there(self.state, name, VAULT))
        if not self.open_box and self.vault_available(card_type) < 1:
            raise Rejection(
                f"{name} cannot come out of the {word(self.state, 'vault')}: every {card_type} left there has "
                "been dealt out face down."
            )
        self.add_known(VAULT, name, -1)
        self.bump("vault_types", card_type, -1)

    def vault_put(self, name: str) -> None:
        card_type = self.info(name).type
        self.add_known(VAULT, name)
        self.bump("vault_types", card_type, 1)

    def vault_take_face_down(self, card_type: str, count: int = 1) -> None:
        if card_type == DEALT:
            raise Rejection("The vault holds no dealt cards; name a card type to take face down.")
        if not self.open_box and self.vault_available(card_type) < count:
            left = self.vault_available(card_type)
            vault = word(self.state, "vault")
            raise Rejection(
                f"The {vault} has {left} {card_type} card{'s' if left != 1 else ''} left face down to deal, "
                f"not {count}."
            )
        self.bump("face_down_out", card_type, count)

    def vault_put_face_down(self, card_type: str, count: int = 1) -> None:
        self.bump("face_down_out", card_type, -count)

    def reveal_face_down(self, name: str) -> None:
        """A face-down card dealt out of the vault turns out to be `name`."""
        card_type = self.info(name).type
        if self.known(VAULT, name) < 1:
            if self.open_box:
                self._learn(name)
                self.bump("face_down_out", card_type, -1)
                return
            places = where(self.state, name)
            raise Rejection(
                f"The face-down {card_type} cannot be {name}: every copy of {name} is accounted for "
                f"({listing(places) or 'none is in play'})."
            )
        self.add_known(VAULT, name, -1)
        self.bump("vault_types", card_type, -1)
        self.bump("face_down_out", card_type, -1)

    # --------------------------------------------------------------------------------------- moving copies

    def take(self, key: str, card: str | HiddenCard) -> str | HiddenCard:
        """Remove one physical copy from a zone; a name may reveal a face-down card of its type."""
        if not isinstance(card, str):
            label = card.hidden
            if key == VAULT:
                self.vault_take_face_down(label)
                return card
            if self.hidden(key, label) < 1:
                raise Rejection(f"There is no face-down {label} card in {describe(self.state, key)}.")
            self.add_hidden(key, label, -1)
            return card
        if key == VAULT:
            self.vault_take(card)
            return card
        # The common case, a known copy leaving the zone, with the count update of _bump written out: this runs for
        # most events of a campaign. The zone's known counts are read before they are copied.
        counts = self.known_w.get(key)
        have = (counts if counts is not None else self.state.zones.get(key, _EMPTY).known).get(card, 0)
        if have >= 1:
            if counts is None:
                counts = self._known(key)
            if have == 1:
                del counts[card]
            else:
                counts[card] = have - 1
            return card
        info = self.card(card)
        if info is not None and self.hidden(key, info.type) >= 1:
            self.add_hidden(key, info.type, -1)
            self.reveal_face_down(card)
            return card
        if info is not None and self.hidden(key, DEALT) >= 1 and self.dealt_can_be(card, info):
            self.add_hidden(key, DEALT, -1)
            if self.known(DEALT, card) >= 1:
                self.add_known(DEALT, card, -1)
            else:
                self.add_hidden(DEALT, info.type, -1)
                self.reveal_face_down(card)
            return card
        raise Rejection(not_there(self.state, card, key))

    def dealt_can_be(self, name: str, info: CardInfo) -> bool:
        return self.known(DEALT, name) >= 1 or self.hidden(DEALT, info.type) >= 1

    def put(self, key: str, card: str | HiddenCard) -> None:
        if not isinstance(card, str):
            if key == VAULT:
                if card.hidden == DEALT:
                    raise Rejection(
                        f"A face-down dealt card cannot go back to the {word(self.state, 'vault')} unseen: reveal it "
                        "first, since nobody knows whether it is the villain."
                    )
                self.vault_put_face_down(card.hidden)
            else:
                self.add_hidden(key, card.hidden)
            return
        if key == VAULT:
            self.vault_put(card)
            return
        counts = self._known(key)
        # A count is never left at 0 (see _bump), so one more copy is never 0 either.
        counts[card] = counts.get(card, 0) + 1

    def move(self, source: str, target: str, card: str | HiddenCard) -> None:
        if source == ENCOUNTER and isinstance(card, str):
            imagined = self.imagined if self.imagined is not None else self.state.imagined
            copies = imagined.get(card, 0)
            if copies:
                if target == VAULT:
                    # The summoned copy of a card already in play ceases to exist at the end of the encounter.
                    self.add_known(ENCOUNTER, card, -1)
                    self.bump("imagined", card, -1)
                    return
                if self.known(ENCOUNTER, card) <= copies:
                    raise Rejection(
                        f"The {card} in the encounter is a summoned copy of a card already in play: it can only "
                        f"go back to the {word(self.state, 'vault')}, where it ceases to exist."
                    )
        self.put(target, self.take(source, card))

    def empty(self, key: str, target: str) -> None:
        """Move every card of a zone, known and face down, to another zone."""
        known, hidden = self.pile(key)
        for name, count in list(known.items()):
            if target == VAULT and key != ENCOUNTER:
                # Known cards back to the vault in bulk: the same counts as moving them one by one (the encounter's
                # summoned copies still go one by one).
                self.add_known(key, name, -count)
                self.add_known(VAULT, name, count)
                self.bump("vault_types", self.info(name).type, count)
                continue
            for _ in range(count):
                self.move(key, target, name)
        for label, count in list(hidden.items()):
            if target == VAULT and label != DEALT:
                self.add_hidden(key, label, -count)
                self.vault_put_face_down(label, count)
                continue
            for _ in range(count):
                self.move(key, target, HiddenCard(label))

    def gather(self, key: str, target: str) -> dict[str, int]:
        """Every known copy of a zone into another (neither the vault nor the encounter), as moving them one by one
        would leave the counts; answers the copies moved."""
        known = self.pile(key)[0]
        if known:
            into = self._known(target)
            for name, count in known.items():
                into[name] = into.get(name, 0) + count
            self.known_w[key] = {}
        return known

    def summon(self, name: str) -> None:
        """Summon a card into the encounter from the vault; a card already in play is imagined as another copy
        (Skull & Shackles Rulebook, Summoning and Adding Cards)."""
        info = self.info(name)
        in_vault = self.known(VAULT, name) >= 1
        if in_vault and (self.open_box or self.vault_available(info.type) >= 1):
            self.vault_take(name)
        elif self.open_box and not in_vault and not where(self.state, name):
            # No copy is anywhere the log knows: this one comes out of the open box.
            self._learn(name)
        else:
            self.bump("imagined", name, 1)
        self.add_known(ENCOUNTER, name)

    # --------------------------------------------------------------------------------------- finishing

    def zones(self) -> dict[str, Pile]:
        known_w, hidden_w = self.known_w, self.hidden_w
        if not known_w and not hidden_w:
            return self.state.zones
        zones = self.state.zones.copy()
        for key, known in known_w.items():
            hidden = hidden_w.get(key)
            zones[key] = Pile(known, hidden if hidden is not None else zones.get(key, _EMPTY).hidden)
        for key, hidden in hidden_w.items():
            if key not in known_w:
                zones[key] = Pile(zones.get(key, _EMPTY).known, hidden)
        return zones

    def commit(self, state: State | None = None, /, **changes: object) -> State:
        """The state with this work's zones and counts, plus other changed fields."""
        base = state if state is not None else self.state
        if self.known_w or self.hidden_w:
            changes["zones"] = self.zones()
        # Written out rather than a loop over the names: most events change none of these counts.
        if self.vault_types is not None and "vault_types" not in changes:
            changes["vault_types"] = self.vault_types
        if self.face_down_out is not None and "face_down_out" not in changes:
            changes["face_down_out"] = self.face_down_out
        if self.imagined is not None and "imagined" not in changes:
            changes["imagined"] = self.imagined
        if self.cards is not None and "cards" not in changes:
            changes["cards"] = self.cards
        if self.copies is not None and "copies" not in changes:
            changes["copies"] = self.copies
        if not changes:
            return base
        return msgspec.structs.replace(base, **changes)


def character_cards(state: State, character_id: str) -> dict[str, int]:
    """Every card a character owns, whatever zone it is in, by name."""
    total: dict[str, int] = {}
    for zone in CHARACTER_ZONES:
        for name, count in state.zones.get(character_key(character_id, zone), _EMPTY).known.items():
            total[name] = total.get(name, 0) + count
    return total
