"""The computer's worker (issue 44): takes the computer's turns, apart from any request.

A computer's turn is a row of the one outbox (channel ``computer``, written by
``computers.ComputerTurns`` with the move that gave the turn). Any number of workers,
in any number of processes on one database, claim such rows as the mail workers claim
theirs (``Outbox.claim``: ``FOR UPDATE SKIP LOCKED`` on PostgreSQL): a row is one
worker's until its lease ends. The worker asks the level's engine for its decision
(``Thinker``: in a child process, cut short past ``budget_ms``; the fallback engine
plays a turn the engine did not give in time or that the rules refused) and sends each
command as an ordinary command of the game service, at the version it was decided on,
with an idempotency key made of the game and that version. A worker killed at any
moment repeats nothing (a command sent again replays its first answer; one decided
anew at a version already passed is refused) and loses nothing (the row's lease ends
and another worker, or the same one restarted, plays the turn).
"""

from __future__ import annotations

import hashlib
import json
import logging
import multiprocessing
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from mathable import RuleError
from mathable.core.computer import engines
from mathable.core.ruleset import AnyState, ruleset_of
from mathable_server.games.computers import CHANNEL, Computers
from mathable_server.games.errors import GameNotFound
from mathable_server.games.service import Games, Idempotency, Timed
from mathable_server.store import VersionConflict
from mathable_server.store.outbox import Entry, Outbox

log = logging.getLogger("mathable_server.computer")

#: The engine that plays a turn the level's engine did not give in time, or got wrong.
FALLBACK_ENGINE = "greedy"
#: Decisions in one turn at most (a turn played in parts asks again): then the turn ends.
MAX_DECISIONS = 40
#: Seconds a thinking process may take to start and import its engines.
STARTUP_SECONDS = 60.0


def _think_loop(conn: Connection) -> None:
    """The thinking process: every engine loaded once, then one decision after another."""
    found = engines()
    conn.send(("ready", None))
    while True:
        try:
            name, ruleset, view, seed = conn.recv()
        except EOFError:
            return
        try:
            answer: tuple[str, Any] = ("ok", found[name].turn(ruleset, view, seed))
        except Exception as err:  # an engine's bug costs its decision, not the worker
            answer = ("error", f"{type(err).__name__}: {err}")
        conn.send(answer)


class Thinker:
    """Engines run in a child process of their own: a decision past ``budget_ms`` is cut
    short (the process killed and started afresh) and None is the answer."""

    def __init__(self, budget_ms: int) -> None:
        self.budget = budget_ms / 1000
        self._process: multiprocessing.process.BaseProcess | None = None
        self._conn: Connection | None = None

    def _start(self) -> Connection:
        if self._conn is not None and self._process is not None and self._process.is_alive():
            return self._conn
        self.stop()
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        process = context.Process(
            target=_think_loop, args=(child,), name="mathable-computer-think", daemon=True
        )
        process.start()
        child.close()
        if not parent.poll(STARTUP_SECONDS):
            process.kill()
            raise RuntimeError("the computer's thinking process did not start")
        parent.recv()
        self._process, self._conn = process, parent
        return parent

    def think(self, engine: str, ruleset: str, view: dict[str, Any], seed: int) -> list[Any] | None:
        """The engine's commands for ``view``, or None (too slow, or it failed)."""
        conn = self._start()
        try:
            conn.send((engine, ruleset, view, seed))
            if not conn.poll(self.budget):
                log.warning("engine %s: no decision within %.1f s: the fallback plays",
                            engine, self.budget)  # fmt: skip
                self.stop()
                return None
            status, value = conn.recv()
        except (EOFError, OSError):
            self.stop()
            return None
        if status != "ok" or not isinstance(value, list):
            log.warning("engine %s failed: %s: the fallback plays", engine, value)
            return None
        return value

    def stop(self) -> None:
        if self._process is not None and self._process.is_alive():
            self._process.kill()
            self._process.join(5)
        if self._conn is not None:
            self._conn.close()
        self._process = self._conn = None


def _answer(game_id: str, game: Timed, new: list[Any], now: int) -> tuple[int, dict[str, Any]]:
    """What a computer's command stores as its first answer: the version it led to."""
    return 200, {"id": game_id, "version": game.state.version}


def seed_of(game_id: str, version: int) -> int:
    """The seed of a decision: the same game and version, the same choice.

    >>> seed_of("gabc", 3) == seed_of("gabc", 3) != seed_of("gabc", 4)
    True
    """
    digest = hashlib.sha256(f"{game_id}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class ComputerWorker:
    """Claims the computer's turns and plays them (``drain``, in a loop: ``run``)."""

    def __init__(
        self,
        games: Games,
        box: Outbox,
        computers: Computers,
        budget_ms: int,
        *,
        batch: int = 4,
    ) -> None:
        self.games = games
        self.box = box
        self.computers = computers
        self.thinker = Thinker(budget_ms)
        self.batch = batch
        self._fallback = engines()[FALLBACK_ENGINE]
        self._stop = threading.Event()
        #: Called after each command the worker sent (tests, benchmarks).
        self.on_command: list[Callable[[str, int], None]] = []

    def drain(self) -> int:
        """Play the turns due now; how many rows were claimed."""
        entries = self.box.claim(self.games.now(), self.batch, (CHANNEL,))
        for entry in entries:
            try:
                self.play(entry)
            except Exception as err:
                log.exception("computer turn %s failed", entry.payload)
                self.box.failed(entry, self.games.now(), f"{type(err).__name__}: {err}")
                continue
            self.box.sent(entry, self.games.now())
        return len(entries)

    def play(self, entry: Entry) -> None:
        """Play the computer's turn of ``entry``'s game while it is its turn."""
        game_id, player = str(entry.payload["game"]), entry.recipient
        computer = self.computers.of(player)
        if computer is None:
            log.warning("computer turn of %s: no level plays as %s here", game_id, player)
            return
        for _ in range(MAX_DECISIONS):
            try:
                game = self.games.game(game_id)
            except GameNotFound:
                return
            state = game.state
            seat = state.seat_of(player)
            if state.status != "playing" or state.turn is None or state.turn.seat != seat:
                return  # played (by another worker, before a crash) or over
            assert seat is not None
            rules = ruleset_of(state)
            view = rules.view(state, seat)
            view["you"] = seat
            seed = seed_of(game_id, state.version)
            bodies = None
            if rules.name in computer.rulesets:
                bodies = self.thinker.think(computer.engine_name, rules.name, view, seed)
            if bodies is None or not self._send(game_id, player, seat, state, bodies):
                self._send(game_id, player, seat, state, self._fallback_turn(rules, view, seed))
        log.warning("computer turn of %s: still its turn after %d decisions", game_id,
                    MAX_DECISIONS)  # fmt: skip

    def _fallback_turn(self, rules: Any, view: dict[str, Any], seed: int) -> list[Any]:
        try:
            return self._fallback.turn(rules.name, view, seed)
        except Exception:  # the fallback too: end the turn as the rules let it end
            log.exception("the fallback engine failed")
            placed = (view.get("turn") or {}).get("placements")
            return [{"type": "end_turn" if placed else "pass"}]

    def _send(
        self, game_id: str, player: str, seat: int, state: AnyState, bodies: list[Any]
    ) -> bool:
        """Send ``bodies`` one after another from ``state``; False when the rules refused
        the first (nothing sent: the fallback decides), True otherwise (sent, or the game
        moved on)."""
        rules = ruleset_of(state)
        version = state.version
        for index, body in enumerate(bodies):
            key = f"computer:{game_id}:v{version}"
            idem = Idempotency(player, key, hashlib.sha256(key.encode()).hexdigest())
            try:
                answer = self.games.command(
                    game_id, version, lambda _s, b=body: rules.command(seat, b), _answer, idem
                )
            except RuleError as err:
                log.warning("computer %s in %s: %s refused (%s)", player, game_id,
                            body.get("type"), err.code)  # fmt: skip
                return index > 0
            except VersionConflict:
                return True  # the game moved on: looked at again
            log.info("played game=%s at=%d type=%s outcome=%s", game_id, version,
                     body.get("type"), "replayed" if answer.replayed else "ok")  # fmt: skip
            version = int(_version_of(answer.body))
            for hook in self.on_command:
                hook(game_id, version)
            now = self.games.game(game_id).state
            if now.status != "playing" or now.turn is None or now.turn.seat != seat:
                return True
        return True

    def run(self, seconds: float) -> None:
        """Drain every ``seconds`` (at once again while there was work) until ``stop``."""
        while not self._stop.is_set():
            try:
                busy = self.drain()
            except Exception:
                log.exception("the computer's worker failed; trying again")
                busy = 0
            if not busy:
                self._stop.wait(seconds)

    def start(self, seconds: float) -> threading.Thread:
        thread = threading.Thread(
            target=self.run, args=(seconds,), name="mathable-computer", daemon=True
        )
        thread.start()
        return thread

    def stop(self) -> None:
        self._stop.set()
        self.thinker.stop()


def _version_of(body: str) -> int:
    return int(json.loads(body)["version"])


def poll_seconds(delay: float) -> float:
    """How often a worker looks for turns so that the computer moves within ``delay``:
    a quarter of it (the thinking and the sending take the rest), at most a second.

    >>> poll_seconds(2.0), poll_seconds(0.2)
    (0.5, 0.05)
    """
    return min(1.0, delay / 4)


def computer_outbox(engine: Any, budget_ms: int) -> Outbox:
    """The outbox as the computer's workers claim from it: a lease that outlasts a
    decision and its commands (a worker killed mid-turn leaves its row to another once
    it ends), and tries enough that a database away for a while loses no turn."""
    lease = max(10.0, 3 * budget_ms / 1000)
    return Outbox(engine, max_attempts=1000, base_delay=2.0, max_delay=60.0, lease=lease)
