"""``mathable-cli show GAME --svg FILE --open``, the real executable against a real server:
the server's picture of the board saved, the game's page given. (Against ``responses``:
tests/cli/test_pictures.py.)"""

from __future__ import annotations

import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import requests

from tests.cli.players import REPO, cli_command
from tests.server.live import live_server


@pytest.mark.e2e
def test_the_real_cli_saves_a_real_servers_picture(tmp_path: Path) -> None:
    with live_server() as server:
        reply = requests.post(f"{server}/v1/players", json={"name": "ann"}, timeout=10).json()
        game = requests.post(
            f"{server}/v1/games",
            json={},
            headers={"Authorization": f"Bearer {reply['token']}"},
            timeout=10,
        ).json()["id"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("MATHABLE_")}
        env |= {
            "MATHABLE_SERVER": server,
            "MATHABLE_TOKEN": reply["token"],
            "MATHABLE_CONFIG_DIR": str(tmp_path / "config"),
            "BROWSER": "true",
            "PYTHONPATH": os.pathsep.join(str(REPO / p) for p in ("shared", "client")),
        }
        target = tmp_path / "board.svg"
        done = subprocess.run(
            [*cli_command(), "show", game, "--svg", str(target), "--open"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    root = ET.fromstring(target.read_text())
    squares = [e for e in root.iter() if e.get("data-square")]
    assert len(squares) == 196
    assert done.stdout.strip() == f"{server}/games/{game}"
