"""Fixtures for CLI tests: a CliRunner with a private config dir, and HTTP mocked by ``responses``.

``fake`` is a small in-memory server on the ``responses`` mock that plays the
API contract with the real rules package, so multi-step commands (interactive
moves, bots) meet the same answers they would from the real server.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import responses
from typer.testing import CliRunner, Result

import mathable
import mathable_i18n
from mathable import Command, GameState, OrderedBag, RuleError
from mathable.core.events import Event
from mathable_cli import api
from mathable_cli.app import app
from mathable_client import senders

SERVER = "http://mathable.test"
TOKEN = "tok-alice"


def bag_order(*front: int) -> list[int]:
    """A full 106-tile bag order that begins with ``front``."""
    rest = list(mathable.TILE_SET)
    for tile in front:
        rest.remove(tile)
    return list(front) + rest


#: Alice (seat 0) draws the first 7, Bob the next 7.
ALICE_RACK = [12, 16, 3, 7, 40, 9, 5]
BOB_RACK = [2, 8, 6, 1, 4, 10, 11]
TILES = bag_order(*ALICE_RACK, *BOB_RACK, 45, 13)


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Retries and polls do not really sleep; the clock moves by what they would have slept."""
    slept: list[float] = []
    now = [1000.0]

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    monkeypatch.setattr(api, "_sleep", sleep)
    monkeypatch.setattr(api, "_clock", lambda: now[0])
    return slept


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    for name in ("MATHABLE_SERVER", "MATHABLE_TOKEN", "MATHABLE_PROFILE", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MATHABLE_CONFIG_DIR", str(tmp_path / "config"))
    # English unless a test asks for another language (the machine's locale would choose).
    for name in ("MATHABLE_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    # A help a process prints is cached (mathable_cli.helpcache): here, not in the user's.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    # ``responses`` answers for ``requests``: these tests send through a requests.Session
    # (a command run as a process sends through http.client: the end-to-end tests).
    monkeypatch.setattr(
        senders, "sender_for", lambda base_url, session=None: senders.RequestsSender(session)
    )
    yield
    mathable_i18n.use(None)


@pytest.fixture
def http() -> Iterator[responses.RequestsMock]:
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        yield mock


Invoke = Callable[..., Result]


@pytest.fixture
def cli(tmp_path: Path) -> Invoke:
    """Run ``mathable-cli`` in-process; stdout and stderr are kept apart."""

    def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
        full_env = {"MATHABLE_SERVER": SERVER, "MATHABLE_TOKEN": TOKEN, **(env or {})}
        return CliRunner().invoke(app, list(args), input=input, env=full_env)

    return invoke


def requests_to(http: responses.RequestsMock, method: str, path: str) -> list[Any]:
    return [c.request for c in http.calls if c.request.method == method and path in c.request.url]


def body_of(request: Any) -> Any:
    return json.loads(request.body) if request.body else None


# --- the fake server ------------------------------------------------------------------


@dataclass
class FakeGame:
    state: GameState
    log: list[Event] = field(default_factory=list)


@dataclass
class FakeServer:
    """The API contract on top of the rules package, answering through ``responses``."""

    http: responses.RequestsMock
    players: dict[str, tuple[str, str]] = field(default_factory=dict)  # token -> (id, name)
    games: dict[str, FakeGame] = field(default_factory=dict)
    keys: dict[str, tuple[int, dict[str, str], str]] = field(default_factory=dict)
    commands: list[dict[str, Any]] = field(default_factory=list)
    #: Called on every long-poll and game-list request: lets "the other player" move.
    on_poll: Callable[[], None] | None = None
    polls: list[dict[str, str]] = field(default_factory=list)
    #: Games a player is invited to (listed by ``/v1/me`` before they join, as the server does).
    invitations: dict[str, str] = field(default_factory=dict)
    #: Each game's messages, as ``GET /v1/games/{id}/messages`` lists them.
    messages: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: Games the server rates (their views say ``rated``: no hints, no bot).
    rated: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        base = re.escape(SERVER)
        add = self.http.add_callback
        add("POST", f"{SERVER}/v1/players", self.register)
        add("GET", re.compile(f"{base}/v1/me(\\?.*)?$"), self.me)
        # A server from before the event stream: clients fall back to polling.
        add("GET", re.compile(f"{base}/v1/me/stream(\\?.*)?$"), self.no_stream)
        add("POST", f"{SERVER}/v1/games", self.create)
        add("POST", re.compile(f"{base}/v1/games/(\\w+)/join$"), self.join)
        add("POST", re.compile(f"{base}/v1/games/(\\w+)/moves$"), self.move)
        add("GET", re.compile(f"{base}/v1/games/(\\w+)/events(\\?.*)?$"), self.events)
        add("GET", re.compile(f"{base}/v1/games/(\\w+)/record$"), self.record)
        add("GET", re.compile(f"{base}/v1/games/(\\w+)/messages(\\?.*)?$"), self.read_messages)
        add("POST", re.compile(f"{base}/v1/games/(\\w+)/messages$"), self.post_message)
        add("GET", re.compile(f"{base}/v1/games/(\\w+)(\\?.*)?$"), self.show)

    def no_stream(self, request: Any) -> tuple[int, dict[str, str], str]:
        body = {"error": {"code": "not_found", "message": "no such resource"}}
        return 404, {"Content-Type": "application/json"}, json.dumps(body)

    # helpers

    def add_player(self, name: str, token: str) -> str:
        ident = f"p-{name}"
        self.players[token] = (ident, name)
        return ident

    def new_game(self, creator: str, joiner: str | None, tiles: list[int] | None = TILES) -> str:
        gid = f"g{len(self.games) + 1}"
        self.games[gid] = FakeGame(mathable.replay([]))
        self.run(gid, mathable.Create(creator, tiles=None if tiles is None else tuple(tiles)))
        if joiner:
            self.run(gid, mathable.Join(joiner))
        return gid

    def run(self, gid: str, command: Command) -> None:
        game = self.games[gid]
        bag = OrderedBag() if game.state.options.tiles is not None else None
        for event in mathable.check(game.state, command, bag):
            game.state = mathable.apply(game.state, event)
            game.log.append(event)

    def view(self, gid: str, player: str | None) -> dict[str, Any]:
        state = self.games[gid].state
        seat = state.seat_of(player) if player else None
        body = mathable.view(state, seat)
        names = {ident: name for ident, name in self.players.values()}
        for entry in body["seats"]:
            entry["name"] = names.get(entry["player"], entry["player"])
        body["id"] = gid
        body["rated"] = gid in self.rated
        return body

    def caller(self, request: Any) -> str | None:
        auth = request.headers.get("Authorization", "")
        found = self.players.get(auth.removeprefix("Bearer "))
        return found[0] if found else None

    @staticmethod
    def answer(status: int, body: Any) -> tuple[int, dict[str, str], str]:
        return status, {"Content-Type": "application/json"}, json.dumps(body)

    def error(self, status: int, code: str, message: str) -> tuple[int, dict[str, str], str]:
        return self.answer(status, {"error": {"code": code, "message": message}})

    @staticmethod
    def gid(request: Any) -> str:
        return str(request.path_url.split("/")[3].split("?")[0])

    # endpoints

    def read_messages(self, request: Any) -> tuple[int, dict[str, str], str]:
        gid, player = self.gid(request), self.caller(request)
        if gid not in self.games:
            return self.error(404, "game_not_found", "there is no game with this id")
        if player is None or self.games[gid].state.seat_of(player) is None:
            return self.error(403, "not_seated", "only the seats read its messages")
        since = int(request.params.get("since", 0))
        found = [m for m in self.messages.get(gid, []) if m["id"] > since]
        return self.answer(200, {"messages": found})

    def post_message(self, request: Any) -> tuple[int, dict[str, str], str]:
        gid, player = self.gid(request), self.caller(request)
        seat = self.games[gid].state.seat_of(player) if player else None
        if seat is None:
            return self.error(403, "not_seated", "only the seats write messages")
        listed = self.messages.setdefault(gid, [])
        text = json.loads(request.body)["text"].strip()
        entry = {"id": len(listed) + 1, "seat": seat, "text": text, "at": "2026-12-02T06:00:00Z"}
        listed.append(entry)
        return self.answer(201, entry)

    def register(self, request: Any) -> tuple[int, dict[str, str], str]:
        name = json.loads(request.body)["name"]
        token = f"tok-{name}"
        ident = self.add_player(name, token)
        return self.answer(201, {"id": ident, "name": name, "token": token})

    def me(self, request: Any) -> tuple[int, dict[str, str], str]:
        player = self.caller(request)
        if player is None:
            return self.error(401, "unauthorized", "no or bad token")
        self.polls.append(dict(request.params))
        if self.on_poll is not None:
            self.on_poll()
        games = []
        for gid, game in self.games.items():
            seat = game.state.seat_of(player)
            if seat is None and self.invitations.get(gid) != player:
                continue
            turn = game.state.turn
            mine = seat is not None and game.state.status == "playing" and turn is not None
            mine = mine and turn is not None and turn.seat == seat
            entry = {"id": gid, "status": game.state.status, "your_seat": seat, "your_turn": mine}
            if request.params.get("details") == "true":
                public = self.view(gid, None)
                entry["seats"] = [
                    {"seat": i, "player": x["player"], "name": x["name"], "score": x["score"]}
                    for i, x in enumerate(public["seats"])
                ]
                entry["last_turn"] = public["last_turn"]
            games.append(entry)
        games.sort(key=lambda g: not g["your_turn"])
        name = next(n for i, n in self.players.values() if i == player)
        return self.answer(200, {"id": player, "name": name, "games": games, "next_offset": None})

    def create(self, request: Any) -> tuple[int, dict[str, str], str]:
        player = self.caller(request)
        assert player is not None
        body = json.loads(request.body)
        gid = f"g{len(self.games) + 1}"
        self.games[gid] = FakeGame(mathable.replay([]))
        tiles = body.get("tiles")
        self.run(
            gid,
            mathable.Create(
                player,
                players=body.get("players", 2),
                referee=body.get("referee", "server"),
                seed=body.get("seed"),
                tiles=None if tiles is None else tuple(tiles),
            ),
        )
        return self.answer(201, self.view(gid, player))

    def join(self, request: Any) -> tuple[int, dict[str, str], str]:
        player = self.caller(request)
        gid = self.gid(request)
        try:
            self.run(gid, mathable.Join(str(player)))
        except RuleError as err:
            return self.error(422, err.code, err.message)
        return self.answer(200, self.view(gid, player))

    def show(self, request: Any) -> tuple[int, dict[str, str], str]:
        gid = self.gid(request)
        if gid not in self.games:
            return self.error(404, "game_not_found", f"there is no game {gid}")
        if "wait" in request.params:
            self.polls.append(dict(request.params))
            if self.on_poll is not None:
                self.on_poll()
        return self.answer(200, self.view(gid, self.caller(request)))

    def events(self, request: Any) -> tuple[int, dict[str, str], str]:
        gid = self.gid(request)
        after = int(request.params.get("after", 0))
        player = self.caller(request)
        state = self.games[gid].state
        seat = state.seat_of(player) if player else None
        out = []
        for version, event in enumerate(self.games[gid].log, 1):
            if version > after:
                out.append({**mathable.redact(event, seat), "version": version})
        return self.answer(200, {"id": gid, "version": state.version, "events": out})

    def record(self, request: Any) -> tuple[int, dict[str, str], str]:
        """The game's record as anyone may see it (``GET /v1/games/{id}/record``)."""
        from mathable.core.record import write_record

        gid = self.gid(request)
        names = {ident: name for ident, name in self.players.values()}
        state = self.games[gid].state
        seats = [names.get(s.player or "", s.player or "-") for s in state.seats]
        text = write_record(self.games[gid].log, names=seats, headers={"Id": gid}).text()
        return 200, {"Content-Type": "text/plain; charset=utf-8"}, text

    def move(self, request: Any) -> tuple[int, dict[str, str], str]:
        key = request.headers.get("Idempotency-Key")
        if key in self.keys:
            return self.keys[key]
        player = self.caller(request)
        gid = self.gid(request)
        body = json.loads(request.body)
        self.commands.append(body)
        state = self.games[gid].state
        if body.get("expected_version") != state.version:
            return self.answer(
                409,
                {
                    "error": {
                        "code": "version_conflict",
                        "message": f"the game is at version {state.version}",
                        "version": state.version,
                    }
                },
            )
        seat = state.seat_of(str(player))
        assert seat is not None
        try:
            self.run(gid, to_command(seat, body))
        except RuleError as err:
            status = 403 if err.code in ("not_your_turn", "not_seated") else 422
            return self.error(status, err.code, err.message)
        reply = self.answer(200, self.view(gid, player))
        if key:
            self.keys[key] = reply
        return reply


def to_command(seat: int, body: dict[str, Any]) -> Command:
    sq = mathable.parse_square

    def claims(p: dict[str, Any]) -> tuple[mathable.Equation, ...] | None:
        eqs = p.get("equations")
        if eqs is None:
            return None
        return tuple(mathable.Equation(sq(e["near"]), sq(e["far"]), e["op"]) for e in eqs)

    match body["type"]:
        case "place":
            return mathable.Place(seat, sq(body["square"]), body["tile"], claims(body))
        case "turn":
            return mathable.PlayTurn(
                seat,
                tuple(
                    mathable.TurnPlacement(
                        sq(p["square"]), p["tile"], p.get("draw_extra", False), claims(p)
                    )
                    for p in body["placements"]
                ),
            )
        case "exchange":
            return mathable.Exchange(seat, tuple(body["tiles"]))
        case "draw_extra":
            return mathable.DrawExtra(seat)
        case "end_turn":
            return mathable.EndTurn(seat)
        case "pass":
            return mathable.Pass(seat)
        case "correct":
            return mathable.Correct(seat)
        case "resign":
            return mathable.Resign(seat)
    raise AssertionError(body)


def bob_plays(fake: FakeServer, gid: str) -> None:
    """Bob's best turn (or an exchange, or a pass), if it is his turn."""
    state = fake.games[gid].state
    if state.status != "playing" or state.turn is None or state.turn.seat != 1:
        return
    rack = state.seats[1].rack
    best = mathable.best_turn_in(state.position, rack)
    if best.placements:
        sq = mathable.parse_square
        placements = tuple(mathable.TurnPlacement(sq(p.square), p.tile) for p in best)
        fake.run(gid, mathable.PlayTurn(1, placements))
    elif len(state.bag) >= 1:
        fake.run(gid, mathable.Exchange(1, rack[:1]))
    else:
        fake.run(gid, mathable.Pass(1))


@pytest.fixture
def fake(http: responses.RequestsMock) -> FakeServer:
    """A fake server with alice (the default token) and bob registered."""
    server = FakeServer(http)
    server.add_player("alice", TOKEN)
    server.add_player("bob", "tok-bob")
    return server
