"""One setting turns the fast lane off (QUARTERMASTER_FAST_LANE, on by default), and a value the settings cannot
read stops the command with one sentence saying why, not a traceback."""

from __future__ import annotations

import pytest

from quartermaster.service import cli
from quartermaster.service.platform.settings import Settings


@pytest.mark.parametrize(("word", "on"), [("on", True), ("OFF", False), (" off ", False), ("1", True), ("no", False)])
def test_the_fast_lane_is_switched_by_its_word(monkeypatch, word, on):
    monkeypatch.setenv("QUARTERMASTER_FAST_LANE", word)
    assert Settings.from_env().fast_lane is on


def test_the_fast_lane_is_on_when_nothing_says_otherwise(monkeypatch):
    monkeypatch.delenv("QUARTERMASTER_FAST_LANE", raising=False)
    assert Settings.from_env().fast_lane is True and Settings().fast_lane is True


@pytest.mark.parametrize(
    ("name", "value", "sentence"),
    [
        ("QUARTERMASTER_FAST_LANE", "sideways", "QUARTERMASTER_FAST_LANE is 'sideways'; it takes on or off."),
        ("QUARTERMASTER_PORT", "eighty", "QUARTERMASTER_PORT is 'eighty'; it takes a whole number."),
        ("QUARTERMASTER_POOL_TIMEOUT", "soon", "QUARTERMASTER_POOL_TIMEOUT is 'soon'; it takes a number."),
    ],
)
def test_a_setting_the_command_cannot_read_stops_it_with_one_sentence(monkeypatch, name, value, sentence):
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as stopped:
        cli.main(["migrate"])
    assert stopped.value.code == f"quartermaster: {sentence}"
