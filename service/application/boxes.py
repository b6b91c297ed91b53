"""The pull list of a campaign, and the shared box: which campaign has which cards out, and what is missing.

A campaign's part comes from its fold (the `pull_list` view of projections/pacg/pull.py); this module only adds the
campaigns up and writes the list as text. Another campaign is named by its title alone: the box shows no character,
player or member of a campaign the asking owner does not own.
"""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

from quartermaster.projections.registry import game as game_by_id
from quartermaster.service.application.catalog import catalog
from quartermaster.service.store import Store
from quartermaster.service.store.boxes import Box

PULL_LIST = "pull_list"


def _copies(name: str, count: int) -> str:
    return f"{count} × {name}" if count > 1 else name


def pull_list_text(title: str, position: int, pull: dict[str, Any]) -> str:
    """The pull list as a printable text: each deck's cards, a box to tick before each, the totals last."""
    lines = [f"Pull list: {title} (as logged at position {position})"]
    if pull.get("scenario"):
        lines.append(f"{pull['scenario']} is in progress: each deck is counted with every card she holds.")
    if not pull["decks"]:
        lines.append("No character has a deck to pull.")
    for deck in pull["decks"]:
        lines += ["", f"{deck['name']} ({deck['player']}): {deck['count']} cards"]
        lines += [f"[ ] {_copies(name, count)}" for name, count in deck["cards"].items()]
    if pull["set_aside"]:
        lines += ["", f"Set aside (their cards stay in the {pull['box']}):"]
        lines += [
            f"- {found['name']} ({found['player']}): {found['count']} cards written down" for found in pull["set_aside"]
        ]
    if pull["decks"]:
        lines += ["", f"In all, {pull['count']} cards from the {pull['box']}:"]
        lines += [f"- {_copies(name, count)}" for name, count in pull["cards"].items()]
    return "\n".join(lines) + "\n"


def catalogue_counts(game_id: str, products: set[str]) -> dict[str, int]:
    """The copies of each card the catalogue lists for these products (a lower bound: the box may hold more)."""
    if game_id != "pacg-skull-and-shackles":
        return {}
    counts: Counter[str] = Counter()
    for product, listed in catalog(game_id)["products"]["products"].items():
        if product in products:
            for card in listed["cards"]:
                counts[card["name"]] += card.get("count", 0)
    return dict(counts)


async def box_view(store: Store, campaign_id: uuid.UUID, box: Box) -> dict[str, Any]:
    """The box a campaign shares: each campaign's cards out, by its title, and the cards two decks want at once."""
    campaigns: list[dict[str, Any]] = []
    out: dict[str, Counter[str]] = {}
    known: Counter[str] = Counter()
    products: dict[str, set[str]] = {}
    for sharing in await store.boxes.sharing(box.key):
        game = game_by_id(sharing.game)
        position, state = await store.projection(sharing.campaign_id, game)
        view = game.views.get(PULL_LIST)
        cards: dict[str, int] = {}
        decks = 0
        if view is not None and state is not None:
            pull = view.read(state)
            cards, decks = pull["cards"], len(pull["decks"])
            products.setdefault(sharing.game, set()).update(state.products)
            for name, count in state.copies.items():
                known[name] = max(known[name], count)
        key = str(sharing.campaign_id)
        out[key] = Counter(cards)
        campaigns.append(
            {
                "campaign": key,
                "title": sharing.title,
                "game": sharing.game,
                "box_name": sharing.box_name,
                "yours": sharing.campaign_id == campaign_id,
                "position": position,
                "decks": decks,
                "out": cards,
                "count": sum(cards.values()),
            }
        )
    held: dict[str, tuple[int, str]] = {}
    for game_id, added in products.items():
        for name, count in catalogue_counts(game_id, added).items():
            held[name] = (max(count, held.get(name, (0, ""))[0]), "catalogue")
    wanted: Counter[str] = Counter()
    for cards in out.values():
        wanted.update(cards)
    short = []
    for name, count in sorted(wanted.items()):
        has, source = held.get(name) or (known.get(name, 0), "log")
        wanting = [found for found in campaigns if out[found["campaign"]].get(name)]
        if len(wanting) > 1 and count > has:
            short.append(
                {
                    "card": name,
                    "wanted": count,
                    "held": has,
                    "held_from": source,
                    "missing": count - has,
                    "by": [{"title": found["title"], "count": out[found["campaign"]][name]} for found in wanting],
                }
            )
    return {
        "name": box.name,
        "key": box.key,
        "campaigns": campaigns,
        "out": dict(sorted(wanted.items())),
        "missing": short,
    }
