"""The real ``mathable-cli`` executable as a user runs it: one identity a config dir.

Shared by the end-to-end tests (tests/cli/e2e/), the CLI tests that run the executable
without a server, and the end-to-end tests of tests/i18n and tests/examples.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import requests

REPO = Path(__file__).resolve().parents[2]


def cli_command() -> list[str]:
    """The installed console script beside this Python, as a user runs it."""
    script = Path(sys.executable).parent / "mathable-cli"
    if script.exists():
        return [str(script)]
    found = shutil.which("mathable-cli")
    if found:
        return [found]
    return [sys.executable, "-m", "mathable_cli"]  # pragma: no cover - not installed


class Player:
    """One identity: a profile in a config dir of its own, driving the real executable."""

    def __init__(self, server: str, name: str, root: Path) -> None:
        self.server = server
        self.name = name
        self.config = root / name
        env = {k: v for k, v in os.environ.items() if not k.startswith("MATHABLE_")}
        env |= {
            "MATHABLE_SERVER": server,
            "MATHABLE_CONFIG_DIR": str(self.config),
            "NO_COLOR": "1",
            "PYTHONPATH": os.pathsep.join(str(REPO / p) for p in ("shared", "client")),
        }
        self.env = env
        self.token = ""

    def run(
        self, *args: str, input: str | None = None, expect: int = 0
    ) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [*cli_command(), *args],
            input=input,
            capture_output=True,
            text=True,
            env=self.env,
            timeout=120,
        )
        assert done.returncode == expect, (args, done.returncode, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        return done

    def popen(self, *args: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [*cli_command(), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=self.env,
        )

    def register(self) -> None:
        self.token = self.run("register", self.name).stdout.strip()

    def view(self, game: str) -> dict[str, Any]:
        """The server's own answer, without the CLI, to check the CLI against."""
        reply = requests.get(
            f"{self.server}/v1/games/{game}",
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=30,
        )
        reply.raise_for_status()
        data: dict[str, Any] = reply.json()
        return data
