"""Play-by-post over HTTP: the Example of Play (Skull & Shackles Rulebook, Example of Play), with a player whose name
and note are hostile text, posted as a status block and a turn's post in each format; the hostile text never opens
a tag, a Markdown emphasis or an HTML element in the post."""

from __future__ import annotations

import re

import pytest

from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS

GAME = "pacg-skull-and-shackles"
HOSTILE = "[b]Lily[/b] [url=https://evil.example]x[/url] *star* _under_ `tick` #1 <script>alert(1)</script> & [a](b)"


def played(api):
    payloads = [
        {"type": p["type"], "data": p["data"] | {"player": HOSTILE}}
        if p["type"] == "character.joined" and p["data"]["character_id"] == "lirianne"
        else p
        for p in PAYLOADS
    ]
    payloads.append({"type": "note.added", "data": {"text": f"Lily says {HOSTILE}"}})
    campaign = api.new_campaign(GAME, options=OPTIONS)
    answer = api.append(campaign, payloads)
    assert answer.status_code == 201, answer.text
    return campaign


def post(api, campaign, path, **params):
    answer = api.get(campaign, f"/posts/{path}", **params)
    assert answer.status_code == 200, answer.text
    return answer.json()["post"]


@pytest.fixture(scope="module")
def campaign(api):
    return played(api)


def test_a_status_block_lists_hand_displayed_counts_and_hero_points(api, campaign):
    text = post(api, campaign, "status", character="seltyiel")

    lines = text.splitlines()
    assert lines[0] == "Seltyiel (Sam)"
    assert any(line.startswith("Hand: ") for line in lines)
    assert {line.split(":")[0] for line in lines[1:]} >= {"Deck", "Discard", "Buried", "Displayed", "Hero points"}


def test_a_turns_post_has_its_sentences_and_rolls_with_dice_and_difficulty(api, campaign):
    # Lily's first turn: the Dead Man's Chest, 3d8 for 16 against 11 (tests/api/test_audit_reports.py).
    report = api.get(campaign, "/report", scenario="Dangerous Waters").json()
    first = report["turns"][1]

    text = post(api, campaign, "turn", at=first["first"])

    assert text.startswith("Dangerous Waters, turn 1: Lirianne\n")
    assert "d8=5 d8=5 d8=6" in text and "= 16 against 11, success" in text
    assert f"Positions: {first['first']} to {first['last']}" in text


def test_hostile_text_in_plain_text_stays_on_its_own_line_as_typed(api, campaign):
    text = post(api, campaign, "status", character="lirianne", format="text")

    assert text.splitlines()[0] == f"Lirianne ({HOSTILE})"


def test_hostile_text_in_bbcode_opens_no_tag(api, campaign):
    status = post(api, campaign, "status", character="lirianne", format="bbcode")
    turn = post(api, campaign, "turn", format="bbcode")

    for text in (status, turn):
        typed = re.sub(r"\[/?(b|u|list|\*|code)\]", "", text)  # the post's own tags
        assert "[" not in typed.replace("[\u200b", ""), text
        assert "[\u200burl=https://evil.example]" in text
    assert status.startswith("[b]Lirianne ([\u200bb]Lily[\u200b/b]")


def test_hostile_text_in_markdown_renders_no_emphasis_link_or_html(api, campaign):
    status = post(api, campaign, "status", character="lirianne", format="markdown")
    turn = post(api, campaign, "turn", format="markdown")

    for text in (status, turn):
        assert "<script>" not in text and "&lt;script&gt;" in text
        assert "\\*star\\*" in text and "\\_under\\_" in text and "\\`tick\\`" in text
        assert "\\[a\\]\\(b\\)" in text and " &amp; " in text
    assert "Lily says" in turn


def test_an_unknown_character_or_format_is_refused(api, campaign):
    unknown = api.get(campaign, "/posts/status", character="valeros")
    bad_format = api.get(campaign, "/posts/status", character="seltyiel", format="html")
    too_far = api.get(campaign, "/posts/turn", at=10_000)

    assert unknown.status_code == 404 and "valeros" in unknown.json()["detail"]
    assert bad_format.status_code == 400
    assert too_far.status_code == 422 and "10000" in too_far.json()["detail"]
