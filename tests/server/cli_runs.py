"""The real ``mathable-cli`` run as a player runs it, for the tests that drive it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def cli_output(env: dict[str, str], *args: str) -> str:
    """What ``mathable-cli *args`` printed (out and err); fails the test unless it exits 0."""
    script = Path(sys.executable).parent / "mathable-cli"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "mathable_cli"]
    done = subprocess.run([*command, *args], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout + done.stderr
