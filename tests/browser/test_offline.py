"""The page never loses a write: entries made without the network wait on the phone, survive a reload, and are
recorded once, in order, when it is back; a refused one says why; undo says what it takes back and asks first."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from playwright.sync_api import expect

from tests.unit.pacg.example_of_play import OPTIONS as PACG_OPTIONS, PAYLOADS as PACG_PLAY

PACG = "pacg-skull-and-shackles"
# Where the screenshots go for a person to look at; never inside the repository.
SHOTS = Path(os.environ.get("QUARTERMASTER_SHOTS", "/tmp/quartermaster-page-shots"))
LIVE = 2000  # milliseconds: a change on one phone shows on the others within this

NOTE = "note.added"
# Every log entry, recorded, waiting or refused, counted each time the log is drawn: it must never go down.
WATCH_LOG = """() => {
  window.logCounts = [];
  const count = () => {
    const list = document.querySelector('ol.log');
    if (list) window.logCounts.push(list.querySelectorAll(':scope > li').length);
  };
  new MutationObserver(count).observe(document.body, { childList: true, subtree: true });
  count();
}"""


def pacg_table(http):
    """A Skull & Shackles campaign in the middle of the rulebook's Example of Play, with two players."""
    campaign = http.campaign(PACG, PACG_OPTIONS, name="Dangerous Waters")
    http.append(campaign, PACG_PLAY)
    return campaign, http.member(campaign, "Lily"), http.member(campaign, "Sam")


def log_entry(page, position):
    own = page.locator(".pos").filter(has_text=re.compile(f"^#{position}$"))
    return page.get_by_role("list", name="Log, newest first").get_by_role("listitem").filter(has=own)


def open_play(phones, token):
    page = phones.open(token)
    page.get_by_role("tab", name="Play and log").click()
    page.get_by_text("Anything else").click()
    return page


def note(page, text):
    """Log a note through the form built from the event types, and return the place beside its button."""
    other = page.get_by_role("group").filter(has_text="Anything else")
    other.get_by_label("What happened").select_option(NOTE)
    other.get_by_label("Text", exact=True).fill(text)
    other.get_by_role("button", name="Log it").click()
    return other.locator(".act").filter(has=page.get_by_role("button", name="Log it"))


def pending(page):
    return page.get_by_role("list", name="Log, newest first").locator("li.pending")


def all_sent(page, timeout=10000):
    """Nothing waits in the outbox (the log may show an entry recorded before its own answer came back)."""
    expect(page.locator("#live")).to_have_attribute("data-waiting", "0", timeout=timeout)


def notes_recorded(http, campaign, after):
    events = http.get(campaign, "/events", after=after, limit=1000)["events"]
    return [e["data"]["text"] for e in events if e["type"] == NOTE]


def kept_by_service_worker(page):
    # Functions, not expressions: the page's Content-Security-Policy forbids the eval an expression would need.
    page.wait_for_function("() => Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")


def test_a_phone_offline_for_a_while_logs_three_entries_is_reloaded_and_all_three_are_recorded_once_in_order(
    phones, http
):
    """The issue's check for done, with the outage shortened: nothing vanishes on this phone or on the other."""
    phones.outage = True
    campaign, lily, sam = pacg_table(http)
    page = open_play(phones, lily["token"])
    kept_by_service_worker(page)
    other = phones.open(sam["token"])
    other.get_by_role("tab", name="Play and log").click()
    before = http.get(campaign, "")["position"]

    page.context.set_offline(True)
    expect(page.locator("#live")).to_have_attribute("data-state", "offline")
    for text in ("Seltyiel casts Force Missile", "The Sea Devil is undefeated", "Lirianne takes 2 damage"):
        beside = note(page, text)
        # Never silent: within the 3 seconds, beside the button, why it is not recorded.
        expect(beside.get_by_role("status")).to_contain_text("Not saved yet: this phone is offline", timeout=3000)
    expect(pending(page)).to_have_count(3)
    expect(page.locator("#offline")).to_contain_text("This phone is offline: the page shows the campaign as of")
    expect(page.locator("#live")).to_contain_text("3 not saved yet")
    assert http.get(campaign, "")["position"] == before

    # Reloaded during the outage: the page's files from the service worker, the campaign and the queue from the
    # page's own storage.
    answer = page.reload()
    assert answer is None or answer.from_service_worker
    page.get_by_role("tab", name="Play and log").click()
    expect(pending(page)).to_have_count(3)
    expect(pending(page).first).to_contain_text("Lirianne takes 2 damage")
    expect(pending(page).first).to_contain_text("Not saved yet")
    expect(log_entry(page, before)).to_have_count(1)
    expect(page.locator("#offline")).to_contain_text("the page shows the campaign as of")
    page.screenshot(path=str(SHOTS / "offline-reloaded-with-three-waiting.png"))
    page.evaluate(WATCH_LOG)
    other.evaluate(WATCH_LOG)

    page.context.set_offline(False)
    expect(pending(page)).to_have_count(0, timeout=10000)
    all_sent(page, timeout=10000)
    expect(page.locator("#live")).to_have_attribute("data-state", "live", timeout=10000)
    expect(page.locator("#offline")).to_be_hidden()
    recorded = notes_recorded(http, campaign, before)
    assert recorded == ["Seltyiel casts Force Missile", "The Sea Devil is undefeated", "Lirianne takes 2 damage"]
    assert http.get(campaign, "")["position"] == before + 3
    for position in range(before + 1, before + 4):
        expect(log_entry(page, position)).to_have_count(1)
        expect(log_entry(other, position)).to_have_count(1, timeout=LIVE)
    page.screenshot(path=str(SHOTS / "offline-back-and-recorded.png"))
    for phone in (page, other):
        counts = phone.evaluate("window.logCounts")
        assert counts == sorted(counts), f"an entry vanished from the log: {counts}"


def test_a_queued_entry_is_checked_against_the_log_as_it_arrives_and_is_recorded_after_other_phones_entries(
    phones, http
):
    phones.outage = True
    campaign, lily, _ = pacg_table(http)
    page = open_play(phones, lily["token"])
    before = http.get(campaign, "")["position"]
    page.context.set_offline(True)
    note(page, "made while offline")
    expect(pending(page)).to_have_count(1)
    http.append(campaign, [{"type": NOTE, "data": {"text": "the owner's, meanwhile"}}])
    page.context.set_offline(False)
    expect(pending(page)).to_have_count(0, timeout=10000)
    all_sent(page, timeout=10000)
    assert notes_recorded(http, campaign, before) == ["the owner's, meanwhile", "made while offline"]


def test_a_queued_entry_that_no_longer_fits_is_shown_refused_in_words_not_recorded_and_can_be_dropped(phones, http):
    phones.outage = True
    campaign, lily, _ = pacg_table(http)
    page = open_play(phones, lily["token"])
    page.get_by_text("Move a card").click()
    page.context.set_offline(True)
    mover = page.get_by_role("group").filter(has_text="Move a card")
    mover.get_by_label("Character", exact=True).select_option("lirianne")
    mover.get_by_label("Move", exact=True).select_option("discard")
    mover.get_by_label("Card", exact=True).fill("Powder Horn")
    mover.get_by_role("button", name="Move the card").click()
    expect(mover.get_by_role("status")).to_contain_text("Not saved yet")
    # Meanwhile another phone discards the same card.
    discard = {
        "type": "card.moved",
        "data": {
            "card": "Powder Horn",
            "verb": "discard",
            "from": {"zone": "hand", "character_id": "lirianne"},
            "to": {"zone": "discard", "character_id": "lirianne"},
        },
    }
    theirs = http.append(campaign, [discard])["last_position"]

    page.context.set_offline(False)
    refused = page.get_by_role("list", name="Log, newest first").locator("li.refused")
    expect(refused).to_have_count(1, timeout=10000)
    expect(refused.get_by_role("alert")).to_contain_text("Refused, not recorded: ")
    expect(refused.get_by_role("alert")).to_contain_text("Powder Horn")
    expect(page.locator("#live")).to_contain_text("1 refused")
    assert http.get(campaign, "")["position"] == theirs
    page.screenshot(path=str(SHOTS / "offline-refused.png"))

    # A refused entry never counts as "my last": Undo my last names nothing of Lily's, and takes nothing back.
    page.get_by_role("button", name="Undo my last").click()
    expect(page.get_by_role("status").filter(has_text="nothing of yours")).to_be_visible()

    refused.get_by_role("button", name=re.compile("^Drop")).click()
    expect(refused).to_have_count(0)
    page.reload()
    page.get_by_role("tab", name="Play and log").click()
    expect(page.get_by_role("list", name="Log, newest first").locator("li.refused")).to_have_count(0)
    assert http.get(campaign, "")["position"] == theirs


def test_a_refused_entry_edited_and_sent_again_is_recorded_with_what_was_corrected(phones, http):
    phones.outage = True
    campaign, lily, _ = pacg_table(http)
    page = open_play(phones, lily["token"])
    page.context.set_offline(True)
    other = page.get_by_role("group").filter(has_text="Anything else")
    other.get_by_label("What happened").select_option("hero_point.awarded")
    other.get_by_label("Character id").fill("nobody-at-this-table")
    other.get_by_role("button", name="Log it").click()
    expect(pending(page)).to_have_count(1)
    page.context.set_offline(False)
    refused = page.get_by_role("list", name="Log, newest first").locator("li.refused")
    expect(refused).to_have_count(1, timeout=10000)
    refused.get_by_role("button", name=re.compile("^Edit")).click()
    editor = page.get_by_role("group", name="Edit the refused entry")
    editor.get_by_label("Character id").fill("seltyiel")
    editor.get_by_role("button", name="Send the edited entry").click()
    expect(refused).to_have_count(0)
    expect(pending(page)).to_have_count(0, timeout=10000)
    all_sent(page, timeout=10000)
    position = http.get(campaign, "")["position"]
    logged = http.get(campaign, "/events", after=position - 1)["events"][0]
    assert (logged["type"], logged["data"]) == ("hero_point.awarded", {"character_id": "seltyiel"})


def test_an_answer_that_does_not_know_whether_it_wrote_is_followed_by_the_same_ids_and_recorded_once(phones, http):
    phones.outage = True
    campaign, lily, _ = pacg_table(http)
    page = open_play(phones, lily["token"])
    before = http.get(campaign, "")["position"]
    sent: list[str] = []

    def unknown_once(route):
        sent.append(route.request.post_data or "")
        answer = route.fetch()
        if len(sent) == 1:
            # The server recorded it, and the answer says it cannot tell: the page must ask again, not give up.
            route.fulfill(
                status=503,
                headers={"content-type": "application/problem+json", "retry-after": "1"},
                body=json.dumps(
                    {"type": "/problems/outcome-unknown", "status": 503, "detail": "The server cannot tell."}
                ),
            )
        else:
            route.fulfill(response=answer)

    page.route("**/events", lambda route: unknown_once(route) if route.request.method == "POST" else route.fallback())
    beside = note(page, "said once")
    expect(beside.get_by_role("status")).to_contain_text("Not saved yet: the server could not record it just now (503")
    expect(beside.locator(".refusal")).to_be_empty()
    expect(pending(page)).to_have_count(0, timeout=10000)
    all_sent(page, timeout=10000)
    assert len(sent) == 2 and json.loads(sent[0]) == json.loads(sent[1])
    assert notes_recorded(http, campaign, before) == ["said once"]
    expect(page.get_by_role("list", name="Log, newest first").locator("li.refused")).to_have_count(0)


def test_a_write_with_no_answer_in_three_seconds_says_so_beside_its_control(phones, http):
    campaign, lily, _ = pacg_table(http)
    page = open_play(phones, lily["token"])
    held = []
    page.route("**/rolls", lambda route: held.append(route))
    page.get_by_text("Roll for a check").click()
    roll = page.get_by_role("group").filter(has_text="Roll for a check")
    roll.get_by_role("button", name="Roll on the server").click()
    # The page says it at 3 s by its own timer; the test's margin is for a busy machine.
    expect(roll.get_by_role("status").first).to_contain_text(
        "Not rolled yet: the server has not answered in 3 seconds", timeout=5000
    )
    expect(pending(page)).to_have_count(1)
    for route in held:
        route.continue_()
    page.unroute("**/rolls")
    expect(pending(page)).to_have_count(0, timeout=10000)
    all_sent(page, timeout=10000)
    assert http.get(campaign, "/events", after=http.get(campaign, "")["position"] - 1)["events"][0]["type"] == (
        "dice.rolled"
    )


def test_undo_shows_the_entry_and_who_made_it_and_keep_it_changes_nothing(phones, http):
    campaign, lily, _ = pacg_table(http)
    page = open_play(phones, lily["token"])
    expect(note(page, "keep me").get_by_role("status")).to_contain_text("Logged at position")
    position = http.get(campaign, "")["position"]
    expect(log_entry(page, position)).to_have_count(1, timeout=LIVE)
    sentence = log_entry(page, position).locator(".sentence").inner_text()

    log_entry(page, position).get_by_role("button", name=f"Undo #{position}").click()
    asked = log_entry(page, position).get_by_role("dialog", name="Confirm the undo")
    expect(asked).to_contain_text(f"#{position} “{sentence}”")
    expect(asked).to_contain_text("logged by Lily")
    page.screenshot(path=str(SHOTS / "undo-asks-first.png"))
    asked.get_by_role("button", name="Keep it").click()
    expect(asked).to_have_count(0)
    assert http.get(campaign, "")["position"] == position
    assert http.get(campaign, "/events", after=position - 1)["events"][0]["undone_by"] is None

    page.get_by_role("button", name="Undo my last").click()
    page.get_by_role("dialog", name="Confirm the undo").get_by_role("button", name="Undo it").click()
    expect(page.get_by_role("status").filter(has_text="Undone:")).to_contain_text(f"“{sentence}”, logged by Lily")
    assert http.get(campaign, "/events", after=position - 1)["events"][0]["undone_by"] == position + 1


def test_undo_my_last_while_my_last_entry_waits_on_the_phone_takes_it_back_unsent(phones, http):
    phones.outage = True
    campaign, lily, _ = pacg_table(http)
    page = open_play(phones, lily["token"])
    before = http.get(campaign, "")["position"]
    page.context.set_offline(True)
    note(page, "never mind")
    expect(pending(page)).to_have_count(1)
    page.get_by_role("button", name="Undo my last").click()
    asked = page.get_by_role("dialog", name="Confirm the undo")
    expect(asked).to_contain_text("never mind")
    asked.get_by_role("button", name="Take it back").click()
    expect(pending(page)).to_have_count(0)
    page.context.set_offline(False)
    expect(page.locator("#live")).to_have_attribute("data-state", "live", timeout=10000)
    assert http.get(campaign, "")["position"] == before


def test_look_back_to_here_from_a_log_entry(phones, http):
    campaign, lily, _ = pacg_table(http)
    page = open_play(phones, lily["token"])
    position = http.get(campaign, "")["position"]
    log_entry(page, position - 2).get_by_role("button", name=f"Look back to here (#{position - 2})").click()
    expect(page.get_by_role("status").filter(has_text="Looking back")).to_contain_text(f"position {position - 2}")
    assert page.url.endswith(f"?at={position - 2}")


def test_dice_luck_keeps_the_tables_dice_and_the_servers_apart_in_plain_words(phones, http):
    campaign, lily, _ = pacg_table(http)
    for _ in range(3):
        answer = http.client.post(
            f"{http.origin}/v1/campaigns/{campaign['id']}/rolls",
            json={"expression": "1d20"},
            headers=http.auth(campaign["token"]),
        )
        assert answer.status_code == 201
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Dice luck").click()
    table = page.get_by_role("region", name="Everyone's dice thrown at the table")
    server = page.get_by_role("region", name="The server's dice rolled for everyone")
    expect(table.get_by_role("img").first).to_be_visible()
    expect(server.get_by_role("img", name=re.compile("d20"))).to_have_count(1)
    expect(server).to_contain_text("3 d20 rolled")
    expect(server).to_contain_text("Too few throws to say anything yet")
    expect(table.get_by_role("img", name=re.compile("d20"))).to_have_count(0)
    assert "p-value" not in page.inner_text("main") and "p =" not in page.inner_text("main")
    page.screenshot(path=str(SHOTS / "dice-luck-apart.png"), full_page=True)


def test_adding_members_quickly_keeps_what_is_typed_and_never_sends_an_empty_name(phones, http):
    campaign, _, _ = pacg_table(http)
    owner = phones.open(campaign["token"])
    owner.get_by_role("tab", name="Members").click()
    name = owner.get_by_label("Name", exact=True)
    add = owner.get_by_role("button", name="Add the member")
    name.fill("Anne")
    add.click()
    name.fill("Bo")
    # Anne's joining reaches this phone on the stream and the tab is drawn again: "Bo" stays, and can be finished.
    expect(owner.get_by_role("list").filter(has_text="Anne")).to_have_count(1, timeout=LIVE)
    owner.wait_for_timeout(400)
    expect(name).to_have_value("Bo")
    name.press("End")
    name.type("b")
    add.click()
    expect(owner.get_by_label("Join link for Bob")).to_be_visible()
    add.click()
    expect(owner.get_by_role("alert").filter(has_text="Type the new member's name first")).to_be_visible()
    members = [m["name"] for m in http.get(campaign, "")["members"]]
    assert members.count("Anne") == 1 and members.count("Bob") == 1 and "" not in members


TARGETS = """() => [...document.querySelectorAll(
    'main button, main input, main select, main textarea, main summary, main a, header a, nav button')]
  .filter(el => el.offsetParent !== null)
  .map(el => {
    const target = el.type === 'checkbox' && el.closest('label') ? el.closest('label') : el;
    const box = target.getBoundingClientRect();
    return { what: el.outerHTML.slice(0, 100), width: box.width, height: box.height };
  })
  .filter(t => t.width < 44 || t.height < 44)"""


def test_every_control_is_at_least_44_pixels_each_way_at_phone_size(phones, http):
    campaign, lily, _ = pacg_table(http)
    page = phones.open(campaign["token"])
    drawn = {
        "Table": page.get_by_role("region", name="Characters", exact=True),
        "Play and log": page.get_by_role("button", name="Undo my last"),
        "Dice luck": page.get_by_role("img").first,
        "Members": page.get_by_role("button", name="Add the member"),
    }
    for tab, shown in drawn.items():
        page.get_by_role("tab", name=tab).click()
        shown.wait_for()
        for group in page.locator("details").all():
            group.evaluate("el => el.open = true")
        assert page.evaluate(TARGETS) == [], tab
        page.screenshot(path=str(SHOTS / f"targets-{tab.replace(' ', '-').lower()}.png"))
        if tab == "Play and log":
            damage = page.get_by_role("group").filter(has_text="Take damage")
            damage.screenshot(path=str(SHOTS / "targets-take-damage.png"))
            page.get_by_role("list", name="Log, newest first").scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / "targets-log.png"))


def test_entries_made_while_the_server_process_is_stopped_are_recorded_once_in_order_when_it_is_started_again(
    browser, database_url, http, tmp_path
):
    """A real `quartermaster serve`, killed mid-game and started again on the same port."""
    from tests.browser.conftest import Phones
    from tests.faults import servers

    campaign, lily, _ = pacg_table(http)
    port = servers.free_port()

    def start():
        served = servers.serve(tmp_path, database_url=database_url, args=("--port", str(port)))
        served.port = port
        served.wait_ready()
        return served

    before = len(servers.STARTED)
    phones = Phones(browser, f"http://127.0.0.1:{port}", outage=True)
    try:
        served = start()
        page = open_play(phones, lily["token"])
        kept_by_service_worker(page)
        start_position = http.get(campaign, "")["position"]
        served.kill()
        expect(page.locator("#live")).to_have_attribute("data-state", "lost", timeout=LIVE)
        for text in ("while the server was down", "and again", "and a third time"):
            beside = note(page, text)
            expect(beside.get_by_role("status")).to_contain_text("Not saved yet: the server cannot be reached")
        expect(pending(page)).to_have_count(3)
        page.reload()
        page.get_by_role("tab", name="Play and log").click()
        expect(pending(page)).to_have_count(3)
        expect(page.locator("#offline")).to_contain_text("The server is not answering")
        page.evaluate(WATCH_LOG)

        start()
        expect(pending(page)).to_have_count(0, timeout=20000)
        all_sent(page, timeout=20000)
        expect(page.locator("#live")).to_have_attribute("data-state", "live", timeout=LIVE)
        assert notes_recorded(http, campaign, start_position) == [
            "while the server was down",
            "and again",
            "and a third time",
        ]
        counts = page.evaluate("window.logCounts")
        assert counts == sorted(counts), f"an entry vanished from the log: {counts}"
    finally:
        for context in phones.contexts:
            context.close()
        servers.stop_left_running(before)
    for watch in phones.watches:
        watch.check()
