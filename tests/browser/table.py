"""What the set-up and typed-form browser tests share: the games, where screenshots go, a campaign in play, and
where a button's outcome is shown."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.unit.pacg.example_of_play import OPTIONS as PACG_OPTIONS, PAYLOADS as PACG_PLAY

PACG = "pacg-skull-and-shackles"
TALES = "skull-tales-full-sail"
# Where the screenshots go for a person to look at; never inside the repository.
SHOTS = Path(os.environ.get("QUARTERMASTER_SHOTS", "/tmp/quartermaster-page-shots"))
LIVE = 2000  # milliseconds: a change on one phone shows on the others within this


def pacg_table(http: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A Skull & Shackles campaign in the middle of the rulebook's Example of Play, with two players."""
    campaign = http.campaign(PACG, PACG_OPTIONS, name="Dangerous Waters")
    http.append(campaign, PACG_PLAY)
    return campaign, http.member(campaign, "Lily"), http.member(campaign, "Sam")


def beside(scope: Any, button: str) -> Any:
    """The button's own place on the page, where its outcome or the server's refusal is shown."""
    return scope.locator(".act").filter(has=scope.page.get_by_role("button", name=button, exact=True))
