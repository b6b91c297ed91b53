"""The count of wrong tokens per address: a sliding window, per address, in bounded memory."""

from __future__ import annotations

import pytest

from quartermaster.service.http import guesses
from quartermaster.service.http.guesses import Guesses
from quartermaster.service.http.limits import LimitSyntaxError


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _counter(count: int, seconds: float) -> tuple[Guesses, Clock]:
    counter, clock = Guesses(count, seconds), Clock()
    counter._now = clock
    return counter, clock


def test_an_address_is_held_back_once_it_reaches_the_bound_until_its_oldest_failure_ages_out():
    counter, clock = _counter(3, 60)
    for _ in range(3):
        assert counter.wait("203.0.113.9") is None
        counter.failed("203.0.113.9")
        clock.now += 10
    # Three failures at 1000, 1010 and 1020; it is now 1030: the first ages out at 1060
    assert counter.wait("203.0.113.9") == 30
    assert counter.wait("198.51.100.4") is None
    clock.now = 1060
    assert counter.wait("203.0.113.9") is None
    counter.failed("203.0.113.9")
    assert counter.wait("203.0.113.9") == 10  # now 1010's failure is the oldest of the last three


def test_a_window_with_no_failures_left_forgets_the_address():
    counter, clock = _counter(2, 1)
    counter.failed("a")
    clock.now += 2
    assert counter.wait("a") is None
    assert counter._failures == {}


def test_ever_new_addresses_cost_bounded_memory(monkeypatch):
    monkeypatch.setattr(guesses, "MAX_ADDRESSES", 100)
    counter, _ = _counter(5, 60)
    for n in range(1000):
        counter.failed(f"2001:db8::{n:x}")
    assert len(counter._failures) == 100


def test_the_setting_takes_a_rate_or_off():
    made = guesses.guesses("30/minute")
    assert made is not None and (made.count, made.seconds) == (30, 60)
    assert guesses.guesses("off") is None
    with pytest.raises(LimitSyntaxError):
        guesses.guesses("thirty")
