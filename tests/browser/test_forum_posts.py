"""Play-by-post on a phone: a character's status block and the turn's post copied in one tap, in the forum's format."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.table import SHOTS
from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS
from tests.unit.skull_tales import chapter_one


def test_a_characters_status_block_and_the_turns_post_are_copied_as_bbcode_in_one_tap_each(phones, http):
    campaign = http.campaign("pacg-skull-and-shackles", OPTIONS, name="Dangerous Waters")
    http.append(campaign, PAYLOADS)
    lily = http.member(campaign, "Lily")
    page = phones.open(lily["token"])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("tab", name="Table").click()
    forum = page.get_by_role("region", name="For the forum")
    forum.get_by_label("Whose status").select_option(label="Seltyiel")
    forum.get_by_label("Format").select_option("bbcode")

    forum.get_by_role("button", name="Copy the status block").click()

    expect(forum.get_by_role("status").first).to_contain_text("Copied the status block as of position")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == forum.get_by_label("The post copied").inner_text()
    expected = http.client.get(
        f"{http.origin}/v1/campaigns/{campaign['id']}/posts/status",
        params={"character": "seltyiel", "format": "bbcode"},
        headers=http.auth(lily["token"]),
    ).json()["post"]
    assert copied == expected and "[b]" in copied and "Seltyiel" in copied

    forum.get_by_role("button", name="Copy this turn's post").click()
    expect(forum.get_by_role("status").first).to_contain_text("Copied this turn's post as of position")
    turn = page.evaluate("navigator.clipboard.readText()")
    assert turn != copied and "[b]" in turn
    SHOTS.mkdir(parents=True, exist_ok=True)
    forum.screenshot(path=str(SHOTS / "pacg-forum-post.png"))


def test_a_pirates_status_block_is_offered_by_name_on_the_crew_sheets(phones, http):
    campaign = http.campaign("skull-tales-full-sail", chapter_one.OPTIONS, name="Shadows of the Caribbean")
    http.append(campaign, chapter_one.CAMPAIGN)
    ana = http.member(campaign, "Ana")
    page = phones.open(ana["token"])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("tab", name="Crew sheets").click()
    forum = page.get_by_role("region", name="For the forum")
    first = forum.get_by_label("Whose status").locator("option").first.inner_text()
    forum.get_by_label("Format").select_option("markdown")

    forum.get_by_role("button", name="Copy the status block").click()

    expect(forum.get_by_role("status").first).to_contain_text("Copied the status block as of position")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert first in copied and "Fame" in copied
