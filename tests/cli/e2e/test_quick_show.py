"""``mathable-cli show`` without the command-line framework (``mathable_cli.quick``), as real
processes against a real server: every plain spelling of ``show`` prints, says and exits
exactly as the app does (the app run as its own process), and it imports neither typer nor
rich nor requests. (What it reads of a command line: tests/cli/test_quick.py.)
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.cli.players import REPO, cli_command
from tests.server.live import live_server

pytestmark = pytest.mark.e2e


APP = [sys.executable, "-c", "from mathable_cli.app import app; app(prog_name='mathable-cli')"]


def _run(command: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    # A retry's pause has a random part: the same words, whatever the seconds.
    said = re.sub(r"trying again in [0-9.]+ s", "trying again in N s", done.stderr)
    return done.returncode, done.stdout, said


@pytest.fixture(scope="module")
def game() -> Iterator[tuple[str, str, str, str]]:
    """A server, alice's token, a game of hers in play with a turn passed, and a game she
    waits in that bob declined (the closed-game note)."""
    with live_server() as base:
        tokens = []
        for name in ("alice", "bob"):
            reply = requests.post(f"{base}/v1/players", json={"name": name}, timeout=10)
            tokens.append(reply.json()["token"])
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        gid = requests.post(f"{base}/v1/games", json={"seed": 3}, headers=auth[0], timeout=10)
        gid = gid.json()["id"]
        requests.post(f"{base}/v1/games/{gid}/join", json={}, headers=auth[1], timeout=10)
        view = requests.get(f"{base}/v1/games/{gid}", headers=auth[0], timeout=10).json()
        seat = view["turn"]["seat"]
        requests.post(
            f"{base}/v1/games/{gid}/moves",
            json={"type": "pass", "expected_version": view["version"]},
            headers=auth[seat],
            timeout=10,
        ).raise_for_status()
        closed = requests.post(
            f"{base}/v1/games", json={"seed": 4, "invite": ["bob"]}, headers=auth[0], timeout=10
        ).json()["id"]
        requests.post(f"{base}/v1/games/{closed}/decline", json={}, headers=auth[1], timeout=10)
        yield base, tokens[0], gid, closed


def _env(base: str, token: str, config: Path, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MATHABLE_")}
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "LANGUAGE", "LC_ALL"):
        env.pop(name, None)
    env |= {
        "MATHABLE_SERVER": base,
        "MATHABLE_TOKEN": token,
        "MATHABLE_CONFIG_DIR": str(config),
        "LANG": "C.UTF-8",
        "PYTHONPATH": os.pathsep.join(str(REPO / p) for p in ("shared", "client")),
    }
    return env | more


@pytest.mark.parametrize(
    ("args", "more"),
    [
        (["show", "{game}"], {}),
        (["show", "{game}", "--json"], {}),
        (["show", "{closed}"], {}),
        (["--no-color", "show", "{game}"], {"FORCE_COLOR": "1"}),
        (["show", "{game}"], {"FORCE_COLOR": "1"}),
        (["--lang", "fr", "show", "{game}"], {}),
        (["show", "{game}"], {"MATHABLE_LANG": "nb"}),
        (["show", "nosuchgame"], {}),
        (["show", "{start}"], {}),  # a start of an id
        (["--profile", "nobody", "show", "{game}"], {}),  # exit 2: no such profile
        (["--server", "http://127.0.0.1:9", "show", "{game}"], {}),  # exit 5: unreachable
        (["--token", "wrong", "show", "{game}"], {}),
    ],
)
def test_show_prints_says_and_exits_as_the_app_does(
    game: tuple[str, str, str, str], tmp_path: Path, args: list[str], more: dict[str, str]
) -> None:
    base, token, gid, closed = game
    argv = [a.format(game=gid, closed=closed, start=gid[:5]) for a in args]
    env = _env(base, token, tmp_path / "config", **more)
    quick = _run([*cli_command(), *argv], env)
    app = _run([*APP, *argv], env)
    assert quick == app
    assert "Traceback" not in quick[2]


def test_show_starts_without_typer_rich_or_requests(
    game: tuple[str, str, str, str], tmp_path: Path
) -> None:
    base, token, gid, _ = game
    code = (
        f"import sys; sys.argv = ['mathable-cli', 'show', {gid!r}]\n"
        "from mathable_cli.main import main\n"
        "try:\n    main()\nexcept SystemExit as end:\n    assert not end.code, end.code\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('typer', 'click', 'rich', 'requests', 'urllib3'))\n"
        "print('HEAVY', heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=_env(base, token, tmp_path / "config"),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "HEAVY []" in done.stdout


def test_ctrl_c_ends_show_as_it_ends_the_app(tmp_path: Path) -> None:
    """Interrupted while the server keeps it waiting: exit 130, nothing said, both ways."""
    import signal
    import socket
    import time

    with socket.socket() as silent:  # takes connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        base = f"http://127.0.0.1:{silent.getsockname()[1]}"
        env = _env(base, "tok", tmp_path / "config")
        ends = []
        for command in ([*cli_command(), "show", "g1"], [*APP, "show", "g1"]):
            process = subprocess.Popen(
                command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
            silent.settimeout(60)
            connection, _ = silent.accept()  # it has asked: now it waits for the answer
            with connection:
                time.sleep(0.2)
                process.send_signal(signal.SIGINT)
                out, err = process.communicate(timeout=30)
            ends.append((process.returncode, out, err))
    assert ends[0] == ends[1]
    assert ends[0][0] == 130
