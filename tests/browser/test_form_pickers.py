""" "Anything else": a map's rows are picked, not typed: names from the served description and the table, and a value
the schema lists (a phase's degrees) chosen from its words."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.table import pacg_table
from tests.unit.skull_tales import chapter_one


def _anything_else(page):
    page.get_by_role("tab", name="Play and log").click()
    page.get_by_text("Anything else").click()
    return page.get_by_role("group").filter(has_text="Anything else")


def _offered(field):
    """The names a row's name field offers (its datalist), as the page lists them."""
    return field.evaluate("el => [...(el.list?.options || [])].map(o => o.value)")


def test_a_phases_degrees_are_chosen_and_a_skills_effects_picked_from_their_description(phones, http):
    campaign = http.campaign("skull-tales-full-sail", chapter_one.OPTIONS, name="Shadows of the Caribbean")
    http.append(campaign, chapter_one.CAMPAIGN)
    page = phones.open(campaign["token"])
    form = _anything_else(page)

    form.get_by_label("What happened").select_option("phase.ended")
    degree = form.get_by_label("Degrees (optional): value 1")
    expect(degree).to_have_attribute("data-kind", "choice")
    assert "Total success" in degree.locator("option").all_inner_texts()
    # Its rows name the table's pirates, by the ids the page knows.
    assert _offered(form.get_by_label("Degrees (optional): name 1"))

    form.get_by_label("What happened").select_option("skill.learned")
    effects = form.get_by_label("Effects (optional): name 1")
    assert {"charisma", "action_points", "destiny_points", "salary"} <= set(_offered(effects))


def test_a_roles_powers_and_a_card_drawn_from_her_deck_are_picked_from_what_the_fold_knows_of_her(phones, http):
    campaign, lily, _ = pacg_table(http)
    # The table gave Lirianne's power feat boxes once (the catalogue prints none).
    facts = {"hand_size": 4, "powers": {"Hand Size": ["5"], "Ranged": ["+1"]}}
    http.append(campaign, [{"type": "character.card_completed", "data": {"character_id": "lirianne", "card": facts}}])
    page = phones.open(lily["token"])
    form = _anything_else(page)

    form.get_by_label("What happened").select_option("role.chosen")
    form.get_by_label("Character id", exact=True).fill("lirianne")
    form.get_by_label("Character id", exact=True).dispatch_event("change")
    powers = form.get_by_label("Powers (optional): name 1")
    page.wait_for_function(
        "el => el.list && [...el.list.options].some(o => o.value === 'Hand Size')", arg=powers.element_handle()
    )
    assert {"Hand Size", "Ranged"} <= set(_offered(powers))

    # A card drawn at a reset leaves her deck: the cards offered are those the fold says are in it.
    zones = http.get(campaign, "/characters/lirianne")["character"]["zones"]
    drawn = sorted(zones["deck"])[0]
    held = next(card for card in zones["hand"] if card not in zones["deck"])
    form.get_by_label("What happened").select_option("card.moved")
    form.get_by_label("Zone", exact=True).first.select_option("deck")
    form.get_by_label("Character id (optional)", exact=True).first.fill("lirianne")
    form.get_by_label("Character id (optional)", exact=True).first.dispatch_event("change")
    card = form.get_by_label("Card (by name)", exact=True)
    offered = form.locator('.suggest[data-for="Card (by name)"]')
    card.fill(drawn[:3])
    expect(offered.get_by_role("button", name=drawn, exact=True)).to_be_visible()
    card.fill(held[:4])
    expect(offered.get_by_role("button", name=held, exact=True)).to_have_count(0)
