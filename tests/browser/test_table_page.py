"""The table page in Chromium at phone size: joining by link, logging play, the live log, undo, looking back."""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import expect

from tests.unit.pacg.example_of_play import OPTIONS as PACG_OPTIONS, PAYLOADS as PACG_PLAY
from tests.unit.skull_tales import chapter_one

PACG = "pacg-skull-and-shackles"
TALES = "skull-tales-full-sail"
# Where the screenshots of each game's main view go for a person to look at; never inside the repository.
SHOTS = Path(os.environ.get("QUARTERMASTER_SHOTS", "/tmp/quartermaster-page-shots"))
LIVE = 2000  # milliseconds: a change on one phone shows on the others within this


def pacg_table(http):
    """A Skull & Shackles campaign in the middle of the rulebook's Example of Play, with two players."""
    campaign = http.campaign(PACG, PACG_OPTIONS, name="Dangerous Waters")
    http.append(campaign, PACG_PLAY)
    lily = http.member(campaign, "Lily")
    sam = http.member(campaign, "Sam")
    return campaign, lily, sam


def beside(scope, button):
    """The button's own place on the page, where its outcome or the server's refusal is shown."""
    return scope.locator(".act").filter(has=scope.page.get_by_role("button", name=button, exact=True))


def log_entry(page, position):
    # By the entry's own position, not any text: an undo's note names other positions.
    own = page.locator(".pos").filter(has_text=re.compile(f"^#{position}$"))
    return page.get_by_role("list", name="Log, newest first").get_by_role("listitem").filter(has=own)


def test_two_phones_joined_by_link_see_each_others_roll_and_card_move_within_two_seconds(phones, http):
    campaign, lily, sam = pacg_table(http)
    lilys = phones.open(lily["token"])
    sams = phones.open(sam["token"])
    # The fragment that carried the token is gone from the address bar.
    assert "#" not in lilys.url and lilys.url.endswith(f"/c/{campaign['id']}")
    cookie = next(c for c in lilys.context.cookies() if c["name"] == f"qm_{campaign['id'].replace('-', '')}")
    assert (cookie["httpOnly"], cookie["sameSite"]) == (True, "Strict")

    for page in (lilys, sams):
        page.get_by_role("tab", name="Play and log").click()
    lilys.get_by_text("Roll for a check").click()
    roll = lilys.get_by_role("group").filter(has_text="Roll for a check")
    roll.get_by_label("Character", exact=True).select_option("lirianne")
    roll.get_by_label("What for").fill("defeat a Sea Devil")
    roll.get_by_role("button", name="Roll on the server").click()
    expect(roll.get_by_role("status")).to_contain_text("Rolled")

    lilys.get_by_text("Move a card").click()
    mover = lilys.get_by_role("group").filter(has_text="Move a card")
    mover.get_by_label("Character", exact=True).select_option("lirianne")
    mover.get_by_label("Move", exact=True).select_option("discard")
    mover.get_by_label("Card", exact=True).fill("Powder Horn")
    mover.get_by_role("button", name="Move the card").click()
    expect(mover.get_by_role("status")).to_contain_text("Logged at position")

    position = http.get(campaign, "")["position"]
    for at in (position - 1, position):
        sentence = log_entry(lilys, at).locator(".sentence").inner_text()
        expect(log_entry(sams, at).locator(".sentence")).to_have_text(sentence, timeout=LIVE)
    SHOTS.mkdir(parents=True, exist_ok=True)
    sams.screenshot(path=str(SHOTS / "pacg-play-and-log.png"))


def test_an_event_appended_through_the_api_appears_as_its_sentence_within_two_seconds(phones, http):
    campaign, lily, _ = pacg_table(http)
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Play and log").click()
    appended = http.append(
        campaign,
        [
            {
                "type": "dice.rolled",
                "data": {
                    "character_id": "seltyiel",
                    "purpose": "recharge Force Missile",
                    "dice": [{"sides": 8, "face": 6}],
                    "total": 6,
                },
            }
        ],
    )
    position = appended["last_position"]
    told = http.get(campaign, "/events", after=position - 1, limit=1)["events"][0]["sentence"]
    expect(log_entry(page, position).locator(".sentence")).to_have_text(told, timeout=LIVE)


def test_a_refused_move_shows_the_servers_sentence_beside_the_control_and_changes_nothing(phones, http):
    campaign, lily, _ = pacg_table(http)
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Play and log").click()
    before = http.get(campaign, "")["position"]
    hand_before = http.get(campaign, "/characters/lirianne")["character"]["zones"]["hand"]
    page.get_by_text("Move a card").click()
    mover = page.get_by_role("group").filter(has_text="Move a card")
    mover.get_by_label("Character", exact=True).select_option("lirianne")
    mover.get_by_label("Move", exact=True).select_option("discard")
    mover.get_by_label("Card", exact=True).fill("Pistol")
    mover.get_by_role("button", name="Move the card").click()
    expect(mover.get_by_role("alert")).to_contain_text("Pistol is not in Lirianne's hand")
    assert http.get(campaign, "")["position"] == before
    assert http.get(campaign, "/characters/lirianne")["character"]["zones"]["hand"] == hand_before
    expect(log_entry(page, before + 1)).to_have_count(0)


def test_undo_my_last_takes_back_my_roll_though_the_owner_wrote_since_and_redo_brings_it_back(phones, http):
    campaign, lily, _ = pacg_table(http)
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Play and log").click()
    page.get_by_text("Roll for a check").click()
    roll = page.get_by_role("group").filter(has_text="Roll for a check")
    roll.get_by_role("button", name="Roll on the server").click()
    expect(roll.get_by_role("status")).to_contain_text("Rolled")
    mine = http.get(campaign, "")["position"]
    owners = http.append(campaign, [{"type": "dice.rolled", "data": {"dice": [{"sides": 6, "face": 3}], "total": 3}}])
    expect(log_entry(page, owners["last_position"])).to_have_count(1, timeout=LIVE)

    # The undo names what it takes back, and who logged it, before it does anything.
    page.get_by_role("button", name="Undo my last").click()
    asked = page.get_by_role("dialog", name="Confirm the undo")
    sentence = log_entry(page, mine).locator(".sentence").inner_text()
    expect(asked).to_contain_text(f"#{mine} “{sentence}”")
    expect(asked).to_contain_text("logged by Lily")
    asked.get_by_role("button", name="Undo it", exact=True).click()
    expect(page.get_by_role("status").filter(has_text="Undone:")).to_contain_text(f"#{mine} “{sentence}”")
    expect(log_entry(page, mine)).to_have_class("undone", timeout=LIVE)
    expect(log_entry(page, mine)).to_contain_text("Undone by Lily")
    expect(log_entry(page, owners["last_position"])).not_to_have_class("undone")
    events = {e["position"]: e for e in http.get(campaign, "/events", after=mine - 1)["events"]}
    assert events[mine]["undone_by"] is not None and events[owners["last_position"]]["undone_by"] is None

    page.get_by_role("button", name="Redo my last").click()
    expect(log_entry(page, mine)).not_to_have_class("undone", timeout=LIVE)


def test_looking_back_shows_the_table_as_it_was_at_an_earlier_position(phones, http):
    campaign, lily, _ = pacg_table(http)
    started = 3 + next(i for i, p in enumerate(PACG_PLAY) if p["type"] == "scenario.started")
    then = http.get(campaign, "/scenario", at=started)["scenario"]["hourglass"]["left"]
    now = http.get(campaign, "/scenario")["scenario"]["hourglass"]["left"]
    assert then != now
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Table").click()
    expect(page.get_by_role("region", name="Scenario", exact=True)).to_contain_text(f"{now} cards left")
    page.get_by_label("Look back to position").fill(str(started))
    expect(page.get_by_role("region", name="Scenario", exact=True)).to_contain_text(f"{then} cards left")
    expect(page.get_by_role("status").filter(has_text="Looking back")).to_contain_text(f"position {started}")
    assert page.url.endswith(f"?at={started}")
    page.get_by_role("button", name="Back to now").click()
    expect(page.get_by_role("region", name="Scenario", exact=True)).to_contain_text(f"{now} cards left")


def test_each_games_main_view_at_phone_size(phones, http):
    """Screenshots at 390x844 of each game's main view, for a person to look at (QUARTERMASTER_SHOTS)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    _, lily, _ = pacg_table(http)
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Table").click()
    expect(page.get_by_role("region", name="Characters", exact=True)).to_contain_text("Lirianne")
    page.screenshot(path=str(SHOTS / "pacg-table.png"))

    tales = http.campaign(TALES, chapter_one.OPTIONS, name="Shadows of the Caribbean")
    for batch in (chapter_one.CREW, chapter_one.CHAPTER_ONE, chapter_one.PORT):
        http.append(tales, batch)
    ana = http.member(tales, "Ana")
    page = phones.open(ana["token"])
    page.get_by_role("tab", name="Crew sheets").click()
    expect(page.get_by_label("Anne's record sheet")).to_contain_text("Fame")
    page.screenshot(path=str(SHOTS / "skull-tales-crew-sheets.png"))
    page.get_by_role("tab", name="Dice luck").click()
    page.get_by_role("tab", name="Play and log").click()
    expect(page.get_by_role("list", name="Log, newest first")).to_be_visible()
    page.screenshot(path=str(SHOTS / "skull-tales-play-and-log.png"))


def test_any_other_event_is_logged_through_the_form_built_from_the_event_type_descriptions(phones, http):
    campaign, lily, _ = pacg_table(http)
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Play and log").click()
    page.get_by_text("Anything else").click()
    other = page.get_by_role("group").filter(has_text="Anything else")
    other.get_by_label("What happened").select_option("hero_point.awarded")
    expect(other).to_contain_text("A character earned a hero point.")
    other.get_by_label("Character id").fill("seltyiel")
    other.get_by_role("button", name="Log it").click()
    expect(other.get_by_role("status")).to_contain_text("Logged at position")
    position = http.get(campaign, "")["position"]
    logged = http.get(campaign, "/events", after=position - 1)["events"][0]
    assert (logged["type"], logged["data"]) == ("hero_point.awarded", {"character_id": "seltyiel"})
    expect(log_entry(page, position).locator(".sentence")).to_have_text(logged["sentence"])


def test_the_owner_undoes_an_entry_from_the_log_sees_the_conflict_and_may_cascade(phones, http):
    campaign, _, _ = pacg_table(http)
    first = http.append(
        campaign,
        [
            {
                "type": "card.moved",
                "data": {
                    "card": "Powder Horn",
                    "verb": "discard",
                    "from": {"zone": "hand", "character_id": "lirianne"},
                    "to": {"zone": "discard", "character_id": "lirianne"},
                },
            }
        ],
    )["last_position"]
    second = http.append(
        campaign,
        [
            {
                "type": "card.moved",
                "data": {
                    "card": "Powder Horn",
                    "verb": "recharge",
                    "from": {"zone": "discard", "character_id": "lirianne"},
                    "to": {"zone": "deck", "character_id": "lirianne"},
                },
            }
        ],
    )["last_position"]
    page = phones.open(campaign["token"])
    page.get_by_role("tab", name="Play and log").click()
    log_entry(page, first).get_by_role("button", name=f"Undo #{first}").click()
    log_entry(page, first).get_by_role("dialog", name="Confirm the undo").get_by_role("button", name="Undo it").click()
    expect(log_entry(page, first).get_by_role("alert")).to_contain_text("Cannot undo")
    assert http.get(campaign, "/events", after=first - 1)["events"][0]["undone_by"] is None
    log_entry(page, first).get_by_role("button", name=f"Undo #{first} with everything that depends on it").click()
    expect(log_entry(page, first)).to_have_class("undone", timeout=LIVE)
    expect(log_entry(page, second)).to_have_class("undone")
    expect(log_entry(page, second)).to_contain_text("Undone by Olga")


def test_dice_luck_draws_each_die_size_against_fair_with_the_fit_test_in_words(phones, http):
    campaign, lily, _ = pacg_table(http)
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Dice luck").click()
    charts = page.get_by_role("img", name="Everyone's d4")
    expect(charts).to_have_count(1)
    expect(page.get_by_role("figure").filter(has=charts)).to_contain_text("fair dice")
    page.get_by_label("Whose dice").select_option("lirianne")
    expect(page.get_by_role("img").first).to_have_attribute("aria-label", re.compile("^Lirianne's d"))
    page.screenshot(path=str(SHOTS / "pacg-dice-luck.png"))


def test_the_owner_adds_a_member_whose_join_link_and_qr_code_sign_a_new_phone_in(phones, http):
    campaign, _, _ = pacg_table(http)
    owner = phones.open(campaign["token"])
    owner.get_by_role("tab", name="Members").click()
    owner.get_by_label("Name", exact=True).fill("Amber")
    owner.get_by_role("button", name="Add the member").click()
    expect(owner.get_by_role("img", name="QR code of Amber's join link")).to_be_visible()
    link = owner.get_by_label("Join link for Amber").inner_text()
    owner.screenshot(path=str(SHOTS / "pacg-members-join-link.png"))
    token = link.split("#", 1)[1]
    amber = phones.open(token)
    amber.get_by_role("tab", name="Members").click()
    expect(amber.get_by_text("You are Amber, player of this campaign.")).to_be_visible()


def in_port(http):
    """A Skull Tales crew at the start of Chapter 2's Port Phase, with Ana signed in as a player."""
    tales = http.campaign(TALES, chapter_one.OPTIONS, name="Shadows of the Caribbean")
    http.append(tales, chapter_one.CREW + chapter_one.CHAPTER_ONE + chapter_one.PORT[:2])
    return tales, http.member(tales, "Ana")


def test_a_pirate_collects_her_salary_and_a_skill_she_cannot_afford_is_refused_in_the_games_words(phones, http):
    tales, ana = in_port(http)
    page = phones.open(ana["token"])
    page.get_by_role("tab", name="Play and log").click()
    page.get_by_text("Port: salaries").click()
    salaries = page.get_by_role("group").filter(has_text="Port: salaries")
    salaries.get_by_label("Pirate").select_option("anne")
    salaries.get_by_role("button", name="Collect the salary").click()
    expect(salaries.get_by_role("status")).to_contain_text("Logged at position")
    anne = next(p for p in http.get(tales, "/pirates")["pirates"] if p["id"] == "anne")

    before = http.get(tales, "")["position"]
    page.get_by_text("Port: learn a skill").click()
    learning = page.get_by_role("group").filter(has_text="Port: learn a skill")
    learning.get_by_label("Pirate").select_option("jack")
    learning.get_by_label("Skill", exact=True).fill("Sweeping Strike")
    learning.get_by_role("button", name="Learn the skill").click()
    expect(learning.get_by_role("alert")).to_contain_text(
        "Jack cannot learn Sweeping Strike: it costs 130 Coins and Jack has 70."
    )
    assert http.get(tales, "")["position"] == before
    page.get_by_role("tab", name="Crew sheets").click()
    expect(page.get_by_label("Anne's record sheet")).to_contain_text(f"Coins{anne['coins']}")


def test_a_turn_ends_with_its_reset_and_the_next_begins_with_the_hourglass_after_damage_with_chosen_cards(phones, http):
    campaign, lily, _ = pacg_table(http)
    page = phones.open(lily["token"])
    page.get_by_role("tab", name="Play and log").click()
    hand = http.get(campaign, "/characters/seltyiel")["character"]["zones"]["hand"]
    chosen = sorted(hand)[0]
    page.get_by_text("Take damage").click()
    hurt = page.get_by_role("group").filter(has_text="Take damage")
    hurt.get_by_label("Character", exact=True).select_option("seltyiel")
    hurt.get_by_label(f"Discard {chosen}", exact=False).first.check()
    hurt.get_by_role("button", name="Deal the damage").click()
    expect(hurt.get_by_role("status")).to_contain_text("Logged at position")
    after = http.get(campaign, "/characters/seltyiel")["character"]["zones"]
    assert after["hand"].get(chosen, 0) == hand[chosen] - 1 and after["discard"].get(chosen, 0) >= 1

    page.get_by_text("Turn", exact=True).click()
    turn = page.get_by_role("group").filter(has_text="Whose turn ends")
    turn.get_by_label("Whose turn ends").select_option("lirianne")
    deck = http.get(campaign, "/characters/lirianne")["character"]["zones"]["deck"]
    refill = [name for name, n in sorted(deck.items()) for _ in range(n)][:3]
    turn.get_by_label("Cards drawn up to the hand size").fill(", ".join(refill))
    turn.get_by_role("button", name="End the turn").click()
    expect(beside(turn, "End the turn").get_by_role("status")).to_contain_text("Logged at position")
    assert http.get(campaign, "/characters/lirianne")["character"]["counts"]["hand"] == 4
    turn.get_by_label("Whose turn starts").select_option("seltyiel")
    turn.get_by_role("button", name="Advance the hourglass").click()
    expect(beside(turn, "Advance the hourglass").get_by_role("status")).to_contain_text("Logged at position")
    assert http.get(campaign, "/scenario")["scenario"]["turn"] == "seltyiel"

    # Seltyiel explores her location, the Shipwreck Graveyard, whose known card is the Sea Drake.
    page.get_by_text("Explore a location").click()
    # The Explore form of the quick forms (the turn panel above it may offer its own "Card revealed" too).
    exploring = page.get_by_role("group").filter(has=page.get_by_label("Explorer"))
    exploring.get_by_label("Explorer").select_option("seltyiel")
    exploring.get_by_label("Card revealed").fill("Sea Drake")
    exploring.get_by_role("button", name="Explore", exact=True).click()
    expect(beside(exploring, "Explore").get_by_role("status")).to_contain_text("Logged at position")
    assert http.get(campaign, "/scenario")["scenario"]["encounter"] == {"Sea Drake": 1}


def test_every_control_has_an_accessible_name_on_every_tab_and_the_desktop_layout_holds(phones, http):
    campaign, _, _ = pacg_table(http)
    page = phones.open(campaign["token"], viewport={"width": 1280, "height": 800})
    unnamed = """() => [...document.querySelectorAll('button, input, select, textarea, a')]
        .filter(el => !(el.getAttribute('aria-label') || (el.labels && el.labels.length) || el.textContent.trim()))
        .map(el => el.outerHTML.slice(0, 120))"""
    for tab in ("Table", "Play and log", "Dice luck", "Members"):
        page.get_by_role("tab", name=tab).click()
        page.wait_for_load_state("networkidle")
        for group in page.locator("details").all():
            group.evaluate("el => el.open = true")
        assert page.evaluate(unnamed) == [], tab
    page.get_by_role("tab", name="Table").click()
    expect(page.get_by_role("region", name="Characters", exact=True)).to_contain_text("Lirianne")
    page.screenshot(path=str(SHOTS / "pacg-table-desktop.png"))


def test_a_group_starts_a_skull_tales_campaign_on_the_page_and_its_owner_lands_on_it(phones, server):
    page = phones.new()
    page.goto(f"{server}/")
    expect(page.get_by_text("This phone has not joined a campaign yet.")).to_be_visible()
    page.get_by_label("Campaign name").fill("The Brethren of the Coast")
    page.get_by_label("Game").select_option("skull-tales-full-sail")
    page.get_by_label("Your name (the owner)").fill("Olga")
    page.get_by_role("button", name="Start the campaign").click()
    page.wait_for_url("**/c/*")
    page.get_by_role("tab", name="Members").click()
    expect(page.get_by_text("You are Olga, owner of this campaign.")).to_be_visible()
    page.get_by_role("link", name="Your campaigns").click()
    expect(page.get_by_role("link", name="The Brethren of the Coast")).to_be_visible()


def test_a_viewer_reads_the_table_and_the_log_but_is_offered_no_move(phones, http):
    campaign, _, _ = pacg_table(http)
    viewer = http.member(campaign, "Vic", role="viewer")
    page = phones.open(viewer["token"])
    page.get_by_role("tab", name="Play and log").click()
    expect(page.get_by_role("list", name="Log, newest first")).to_be_visible()
    expect(page.get_by_role("button", name="Undo my last")).to_have_count(0)
    expect(page.get_by_text("Roll for a check")).to_have_count(0)


def test_the_port_phase_ends_from_the_page_and_the_chapter_shows_it_done(phones, http):
    tales, ana = in_port(http)
    page = phones.open(ana["token"], viewport={"width": 360, "height": 740})
    page.get_by_role("tab", name="Play and log").click()
    page.get_by_text("Chapter and phases").click()
    phases = page.get_by_role("group").filter(has_text="Chapter and phases")
    expect(phases.get_by_label("Phase", exact=True)).to_have_value("port")
    phases.get_by_role("button", name="End the phase").click()
    expect(beside(phases, "End the phase").get_by_role("status")).to_contain_text("Logged at position")
    assert http.get(tales, "/chapter")["chapter"]["phases_done"] == ["port"]
    page.get_by_role("tab", name="Crew sheets").click()
    expect(page.get_by_role("region", name="Chapter", exact=True)).to_contain_text("done: Port")
    # 360 px wide: nothing runs off the side of the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
