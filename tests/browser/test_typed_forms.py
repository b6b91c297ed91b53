"""The page at phone size never asks for JSON and never answers in schema words; its pickers follow the campaign.

- the form of every event type of both games, drawn from GET /v1/games/{game}/event-types, has no field for JSON;
- every refusal the page shows for a table of bad inputs is a sentence in the game's words;
- a character who joins after the Play tab was drawn is offered at once, and "End the chapter" ends the chapter open
  now, not the one open when the tab was drawn;
- the Table's empty state leads to the set-up; the group's cards go to a file and into another campaign, and a bad
  file is refused with nothing written.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.table import LIVE, PACG, SHOTS, TALES, beside, pacg_table
from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW

# What a refusal on the page must never say: the words of the schema, of the wire, of the API's own fields.
SCHEMA_WORDS = re.compile(r"Expected|Event \d|data\.|body\.|enum|null|`|see errors|\$\.", re.IGNORECASE)


def _anything_else(page):
    page.get_by_role("tab", name="Play and log").click()
    page.get_by_text("Anything else").click()
    return page.get_by_role("group").filter(has_text="Anything else")


@pytest.mark.parametrize("game", [PACG, TALES])
def test_the_form_of_every_event_type_has_no_field_that_asks_for_json(phones, http, game):
    campaign = http.campaign(game)
    page = phones.open(campaign["token"])
    form = _anything_else(page)
    chooser = form.get_by_label("What happened")
    types = [v for v in chooser.locator("option").evaluate_all("els => els.map(e => e.value)") if v]
    listed = http.client.get(f"{http.origin}/v1/games/{game}/event-types").json()["event_types"]
    assert set(types) == {t["type"] for t in listed if not t.get("written_by") and "owner" in t["appended_by"]}
    wrong = []
    for event_type in types:
        chooser.select_option(event_type)
        fields = form.locator(".fields").first
        # Every control is typed: no text area, nothing marked as JSON, no placeholder that looks like JSON.
        found = fields.evaluate(
            """el => [...el.querySelectorAll('textarea, input, select')].filter(c =>
                 c.tagName === 'TEXTAREA' || c.dataset.json || /^[\\[{]/.test(c.placeholder || '')
                 || (c.tagName !== 'SELECT' && c.type !== 'checkbox' && c.type !== 'number' && c.type !== 'file'
                     && !['string', 'names', 'numbers', 'integer', 'number'].includes(c.dataset.kind)
                     && !c.getAttribute('list'))
               ).map(c => (c.getAttribute('aria-label') || c.id) + ' ' + c.tagName)"""
        )
        if found:
            wrong.append((event_type, found))
    assert not wrong, f"Fields that are not typed: {wrong}"
    chooser.select_option("scenario.started" if game == PACG else "pirate.recruited")
    SHOTS.mkdir(parents=True, exist_ok=True)
    form.screenshot(path=str(SHOTS / f"typed-form-{game}.png"))


def _refusal_after(page, scope, button):
    scope.get_by_role("button", name=button, exact=True).click()
    place = beside(scope, button).locator(".refusal")
    expect(place).not_to_be_empty(timeout=LIVE)
    return place.inner_text()


def test_every_refusal_the_page_shows_for_bad_inputs_is_in_the_games_words(phones, http):
    campaign, lily, _ = pacg_table(http)
    page = phones.open(lily["token"])
    said: dict[str, str] = {}

    form = _anything_else(page)
    form.get_by_label("What happened").select_option("hero_point.awarded")
    said["a required field left empty"] = _refusal_after(page, form, "Log it")
    form.get_by_label("What happened").select_option("character.joined")
    form.get_by_label("Character id", exact=True).fill("bob")
    said["an unknown character"] = _refusal_after(page, form, "Log it")
    form.get_by_label("What happened").select_option("feat.gained")
    form.get_by_label("Character id", exact=True).fill("lirianne")
    form.get_by_label("Feat", exact=True).fill("Swimming +9")
    said["a feat the card does not have"] = _refusal_after(page, form, "Log it")
    form.get_by_label("What happened").select_option("plunder.stashed")
    form.get_by_label("Roll (optional)", exact=True).fill("9")
    said["a number off the die"] = _refusal_after(page, form, "Log it")

    page.get_by_text("Move a card").click()
    mover = page.get_by_role("group").filter(has_text="Move a card")
    mover.get_by_label("Character", exact=True).select_option("lirianne")
    mover.get_by_label("Move", exact=True).select_option("discard")
    mover.get_by_label("Card", exact=True).fill("Kraken Tooth")
    said["a card not in hand"] = _refusal_after(page, mover, "Move the card")

    # A batch of several entries the table typed, two of them wrong: each is named, with the service's reason.
    said["a batch with two bad entries"] = page.evaluate(
        """async () => {
             const { refuse } = await import('/static/refusal.js');
             const place = document.createElement('p');
             try {
               await window.quartermaster.appendEvents([
                 { type: 'note.added', label: 'The note', data: { text: 'fine' } },
                 { type: 'dice.rolled', label: 'The roll', data: { total: 'four' } },
                 { type: 'scenario.ended', label: 'The end', data: { result: 'total success' } },
               ], { typed: true });
             } catch (error) { refuse(place, error); }
             return place.innerText;
           }"""
    )
    page.get_by_role("tab", name="Set up").click()
    keep = page.locator("details").filter(has_text="Record a scenario card")
    keep.get_by_text("Record a scenario card").click()
    said["a scenario card with nothing on it"] = _refusal_after(page, keep, "Keep this scenario card")
    share = page.locator("details").filter(has_text="Share the group's cards")
    share.get_by_text("Share the group's cards").click()
    share.get_by_label("File of a group's cards").set_input_files(
        files=[{"name": "cards.json", "mimeType": "application/json", "buffer": b'{"events": [1, 2]}'}]
    )
    said["a file that is not a group's cards"] = _refusal_after(page, share, "Load the file into this campaign")

    print(json.dumps(said, indent=1))
    assert all(said.values()), said
    schema_talk = {case: text for case, text in said.items() if SCHEMA_WORDS.search(text)}
    assert not schema_talk, f"Refusals in schema words: {schema_talk}"
    assert "The roll (entry 2)" in said["a batch with two bad entries"]
    assert "The end (entry 3)" in said["a batch with two bad entries"]
    assert "Kraken Tooth" in said["a card not in hand"]


def test_a_character_who_joins_after_the_play_tab_was_drawn_is_offered_at_once(phones, http):
    campaign = http.campaign(PACG)
    http.append(campaign, [{"type": "character.joined", "data": {"character_id": "valeros", "player": "Olga"}}])
    page = phones.open(campaign["token"])
    page.get_by_role("tab", name="Play and log").click()
    page.get_by_text("Take damage").click()
    picker = page.get_by_role("group").filter(has_text="Take damage").get_by_label("Character", exact=True)
    expect(picker.locator("option")).to_have_count(1)
    http.append(campaign, [{"type": "character.joined", "data": {"character_id": "lem", "player": "Lily"}}])
    expect(picker.locator("option[value=lem]")).to_have_count(1, timeout=LIVE)


def test_ending_the_chapter_ends_the_chapter_open_now_not_the_one_open_when_the_tab_was_drawn(phones, http):
    campaign = http.campaign(TALES)
    http.append(campaign, [*CREW[:3], *CHAPTER_ONE])
    page = phones.open(campaign["token"])
    page.get_by_role("tab", name="Play and log").click()
    # Another phone opens and plays a one-phase chapter 2 while this one shows the Play tab.
    http.append(
        campaign,
        [
            {"type": "chapter.started", "data": {"number": 2, "title": "Chapter 2", "phases": ["port"]}},
            {"type": "phase.started", "data": {"phase": "port"}},
            {"type": "phase.ended", "data": {"phase": "port"}},
        ],
    )
    expect(page.locator("#latest")).to_have_text(str(http.get(campaign, "")["position"]), timeout=LIVE)
    page.get_by_text("Chapter and phases").click()
    chapter = page.get_by_role("group").filter(has_text="Chapter and phases")
    chapter.get_by_role("button", name="End the chapter").click()
    expect(beside(chapter, "End the chapter").locator(".done")).to_contain_text("Logged at position", timeout=LIVE)
    events = http.get(campaign, "/events", type="chapter.ended")["events"]
    assert events[-1]["data"]["number"] == 2


def test_the_empty_table_leads_to_the_set_up(phones, http):
    campaign = http.campaign(PACG)
    page = phones.open(campaign["token"])
    expect(page.get_by_text("No character has joined yet.")).to_be_visible()
    page.get_by_role("button", name="Set up the party").click()
    expect(page.get_by_role("tab", name="Set up")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("button", name="Pick Valeros")).to_be_visible()


CARD = {
    "scenario": "Island Hopping",
    "villains": ["Adaro Barbarian"],
    "henchmen": [],
    "locations": [{"name": "Shark Island", "players": 1, "deck": {"monster": 2}}],
}


def test_the_groups_cards_go_to_a_file_and_into_another_campaign_and_a_bad_file_writes_nothing(phones, http, tmp_path):
    first = http.campaign(PACG)
    http.append(
        first,
        [
            {"type": "scenario.card_recorded", "data": CARD},
            {
                "type": "product.list_recorded",
                "data": {"product": "1", "cards": [{"name": "Cutlass", "type": "weapon", "count": 2}]},
            },
            {"type": "card.defined", "data": {"card": {"name": "Our Own Cutlass", "type": "weapon", "count": 1}}},
        ],
    )
    page = phones.open(first["token"])
    page.get_by_role("tab", name="Set up").click()
    page.get_by_text("Share the group's cards").click()
    with page.expect_download() as downloading:
        page.get_by_role("button", name="Download the group's cards").click()
    saved = tmp_path / "cards.json"
    downloading.value.save_as(saved)
    carried = json.loads(saved.read_text())
    assert [e["type"] for e in carried["events"]] == ["scenario.card_recorded", "product.list_recorded", "card.defined"]

    second = http.campaign(PACG, name="Another group")
    other = phones.open(second["token"])
    other.get_by_role("tab", name="Set up").click()
    share = other.locator("details").filter(has_text="Share the group's cards")
    share.get_by_text("Share the group's cards").click()
    before = http.get(second, "")["position"]
    bad = dict(carried, events=[*carried["events"], {"type": "scenario.card_recorded", "data": {"scenario": "X"}}])
    share.get_by_label("File of a group's cards").set_input_files(
        files=[{"name": "bad.json", "mimeType": "application/json", "buffer": json.dumps(bad).encode()}]
    )
    share.get_by_role("button", name="Load the file into this campaign").click()
    refusal = beside(share, "Load the file into this campaign").locator(".refusal")
    expect(refusal).to_contain_text("nothing was written", timeout=LIVE)
    assert not SCHEMA_WORDS.search(refusal.inner_text()), refusal.inner_text()
    assert http.get(second, "")["position"] == before

    share.get_by_label("File of a group's cards").set_input_files(str(saved))
    share.get_by_role("button", name="Load the file into this campaign").click()
    expect(beside(share, "Load the file into this campaign").locator(".done")).to_contain_text("Loaded 3 cards")
    recorded = http.get(second, "/recorded")["recorded"]
    assert recorded["scenario_cards"][0]["scenario"] == "Island Hopping"
    assert recorded["product_lists"][0]["product"] == "1"
    expect(other.get_by_role("button", name="Set up Island Hopping")).to_be_visible(timeout=LIVE)


def test_a_products_card_list_typed_once_is_offered_to_put_in_the_vault(phones, http):
    campaign = http.campaign(PACG)
    page = phones.open(campaign["token"])
    page.get_by_role("tab", name="Set up").click()
    form = page.locator("details").filter(has_text="Record a product's card list")
    form.get_by_text("Record a product's card list").click()
    form.get_by_label("Product (B, C, 1…)").fill("1")
    form.get_by_label("Its name").fill("The Wormwood Mutiny")
    form.get_by_label("Card 1: name").fill("Cutlass")
    form.get_by_label("Card 1: name").dispatch_event("change")
    expect(form.get_by_label("Card 1: type")).to_have_value("weapon")
    form.get_by_role("button", name="One more: Card 1: copies").click()
    form.get_by_role("button", name="Add a card").click()
    form.get_by_label("Card 2: name").fill("Our Own Charm")
    form.get_by_label("Card 2: type").select_option("item")
    form.get_by_role("button", name="Keep this card list").click()
    expect(beside(form, "Keep this card list").locator(".done")).to_contain_text("Product 1's list is kept")
    page.get_by_role("button", name="Put product 1 in the vault").click()
    expect(page.get_by_text("In the vault: product 1.")).to_be_visible(timeout=LIVE)
    vault = http.get(campaign, "/vault")["vault"]
    assert vault["products"] == ["1"] and vault["cards"]["Cutlass"] == 2 and vault["cards"]["Our Own Charm"] == 1


def test_a_kept_scenario_card_comes_back_into_the_form_to_be_corrected_and_replaces_the_old_one(phones, http):
    campaign = http.campaign(PACG)
    http.append(campaign, [{"type": "scenario.card_recorded", "data": CARD}])
    page = phones.open(campaign["token"])
    page.get_by_role("tab", name="Set up").click()
    page.get_by_role("button", name="Correct the card of Island Hopping").click()
    form = page.locator("details").filter(has_text="Record a scenario card")
    expect(form.get_by_label("Location 1: name")).to_have_value("Shark Island")
    expect(form.get_by_label("Location 1: monster", exact=True)).to_have_value("2")
    form.get_by_role("button", name="One more: Location 1: barrier").click()
    form.get_by_role("button", name="Keep this scenario card").click()
    expect(beside(form, "Keep this scenario card").locator(".done")).to_contain_text("Island Hopping's card is kept")
    (card,) = http.get(campaign, "/recorded")["recorded"]["scenario_cards"]
    assert card["locations"][0]["deck"] == {"monster": 2, "barrier": 1}
    assert card["villains"] == ["Adaro Barbarian"]
