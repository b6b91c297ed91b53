"""The vault (the box): products added, cards a campaign defines, and what it holds."""

from __future__ import annotations

from typing import Any

from quartermaster.events.pacg import CardDefined, CardEntry, VaultProductsAdded
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.pacg.state import CardInfo, State
from quartermaster.projections.pacg.zones import VAULT, Work, a, word


def level_of(level: int | None, product: str | None) -> int:
    """A card's level: given, or its adventure deck number (the base set and Character Add-On Deck are 0)."""
    if level is not None:
        return level
    if product is not None and product.isdigit():
        return int(product)
    return 0


def _info(entry: CardEntry, product: str | None) -> CardInfo:
    product = entry.product or product
    return CardInfo(
        type=entry.type,
        traits=tuple(entry.traits),
        product=product,
        level=level_of(entry.level, product),
        counts_as=entry.loot_type or entry.type,
        powers=tuple(entry.powers),
        to_defeat=entry.to_defeat,
    )


def add_cards(work: Work, cards: dict[str, CardInfo], entries: list[CardEntry], product: str | None) -> None:
    """Put copies into the vault, defining each card the first time it is seen."""
    for entry in entries:
        if entry.count < 0:
            raise Rejection(f"{entry.name} cannot arrive {entry.count} times: a count is never negative.")
        if entry.type == "loot" and not entry.loot_type:
            raise Rejection(f"The loot card {entry.name} must say the type it counts as (loot_type).")
        info = _info(entry, product)
        known = cards.get(entry.name)
        if info.product == "P" and (entry.count > 1 or work.count("copies", entry.name)):
            # Core Rules FAQ, the vault: "you may add up to one of each promo card".
            broken(f"{entry.name} is a promo card: the vault holds at most one of each promo card.")
        if known is not None and known.type != info.type:
            raise Rejection(
                f"{entry.name} is already {a(known.type)} in this campaign; it cannot also be {a(info.type)}."
            )
        if known is None:
            cards[entry.name] = info
        work.add_known(VAULT, entry.name, entry.count)
        work.bump("vault_types", info.type, entry.count)
        work.bump("copies", entry.name, entry.count)


def products_added(state: State, event: VaultProductsAdded) -> State:
    if event.product in state.products:
        raise Rejection(f"Product {event.product} is already in the {word(state, 'vault')}; its cards are there once.")
    work = Work(state)
    cards = dict(state.cards)
    add_cards(work, cards, event.cards, event.product)
    return work.commit(cards=cards, products=[*state.products, event.product])


def card_defined(state: State, event: CardDefined) -> State:
    work = Work(state)
    cards = dict(state.cards)
    add_cards(work, cards, [event.card], None)
    return work.commit(cards=cards)


def view(state: State) -> dict[str, Any]:
    """Copies by card and by type; face-down copies out of the vault by type."""
    known = state.zones.get(VAULT)
    copies = dict(sorted(known.known.items())) if known else {}
    by_type = {
        card_type: count - state.face_down_out.get(card_type, 0)
        for card_type, count in sorted(state.vault_types.items())
        if count - state.face_down_out.get(card_type, 0)
    }
    return {
        "name": word(state, "vault"),
        # Copies by name still counted in the vault; some may be among the face-down cards dealt out.
        "cards": copies,
        "by_type": by_type,
        "face_down_out": dict(sorted(state.face_down_out.items())),
        "products": list(state.products),
        "total": sum(by_type.values()),
    }
