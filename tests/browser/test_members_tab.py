"""The owner's Members tab: a lost phone's member gets a new join link, and a member can be revoked; either way the
old token stops working at once."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
from playwright.sync_api import expect

from quartermaster.service.http.join_code import lan_addresses
from tests.unit.pacg.example_of_play import OPTIONS

# Where the screenshots go for a person to look at; never inside the repository.
SHOTS = Path(os.environ.get("QUARTERMASTER_SHOTS", "/tmp/quartermaster-page-shots"))


def pacg_table(http):
    """A Skull & Shackles campaign with two players, Lily and Sam."""
    campaign = http.campaign("pacg-skull-and-shackles", OPTIONS, name="Dangerous Waters")
    return campaign, http.member(campaign, "Lily"), http.member(campaign, "Sam")


def _status(http, campaign, token: str) -> int:
    return http.client.get(f"{http.origin}/v1/campaigns/{campaign['id']}", headers=http.auth(token)).status_code


def test_the_owner_gives_a_lost_phone_a_new_join_link_and_the_old_one_stops_working(phones, http):
    campaign, lily, _ = pacg_table(http)
    owner = phones.open(campaign["token"])
    owner.get_by_role("tab", name="Members").click()

    owner.get_by_role("button", name="New join link to give Lily").click()

    expect(owner.get_by_role("img", name="QR code of Lily's join link")).to_be_visible()
    expect(owner.get_by_role("status").filter(has_text="old join link no longer works")).to_be_visible()
    owner.screenshot(path=str(SHOTS / "pacg-members-new-join-link.png"))
    token = owner.get_by_label("Join link for Lily").inner_text().split("#", 1)[1]
    assert _status(http, campaign, lily["token"]) == 401
    assert _status(http, campaign, token) == 200
    found = phones.open(token)
    found.get_by_role("tab", name="Members").click()
    expect(found.get_by_text("You are Lily, player of this campaign.")).to_be_visible()


def test_the_owner_revokes_a_member_whose_token_is_refused_from_then_on(phones, http):
    campaign, _, sam = pacg_table(http)
    owner = phones.open(campaign["token"])
    owner.get_by_role("tab", name="Members").click()
    owner.once("dialog", lambda dialog: dialog.accept())

    owner.get_by_role("button", name="Revoke Sam").click()

    expect(owner.get_by_role("listitem").filter(has_text="Sam")).to_contain_text("(revoked)")
    expect(owner.get_by_role("button", name="Revoke Sam")).to_have_count(0)
    assert _status(http, campaign, sam["token"]) == 401
    assert httpx.get(f"{http.origin}/readyz").status_code == 200


def test_a_join_link_made_on_a_server_listening_on_loopback_opens_on_this_computer_and_says_what_phones_need(
    phones, http
):
    campaign, _, _ = pacg_table(http)
    owner = phones.open(campaign["token"])
    owner.get_by_role("tab", name="Members").click()

    owner.get_by_role("button", name="New join link to give Lily").click()

    link = owner.get_by_label("Join link for Lily").inner_text()
    # The test server listens on 127.0.0.1 alone: a link to the local network's address would open nothing.
    assert link.startswith(f"{http.origin}/join#"), link
    if lan_addresses():
        expect(owner.get_by_text('start it with "quartermaster serve --host 0.0.0.0"')).to_be_visible()
    found = phones.new()
    found.goto(link)
    found.wait_for_url("**/c/*")
    found.get_by_role("tab", name="Members").click()
    expect(found.get_by_text("You are Lily, player of this campaign.")).to_be_visible()


def test_a_phone_following_the_log_is_told_in_words_at_once_when_its_member_is_revoked(phones, http):
    campaign, _, sam = pacg_table(http)
    phone = phones.open(sam["token"])
    expect(phone.locator("#live")).to_have_attribute("data-state", "live")
    owner = phones.open(campaign["token"])
    owner.get_by_role("tab", name="Members").click()
    owner.once("dialog", lambda dialog: dialog.accept())

    owner.get_by_role("button", name="Revoke Sam").click()

    said = phone.get_by_role("alert")
    expect(said).to_contain_text("revoked by its owner")
    expect(said).to_contain_text("ask the owner for a new join link")
    expect(phone.locator("#live")).to_have_attribute("data-state", "revoked")
    phone.screenshot(path=str(SHOTS / "pacg-revoked-phone.png"))
