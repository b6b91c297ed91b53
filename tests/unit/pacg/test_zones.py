"""Cards move between zones only as the rulebook's verbs allow, and never from where they are not."""

import msgspec
from hypothesis import given, strategies as st

from quartermaster.projections.game import Meta, step
from quartermaster.projections.pacg import GAME
from quartermaster.projections.pacg.state import CardInfo, Pile, State
from quartermaster.projections.pacg.zones import Work
from tests.unit.pacg.pacg_world import SETUP, START, draw, fold, from_payload, move, rejection, zone

character = GAME.views["character"].read


def playing():
    return fold(*SETUP, *START)


def test_drawing_a_card_moves_it_from_the_deck_to_the_hand():
    state = fold(draw("merisiel", "Dagger"), state=playing())
    view = character(state, character_id="merisiel")
    assert view["zones"]["hand"] == {"Dagger": 1}
    assert "Dagger" not in view["zones"]["deck"]


def test_discarding_a_card_not_in_hand_is_rejected_with_its_real_zone():
    state = fold(
        draw("merisiel", "Dagger"),
        move("Dagger", "discard", zone("hand", "merisiel"), zone("discard", "merisiel")),
        state=playing(),
    )
    reason = rejection(state, move("Dagger", "discard", zone("hand", "merisiel"), zone("discard", "merisiel")))
    assert reason == "Dagger is not in Merisiel's hand: it is in Merisiel's discard pile."


def test_a_card_nobody_knows_is_rejected_naming_it():
    reason = rejection(playing(), draw("merisiel", "Vorpal Blade"))
    assert reason.startswith("Quartermaster knows no card named Vorpal Blade")


def test_a_card_in_several_zones_is_reported_everywhere():
    reason = rejection(playing(), draw("merisiel", "Cutlass"))
    assert reason == "Cutlass is not in Merisiel's deck: copies are in Valeros's deck and the vault."


def test_recharging_puts_a_card_from_hand_at_the_bottom_of_the_deck():
    state = fold(
        draw("merisiel", "Cure"),
        move("Cure", "recharge", zone("hand", "merisiel"), zone("deck", "merisiel")),
        state=playing(),
    )
    assert character(state, character_id="merisiel")["zones"]["deck"]["Cure"] == 1


def test_a_verb_between_zones_it_does_not_connect_is_rejected():
    state = fold(draw("merisiel", "Cure"), state=playing())
    reason = rejection(state, move("Cure", "recharge", zone("hand", "merisiel"), zone("buried", "merisiel")))
    assert reason.startswith("Recharge moves a card only from")
    assert reason.endswith("not from Merisiel's hand to the cards buried under Merisiel's character card.")


def test_recharging_into_another_characters_deck_is_rejected():
    state = fold(draw("merisiel", "Cure"), state=playing())
    reason = rejection(state, move("Cure", "recharge", zone("hand", "merisiel"), zone("deck", "valeros")))
    assert "not from Merisiel's hand to Valeros's deck" in reason


def test_drawing_from_an_empty_deck_is_rejected_and_points_to_death():
    state = playing()
    for name in [
        "Dagger",
        "Pistol",
        "Cure",
        "Leather Armor",
        "Rum Bottle",
        "Sailor",
        "Blessing of the Gods",
        "Blessing of the Gods",
    ]:
        state = fold(draw("merisiel", name), state=state)
    reason = rejection(state, draw("merisiel", "Dagger"))
    assert reason == (
        "Merisiel's deck is empty: Merisiel cannot draw from it. A character who must draw from an empty deck "
        "dies (character.died)."
    )


def test_exploring_reveals_a_face_down_card_of_the_named_type():
    state = fold(
        move("Dire Rat", "reveal", zone("location", location="Shark Island"), zone("encounter")), state=playing()
    )
    scenario = GAME.views["scenario"].read(state)
    shark = scenario["locations"][0]
    assert shark["face_down"]["monster"] == 1
    assert scenario["encounter"] == {"Dire Rat": 1}
    assert GAME.views["vault"].read(state)["face_down_out"]["monster"] == 3


def test_revealing_a_type_the_location_does_not_hold_is_rejected():
    reason = rejection(playing(), move("Cure", "reveal", zone("location", location="Shark Island"), zone("encounter")))
    assert reason == "Cure is not in the Shark Island location deck: copies are in Merisiel's deck and the vault."


def test_exploring_can_reveal_the_dealt_villain_or_henchman():
    state = fold(
        move("Buccaneer", "reveal", zone("location", location="Shark Island"), zone("encounter")), state=playing()
    )
    assert GAME.views["scenario"].read(state)["encounter"] == {"Buccaneer": 1}
    reason = rejection(
        state,
        move("Buccaneer", "banish", zone("encounter"), zone("vault")),
        move("Buccaneer", "reveal", zone("location", location="Tempest Cay"), zone("encounter")),
    )
    assert reason.startswith("Buccaneer is not in the Tempest Cay location deck")


def test_a_face_down_card_that_is_missing_is_rejected():
    reason = rejection(
        playing(), move({"hidden": "armor"}, "banish", zone("location", location="Shark Island"), zone("vault"))
    )
    assert reason == "There is no face-down armor card in the Shark Island location deck."


def test_giving_a_card_needs_the_givers_turn_and_the_same_location():
    state = fold(
        draw("merisiel", "Dagger"), {"type": "hourglass.advanced", "data": {"character_id": "valeros"}}, state=playing()
    )
    reason = rejection(state, move("Dagger", "give", zone("hand", "merisiel"), zone("hand", "valeros")))
    assert reason == "Merisiel can give a card only on Merisiel's own turn."
    state = fold(
        draw("merisiel", "Dagger"),
        {"type": "character.moved", "data": {"character_id": "valeros", "to": "Tempest Cay"}},
        {"type": "hourglass.advanced", "data": {"character_id": "merisiel"}},
        state=playing(),
    )
    reason = rejection(state, move("Dagger", "give", zone("hand", "merisiel"), zone("hand", "valeros")))
    assert reason == (
        "Merisiel is at Shark Island and Valeros at Tempest Cay: a card is given only to a character at the same "
        "location."
    )


def test_summoning_a_card_in_play_imagines_a_copy_that_vanishes_when_banished():
    state = playing()
    # Six Buccaneers in the box; Jemma Redclaw and one Buccaneer were dealt to the two locations.
    for _ in range(5):
        state = fold(move("Buccaneer", "summon", zone("vault"), zone("encounter")), state=state)
    assert GAME.views["vault"].read(state)["cards"].get("Buccaneer", 0) == 0
    state = fold(move("Buccaneer", "summon", zone("vault"), zone("encounter")), state=state)
    assert state.imagined == {"Buccaneer": 1}
    state = fold(move("Buccaneer", "banish", zone("encounter"), zone("vault")), state=state)
    assert state.imagined == {}
    assert GAME.views["scenario"].read(state)["encounter"] == {"Buccaneer": 5}
    assert GAME.views["vault"].read(state)["cards"].get("Buccaneer", 0) == 0


def test_an_imagined_copy_cannot_be_kept():
    state = playing()
    for _ in range(6):
        state = fold(move("Buccaneer", "summon", zone("vault"), zone("encounter")), state=state)
    # A card's power puts the summoned copies into a location deck, against the rule, logged with a reason.
    for _ in range(5):
        shuffled = from_payload(
            move("Buccaneer", "shuffle", zone("encounter"), zone("location", location="Shark Island"))
        )
        state = step(GAME, state, shuffled, Meta(90, override="a card's power shuffles it in"))
    reason = rejection(state, move("Buccaneer", "display", zone("encounter"), zone("displayed", "merisiel")))
    assert reason.startswith("The Buccaneer in the encounter is a summoned copy of a card already in play")


def test_moving_cards_when_no_scenario_is_in_progress_is_rejected():
    reason = rejection(fold(*SETUP), draw("merisiel", "Dagger"))
    assert reason == "No scenario is in progress: cards move between zones only while one is played."


def test_a_dead_characters_cards_cannot_be_played():
    state = fold({"type": "character.died", "data": {"character_id": "merisiel"}}, state=playing())
    reason = rejection(state, move("Dagger", "discard", zone("buried", "merisiel"), zone("discard", "merisiel")))
    assert reason == "Merisiel is dead and can do nothing for the rest of Island Hopping."


def test_trading_between_decks_happens_between_scenarios_only():
    reason = rejection(playing(), move("Dagger", "give", zone("deck", "merisiel"), zone("deck", "valeros")))
    assert reason == "Characters trade cards from their decks between scenarios, not during one."
    state = fold(move("Dagger", "give", zone("deck", "merisiel"), zone("deck", "valeros")), state=fold(*SETUP))
    assert character(state, character_id="valeros")["zones"]["deck"]["Dagger"] == 1


def test_the_character_view_of_an_unknown_character_raises_a_readable_key_error():
    try:
        character(playing(), character_id="lem")
    except KeyError as error:
        assert error.args[0] == "No character lem has joined this campaign (characters: merisiel, valeros)."
    else:
        raise AssertionError("no KeyError")


_counts = st.dictionaries(st.sampled_from(["Cutlass", "Dagger", "Cure", "Longbow", "Sea Legs"]), st.integers(1, 3))


@given(_counts, _counts, st.sampled_from([None, "source", "target"]))
def test_gathering_a_zone_leaves_the_counts_of_moving_its_copies_one_by_one(source, target, touched_first):
    """Work.gather (a death, a scenario's end) against Work.move, the one place a copy moves, copy by copy; the
    encoded state too, since stored snapshots must not depend on which way the copies went."""
    state = State(
        cards={
            name: CardInfo(type="weapon", counts_as="weapon")
            for name in ("Cutlass", "Dagger", "Cure", "Longbow", "Sea Legs")
        },
        zones={"ann:deck": Pile(source), "ann:buried": Pile(target), "bo:hand": Pile({"Dagger": 1})},
    )
    gathered, moved = Work(state), Work(state)
    for work in (gathered, moved):
        # An event may already have changed one of the two zones before it gathers (its copy is then the one used).
        if touched_first:
            key = "ann:deck" if touched_first == "source" else "ann:buried"
            work.add_known(key, "Longbow")
    answered = dict(gathered.pile("ann:deck")[0])
    assert gathered.gather("ann:deck", "ann:buried") == answered
    for name, count in list(moved.pile("ann:deck")[0].items()):
        for _ in range(count):
            moved.move("ann:deck", "ann:buried", name)
    assert gathered.commit() == moved.commit()
    assert msgspec.json.encode(gathered.commit()) == msgspec.json.encode(moved.commit())
    assert state.zones["ann:deck"].known == source  # the state it worked from is never changed
