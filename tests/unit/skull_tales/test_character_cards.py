"""The group's own Character Cards: the values on a card recorded once, kept, checked against the catalogue's names,
and a Pirate recruited from a recorded card held to its values (both sides: accepted, refused, overridden)."""

from __future__ import annotations

from typing import Any

import pytest

from quartermaster.projections.game import Meta, Rejection, RuleBroken, step
from quartermaster.projections.skull_tales import GAME
from quartermaster.service.application.catalog import CatalogError
from tests.unit.skull_tales.chapter_one import CREW
from tests.unit.skull_tales.table import decode, given, refused, view, when

ANNE = CREW[0]["data"]
CARD_KEYS = (
    "archetype",
    "classes",
    "attributes",
    "action_points",
    "health",
    "destiny_points",
    "salary",
    "skills",
    "starting_gear",
)


def card_of(recruit: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """The Character Card a recruit's values were read from, as the group types it."""
    return {
        "type": "character_card.recorded",
        "data": {**{k: recruit[k] for k in CARD_KEYS if k in recruit}, **changes},
    }


def test_a_recorded_character_card_is_kept_and_listed_in_the_cards_view():
    state = given(card_of(ANNE))
    (card,) = view(state, "cards")["character_cards"]
    assert card["archetype"] == "Captain's Daughter"
    assert (card["health"], card["salary"], card["skills"], card["starting_gear"]) == (
        5,
        20,
        ["Fencing", "Deck Officer"],
        ["Rapier"],
    )


def test_recording_a_character_card_again_replaces_the_kept_one():
    state = given(card_of(ANNE), card_of(ANNE, salary=25))
    (card,) = view(state, "cards")["character_cards"]
    assert card["salary"] == 25


def test_a_pirate_recruited_with_the_values_of_the_recorded_card_joins_the_crew():
    # Given the group's Captain's Daughter card; when Anne is recruited with its values, her hand her own choice
    state = when(given(card_of(ANNE)), {"type": "pirate.recruited", "data": {**ANNE, "dominant_hand": "left"}})
    # then she is in the crew with the card's values.
    sheet = view(state, "pirate", pirate_id="anne")
    assert (sheet["health"], sheet["salary"], sheet["dominant_hand"]) == (5, 20, "left")


def test_a_pirate_recruited_with_other_values_than_the_recorded_card_breaks_a_rule():
    state = given(card_of(ANNE))
    other = {"type": "pirate.recruited", "data": {**ANNE, "health": 6, "starting_gear": ["Cutlass"]}}
    assert refused(state, other) == (
        "Anne's Health and starting gear must be the Captain's Daughter card's, as the group recorded it: recruit "
        "with the card's values, or record the card again."
    )
    with pytest.raises(RuleBroken):
        step(GAME, state, decode(other), Meta(position=1000))
    # The table may play the card otherwise on purpose: logged with an override, Anne joins with what was logged.
    overridden = step(GAME, state, decode(other), Meta(position=1000, override="our card is misprinted"))
    assert overridden is not None and overridden.pirates["anne"].health == 6


def test_a_pirate_of_an_archetype_with_no_recorded_card_is_recruited_with_the_values_typed():
    state = given(card_of(ANNE))
    assert "jack" in when(state, CREW[1]).pirates


@pytest.mark.parametrize(
    ("changes", "sentence"),
    [
        ({"classes": []}, "The Captain's Daughter card needs the class or classes printed on it."),
        ({"classes": ["Duelist", "Duelist"]}, "The Captain's Daughter card lists a class twice: Duelist, Duelist."),
        ({"attributes": {**ANNE["attributes"], "agility": 0}}, "The Captain's Daughter card cannot print Agility 0."),
        (
            {"health": 0},
            "The Captain's Daughter card's values (Health, Action Points, Destiny Points, Salary) are not possible.",
        ),
        (
            {"starting_gear": ["Rapier", "Rapier"]},
            "The Captain's Daughter card lists a piece of starting gear twice: Rapier, Rapier.",
        ),
        ({"starting_gear": [" "]}, "The Captain's Daughter card lists a piece of starting gear without a name."),
    ],
)
def test_a_character_card_no_card_could_print_is_refused(changes, sentence):
    with pytest.raises(Rejection) as caught:
        step(GAME, given(), decode(card_of(ANNE, **changes)), Meta(position=1000, override="we insist"))
    assert caught.value.reason == sentence


@pytest.mark.parametrize(
    ("changes", "sentence"),
    [
        ({"archetype": "Captains Daughter"}, "Skull Tales has no archetype called 'Captains Daughter'."),
        ({"classes": ["Fencer"]}, "Skull Tales has no class called 'Fencer'"),
        ({"skills": ["Fencin"]}, "Skull Tales has no skill called 'Fencin'. Did you mean Fencing"),
    ],
)
def test_a_character_card_is_held_to_the_catalogue_s_names(changes, sentence):
    with pytest.raises(CatalogError) as caught:
        decode(card_of(ANNE, **changes))
    assert str(caught.value).startswith(sentence)


def test_a_character_card_s_gear_has_free_names():
    state = given(card_of(ANNE, starting_gear=["Grandfather's Rapier"]))
    assert view(state, "cards")["character_cards"][0]["starting_gear"] == ["Grandfather's Rapier"]
