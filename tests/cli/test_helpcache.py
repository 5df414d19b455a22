"""The help's cache (``mathable_cli.helpcache``): which command lines it answers, and a key
that changes with everything the help depends on: the code's files, the command line, the
terminal and every environment variable Typer, Click and rich read. (Real processes:
tests/cli/e2e/test_help_cache.py.)"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
import rich
import typer

from mathable_cli import helpcache

#: Variables Typer, Click or rich read that change nothing in a help, and why.
NOT_THE_HELP = {
    "COMP_CWORD": "shell completion (Click's), which the cache never answers",
    "COMP_WORDS": "shell completion (Click's)",
    "_TYPER_COMPLETE_ARGS": "shell completion (Typer's)",
    "_TYPER_COMPLETE_FISH_ACTION": "shell completion (Typer's)",
    "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "--install-completion",
    "_TYPER_COMPLETE_WORD_TO_COMPLETE": "shell completion (Typer's)",
    "TYPER_STANDARD_TRACEBACK": "how an exception's traceback is printed",
    "_TYPER_STANDARD_TRACEBACK": "how an exception's traceback is printed",
    "LESS": "click.echo_via_pager, which no help uses",
    "PAGER": "click.echo_via_pager",
    "XDG_CONFIG_HOME": "click.get_app_dir, which no help uses",
}

_READ = re.compile(r"(?:getenv|environ\.get|environ\[)\(?\s*[\"']([A-Za-z_][A-Za-z_0-9]*)[\"']")


def _read_by(package: object) -> set[str]:
    folder = Path(str(getattr(package, "__file__", ""))).parent
    names = set()
    for source in folder.rglob("*.py"):
        names |= set(_READ.findall(source.read_text(encoding="utf-8")))
    return names


def test_the_key_has_every_variable_typer_its_click_and_rich_read() -> None:
    read = _read_by(typer) | _read_by(rich)  # typer: its Click too (typer._click)
    assert {"COLUMNS", "NO_COLOR", "TERM", "UNICODE_VERSION"} <= read  # the scan finds them
    missing = read - set(helpcache.ENV) - set(NOT_THE_HELP)
    assert not missing, f"add to helpcache.ENV (or to NOT_THE_HELP, saying why): {missing}"


@pytest.mark.parametrize(
    ("argv", "wanted"),
    [
        ([], True),
        (["--help"], True),
        (["-h"], True),
        (["show", "--help"], True),
        (["profile", "-h"], True),
        (["--version"], False),
        (["show", "g1"], False),
        (["--lang", "fr", "--help"], False),  # a global option: the app's to read
        (["--server", "--help"], False),  # --help is --server's value there
        (["show", "g1", "--help"], False),
        (["profile", "add", "--help"], False),
    ],
)
def test_only_a_help_is_answered(argv: list[str], wanted: bool) -> None:
    assert helpcache.wanted(argv) is wanted


def test_the_key_changes_with_the_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sub").mkdir()
    module = tmp_path / "sub" / "commands.py"
    module.write_text('HELP = "Show the board."\n', encoding="utf-8")
    monkeypatch.setattr(helpcache, "_package_dirs", lambda: [str(tmp_path)])
    before = helpcache.key(["show", "--help"], {})
    assert before is not None
    assert helpcache.key(["show", "--help"], {}) == before
    module.write_text('HELP = "Show the board!"\n', encoding="utf-8")  # an edit
    edited = helpcache.key(["show", "--help"], {})
    assert edited not in (None, before)
    stat = module.stat()  # the same size, another time (a reinstall)
    os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert helpcache.key(["show", "--help"], {}) not in (None, before, edited)
    (tmp_path / "sub" / "more.py").write_text("", encoding="utf-8")  # a new module
    assert helpcache.key(["show", "--help"], {}) not in (None, before, edited)


def test_the_code_is_this_package_typer_its_click_and_rich() -> None:
    files = [path for path, _, _ in helpcache.code_files()]
    assert any(path.endswith(os.path.join("typer", "_click", "formatting.py")) for path in files)
    for package in ("mathable_cli", "mathable_i18n", "typer", "rich"):
        assert any(f"{os.sep}{package}{os.sep}" in path for path in files), package
    assert any(
        path.endswith(os.path.join("mathable_cli", "commands", "games.py")) for path in files
    )
    assert any(path.endswith(os.path.join("typer", "rich_utils.py")) for path in files)


def test_the_key_changes_with_the_command_line_and_each_variable() -> None:
    base = {"TERM": "xterm", "LANG": "C.UTF-8"}
    keys = {helpcache.key(["--help"], base), helpcache.key(["-h"], base)}
    keys.add(helpcache.key(["show", "--help"], base))
    for name in helpcache.ENV:
        keys.add(helpcache.key(["--help"], {**base, name: "1"}))
    assert None not in keys
    assert len(keys) == 3 + len(helpcache.ENV)
    # a variable the help does not read is not in it: another directory, another token
    assert helpcache.key(["--help"], {**base, "PWD": "/elsewhere"}) == helpcache.key(
        ["--help"], base
    )


def test_no_key_while_a_shell_completes() -> None:
    assert helpcache.key(["--help"], {"_MATHABLE_CLI_COMPLETE": "bash_complete"}) is None
    assert helpcache.key(["--help"], {"_TYPER_COMPLETE_ARGS": "x"}) is None


def test_the_cache_is_the_users(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(helpcache.sys, "platform", "linux")
    home = os.path.expanduser("~")
    assert helpcache.cache_dir({}) == os.path.join(home, ".cache", "mathable-cli", "help")
    assert helpcache.cache_dir({"XDG_CACHE_HOME": "/c"}) == "/c/mathable-cli/help"
    assert helpcache.cache_dir({"MATHABLE_CACHE_DIR": "/m", "XDG_CACHE_HOME": "/c"}) == "/m/help"
    monkeypatch.setattr(helpcache.sys, "platform", "win32")
    assert helpcache.cache_dir({}) is None
    assert helpcache.cache_dir({"MATHABLE_CACHE_DIR": "/m"}) is None


def _stored(folder: Path) -> list[str]:
    help_dir = folder / "help"
    return [p.name for p in help_dir.iterdir()] if help_dir.exists() else []


def test_a_help_is_kept_and_printed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MATHABLE_CACHE_DIR", str(tmp_path))
    assert helpcache.replay(["-h"]) is None  # nothing yet

    def app() -> None:
        print(" Usage: mathable-cli [OPTIONS] COMMAND\n ╭─ Options ─╮")
        raise SystemExit(2)

    with pytest.raises(SystemExit):
        helpcache.record(["-h"], app)
    first = capsys.readouterr()
    assert len(_stored(tmp_path)) == 1
    assert helpcache.replay(["-h"]) == 2
    again = capsys.readouterr()
    assert again == first
    assert again.out == " Usage: mathable-cli [OPTIONS] COMMAND\n ╭─ Options ─╮\n"
    assert helpcache.replay(["--help"]) is None  # another key


@pytest.mark.parametrize("how", ["stderr", "exception", "interrupted", "exit 1"])
def test_a_run_that_does_not_end_as_a_help_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setenv("MATHABLE_CACHE_DIR", str(tmp_path))

    def app() -> None:
        print(" Usage: mathable-cli [OPTIONS] COMMAND")  # half a help
        if how == "stderr":
            print("Error: No such command 'x'.", file=sys.stderr)
            raise SystemExit(2)
        if how == "exception":
            raise BrokenPipeError
        if how == "interrupted":
            raise KeyboardInterrupt
        raise SystemExit(1)

    with pytest.raises((SystemExit, BrokenPipeError, KeyboardInterrupt)):
        helpcache.record(["x", "--help"], app)
    assert _stored(tmp_path) == []
    assert helpcache.replay(["x", "--help"]) is None
