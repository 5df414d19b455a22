"""Plugging engines into ``bot``: loading them, and surviving engines that fail."""

from __future__ import annotations

import itertools
import textwrap
from pathlib import Path

import pytest

import mathable
from mathable import Play, PlayerView
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.screens.mathable.engines import EngineRunner, load_engine
from tests.cli.conftest import TILES, FakeServer, Invoke, bob_plays

_names = itertools.count()

ENGINES = """
import time
from mathable import ExchangeTiles, PassTurn, Play, Placement, legal_placements_in


def fine(view):
    options = legal_placements_in(view.position, view.rack)
    return Play((options[0],)) if options else PassTurn()


def raises(view):
    raise ValueError("my engine is broken")


def garbage(view):
    return {"square": "I8", "tile": 12}


def illegal(view):
    return Play((Placement("A1", view.rack[0]),))


def sleeps(view):
    time.sleep(60)


def exits(view):
    raise SystemExit(3)


NOT_A_FUNCTION = 42
"""


@pytest.fixture
def engine_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A module of engines in the current directory, under a name of its own."""
    name = f"engines_{next(_names)}_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(ENGINES))
    monkeypatch.chdir(tmp_path)
    return name


def view() -> PlayerView:
    state = mathable.GameState()
    for command in (mathable.Create("a", tiles=tuple(TILES)), mathable.Join("b")):
        for event in mathable.check(state, command, mathable.OrderedBag()):
            state = mathable.apply(state, event)
    return PlayerView.of(state, 0)


def usage_error(spec: str) -> CliError:
    with pytest.raises(CliError) as caught:
        load_engine(spec)
    assert caught.value.code == ExitCode.USAGE
    return caught.value


def test_built_in_engines_load_by_name() -> None:
    for name in ("greedy", "best", "strong"):
        assert callable(load_engine(name))


def test_an_engine_loads_from_a_module_in_the_current_directory(engine_module: str) -> None:
    engine = load_engine(f"{engine_module}:fine")
    assert isinstance(engine(view()), Play)


def test_an_engine_loads_from_a_file_path(engine_module: str) -> None:
    engine = load_engine(f"./{engine_module}.py:fine")
    assert isinstance(engine(view()), Play)


def test_bad_engine_names_are_usage_errors_that_say_what_is_wrong(engine_module: str) -> None:
    assert "the colon is missing" in usage_error("strongest").message
    assert "best, greedy, strong" in str(usage_error("strongest").hint)
    assert "cannot import 'no_such_module'" in usage_error("no_such_module:play").message
    assert "is not a module path" in usage_error("my-engine:play").message
    assert f"module '{engine_module}' has no 'play'" in usage_error(f"{engine_module}:play").message
    assert "'NOT_A_FUNCTION'" in usage_error(f"{engine_module}:NOT_A_FUNCTION").message
    assert "is not a function" in usage_error(f"{engine_module}:NOT_A_FUNCTION").message
    assert "there is no file nowhere.py" in usage_error("nowhere.py:play").message


def test_a_module_that_fails_to_import_says_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "broken_engine.py").write_text("x = 1\nraise RuntimeError('half written')\n")
    monkeypatch.chdir(tmp_path)
    message = usage_error("broken_engine:play").message
    assert "RuntimeError: half written (broken_engine.py:2)" in message


@pytest.mark.parametrize(
    ("function", "problem"),
    [
        ("raises", "raised ValueError: my engine is broken"),
        ("garbage", "returned {'square': 'I8', 'tile': 12} (dict), not a Play"),
        ("illegal", "A1 is not next to two tiles"),
        ("sleeps", "took longer than the think time (1 s)"),
        ("exits", "its process ended"),
    ],
)
def test_a_failing_engine_costs_its_turn_to_the_fallback_not_the_runner(
    engine_module: str, function: str, problem: str
) -> None:
    runner = EngineRunner(f"{engine_module}:{function}", think_time=1)
    try:
        choice = runner.choose(view())
        assert choice.problem is not None and problem in choice.problem
        best = mathable.games.mathable.engines.best
        assert choice.turn == mathable.games.mathable.engine.checked_choice(best(view()), view())
        # The runner goes on: a working engine in the same process is asked again.
        again = runner.choose(view())
        assert again.problem is not None and problem in again.problem
    finally:
        runner.close()


def test_a_plugged_in_engine_plays_in_its_worker_process(engine_module: str) -> None:
    runner = EngineRunner(f"{engine_module}:fine", think_time=30)
    try:
        choice = runner.choose(view())
        assert choice.problem is None and isinstance(choice.turn, Play)
        assert runner.worker is not None and runner.worker.process is not None
    finally:
        runner.close()


def test_the_bot_runs_a_plugged_in_engine_and_reports_its_failures(
    cli: Invoke, fake: FakeServer, engine_module: str
) -> None:
    gid = fake.new_game("p-alice", "p-bob", tiles=None)
    fake.on_poll = lambda: bob_plays(fake, gid)
    result = cli("bot", gid, "--interval", "0.01", "--engine", f"{engine_module}:raises")
    assert result.exit_code == 0, result.stderr
    assert fake.games[gid].state.status == "ended"
    assert (
        f"warning: {gid}: engine {engine_module}:raises: raised ValueError: my engine is broken"
        in result.stderr
    )


def test_the_bot_refuses_an_engine_it_cannot_load(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("bot", gid, "--engine", "no_such_module:play")
    assert result.exit_code == ExitCode.USAGE
    assert "cannot import 'no_such_module'" in result.stderr
    assert fake.commands == []
