"""A game is registered once: its id and module in projections.registry, its event types as the keys of its
handler table. Everything else is checked against that registration here."""

from __future__ import annotations

import pytest

from quartermaster.events.base import summary
from quartermaster.events.campaign import BOOKKEEPING, COMMON, MARKERS, CampaignStarted
from quartermaster.projections.registry import GAME_IDS, event_types, game
from quartermaster.service.application import catalog

# Events the shared driver folds itself (projections.game.step); every other type needs the game's handler.
FOLDED_BY_THE_DRIVER = {CampaignStarted, *BOOKKEEPING, *MARKERS}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_handler_folds_a_registered_event_type(game_id):
    chosen = game(game_id)
    registered = set(event_types(game_id).values())
    assert set(chosen.handlers) <= registered
    assert set(chosen.event_types) == set(chosen.handlers) - set(COMMON)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_event_type_has_a_handler_a_description_an_example_and_a_sentence(game_id):
    chosen = game(game_id)
    for tag, event_type in event_types(game_id).items():
        if event_type not in FOLDED_BY_THE_DRIVER:
            assert event_type in chosen.handlers, f"{tag} has no handler in {game_id}"
        assert summary(event_type), f"{tag} has no description"
        assert event_type.EXAMPLES, f"{tag} has no example"
        assert event_type in chosen.sentences, f"{tag} has no sentence in {game_id}"
    assert set(chosen.sentences) <= set(event_types(game_id).values())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_game_has_its_catalogue_by_the_same_name(game_id):
    assert catalog.public(game_id) is not None
    assert catalog.expand(game_id, "note.added", {"text": "x"}) == {"text": "x"}


def test_declared_views_are_views_of_a_game_that_accepts_the_type():
    for game_id in GAME_IDS:
        views = set(game(game_id).views) | {"*"}
        for tag, event_type in event_types(game_id).items():
            if event_type.__module__ != "quartermaster.events.campaign":
                assert set(event_type.VIEWS) <= views, f"{tag} declares views {game_id} does not have"
