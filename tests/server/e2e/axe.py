"""axe-core for the browser tests, installed from npm into the test venv (never shipped):
``npm install axe-core`` once into ``.venv/axe-npm`` (a pinned version), its
``axe.min.js`` run in a page by Playwright. Without npm (or the registry), the audits
are skipped, saying why."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

VERSION = "4.10.3"
FOLDER = Path(sys.prefix) / "axe-npm"
SCRIPT = FOLDER / "node_modules" / "axe-core" / "axe.min.js"


def axe_source() -> str:
    """The text of ``axe.min.js``, installed with npm at the first call."""
    if not SCRIPT.is_file():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("no npm here: the accessibility audit needs axe-core from npm")
        done = subprocess.run(
            [npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(FOLDER),
             f"axe-core@{VERSION}"],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        if done.returncode != 0 or not SCRIPT.is_file():
            pytest.skip(f"npm could not install axe-core: {done.stderr[-300:]}")
    return SCRIPT.read_text(encoding="utf-8")


def audit(page: Any, source: str) -> list[dict[str, Any]]:
    """axe's violations on the page as it is (its context must bypass the page's CSP,
    which refuses the injected script)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=source)
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length,"
        " target: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"
    )
    return found


def serious(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [v for v in violations if v["impact"] in ("serious", "critical")]
