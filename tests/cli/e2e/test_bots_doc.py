"""The example engine of docs/bots.md, copied as a newcomer would, plays a whole game.

The code block under the ``example-engine`` marker is written to
``my_engine.py`` in a fresh folder, and ``mathable-cli bot GAME --engine
my_engine:play`` runs from there against a live server, facing the built-in
``strong`` engine.
"""

from __future__ import annotations

import re
import subprocess
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.players import Player, cli_command
from tests.server.live import live_server

pytestmark = pytest.mark.e2e

DOC = Path(__file__).resolve().parents[3] / "docs" / "bots.md"


def example_engine() -> str:
    """The Python block right after the example-engine marker in docs/bots.md."""
    text = DOC.read_text()
    marker = text.index("<!-- example-engine")
    found = re.search(r"```python\n(.*?)```", text[marker:], re.S)
    assert found is not None, "docs/bots.md lost its example engine"
    return textwrap.dedent(found.group(1))


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with live_server() as url:
        yield url


def test_the_example_engine_of_the_docs_plays_a_whole_game(server: str, tmp_path: Path) -> None:
    folder = tmp_path / "newcomer"
    folder.mkdir()
    (folder / "my_engine.py").write_text(example_engine())
    ann, ben = Player(server, "ann", tmp_path), Player(server, "ben", tmp_path)
    ann.register()
    ben.register()
    game = ann.run("new", "--seed", "11").stdout.strip()
    ben.run("join", game)
    bots = [
        subprocess.Popen(
            [*cli_command(), "bot", game, "--engine", "my_engine:play", "--interval", "0.2"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ann.env, cwd=folder,
        ),
        ben.popen("bot", game, "--engine", "strong", "--interval", "0.2"),
    ]  # fmt: skip
    outputs = [b.communicate(timeout=280) for b in bots]
    for process, (_out, err) in zip(bots, outputs, strict=True):
        assert process.returncode == 0, err
        assert "Traceback" not in err
    final = ann.view(game)
    assert final["status"] == "ended"
    ann_err = outputs[0][1]
    # Every turn of ann's was the example engine's own: no fallback was needed.
    assert "warning" not in ann_err, ann_err
    assert f"{game}: played" in ann_err
    scores = final["result"]["scores"]
    assert outputs[0][0].startswith(f"{game}: ann {scores[0]}, ben {scores[1]}")
