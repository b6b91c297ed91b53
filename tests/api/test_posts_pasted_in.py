"""Play-by-post, the way in (service/application/pasting.py): a turn's post, written by one campaign, pasted into
another at the same position, previews exactly the entries its writer logged, told in the same sentences; confirmed,
they are logged under the poster's name, once however often the confirmation is sent. A group can run a whole
scenario (Skull & Shackles Rulebook, Example of Play) or chapter (Skull Tales: the chapter of
tests/unit/skull_tales/chapter_one.py) by copying posts out of one campaign and into another."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS
from tests.unit.pacg.pacg_world import HANDS, SETUP, START, move, zone
from tests.unit.skull_tales import chapter_one as tales

PACG = "pacg-skull-and-shackles"
TALES = "skull-tales-full-sail"
# A first turn on Shark Island (tests/unit/pacg/pacg_world.py): Merisiel explores and banishes a Dire Rat.
SHARK = zone("location", location="Shark Island")
TURN = [*SETUP, *START, *HANDS, {"type": "hourglass.advanced", "data": {"character_id": "merisiel"}}]
FIRST = [
    move("Dire Rat", "reveal", SHARK, zone("encounter")),
    move("Dire Rat", "banish", zone("encounter"), zone("vault")),
]
FIRST[0]["data"]["explorer"] = "merisiel"
TALES_PLAY = [*tales.CREW, *tales.CHAPTER_ONE, *tales.PORT, *tales.VOYAGE, *tales.ADVENTURE]


def started(api, game, options):
    return api.new_campaign(game, options=options)


def log(api, campaign):
    """Every event of the campaign's log, in order."""
    answer = api.get(campaign, "/events", limit=1000)
    assert answer.status_code == 200, answer.text
    return answer.json()["events"]


def stretches(api, campaign, game):
    """Each turn (Skull & Shackles) or phase (Skull Tales) of the campaign's last scenario or chapter played."""
    word = "scenario" if game == PACG else "chapter"
    played = api.get(campaign, "/scenarios").json()[f"{word}s"][-1]
    report = api.get(campaign, "/report", **{word: played[word]}).json()
    return report["turns"] if game == PACG else [p for p in report["phases"] if p["first"] is not None]


def turn_post(api, campaign, at, format_="text", token=None):
    answer = api.get(campaign, "/posts/turn", at=at, format=format_, token=token)
    assert answer.status_code == 200, answer.text
    return answer.json()["post"]


def preview(api, campaign, text, token=None):
    headers = {"Authorization": f"Bearer {token or campaign.token}"}
    return api.client.post(f"/v1/campaigns/{campaign.id}/posts/preview", json={"text": text}, headers=headers)


def confirm(api, campaign, text, previewed, token=None):
    headers = {"Authorization": f"Bearer {token or campaign.token}"}
    ids = [e["id"] for e in previewed["entries"] if e["status"] == "new"]
    return api.client.post(
        f"/v1/campaigns/{campaign.id}/posts/confirm",
        json={"text": text, "position": previewed["position"], "ids": ids},
        headers=headers,
    )


def test_a_turns_post_carries_its_author_and_one_entry_per_event(api):
    writer = started(api, PACG, OPTIONS)
    api.append(writer, PAYLOADS)
    turn = stretches(api, writer, PACG)[1]

    text = turn_post(api, writer, turn["first"])

    assert "Posted by: Owner" in text.splitlines()
    assert len(re.findall(r"^qm1\.[A-Za-z0-9_-]+$", text, flags=re.M)) == turn["last"] - turn["first"] + 1


def played(api, game):
    """A campaign that played the scenario (or chapter), and one started the same way that has not."""
    options, payloads = (OPTIONS, PAYLOADS) if game == PACG else (tales.OPTIONS, TALES_PLAY)
    writer, reader = started(api, game, options), started(api, game, options)
    assert api.append(writer, payloads).status_code == 201
    return writer, reader, payloads


def told(text):
    """The sentences of a plain-text turn's post, as its "What happened" section lists them."""
    section = text.split("\nWhat happened\n", 1)[1].split("\n\n", 1)[0]
    return [line[2:] for line in section.splitlines()]


def test_a_group_runs_a_skull_and_shackles_scenario_by_copying_posts_in_and_out(api):
    check_a_whole_episode_copied(api, PACG)


def test_a_group_runs_a_skull_tales_chapter_by_copying_posts_in_and_out(api):
    check_a_whole_episode_copied(api, TALES)


def check_a_whole_episode_copied(api, game):
    """Two tables, one scenario: each plays its turns (as the oracle campaign logged them) and posts them; the other
    pastes them in. At the end both logs and views are the oracle's."""
    oracle, ours, _ = played(api, game)
    theirs = started(api, game, tales.OPTIONS if game == TALES else OPTIONS)
    turns = stretches(api, oracle, game)
    first, last = turns[0]["first"], turns[-1]["last"]
    events = log(api, oracle)

    def typed(a, b):
        return [{"type": e["type"], "data": e["data"]} for e in events if a <= e["position"] <= b]

    for table in (ours, theirs):  # the crew and the setup, typed at each table
        assert api.append(table, typed(3, first - 1)).status_code == 201

    assert len(turns) >= 3
    for number, stretch in enumerate(turns):
        playing, reading = (ours, theirs) if number % 2 == 0 else (theirs, ours)
        assert api.append(playing, typed(stretch["first"], stretch["last"])).status_code == 201
        text = turn_post(api, playing, stretch["first"], ("text", "bbcode", "markdown")[number % 3])
        previewed = preview(api, reading, text)
        assert previewed.status_code == 200, previewed.text
        body = previewed.json()
        assert (body["position"], body["notice"]) == (stretch["first"] - 1, None)
        assert [e["status"] for e in body["entries"]] == ["new"] * len(body["entries"]), body
        logged = confirm(api, reading, text, body)
        assert logged.status_code == 200, logged.text
        assert logged.json()["position"] == stretch["last"]

    wanted = [(e["type"], e["data"]) for e in events if first <= e["position"] <= last]
    for table in (ours, theirs):
        assert [(e["type"], e["data"]) for e in log(api, table) if first <= e["position"] <= last] == wanted
    view = "fleet" if game == PACG else "pirates"
    assert api.get(ours, f"/views/{view}").json() == api.get(oracle, f"/views/{view}").json()
    assert api.get(theirs, f"/views/{view}").json() == api.get(oracle, f"/views/{view}").json()


@pytest.fixture(scope="module", params=[PACG, TALES])
def at_a_turn(request, api):
    """A writer that played, its first full turn (or phase), and a reader whose log is the writer's up to it."""
    game = request.param
    writer, reader, _ = played(api, game)
    stretch = [s for s in stretches(api, writer, game) if s["last"] > s["first"]][1]
    upto = [e for e in log(api, writer) if 2 < e["position"] < stretch["first"]]
    assert api.append(reader, [{"type": e["type"], "data": e["data"]} for e in upto]).status_code == 201
    return writer, reader, stretch


NAMES = st.text(st.characters(blacklist_categories=["Cs", "Cc"]), min_size=1, max_size=30).filter(str.strip)
HOSTILE = "[b]Lily[/b] *star* _under_ `tick` <i>x</i> & [a](b) \\ qm1.abc"


@settings(max_examples=12, deadline=None)
@given(name=NAMES | st.just(HOSTILE), format_=st.sampled_from(["text", "bbcode", "markdown"]))
def test_a_turns_post_pasted_at_the_same_position_previews_exactly_its_entries(api, at_a_turn, name, format_):
    writer, reader, stretch = at_a_turn
    token = api.add_member(writer, "player", name)
    written = [e for e in log(api, writer) if stretch["first"] <= e["position"] <= stretch["last"]]
    sentences = told(turn_post(api, writer, stretch["first"], "text"))

    answer = preview(api, reader, turn_post(api, writer, stretch["first"], format_, token))

    assert answer.status_code == 200, answer.text
    body = answer.json()
    entries = [e for e in written if e["type"] != "member.joined" and e["undone_by"] is None]
    assert [(e["type"], e["id"], e["written_at"]) for e in body["entries"]] == [
        (e["type"], e["id"], e["position"]) for e in entries
    ]
    assert {e["status"] for e in body["entries"]} == {"new"}
    assert [e["sentence"] for e in body["entries"]] == [
        s for s, e in zip(sentences, written, strict=True) if e["type"] != "member.joined"
    ]
    assert {e["poster"] for e in body["entries"]} == {" ".join(name.split())}
    assert (body["position"], body["notice"]) == (stretch["first"] - 1, None)


def rendered(text):
    """A BBCode post as a forum shows it and a reader copies it: the tags gone, the text as typed."""
    return re.sub(r"\[/?(b|u|list|\*|code)\]", "", text).replace("[\u200b", "[")


def test_a_confirmed_thread_is_logged_once_under_its_posters_names(api):
    writer, reader, _ = played(api, PACG)
    turns = stretches(api, writer, PACG)
    upto = [e for e in log(api, writer) if 2 < e["position"] < turns[0]["first"]]
    api.append(reader, [{"type": e["type"], "data": e["data"]} for e in upto])
    lily = api.add_member(writer, "player", "Lily <b>&</b>")
    # A thread: two posts by two people, chatter between them, and the first post quoted again under the second.
    first, second = (
        turn_post(api, writer, turns[0]["first"], "markdown", lily),
        turn_post(api, writer, turns[1]["first"], "bbcode"),
    )
    thread = f"{first}\nNice roll!\n> quoting:\n{rendered(second)}\n{first}"

    previewed = preview(api, reader, thread).json()
    before = log(api, reader)
    once = confirm(api, reader, thread, previewed)
    again = confirm(api, reader, thread, previewed)

    assert len(log(api, reader)) == len(before) + previewed["will_log"]  # the preview wrote nothing
    assert once.status_code == 200 and again.status_code == 200, again.text
    assert (once.json()["replayed"], again.json()["replayed"]) == (False, True)
    assert [(b["poster"], b["first"], b["last"]) for b in once.json()["batches"]] == [
        ("Lily <b>&</b>", turns[0]["first"], turns[0]["last"]),
        ("Owner", turns[1]["first"], turns[1]["last"]),
    ]
    logged = {e["position"]: e for e in log(api, reader)}
    assert logged[turns[0]["first"]]["actor"] == "Lily <b>&</b>"
    assert {e["status"] for e in preview(api, reader, thread).json()["entries"]} == {"logged"}


def test_a_post_out_of_turn_is_refused_entry_by_entry_in_the_folds_words_and_a_moved_log_writes_nothing(api):
    writer, reader, _ = played(api, PACG)
    turns = stretches(api, writer, PACG)
    upto = [e for e in log(api, writer) if 2 < e["position"] < turns[0]["first"]]
    api.append(reader, [{"type": e["type"], "data": e["data"]} for e in upto])
    text = turn_post(api, writer, turns[2]["first"])  # turn 2, before turn 1 was pasted

    body = preview(api, reader, text).json()
    refused = [e for e in body["entries"] if e["status"] == "refused"]
    assert refused and all(e["reason"].endswith(".") for e in refused)
    assert body["notice"].startswith("The posts' entries were at positions")
    api.append(reader, [{"type": "note.added", "data": {"text": "Someone typed at the table."}}])
    moved = confirm(api, reader, text, body)
    assert moved.status_code == 409 and "moved since the preview" in moved.json()["detail"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Just chatter, no post.", "holds no entries"),
        ("qm1.eyJwb3NpdGlvbiI6MX0\n", 'before any "Posted by" line'),
        ("Posted by: Lily\nPositions: 3 to 4\nqm1.!!!notbase64\nqm1.eyJwb3NpdGlvbiI6MX0\n", "line 4 is not an entry"),
    ],
)
def test_text_that_is_not_a_post_is_refused_in_a_sentence(api, text, said):
    campaign = started(api, PACG, OPTIONS)

    answer = preview(api, campaign, text)

    assert answer.status_code == 422 and said in answer.json()["detail"], answer.text


def test_an_entry_refused_by_a_rule_of_the_game_is_logged_anyway_with_the_tables_reason(api):
    # The writer's Merisiel explores Shark Island; the reader's table had her explore there (and banish the Dire Rat
    # she found) already, by hand.
    writer, reader = api.new_campaign(PACG), api.new_campaign(PACG)
    api.append(writer, [*TURN, *FIRST])
    api.append(reader, [*TURN, *FIRST])
    explored = log(api, writer)[-2]
    text = turn_post(api, writer, explored["position"])
    refused = next(e for e in preview(api, reader, text).json()["entries"] if e["id"] == explored["id"])
    assert (refused["status"], refused["overridable"]) == ("refused", True)
    assert refused["reason"].startswith("Merisiel has already explored this turn")

    reason = "House rule: the first turn explores twice."
    headers = {"Authorization": f"Bearer {reader.token}"}
    again = api.client.post(
        f"/v1/campaigns/{reader.id}/posts/preview",
        json={"text": text, "overrides": {explored["id"]: reason}},
        headers=headers,
    ).json()
    anyway = next(e for e in again["entries"] if e["id"] == explored["id"])
    assert anyway["status"] == "new" and f"(against the rules: {reason}" in anyway["sentence"]
    ids = [e["id"] for e in again["entries"] if e["status"] == "new"]
    logged = api.client.post(
        f"/v1/campaigns/{reader.id}/posts/confirm",
        json={"text": text, "position": again["position"], "ids": ids, "overrides": {explored["id"]: reason}},
        headers=headers,
    )
    assert logged.status_code == 200, logged.text
    kept = next(e for e in log(api, reader) if e["id"] == explored["id"])
    assert kept["override"]["reason"] == reason


def test_a_post_whose_sentences_were_changed_after_it_was_written_is_noticed(api):
    writer, reader, _ = played(api, PACG)
    turns = stretches(api, writer, PACG)
    upto = [e for e in log(api, writer) if 2 < e["position"] < turns[1]["first"]]
    api.append(reader, [{"type": e["type"], "data": e["data"]} for e in upto])
    text = turn_post(api, writer, turns[1]["first"], "markdown")
    lines = text.splitlines()
    first = lines.index("*What happened*") + 2  # the heading, a blank line, then the first sentence
    lines[first] = lines[first].replace("Lirianne", "Seltyiel", 1)
    changed = "\n".join(lines)
    assert changed != text

    same, edited = preview(api, reader, text).json(), preview(api, reader, changed).json()

    assert same["notice"] is None
    assert edited["notice"].startswith("1 of the entries would be logged in words their post does not say")
