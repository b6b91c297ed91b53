"""A redraw that lands while a player types keeps the field's focus and its text: another phone logs something while
a field of the Play tab's turn panel is being typed into, and the next keys go on into the same field."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.phone import note, open_play
from tests.browser.table import LIVE, TALES, pacg_table
from tests.unit.skull_tales import chapter_one


def _typing_goes_on(typing: Any, other: Any, field: Any, http: Any, campaign: dict[str, Any]) -> None:
    field.click()
    typing.keyboard.type("Sea ")
    before = http.get(campaign, "")["position"]
    expect(note(other, "A round of grog for the table")).to_contain_text("Logged", timeout=LIVE)
    # The typing phone has drawn its Play tab again for the other phone's entry.
    expect(typing.locator(f'#panel[data-position="{before + 1}"]')).to_have_count(1, timeout=LIVE)
    typing.keyboard.type("Devil")
    expect(field).to_be_focused()
    expect(field).to_have_value("Sea Devil")


def test_a_field_of_the_turn_panel_keeps_its_focus_and_text_when_another_phone_logs(phones, http):
    campaign, lily, sam = pacg_table(http)
    typing = open_play(phones, lily["token"])
    other = open_play(phones, sam["token"])
    # Moved, Lirianne may explore: the panel asks for the card she reveals.
    typing.locator("section.turn").get_by_role("button", name="Move to Tempest Cay").click()
    expect(typing.locator("section.turn")).to_contain_text("Logged at position", timeout=LIVE)
    field = typing.locator("section.turn").get_by_label("Card revealed", exact=True)
    expect(field).to_be_visible(timeout=LIVE)
    _typing_goes_on(typing, other, field, http, campaign)


def test_a_field_of_the_skull_tales_port_keeps_its_focus_and_text_when_another_phone_logs(phones, http):
    campaign = http.campaign(TALES, chapter_one.OPTIONS, name="Tortuga")
    http.append(campaign, chapter_one.CREW + chapter_one.CHAPTER_ONE + chapter_one.PORT[:2])
    typing = open_play(phones, http.member(campaign, "Ana")["token"])
    other = open_play(phones, http.member(campaign, "Joe")["token"])
    field = typing.locator("section.turn").get_by_label("Gear card", exact=True)
    expect(field).to_be_visible(timeout=LIVE)
    _typing_goes_on(typing, other, field, http, campaign)


def test_what_is_typed_into_a_tab_while_it_is_being_drawn_again_is_kept(phones, http):
    """The tab is drawn again (the log moved); the player types into the new drawing's field before the drawing is
    done: what she typed stays, rather than the field's text from before the redraw put back over it."""
    campaign, _, _ = pacg_table(http)
    page = open_play(phones, campaign["token"])  # the owner's phone: the box is hers to name
    page.get_by_role("tab", name="Table").click()
    box = page.get_by_role("region", name="The box")
    expect(box).to_contain_text("No box is named yet", timeout=LIVE)
    kept = page.evaluate(
        """async () => {
             const table = window.quartermaster;
             const drawn = table.show(table.tab);
             // Typed as soon as the new drawing's field is there, while the rest of the tab is still drawn.
             let field = null;
             for (let tries = 0; !field && tries < 500; tries++) {
               const inputs = [...document.querySelectorAll('#panel input')];
               field = inputs.find(el => el.labels?.[0]?.textContent === 'Box name');
               if (!field) await new Promise(resolve => setTimeout(resolve, 2));
             }
             field.value = 'The shelf box';
             field.dispatchEvent(new Event('input', { bubbles: true }));
             await drawn;
             return field.value;
           }"""
    )
    assert kept == "The shelf box"
