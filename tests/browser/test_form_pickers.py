""" "Anything else": a map's rows are picked, not typed: names from the served description and the table, and a value
the schema lists (a phase's degrees) chosen from its words."""

from __future__ import annotations

from playwright.sync_api import expect

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
