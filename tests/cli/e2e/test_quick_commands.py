"""``games``, ``hint``, ``wait GAME`` and a one-shot ``move`` without the command-line
framework (``mathable_cli.quick``), as real processes against a real server: each prints,
says and exits exactly as the app does (the app run as its own process, on the same
arguments), and imports neither typer, Click, rich nor requests, nor ``ssl`` or
``http.client`` for an ``http://`` server. (``show``: test_quick_show.py; what the fast
path reads of a command line: tests/cli/test_quick.py.)
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from tests.cli.e2e.test_quick_show import APP, _env, _run
from tests.cli.players import cli_command
from tests.server.helpers import EXAMPLE_TILES
from tests.server.live import live_server

pytestmark = pytest.mark.e2e


@dataclass
class Table:
    """A server, alice's and bob's tokens, and games of alice's: ``mine`` (her turn, the
    worked example's racks), ``ended`` (bob resigned), ``rated`` (the server dealt)."""

    base: str
    tokens: list[str]
    mine: str
    ended: str
    rated: str

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def example_game(self, order: int | None = None) -> str:
        """A new game of the worked example's racks, alice to play ``I8=12``; the rest of
        the bag in the order ``order`` shuffles it to (a random one if None). Two games of
        one order are not played at once (the server refuses): ``resign`` ends one."""
        rest = EXAMPLE_TILES[14:]
        random.Random(order).shuffle(rest)
        created = requests.post(
            f"{self.base}/v1/games",
            json={"tiles": EXAMPLE_TILES[:14] + rest, "invite": ["bob"]},
            headers=self.auth(0),
            timeout=10,
        )
        created.raise_for_status()
        gid: str = created.json()["id"]
        joined = requests.post(f"{self.base}/v1/games/{gid}/join", headers=self.auth(1), timeout=10)
        joined.raise_for_status()
        return gid

    def resign(self, game: str) -> None:
        """Bob leaves ``game``: it ends."""
        view = requests.get(f"{self.base}/v1/games/{game}", headers=self.auth(1), timeout=10)
        requests.post(
            f"{self.base}/v1/games/{game}/moves",
            json={"type": "resign", "expected_version": view.json()["version"]},
            headers=self.auth(1),
            timeout=10,
        ).raise_for_status()


@pytest.fixture(scope="module")
def table() -> Iterator[Table]:
    with live_server() as base:
        tokens = []
        for name in ("alice", "bob"):
            reply = requests.post(f"{base}/v1/players", json={"name": name}, timeout=10)
            tokens.append(reply.json()["token"])
        made = Table(base, tokens, "", "", "")
        made.mine = made.example_game()
        made.ended = made.example_game()
        made.resign(made.ended)
        rated = requests.post(
            f"{base}/v1/games", json={"rated": True}, headers=made.auth(0), timeout=10
        )
        rated.raise_for_status()
        made.rated = rated.json()["id"]
        yield made


def _both(table: Table, argv: list[str], env: dict[str, str]) -> None:
    quick = _run([*cli_command(), *argv], env)
    app = _run([*APP, *argv], env)
    assert quick == app
    assert "Traceback" not in quick[2]


@pytest.mark.parametrize(
    ("args", "more"),
    [
        (["games"], {}),
        (["games", "--json"], {}),
        (["games", "--active"], {}),
        (["games", "--finished"], {}),
        (["games", "--active", "--finished"], {}),  # exit 2
        (["--lang", "fr", "games"], {}),
        (["games"], {"FORCE_COLOR": "1"}),
        (["--no-color", "games"], {"FORCE_COLOR": "1"}),
        (["hint", "{mine}"], {}),
        (["hint", "{mine}", "--all"], {}),
        (["hint", "{mine}", "--json"], {}),
        (["hint", "{mine}"], {"MATHABLE_LANG": "it"}),
        (["hint", "{rated}"], {}),  # exit 6: no hints in a rated game
        (["hint", "nosuchgame"], {}),
        (["wait", "{mine}"], {}),  # her turn: at once
        (["wait", "{mine}", "--json"], {}),
        (["wait", "{mine}", "--timeout", "5", "--interval=1"], {}),
        (["wait", "{ended}"], {}),  # exit 7: over
        (["wait", "{start}"], {}),  # a start of an id
        (["--profile", "nobody", "wait", "{mine}"], {}),  # exit 2: no such profile
        (["--server", "http://127.0.0.1:9", "games"], {}),  # exit 5: unreachable
        (["--token", "wrong", "games"], {}),
    ],
)
def test_a_command_prints_says_and_exits_as_the_app_does(
    table: Table, tmp_path: Path, args: list[str], more: dict[str, str]
) -> None:
    argv = [
        a.format(mine=table.mine, ended=table.ended, rated=table.rated, start=table.mine[:5])
        for a in args
    ]
    _both(table, argv, _env(table.base, table.tokens[0], tmp_path / "config", **more))


def _alike(text: str, game: str) -> str:
    """What two games dealt alike write alike: their ids, draw commitments (each game's
    own salt) and times aside."""
    text = text.replace(game, "GAME")
    text = re.sub(r'"commitment": "[0-9a-f]+"', '"commitment": "C"', text)
    return re.sub(r'"\d{4}-\d\d-\d\dT[^"]*"', '"TIME"', text)


@pytest.mark.parametrize(
    "args",
    [
        ["move", "{game}", "I8=12"],
        ["move", "{game}", "I8=12", "J8=16", "--json"],
        ["move", "{game}", "12@I8", "--draw-extra"],
        ["move", "{game}", "I8=13"],  # exit 3: against the rules
        ["move", "{game}", "Z99=1"],  # exit 2: no such square
        ["move", "{game}", "I8=12", "--anyway"],
        ["--lang", "nb", "move", "{game}", "I8=12"],
    ],
)
def test_a_move_prints_says_and_exits_as_the_apps_does(
    table: Table, tmp_path: Path, args: list[str]
) -> None:
    """Each way plays in a game of its own, dealt alike: the same words but the game's id."""
    env = _env(table.base, table.tokens[0], tmp_path / "config")
    ends = []
    order = random.randrange(1 << 30)
    for command in (cli_command(), APP):
        game = table.example_game(order)
        code, out, err = _run([*command, *[a.format(game=game) for a in args]], env)
        ends.append((code, _alike(out, game), _alike(err, game)))
        table.resign(game)
    assert ends[0] == ends[1]
    assert "Traceback" not in ends[0][2]


@pytest.mark.parametrize(
    "args",
    [
        ["games"],
        ["hint", "{mine}"],
        ["wait", "{mine}"],
        ["move", "{new}", "I8=12"],
        ["show", "{mine}"],
    ],
)
def test_a_command_imports_no_framework_and_no_tls(
    table: Table, tmp_path: Path, args: list[str]
) -> None:
    argv = [a.format(mine=table.mine, new=table.example_game()) for a in args]
    code = (
        f"import sys; sys.argv = ['mathable-cli', *{argv!r}]\n"
        "from mathable_cli.main import main\n"
        "try:\n    main()\nexcept SystemExit as end:\n    assert not end.code, end.code\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('typer', 'click', 'rich', 'requests', 'urllib3', 'ssl', '_ssl') "
        "or m == 'http.client')\n"
        "print('HEAVY', heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=_env(table.base, table.tokens[0], tmp_path / "config"),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "HEAVY []" in done.stdout


def test_no_game_given_is_told_alike(table: Table, tmp_path: Path) -> None:
    """``hint`` and ``move I8=12`` without a game: the only game waiting on alice, and
    several wait on her (said alike both ways, nothing played)."""
    env = _env(table.base, table.tokens[0], tmp_path / "config")
    _both(table, ["hint"], env)
    _both(table, ["move", "I8=12"], env)
