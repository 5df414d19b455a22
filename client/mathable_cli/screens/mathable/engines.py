"""Engines for ``bot`` and ``tournament``: loading ``module:function``, think time, fallback.

An engine is a built-in name (``greedy``, ``best``, ``strong``) or a function
named ``package.module:function`` (or ``path/to/file.py:function``), looked up
from the current directory first. A plugged-in engine runs in a worker process
of its own, so an engine that hangs or crashes costs its turn, not the bot:
past ``think_time`` seconds the worker is stopped and started again. Whatever
goes wrong, the turn is played by the fallback (``best``) and the problem is
reported.
"""

from __future__ import annotations

import importlib
import importlib.util
import multiprocessing
import os
import sys
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from mathable.games.mathable.engine import (
    Engine,
    EngineError,
    PlayerView,
    TurnChoice,
    checked_choice,
)
from mathable.games.mathable.engines import BEST_NODE_LIMIT, BUILTIN_ENGINES, best_engine
from mathable_cli.exits import CliError, ExitCode

#: Default seconds a plugged-in engine may think about one turn.
THINK_TIME = 30.0
#: Seconds a worker process may take to start and import its engine.
STARTUP_TIME = 120.0


def engine_usage(spec: str, why: str) -> CliError:
    names = ", ".join(sorted(BUILTIN_ENGINES))
    return CliError(
        f"--engine {spec!r}: {why}",
        ExitCode.USAGE,
        hint=f"give a built-in engine ({names}) or package.module:function",
    )


def is_builtin(spec: str) -> bool:
    return spec in BUILTIN_ENGINES


def load_engine(spec: str, *, node_limit: int = BEST_NODE_LIMIT) -> Engine:
    """The engine named ``spec``; a usage CliError saying what is wrong otherwise."""
    if spec == "best":
        return best_engine(node_limit)
    if spec in BUILTIN_ENGINES:
        return BUILTIN_ENGINES[spec]
    module_name, colon, function_name = spec.rpartition(":")
    if not colon or not module_name or not function_name:
        raise engine_usage(spec, "write package.module:function (the colon is missing)")
    if not function_name.isidentifier():
        raise engine_usage(spec, f"{function_name!r} is not a function name")
    module = _import(spec, module_name)
    found = getattr(module, function_name, None)
    if found is None:
        raise engine_usage(spec, f"module {module_name!r} has no {function_name!r}")
    if not callable(found):
        raise engine_usage(spec, f"{function_name!r} in {module_name!r} is not a function")
    engine: Engine = found
    return engine


def _import(spec: str, module_name: str) -> Any:
    if module_name.endswith(".py"):
        path = Path(module_name)
        if not path.is_file():
            raise engine_usage(spec, f"there is no file {module_name}")
        name = f"mathable_engine_{path.stem}"
        loader_spec = importlib.util.spec_from_file_location(name, path)
        if loader_spec is None or loader_spec.loader is None:  # pragma: no cover - a .py file
            raise engine_usage(spec, f"cannot load {module_name}")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[name] = module
        try:
            loader_spec.loader.exec_module(module)
        except Exception as err:
            raise engine_usage(spec, f"loading {module_name} failed: {_error_words(err)}") from None
        return module
    if not all(part.isidentifier() for part in module_name.split(".")):
        raise engine_usage(spec, f"{module_name!r} is not a module path like package.module")
    # Like `python -m`: modules in the current directory come first.
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        raise engine_usage(spec, f"cannot import {module_name!r}: {err}") from None
    except Exception as err:
        raise engine_usage(spec, f"importing {module_name!r} failed: {_error_words(err)}") from None


def _error_words(err: BaseException) -> str:
    """``ValueError: boom (my_engine.py:12)``: the error and where it was raised."""
    where = ""
    frames = traceback.extract_tb(err.__traceback__)
    if frames:
        last = frames[-1]
        where = f" ({Path(last.filename).name}:{last.lineno})"
    return f"{type(err).__name__}: {err}{where}"


# --- running an engine -----------------------------------------------------------------


def _worker(spec: str, conn: Connection) -> None:
    """The worker process: load the engine, then answer one view after another."""
    try:
        engine = load_engine(spec)
    except CliError as err:
        conn.send(("error", err.message))
        return
    conn.send(("ready", None))
    while True:
        try:
            view = conn.recv()
        except EOFError:
            return
        try:
            answer: tuple[str, Any] = ("ok", engine(view))
        except Exception as err:
            answer = ("error", f"raised {_error_words(err)}")
        try:
            conn.send(answer)
        except Exception as err:  # the answer could not be pickled: it is no turn anyway
            conn.send(("error", f"returned {answer[1]!r}, which is not a turn ({err})"))


class _Worker:
    """One worker process running a plugged-in engine, restarted after a timeout or crash."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.process: multiprocessing.process.BaseProcess | None = None
        self.conn: Connection | None = None

    def start(self) -> None:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        self.process = context.Process(
            target=_worker, args=(self.spec, child), name="mathable-engine", daemon=True
        )
        self.process.start()
        child.close()
        self.conn = parent
        # Starting Python and importing the engine is not thinking time.
        if not parent.poll(STARTUP_TIME):
            self.stop()
            raise EngineError(f"its process did not start within {STARTUP_TIME:g} s")
        try:
            kind, value = parent.recv()
        except (EOFError, OSError):
            self.stop()
            raise EngineError("its process ended while starting") from None
        if kind != "ready":
            self.stop()
            raise EngineError(str(value))

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.join(timeout=5)
        if self.conn is not None:
            self.conn.close()
        self.process, self.conn = None, None

    def ask(self, view: PlayerView, think_time: float) -> object:
        """The engine's answer; EngineError on an error, a timeout or a dead worker."""
        if self.process is None or not self.process.is_alive():
            self.stop()
            self.start()
        assert self.conn is not None
        self.conn.send(view)
        if not self.conn.poll(think_time):
            self.stop()
            raise EngineError(f"took longer than the think time ({think_time:g} s)")
        try:
            kind, value = self.conn.recv()
        except (EOFError, OSError):
            code = self.process.exitcode if self.process is not None else None
            self.stop()
            raise EngineError(f"its process ended (exit code {code})") from None
        if kind == "error":
            raise EngineError(str(value))
        return value


@dataclass
class Choice:
    """An engine's turn, or the fallback's with what went wrong with the engine's."""

    turn: TurnChoice
    problem: str | None = None


class EngineRunner:
    """Asks one engine for turns, within the think time; the fallback plays when it fails."""

    def __init__(
        self,
        spec: str,
        *,
        think_time: float = THINK_TIME,
        node_limit: int = BEST_NODE_LIMIT,
    ) -> None:
        self.spec = spec
        self.think_time = think_time
        self.fallback: Engine = best_engine(node_limit)
        self.engine = load_engine(spec, node_limit=node_limit)  # usage errors show at once
        self.worker = None if is_builtin(spec) else _Worker(spec)

    def choose(self, view: PlayerView) -> Choice:
        try:
            answer = self._ask(view)
            return Choice(checked_choice(answer, view))
        except EngineError as err:
            return Choice(checked_choice(self.fallback(view), view), str(err))

    def _ask(self, view: PlayerView) -> object:
        if self.worker is None:
            try:
                return self.engine(view)
            except Exception as err:
                raise EngineError(f"raised {_error_words(err)}") from None
        return self.worker.ask(view, self.think_time)

    def close(self) -> None:
        if self.worker is not None:
            self.worker.stop()
