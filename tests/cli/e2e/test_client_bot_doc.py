"""The client bot of docs/bots.md, copied as a newcomer would, plays a whole game.

The code block under the ``client-bot`` marker is written to ``client_bot.py``
in a fresh folder and run there, one process per seat, against a live server.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mathable_client import Client
from tests.server.live import REPO, live_server

pytestmark = pytest.mark.e2e

DOC = REPO / "docs" / "bots.md"


def client_bot() -> str:
    """The Python block right after the client-bot marker in docs/bots.md."""
    text = DOC.read_text()
    marker = text.index("<!-- client-bot")
    found = re.search(r"```python\n(.*?)```", text[marker:], re.S)
    assert found is not None, "docs/bots.md lost its client bot"
    return textwrap.dedent(found.group(1))


def test_the_client_bot_of_the_docs_is_short_and_plays_a_whole_game(tmp_path: Path) -> None:
    code = client_bot()
    assert len(code.strip().splitlines()) <= 25
    (tmp_path / "client_bot.py").write_text(code)
    with live_server() as server:
        ann, ben = Client(server), Client(server)
        ann.register("doc-ann")
        ben.register("doc-ben")
        game = ann.create_game({"seed": 5})["id"]
        ben.join(game)
        env = {k: v for k, v in os.environ.items() if not k.startswith("MATHABLE_")}
        env["PYTHONPATH"] = os.pathsep.join(str(REPO / p) for p in ("shared", "client"))
        bots = [
            subprocess.Popen(
                [sys.executable, "client_bot.py", game],
                cwd=tmp_path,
                env={**env, "MATHABLE_SERVER": server, "MATHABLE_TOKEN": str(player.token)},
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for player in (ann, ben)
        ]
        outputs = [bot.communicate(timeout=240) for bot in bots]
        for bot, (_out, err) in zip(bots, outputs, strict=True):
            assert bot.returncode == 0, err
        final = ann.view(game)
    assert final.status == "ended" and final.result is not None
    assert final.raw["turns_played"] > 10
    assert all(out.startswith("ResultView(reason=") for out, _ in outputs)
