"""A refusal the page shows names an event type by the words the page offers it by, never as `deck.rebuilt`."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS


def test_a_refusal_naming_an_event_type_shows_the_actions_words(phones, http):
    campaign = http.campaign("pacg-skull-and-shackles", OPTIONS, name="Dangerous Waters")
    http.append(campaign, PAYLOADS)
    lily = http.member(campaign, "Lily")
    page = phones.open(lily["token"])
    expect(page.get_by_role("tab", name="Table")).to_be_visible()
    # The server's own sentence for a second deck (projections/pacg/decks.py), shown through the page's one way of
    # showing refusals; the event types are learned from the served descriptions once the table opens.
    shown = page.evaluate(
        """async () => {
            const { refuse } = await import("/static/refusal.js");
            const { Refusal } = await import("/static/api.js");
            const place = document.createElement("p");
            const sentence = "Seltyiel already has a deck; rebuild it with deck.rebuilt between scenarios.";
            for (let tries = 0; tries < 100; tries++) {
                refuse(place, new Refusal(422, { detail: sentence }));
                if (!place.textContent.includes("deck.rebuilt")) break;
                await new Promise(resolve => setTimeout(resolve, 50));
            }
            return place.textContent;
        }"""
    )
    assert shown == "Seltyiel already has a deck; rebuild it with “Deck rebuilt” between scenarios."
