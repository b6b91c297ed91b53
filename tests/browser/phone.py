"""What a phone does in the table page's browser tests that more than one test module needs: open the play tab,
log a note through the form built from the event types, find a log entry, wait for the outbox to empty and for the
service worker to keep the page."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

NOTE = "note.added"


def open_play(phones: Any, token: str) -> Any:
    page = phones.open(token)
    page.get_by_role("tab", name="Play and log").click()
    page.get_by_text("Anything else").click()
    return page


def note(page: Any, text: str) -> Any:
    """Log a note through the form built from the event types, and return the place beside its button."""
    other = page.get_by_role("group").filter(has_text="Anything else")
    other.get_by_label("What happened").select_option(NOTE)
    other.get_by_label("Text", exact=True).fill(text)
    other.get_by_role("button", name="Log it").click()
    return other.locator(".act").filter(has=page.get_by_role("button", name="Log it"))


def log_entry(page: Any, position: int) -> Any:
    own = page.locator(".pos").filter(has_text=re.compile(f"^#{position}$"))
    return page.get_by_role("list", name="Log, newest first").get_by_role("listitem").filter(has=own)


def pending(page: Any) -> Any:
    return page.get_by_role("list", name="Log, newest first").locator("li.pending")


def all_sent(page: Any, timeout: int = 10000) -> None:
    """Nothing waits in the outbox (the log may show an entry recorded before its own answer came back)."""
    expect(page.locator("#live")).to_have_attribute("data-waiting", "0", timeout=timeout)


def notes_recorded(http: Any, campaign: dict[str, Any], after: int) -> list[str]:
    events = http.get(campaign, "/events", after=after, limit=1000)["events"]
    return [e["data"]["text"] for e in events if e["type"] == NOTE]


def kept_by_service_worker(page: Any) -> None:
    # Functions, not expressions: the page's Content-Security-Policy forbids the eval an expression would need.
    page.wait_for_function("() => Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
