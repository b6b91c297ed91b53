"""What one logged event costs a phone: the live stream sends the views the page reads, so a phone asks nothing more."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS

EVENTS = 8


def pacg_table(http):
    """A Skull & Shackles campaign in the middle of the rulebook's Example of Play, and a player's join token."""
    campaign = http.campaign("pacg-skull-and-shackles", OPTIONS, name="Dangerous Waters")
    http.append(campaign, PAYLOADS)
    return campaign, http.member(campaign, "Lily")


def note(text):
    return {"type": "note.added", "data": {"text": text}}


def requests_per_event(page, http, campaign, shown):
    """Log EVENTS entries one at a time, each waited for until the open view shows it; the page's requests meanwhile
    (the stream, opened once, counted as one), per entry."""
    asked = []
    page.on("request", lambda request: asked.append(urlsplit(request.url).path))
    for n in range(EVENTS):
        position = http.append(campaign, [note(f"entry {n}")])["last_position"]
        expect(page.locator("#latest")).to_have_text(str(position))
        shown(position)
        page.locator(f"#panel[data-position='{position}']").wait_for()
    return (len(asked) + 1) / EVENTS, asked


def test_a_phone_on_the_table_view_asks_at_most_one_and_a_half_requests_per_logged_event(phones, http):
    campaign, lily = pacg_table(http)
    page = phones.open(lily["token"])
    played = page.get_by_role("region", name="Reports and recaps")
    expect(played).to_contain_text(f"to {http.get(campaign, '/scenario')['position']}")

    # The played list names the scenario's last position: it is shown fresh after each entry.
    per_event, asked = requests_per_event(page, http, campaign, lambda p: expect(played).to_contain_text(f"to {p}:"))

    assert per_event <= 1.5, f"{per_event} requests per event: {asked}"


def test_a_phone_on_the_play_tab_asks_at_most_one_and_a_half_requests_per_logged_event(phones, http):
    campaign, lily = pacg_table(http)
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Play and log").click()
    log = page.get_by_role("list", name="Log, newest first")
    # The tab's own first reads (the scenario, each character, the event types) are done once its last form is drawn:
    # what is counted below is what each event costs, not opening the tab.
    page.get_by_label("What happened").wait_for(state="attached")

    per_event, asked = requests_per_event(
        page, http, campaign, lambda p: expect(log.get_by_role("listitem").first).to_contain_text(f"#{p}")
    )

    assert per_event <= 1.5, f"{per_event} requests per event: {asked}"
