"""Every event of the rulebook's Example of Play and of the Skull Tales chapter, told as a sentence."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest

from quartermaster.events.campaign import CampaignStarted, DiceRolled, Die
from quartermaster.events.skull_tales import BootyBuried
from quartermaster.projections.game import Meta, step
from quartermaster.projections.registry import event_types, game
from quartermaster.projections.sentences import said, tell
from quartermaster.service.application import catalog
from tests.unit.pacg import example_of_play
from tests.unit.skull_tales import chapter_one


def told(game_id: str, payloads: list[dict[str, Any]], options: dict[str, Any]) -> list[tuple[str, str]]:
    """(type, sentence) for each event, each told from the state it was folded in."""
    chosen = game(game_id)
    types = event_types(game_id)
    state = step(chosen, None, CampaignStarted(name="t", game=game_id, options=options), Meta(1))
    sentences = []
    for position, payload in enumerate(payloads, start=2):
        data = catalog.expand(game_id, payload["type"], payload["data"])
        event = msgspec.convert({**data, "type": payload["type"]}, types[payload["type"]])
        sentences.append((payload["type"], tell(chosen.sentences, state, event)))
        state = step(chosen, state, event, Meta(position))
    return sentences


LOGS = {
    "pacg-skull-and-shackles": (
        example_of_play.PAYLOADS,
        example_of_play.OPTIONS,
        ("lirianne", "seltyiel", "alahazra"),
    ),
    "skull-tales-full-sail": (chapter_one.CAMPAIGN, chapter_one.OPTIONS, ("anne", "jack", "mary", "ned")),
}


@pytest.mark.parametrize("game_id", LOGS)
def test_every_event_of_the_worked_example_is_told_in_a_sentence_that_names_its_characters(game_id):
    payloads, options, ids = LOGS[game_id]
    sentences = told(game_id, payloads, options)
    assert len(sentences) == len(payloads)
    for type_, sentence in sentences:
        assert sentence.strip() and sentence[0].isupper() and sentence.endswith((".", "?", "!")), (type_, sentence)
        for raw in ids:
            assert not re.search(rf"\b{raw}\b", sentence), f"{type_} shows the raw id {raw!r}: {sentence}"


@pytest.mark.parametrize("game_id", LOGS)
def test_every_event_type_of_a_game_has_a_sentence(game_id):
    assert set(game(game_id).sentences) == set(event_types(game_id).values())


def test_a_recharge_and_an_exploration_are_told_with_the_characters_names_and_the_cards():
    sentences = told("pacg-skull-and-shackles", example_of_play.PAYLOADS, example_of_play.OPTIONS)
    assert ("card.moved", "Lirianne recharged the Carver.") in sentences
    # The exploration names no explorer: the character whose turn it is explores.
    assert ("card.moved", "Lirianne explored the Raker Shoals and encountered the Dead Man's Chest.") in sentences
    # A villain is a person, not "the Jemma Redclaw".
    assert ("card.moved", "Alahazra explored the Cannibal Isle and encountered Jemma Redclaw.") in sentences


def test_an_encounter_with_a_villain_ends_without_an_article_and_one_with_a_monster_with_one():
    game_id = "pacg-skull-and-shackles"
    chosen, types = game(game_id), event_types(game_id)
    state = step(chosen, None, CampaignStarted(name="t", game=game_id, options=example_of_play.OPTIONS), Meta(1))
    for position, payload in enumerate(example_of_play.PAYLOADS, start=2):
        data = catalog.expand(game_id, payload["type"], payload["data"])
        state = step(
            chosen, state, msgspec.convert({**data, "type": payload["type"]}, types[payload["type"]]), Meta(position)
        )
    ended = types["encounter.ended"]
    assert "Jemma Redclaw" in state.scenario.villains
    assert (
        tell(chosen.sentences, state, ended(card="Jemma Redclaw", outcome="defeated")) == "Jemma Redclaw was defeated."
    )
    assert tell(chosen.sentences, state, ended(card="Sea Devil", outcome="undefeated")) == (
        "The Sea Devil remained undefeated."
    )


def test_a_skill_learned_is_told_with_the_price_the_fold_charged():
    sentences = dict(told("skull-tales-full-sail", chapter_one.CAMPAIGN, chapter_one.OPTIONS))
    # Mary, Rogue and Duelist, learns Fencing from Anne: 100+15-15 Coins and 60+10-10 Fame (the chapter test), in
    # the Manor, where Francisco Carranza teaches, entering it for 7 Coins.
    assert sentences["skill.learned"] == (
        "Mary learned Fencing from Anne for 100 Coins and 60 Fame; entering the Manor cost 7 Coins."
    )


def test_a_sentence_that_fails_falls_back_to_what_the_type_means():
    def broken(state, event):
        raise KeyError("nobody")

    event = CampaignStarted(name="t", game="pacg-skull-and-shackles")
    assert (
        tell({CampaignStarted: broken}, None, event) == "The campaign began: its name, the game it plays and "
        "the rule options the table chose."
    )


def test_a_sentence_said_from_its_wording_names_characters_counts_nouns_and_shows_other_fields():
    said_ = said(
        {BootyBuried: "{pirate_id} buried {amount:Coin} on {island}."},
        name=lambda state, character_id: state[character_id],
        characters={"pirate_id"},
        count=lambda amount, noun: f"{amount} {noun}{'' if amount == 1 else 's'}",
    )
    buried = said_[BootyBuried]
    assert buried({"anne": "Anne"}, BootyBuried(pirate_id="anne", island="Tortuga", amount=1)) == (
        "Anne buried 1 Coin on Tortuga."
    )
    assert buried({"anne": "Anne"}, BootyBuried(pirate_id="anne", island="Tortuga", amount=5)) == (
        "Anne buried 5 Coins on Tortuga."
    )


def test_a_wording_that_names_a_field_its_event_lacks_fails_as_the_game_is_loaded():
    with pytest.raises(ValueError, match=r"BootyBuried has no field \['isle'\]"):
        said({BootyBuried: "{pirate_id} buried it on {isle}."}, name=str, characters=(), count=str)


def test_a_sentence_said_from_its_wording_tells_a_field_in_the_words_its_value_chooses():
    wordings = {BootyBuried: ("{pirate_id} buried it {amount}.", {"amount": {1: "alone", 2: "with a friend"}})}
    buried = said(wordings, name=lambda state, character_id: "Anne", characters={"pirate_id"}, count=str)[BootyBuried]
    assert buried(None, BootyBuried(pirate_id="anne", island="Tortuga", amount=2)) == "Anne buried it with a friend."
    with pytest.raises(ValueError, match=r"BootyBuried has no field \['isle'\]"):
        said({BootyBuried: ("{pirate_id} buried it.", {"isle": {}})}, name=str, characters=(), count=str)


@pytest.mark.parametrize(
    ("dice", "spelt"), [([(4, 1), (8, 7)], "1d4+1d8"), ([(6, 2), (6, 5)], "2d6"), ([(8, 3), (4, 2), (8, 8)], "2d8+1d4")]
)
def test_a_roll_logged_without_its_expression_names_each_kind_of_die_it_threw(dice, spelt):
    chosen = game("pacg-skull-and-shackles")
    rolled = DiceRolled(dice=[Die(sides, face) for sides, face in dice], total=sum(face for _, face in dice))

    assert tell(chosen.sentences, None, rolled).startswith(f"The table rolled {spelt}: ")
