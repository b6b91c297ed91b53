"""What a person does on the phone, counted: every tap, every character typed, every decision, and the
keystroke-level estimate of the time it takes (1.35 s to decide before each action, 1.1 s a tap, 0.35 s a character
typed). Shared by the browser tests that hold the page to its goals in taps and seconds."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DECIDE, TAP, CHARACTER = 1.35, 1.1, 0.35


@dataclass
class Effort:
    """What a person does on the phone: every tap, every character typed."""

    taps: int = 0
    typed: int = 0
    decisions: int = 0

    def tap(self, locator: Any) -> None:
        locator.click()
        self.taps += 1
        self.decisions += 1

    def type(self, locator: Any, text: str) -> None:
        # A tap into the field, then the characters.
        locator.click()
        locator.fill(text)
        self.taps += 1
        self.typed += len(text)
        self.decisions += 1

    def pick(self, scope: Any, label: str, typed: str, name: str) -> None:
        """A few letters typed into a name field, then a tap on the suggestion the page offers for them."""
        self.type(scope.get_by_label(label, exact=True), typed)
        offered = scope.locator(f'.suggest[data-for="{label}"]')
        self.tap(offered.get_by_role("button", name=name, exact=True))

    def choose(self, locator: Any, value: str) -> None:
        # A native select on a phone: a tap to open it, a tap on the option.
        locator.select_option(value)
        self.taps += 2
        self.decisions += 1

    def seconds(self) -> float:
        return DECIDE * self.decisions + TAP * self.taps + CHARACTER * self.typed

    def report(self, what: str) -> str:
        line = (
            f"{what}: {self.taps} taps, {self.typed} characters typed, {self.decisions} decisions; keystroke-level "
            f"estimate {self.seconds():.0f} s ({self.seconds() / 60:.1f} min)"
        )
        return note(line)


def note(line: str) -> str:
    """A line printed and written beside the others (QUARTERMASTER_EFFORT): a median, a count."""
    print(line)
    out = Path(os.environ.get("QUARTERMASTER_EFFORT", "/tmp/quartermaster-setup-effort.txt"))
    with out.open("a") as log:
        log.write(line + "\n")
    return line
