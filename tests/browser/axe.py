"""axe-core, the accessibility checker, run in a page the browser tests opened.

axe-core is pinned in .ci/js/package.json beside the page's other dev tools, and installed by `npm ci` into the same
cache folder .ci/lint uses (outside the tree); it is never served. Without npm the accessibility tests skip with a
sentence, except in CI (`CI=true`), where they fail.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parents[2]
JS = HERE / ".ci" / "js"
# The rules that judge a page: WCAG 2.1 A and AA, and axe's best practices (which include "label in name").
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def _tools() -> Path:
    digest = hashlib.sha256((JS / "package-lock.json").read_bytes()).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path(os.environ.get("HOME") or "/tmp") / ".cache")
    return cache / "quartermaster" / f"page-lint-{digest}"


def source() -> str:
    """axe-core's script, installed first if this machine has npm and not yet the pinned tools."""
    tools = _tools()
    script = tools / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        if shutil.which("npm") is None:
            if os.environ.get("CI") == "true":
                pytest.fail("CI runs the accessibility tests: npm is missing to install axe-core (.ci/js).")
            pytest.skip("The accessibility tests need axe-core from npm: install npm (Debian: apt-get install npm).")
        tools.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(JS / name, tools / name)
        subprocess.run(
            ["npm", "ci", "--prefix", str(tools), "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
            check=True,
        )
    return script.read_text()


def violations(page: Any) -> list[str]:
    """Every rule axe finds broken on the page as it is now: one line each, its rule, its impact and its nodes."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(source())  # evaluated by the browser's debugger, so the page's own script policy stands
    found = page.evaluate("tags => axe.run(document, { runOnly: { type: 'tag', values: tags } })", TAGS)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["target"][0] for n in v["nodes"][:5])
        for v in found["violations"]
    ]
