"""``mathable-cli --help`` (``-h``, a command's, the bare ``mathable-cli``) as real
processes: the first run prints what the app prints and keeps it in the user's cache
(``mathable_cli.helpcache``), the next prints the same without importing Typer, Click or
rich; at a terminal (a pseudo-terminal of a given size: colours, that width) too; an
error is never kept; and an edit of the code is the help printed next, not the old one.
(What the cache's key holds: tests/cli/test_helpcache.py.)"""

from __future__ import annotations

import json
import os
import pty
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.e2e.test_quick_show import APP
from tests.cli.players import cli_command

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[3]

#: A run of ``mathable-cli`` as the console script runs it, that writes the names of the
#: modules it imported to the file ``$MODULES_TO`` as it exits.
TRACED = [
    sys.executable,
    "-c",
    "import atexit, json, os, sys\n"
    "def done():\n"
    "    with open(os.environ['MODULES_TO'], 'w') as file:\n"
    "        json.dump(list(sys.modules), file)\n"
    "atexit.register(done)\n"
    "from mathable_cli.main import main\n"
    "main()",
]

FRAMEWORK = ("typer", "rich")  # Typer's Click is typer._click


def _env(tmp_path: Path, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MATHABLE_")}
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS", "LINES", "TERM"):
        env.pop(name, None)
    env |= {
        "MATHABLE_CONFIG_DIR": str(tmp_path / "config"),
        "MATHABLE_CACHE_DIR": str(tmp_path / "cache"),
        "MODULES_TO": str(tmp_path / "modules.json"),
        "LANG": "C.UTF-8",
        **more,
    }
    return env


def _run(command: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    return done.returncode, done.stdout, done.stderr


def _imported(tmp_path: Path) -> set[str]:
    names = json.loads((tmp_path / "modules.json").read_text(encoding="utf-8"))
    return {name.partition(".")[0] for name in names}


def _entries(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "cache" / "help"
    return sorted(folder.iterdir()) if folder.exists() else []


@pytest.mark.parametrize(
    "argv", [["--help"], ["-h"], [], ["show", "--help"], ["move", "-h"], ["profile", "--help"]]
)
def test_the_second_run_prints_the_apps_help_without_the_framework(
    tmp_path: Path, argv: list[str]
) -> None:
    env = _env(tmp_path, COLUMNS="93")
    app = _run([*APP, *argv], env)
    assert app[0] in (0, 2) and "Usage: mathable-cli" in app[1] and app[2] == "", app
    assert not _entries(tmp_path)  # the app itself keeps nothing
    first = _run([*TRACED, *argv], env)
    assert first == app
    assert set(FRAMEWORK) <= _imported(tmp_path)  # the first run is the app's
    assert len(_entries(tmp_path)) == 1
    second = _run([*TRACED, *argv], env)
    assert second == app
    assert not set(FRAMEWORK) & _imported(tmp_path)
    assert _run([*cli_command(), *argv], env) == app  # the console script


def test_each_width_and_colour_is_its_own_help(tmp_path: Path) -> None:
    helps = set()
    for more in ({"COLUMNS": "70"}, {"COLUMNS": "140"}, {"COLUMNS": "70", "FORCE_COLOR": "1"}):
        env = _env(tmp_path, **more)
        app = _run([*APP, "--help"], env)
        assert _run([*cli_command(), "--help"], env) == app  # first
        assert _run([*cli_command(), "--help"], env) == app  # from the cache
        helps.add(app[1])
    assert len(helps) == 3
    assert len(_entries(tmp_path)) == 3
    assert "\x1b[" in max(helps, key=lambda text: text.count("\x1b["))


def _at_terminal(command: list[str], env: dict[str, str], columns: int) -> tuple[int, bytes]:
    """``command`` run with stdin, stdout and stderr a pseudo-terminal ``columns`` wide:
    its exit code and every byte it wrote."""
    import fcntl
    import termios

    main_fd, child_fd = pty.openpty()
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    process = subprocess.Popen(
        command, env=env, stdin=child_fd, stdout=child_fd, stderr=child_fd, close_fds=True
    )
    os.close(child_fd)
    said = b""
    while True:
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:  # EIO: the other side is closed
            break
        if not chunk:
            break
        said += chunk
    os.close(main_fd)
    return process.wait(timeout=60), said


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux pseudo-terminal")
def test_at_a_terminal_its_width_and_colours(tmp_path: Path) -> None:
    env = _env(tmp_path, TERM="xterm-256color")
    seen = {}
    for columns in (64, 120):
        app = _at_terminal([*APP, "--help"], env, columns)
        first = _at_terminal([*TRACED, "--help"], env, columns)
        second = _at_terminal([*TRACED, "--help"], env, columns)
        assert first == second == app
        assert not set(FRAMEWORK) & _imported(tmp_path)  # the second run
        seen[columns] = app[1]
    assert seen[64] != seen[120]
    for columns, said in seen.items():
        assert b"\x1b[" in said  # colours: a terminal
        widest = max(len(row) for row in _plain(said).splitlines())
        assert widest == columns, (columns, widest)
    assert len(_entries(tmp_path)) == 2


def _plain(said: bytes) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", said.decode("utf-8")).replace("\r", "")


@pytest.mark.parametrize("argv", [["nosuch", "--help"], ["--help"]])
def test_an_error_is_not_kept(tmp_path: Path, argv: list[str]) -> None:
    env = _env(tmp_path, COLUMNS="80")
    if argv == ["--help"]:
        env["PYTHONIOENCODING"] = "ascii"  # a stdout that is not UTF-8: not cached
    app = _run([*APP, *argv], env)
    for _ in range(2):
        assert _run([*cli_command(), *argv], env) == app
    assert not _entries(tmp_path)
    env.pop("PYTHONIOENCODING", None)
    _run([*cli_command(), "--help"], env)  # a help is kept there
    assert len(_entries(tmp_path)) == 1


def test_an_edit_of_the_code_is_the_next_help(tmp_path: Path) -> None:
    client = tmp_path / "client"
    shutil.copytree(REPO / "client" / "mathable_cli", client / "mathable_cli")
    paths = [str(client), str(REPO / "shared"), os.environ.get("PYTHONPATH", "")]
    env = _env(tmp_path, COLUMNS="100", PYTHONPATH=os.pathsep.join(p for p in paths if p))
    before = _run([*TRACED, "--help"], env)
    assert "The board, scores, your rack" in before[1]
    assert _run([*TRACED, "--help"], env) == before
    assert not set(FRAMEWORK) & _imported(tmp_path)  # from the cache
    app_py = client / "mathable_cli" / "app.py"
    text = app_py.read_text(encoding="utf-8")
    app_py.write_text(text.replace("The board, scores, your rack", "The board, your rack"))
    after = _run([*TRACED, "--help"], env)
    assert "The board, your rack" in after[1]
    assert after == _run([*APP, "--help"], env)
    assert after != before
    assert set(FRAMEWORK) <= _imported(tmp_path)  # the app's, not the cache's
    assert len(_entries(tmp_path)) == 2
