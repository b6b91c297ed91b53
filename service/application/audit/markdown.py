"""Reports as Markdown, for a group chat or a play-by-post forum: the same numbers as the JSON, in the game's words."""

from __future__ import annotations

from typing import Any


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _cards(cards: dict[str, int]) -> str:
    return ", ".join(f"{name} ×{count}" if count > 1 else name for name, count in cards.items()) or "none"


def roll_line(r: dict[str, Any]) -> str:
    """One roll: who, what for, every die, the total, the result."""
    who = r.get("name") or r.get("character") or "The table"
    what = " ".join(x for x in (r.get("skill"), r.get("purpose")) if x) or "a roll"
    against = f" against {r['difficulty']}" if r.get("difficulty") is not None else ""
    modifier = f" {_signed(r['modifier'])}" if r.get("modifier") else ""
    success = r.get("success")
    result = " — success" if success is True else " — failure" if success is False else ""
    return f"{who}, {what}: {' '.join(r['dice'])}{modifier} = {r['total']}{against}{result}"


def _rates(rates: dict[str, dict[str, Any]]) -> list[str]:
    return [f"- {r['name']}: {r['successes']} of {r['checks']} ({round(r['rate'] * 100)}%)" for r in rates.values()]


def _opening(title: str, report: dict[str, Any], rolls: int) -> list[str]:
    """An episode's title, and where it stands in the log."""
    return [
        title,
        "",
        f"Positions {report['first']} to {report['last']}, {report['events']} entries, {rolls} rolls.",
        "",
    ]


def _stretch(title: str, rolls: list[dict[str, Any]]) -> list[str]:
    """A stretch of an episode (a turn, a phase) and its rolls."""
    return [f"## {title}", *(f"- {roll_line(r)}" for r in rolls), ""]


def _success_rate(report: dict[str, Any]) -> list[str]:
    return ["## Success rate", "", *_rates(report["success_rate"]), ""] if report["success_rate"] else []


def _closing(lines: list[str], report: dict[str, Any]) -> str:
    """The report's lines, then what was logged against the rules and what was undone."""
    return "\n".join([*lines, *_overridden(report.get("overridden", [])), *_undone(report["undone"])]) + "\n"


def _undone(undone: list[dict[str, Any]]) -> list[str]:
    if not undone:
        return []
    lines = ["", "## Undone (not counted)", ""]
    for u in undone:
        why = f": {u['reason']}" if u.get("reason") else ""
        lines.append(
            f"- #{u['position']} {u['type']}, recorded by {u['recorded_by']}, undone by "
            f"{u.get('undone_by') or 'someone'} at #{u['undone_at']}{why}"
        )
    return lines


def _overridden(overridden: list[dict[str, Any]]) -> list[str]:
    if not overridden:
        return []
    lines = ["", "## Logged against the rules", ""]
    lines += [f"- #{o['position']} {o['type']}, recorded by {o['recorded_by']}: {o['reason']}" for o in overridden]
    return lines


def scenario(report: dict[str, Any]) -> str:
    """A Skull & Shackles scenario report."""
    outcome = {"won": "won", "lost": "lost"}.get(report["outcome"], "still being played")
    lines = _opening(f"# {report['scenario']} (play {report['play']}): {outcome}", report, report["checks"])
    for turn in report["turns"]:
        title = "Setup" if turn["number"] == 0 else f"Turn {turn['number']}: {turn['name']}"
        lines += _stretch(title, turn["checks"])
    lines += [*_success_rate(report), "## Cards", ""]
    for c in report["cards"].values():
        lines.append(
            f"- {c['name']}: gained {_cards(c['gained'])}; lost {_cards(c['lost'])}; banished {_cards(c['banished'])}"
        )
    ships = report["ships"]
    lines += [
        "",
        "## Ships",
        "",
        f"- Structural damage: {ships['damage']} dealt, {ships['prevented']} prevented",
        f"- Wrecked {ships['wrecked']} time(s), repaired {ships['repaired']} time(s)",
    ]
    if ships["seized"]:
        lines.append(f"- Seized: {', '.join(ships['seized'])}")
    plunder = report["plunder"]
    lines += [
        "",
        "## Plunder",
        "",
        f"- Stashed: {', '.join(plunder['stashed']) or 'none'}",
        f"- Banished: {', '.join(plunder['banished']) or 'none'}",
    ]
    if plunder["won"]:
        lines.append(f"- Won: {', '.join(p['card'] + ' to ' + p['to'] for p in plunder['won'])}")
    if report["rewards"]:
        lines += ["", "## Rewards", ""]
        lines += [f"- {r.get('loot') or r.get('feat') or r.get('ship')} to {r['to']}" for r in report["rewards"]]
    return _closing(lines, report)


def chapter(report: dict[str, Any]) -> str:
    """A Skull Tales chapter report."""
    ending = "" if report["ended"] else " (still being played)"
    lines = _opening(f"# Chapter {report['chapter']}{ending}", report, report["rolls"])
    for phase in report["phases"]:
        if phase["phase"] is None and not phase["rolls"]:
            continue
        title = f"{phase['phase'].capitalize()} Phase" if phase["phase"] else "Between phases"
        result = f": {phase['outcome']}" if phase["outcome"] else ""
        lines += _stretch(f"{title}{result}", phase["rolls"])
    lines += [*_success_rate(report), "## Record Sheets", ""]
    for p in report["pirates"].values():
        extra = [f"injuries: {', '.join(p['injuries'])}"] if p["injuries"] else []
        extra += [f"learned {', '.join(p['skills_learned'])}"] if p["skills_learned"] else []
        extra += [p["status"]] if p["status"] != "active" else []
        lines.append(
            f"- {p['name']}: Fame {p['fame']['end']} ({_signed(p['fame']['change'])}), Coins "
            f"{p['coins']['end']} ({_signed(p['coins']['change'])}), Wounds {p['wounds']['end']}"
            + "".join(f"; {e}" for e in extra)
        )
    booty = report["crew_booty"]
    lines += ["", f"Crew's Booty: {booty['end']} ({_signed(booty['end'] - booty['start'])})"]
    if report["mutinies"]:
        lines += ["", "## Mutinies", ""]
        for m in report["mutinies"]:
            if "instigator" in m:
                bids = ", ".join(f"{who} {coins}" for who, coins in m["bids"].items())
                lines.append(f"- #{m['position']}: instigated by {m['instigator']}; bids {bids}")
            else:
                lines.append(f"- #{m['position']}: the ally {m['ally']}, {m['coins_spent']} Coins spent")
    return _closing(lines, report)
