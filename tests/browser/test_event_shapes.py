"""Every entry the page writes is held to the shape the service describes for its type before it is sent: a field the
description lacks (a renamed one) is a fault of the page, said plainly, and nothing reaches the log."""

from __future__ import annotations

from tests.browser.table import TALES
from tests.unit.skull_tales import chapter_one


def _append(page, events):
    """What appending these entries through the page's table comes to: "logged", or the fault's words."""
    return page.evaluate(
        """events => window.quartermaster.appendEvents(events).then(() => "logged", error => error.message)""", events
    )


def test_an_entry_with_a_field_its_type_lacks_is_refused_on_the_phone_and_a_described_one_is_logged(phones, http):
    campaign = http.campaign(TALES, chapter_one.OPTIONS, name="Shapes")
    http.append(campaign, chapter_one.CREW + chapter_one.CHAPTER_ONE + chapter_one.PORT[:2])
    page = phones.open(http.member(campaign, "Ana")["token"])
    # The page reads the event types' descriptions as it opens; writes are held to them from then on.
    page.wait_for_function(
        "game => import(new URL('shapes.js', document.querySelector('script[type=module]').src).href)"
        ".then(m => m.knows(game))",
        arg=TALES,
    )
    before = http.get(campaign, "")["position"]

    said = _append(page, [{"type": "salary.collected", "data": {"pirate": "anne"}}])
    assert said == (
        "this page spelled an event otherwise than the service describes it: salary.collected has no field pirate "
        "(its fields: pirate_id)."
    )
    said = _append(page, [{"type": "salary.collected", "data": {}}])
    assert "salary.collected needs pirate_id, which the page left out." in said
    assert "describes no event type fleet.sunk" in _append(page, [{"type": "fleet.sunk", "data": {}}])
    assert http.get(campaign, "")["position"] == before

    assert _append(page, [{"type": "salary.collected", "data": {"pirate_id": "anne"}}]) == "logged"
    assert http.get(campaign, "")["position"] == before + 1
