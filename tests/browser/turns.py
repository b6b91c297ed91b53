"""What the browser tests that play Skull & Shackles turns on the Play tab share: the turn panel, the server's position
waited on after a tap (the phone's outbox sends each write on its own time), starting hands dealt by tap, the hand
reset by tap and the turn ended."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import expect

from tests.browser.effort import Effort

LIVE = 10000  # milliseconds: the panel is drawn again once the log moves on (longer on a busy machine)
WRITTEN = 60.0  # seconds: a tap's write reaches the server from the phone's outbox (longer on a busy machine)


def panel(page: Any) -> Any:
    return page.locator("section.turn")


def position(http: Any, campaign: dict[str, Any]) -> int:
    return http.get(campaign, "")["position"]


def moved_on(http: Any, campaign: dict[str, Any], before: int, shown: Any = None) -> int:
    """The server's position once it has moved past `before`, waited on for WRITTEN. With the panel `shown`, the wait
    is the phone's own (its panel brought up past `before`), so the test does not keep the server busy asking."""
    if shown is not None:
        shown.page.wait_for_function(
            "n => Number(document.getElementById('panel')?.dataset.position || 0) > n",
            arg=before,
            timeout=WRITTEN * 1000,
        )
    deadline = time.monotonic() + WRITTEN
    while True:
        now = position(http, campaign)
        if now > before:
            return now
        assert time.monotonic() < deadline, f"The tap logged nothing. {shown.inner_text() if shown else ''}"


def caught_up(page: Any, at: int) -> None:
    """The phone has drawn its panel again for position `at`: a field filled from now on is not replaced under the
    finger."""
    expect(page.locator(f'#panel[data-position="{at}"]')).to_have_count(1, timeout=LIVE)


def deal(page: Any, http: Any, campaign: dict[str, Any], effort: Effort, who: str, count: int) -> None:
    """Her starting hand in one step: the cards drawn tapped, then dealt in one batch."""
    group = panel(page).get_by_role("group", name=f"{who}'s starting hand")
    drawn = group.get_by_role("group", name="Cards drawn").get_by_role("button")
    for index in range(count):
        effort.tap(drawn.nth(index))
    before = position(http, campaign)
    effort.tap(group.get_by_role("button", name=f"Deal {who}'s starting hand"))
    expect(panel(page).get_by_role("group", name=f"{who}'s starting hand")).to_have_count(0, timeout=LIVE)
    moved_on(http, campaign, before, panel(page))


def reset_and_end(page: Any, http: Any, campaign: dict[str, Any], effort: Effort, who: str, nxt: str) -> None:
    """The hand reset to its size (the cards drawn tapped, or those over it discarded), then the turn ended."""
    box = panel(page)
    caught_up(page, position(http, campaign))
    turn = http.get(campaign, "/turn")["turn"]
    need = turn["hand_size"] - len(turn["hand"])
    reset = box.get_by_role("group", name="Reset the hand")
    if need > 0:
        drawn = reset.get_by_role("group", name="Cards drawn").get_by_role("button")
        for index in range(need):
            effort.tap(drawn.nth(index))
    for index in range(-need):
        effort.tap(reset.get_by_role("checkbox").nth(index))
    # The taps are the phone's until sent: a redraw meanwhile (the log moving on) keeps them.
    expect(reset.get_by_role("button", name="Put back")).to_have_count(max(need, 0))
    before = position(http, campaign)
    effort.tap(box.get_by_role("button", name=f"Reset {who}'s hand"))
    moved_on(http, campaign, before, box)
    effort.tap(box.get_by_role("button", name=f"End the turn: {nxt} next"))
    expect(box.get_by_role("heading", name=f"{nxt}'s turn")).to_be_visible(timeout=LIVE)
