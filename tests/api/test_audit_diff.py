"""The diff between two positions over HTTP: both ends as the table saw them (the rule of `?at=N`)."""

from __future__ import annotations

from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS

PACG = "pacg-skull-and-shackles"
# campaign.started and member.joined take positions 1 and 2; the payloads follow one position each.
OFFSET = 2


def position_of(card: str, verb: str) -> int:
    index = next(
        i
        for i, p in enumerate(PAYLOADS)
        if p["type"] == "card.moved" and p["data"]["card"] == card and p["data"]["verb"] == verb
    )
    return index + 1 + OFFSET


def diff(api, campaign, start, end, token=None):
    return api.get(campaign, "/diff", token=token, **{"from": start, "to": end})


def test_the_diff_of_the_dead_mans_chest_reward_names_the_three_cards_drawn_from_the_box(api):
    campaign = api.new_campaign(PACG, options=OPTIONS)
    assert api.append(campaign, PAYLOADS).status_code == 201
    start = position_of("Dead Man's Chest", "banish")
    end = position_of("Speed", "draw")

    answer = diff(api, campaign, start, end)

    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert (found["from"], found["to"]) == (start, end)
    hand = {
        c["path"]: (c["before"], c["after"])
        for c in found["changes"]
        if c["path"].startswith("/characters/lirianne/zones/hand/")
    }
    assert hand == {
        "/characters/lirianne/zones/hand/Cat-o'-Nine-Tails": (None, 1),
        "/characters/lirianne/zones/hand/Rum Bottle": (None, 1),
        "/characters/lirianne/zones/hand/Speed": (None, 1),
    }
    assert (
        "Lirianne: +1 Cat-o'-Nine-Tails in the hand; +1 Rum Bottle in the hand; +1 Speed in the hand."
        in found["sentences"]
    )
    assert "The vault: -1 Cat-o'-Nine-Tails; -1 Rum Bottle; -1 Speed." in found["sentences"]
    # And what happened in between, event by event.
    assert [e["sentence"] for e in found["events"]] == [
        "Lirianne drew the Cat-o'-Nine-Tails from the vault.",
        "Lirianne drew the Rum Bottle from the vault.",
        "Lirianne drew the Speed from the vault.",
    ]


def test_a_diff_from_a_position_to_itself_is_empty(api):
    campaign = api.new_campaign(PACG, options=OPTIONS)
    assert api.append(campaign, PAYLOADS).status_code == 201
    last = len(PAYLOADS) + OFFSET

    for at in (0, 1, 2, 10, 57, last // 2, last):
        found = diff(api, campaign, at, at).json()
        assert (found["changes"], found["sentences"]) == ([], []), at


def test_both_ends_of_a_diff_are_the_states_the_table_saw_even_after_an_undo(api):
    campaign = api.new_campaign(PACG, options=OPTIONS)
    assert api.append(campaign, PAYLOADS[:-1]).status_code == 201
    assert api.append(campaign, PAYLOADS[-1:]).status_code == 201  # ship.repaired, a batch of its own
    repaired = len(PAYLOADS) + OFFSET
    assert api.client.post(f"/v1/campaigns/{campaign.id}/undo", json={}, headers=campaign.headers).status_code == 201

    # Before the undo the table saw the Merchantman repaired; the undo (the next position) wrecks it again.
    changes = diff(api, campaign, repaired - 1, repaired + 1).json()["changes"]
    seen = diff(api, campaign, repaired - 1, repaired).json()["changes"]

    assert {"path": "/fleet/wrecked", "before": True, "after": False} in seen
    assert not any(c["path"] == "/fleet/wrecked" for c in changes)
    at_end = api.get(campaign, "/fleet", at=repaired).json()["fleet"]
    assert at_end["wrecked"] is False


def test_a_diff_refuses_a_backwards_or_future_range_and_strangers(api):
    campaign = api.new_campaign(PACG, options=OPTIONS)
    assert api.append(campaign, PAYLOADS[:5]).status_code == 201
    stranger = api.new_campaign(PACG)
    viewer = api.add_member(campaign, "viewer")

    assert diff(api, campaign, 4, 2).status_code == 422
    assert diff(api, campaign, 0, 99).status_code == 422
    assert diff(api, campaign, 0, 3, token=stranger.token).status_code == 404
    assert diff(api, campaign, 0, 3, token=viewer).status_code == 200


def test_a_long_diff_tells_its_events_a_page_at_a_time_and_the_pages_add_up_to_the_whole(api):
    campaign = api.new_campaign(PACG, options=OPTIONS)
    assert api.append(campaign, PAYLOADS).status_code == 201
    last = len(PAYLOADS) + OFFSET
    whole = diff(api, campaign, 0, last).json()
    assert "events_next" not in whole and len(whole["events"]) > 7

    pages, after = [], None
    while True:
        params = {"from": 0, "to": last, "events_limit": 7, **({"events_after": after} if after is not None else {})}
        page = api.get(campaign, "/diff", **params).json()
        assert (page["changes"], page["sentences"]) == (whole["changes"], whole["sentences"])
        pages.append(page["events"])
        after = page.get("events_next")
        if after is None:
            break

    assert all(len(events) == 7 for events in pages[:-1]) and 0 < len(pages[-1]) <= 7
    assert [e for events in pages for e in events] == whole["events"]


def test_a_page_of_a_diff_outside_its_range_is_refused_with_a_sentence(api):
    campaign = api.new_campaign(PACG, options=OPTIONS)
    assert api.append(campaign, PAYLOADS).status_code == 201

    answer = api.get(campaign, "/diff", **{"from": 3, "to": 10, "events_after": 11})

    assert answer.status_code == 422 and "`events_after` must be within 3 to 10" in answer.json()["detail"]
