"""``Client``: the Mathable API v1 from Python, for bots and scripts.

>>> from mathable_client import Client
>>> client = Client("http://127.0.0.1:8080", token="...")  # doctest: +SKIP
>>> view = client.wait_for_turn("g4scxpu353k")              # doctest: +SKIP
>>> client.play(view.id, mathable.best_turn_in(view.player_view().position, view.rack))
... # doctest: +SKIP

Every call retries what is safe to retry (see ``mathable_client.transport``).
A command's retries carry one ``Idempotency-Key``, so they never play twice.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

from mathable.games.mathable.board import OPERATION, parse_square
from mathable_client.transport import ApiError, Json, Transport

if TYPE_CHECKING:
    from mathable_client.views import GameView

def _view(data: Mapping[str, Any]) -> GameView:
    """A view's JSON as a typed ``GameView`` (its module loaded by the first that asks)."""
    from mathable_client.views import GameView

    return GameView.from_json(data)


#: The longest single long-poll the server holds (``wait`` is at most 60 s).
LONG_POLL = 25
#: The pause after a long-poll the server refused to hold (``X-Long-Poll: refused``).
REFUSED_POLL_PAUSE = 2.0


class PlacementLike(Protocol):
    """Anything with a square name and a tile: ``mathable.Placement`` and the like."""

    @property
    def square(self) -> str: ...

    @property
    def tile(self) -> int: ...


#: What ``play`` and ``turn_command`` take: a ``mathable.BestTurn`` or ``mathable.Play``
#: (anything with ``placements``), placements, ``"I8=12"`` strings, or an engine's
#: ``mathable.ExchangeTiles`` or ``mathable.PassTurn``.
TurnLike = Any


def _placements(turn: TurnLike) -> tuple[list[tuple[str, int]], bool]:
    """(square name, tile) pairs of a turn, and whether it asks for extra tiles."""
    draw_extra = bool(getattr(turn, "draw_extra", False))
    items: Iterable[Any] = getattr(turn, "placements", turn) or ()
    out = []
    for item in items:
        if isinstance(item, str):
            from mathable import Placement  # deferred: move generation, for words only

            item = Placement.parse(item)
        out.append((str(item.square).strip().upper(), int(item.tile)))
    return out, draw_extra


def turn_command(turn: TurnLike, expected_version: int, *, draw_extra: bool = False) -> Json:
    """The ``turn`` command (JSON) for a whole turn; ``pass`` for a turn with no placement.

    ``turn`` is a ``mathable.BestTurn`` (from ``best_turn_in``), a ``mathable.Play``,
    or placements (``mathable.Placement`` or ``"I8=12"``). With ``draw_extra`` (or a
    ``Play`` that asks for it) the extra tile is drawn after each placement on an
    operation square. A tile drawn so cannot be placed in the same ``turn`` command
    (every tile of it must be on the rack the turn began with): to place it, play
    the turn with ``place``, ``draw_extra`` and ``end_turn`` commands.

    >>> from mathable import Placement
    >>> turn_command([Placement("I8", 12), Placement("J8", 16)], 3, draw_extra=True)
    ... # doctest: +NORMALIZE_WHITESPACE
    {'type': 'turn', 'expected_version': 3, 'placements': [{'square': 'I8', 'tile': 12},
     {'square': 'J8', 'tile': 16, 'draw_extra': True}]}
    >>> turn_command([], 3)
    {'type': 'pass', 'expected_version': 3}

    An engine's other answers (``mathable.TurnChoice``) are their commands too:

    >>> from mathable import ExchangeTiles, PassTurn
    >>> turn_command(ExchangeTiles((90, 81)), 3)
    {'type': 'exchange', 'expected_version': 3, 'tiles': [90, 81]}
    >>> turn_command(PassTurn(), 3)
    {'type': 'pass', 'expected_version': 3}
    """
    # deferred: start-up time of mathable-cli (the rules engine; show --json never needs it)
    from mathable.games.mathable.engine import ExchangeTiles, PassTurn

    if isinstance(turn, ExchangeTiles):
        return {"type": "exchange", "expected_version": expected_version, "tiles": list(turn.tiles)}
    if isinstance(turn, PassTurn):
        return {"type": "pass", "expected_version": expected_version}
    placements, asked = _placements(turn)
    if not placements:
        return {"type": "pass", "expected_version": expected_version}
    body = []
    for square, tile in placements:
        entry: Json = {"square": square, "tile": tile}
        if (draw_extra or asked) and OPERATION[parse_square(square)] is not None:
            entry["draw_extra"] = True
        body.append(entry)
    return {"type": "turn", "expected_version": expected_version, "placements": body}


class Client(Transport):
    """One player (or an anonymous caller) talking to one server.

    ``base_url`` like ``http://127.0.0.1:8080``; ``token`` from ``register`` (or
    ``mathable-cli login``). Error answers raise ``ApiError`` (``.status``,
    ``.code``, ``.details``); no answer at all raises ``Unreachable``.
    """

    #: Per game: the version at which a turn this client began was left going on (a
    #: ``Play`` with ``end_turn=False``), so that the next play there, even given its
    #: ``expected_version`` (no read), goes on with it in parts.
    _begun: dict[str, int]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._begun = {}

    # --- accounts and listings ---------------------------------------------------

    def register(self, name: str, email: str | None = None, *, bot: bool = False) -> Json:
        """A new player ``{id, name, token}``; the client uses the token from now on.
        ``bot``: the account is a bot's (games with it are not rated by default)."""
        body: Json = {"name": name}
        if email:
            body["email"] = email
        if bot:
            body["bot"] = True
        player = dict(self.request("POST", "/v1/players", body=body).data)
        self.token = player["token"]
        return player

    def me(self, *, limit: int | None = None, offset: int = 0, details: bool = False) -> Json:
        """The caller and one page of their games (the ones waiting on them first).

        With ``details`` each game has its scores and last turn too.
        """
        params: dict[str, Any] = {"offset": offset} if offset else {}
        if limit is not None:
            params["limit"] = limit
        if details:
            params["details"] = "true"
        return dict(self.request("GET", "/v1/me", params=params or None).data)

    def my_games(self, page: int = 100, *, details: bool = False) -> list[Json]:
        """Every game of the caller, following the pages of ``GET /v1/me``."""
        games: list[Json] = []
        offset = 0
        while True:
            me = self.me(limit=page, offset=offset, details=details)
            games.extend(dict(g) for g in me.get("games") or [])
            following = me.get("next_offset")
            if not isinstance(following, int) or following <= offset:
                return games
            offset = following

    def ruleset(self, name: str = "mathable") -> Json:
        """The ruleset as data (``GET /v1/rulesets/{name}``): board, tiles, rack, end..."""
        return dict(self.request("GET", f"/v1/rulesets/{name}").data)

    # --- games ------------------------------------------------------------------------

    def create_game(self, options: Json | None = None) -> Json:
        """A new game (``players``, ``referee``, ``invite``, ``clock``...); you take seat 0."""
        return dict(self.request("POST", "/v1/games", body=options or {}).data)

    def join(self, game_id: str) -> Json:
        """Take the first free seat of a game."""
        return dict(self.request("POST", f"/v1/games/{game_id}/join", body={}).data)

    def game(self, game_id: str, *, wait: int | None = None, since: int | None = None) -> Json:
        """The game as the caller sees it (JSON); ``wait`` holds the answer until ``since``
        is passed (at most ``wait`` seconds)."""
        params: dict[str, int] = {}
        timeout = None
        if wait is not None and since is not None:
            params = {"wait": wait, "since": since}
            timeout = wait + self.timeout
        reply = self.request("GET", f"/v1/games/{game_id}", params=params, timeout=timeout)
        return dict(reply.data)

    def view(self, game_id: str) -> GameView:
        """The game as a typed ``GameView``."""
        return _view(self.game(game_id))

    def events(self, game_id: str, after: int = 0) -> list[Json]:
        """The game's events after version ``after``, redacted for the caller (every page)."""
        out: list[Json] = []
        while True:
            reply = self.request("GET", f"/v1/games/{game_id}/events", params={"after": after})
            data = reply.data
            last = data.get("version") if isinstance(data, dict) else None
            page = data.get("events", []) if isinstance(data, dict) else data
            page = [dict(e) for e in page or []]
            out.extend(page)
            newest = page[-1].get("version") if page else None
            if not isinstance(newest, int) or not isinstance(last, int) or newest >= last:
                return out
            after = newest

    # --- records (docs/records.md) -----------------------------------------------------

    def record(self, game_id: str) -> str:
        """The game's record as text, as anyone may see it (``GET /v1/games/{id}/record``)."""
        return str(self.request("GET", f"/v1/games/{game_id}/record", text=True).data)

    def archive(self, name: str, page: int = 1000) -> list[Json]:
        """A player's finished games, the last ended first, each ``{id, ended_at, ruleset,
        players, imported, record}`` (``record`` None with a ``reason`` for a game whose
        rules write none): every page, ``page`` games at a time."""
        path = f"/v1/players/{quote(name, safe='')}/games"
        params: dict[str, Any] = {"max": page}
        games: list[Json] = []
        while True:
            reply = self.request("GET", path, params=params, text=True)
            lines = [json.loads(line) for line in str(reply.data).splitlines() if line.strip()]
            games += lines
            links = " ".join(v for k, v in reply.headers.items() if k.lower() == "link")
            if not lines or 'rel="next"' not in links:
                return games
            params = {"max": page, "before": lines[-1]["id"]}

    def import_record(self, record: str) -> Json:
        """A finished game made from a complete record (``POST /v1/games/import``)."""
        return dict(self.request("POST", "/v1/games/import", body={"record": record}).data)

    # --- commands ---------------------------------------------------------------------

    def command(self, game_id: str, command: Json, *, idempotency_key: str | None = None) -> Json:
        """Send one move command (``type``, ``expected_version``, ...); the new view comes back."""
        reply = self.request(
            "POST", f"/v1/games/{game_id}/moves", body=command, idempotency_key=idempotency_key
        )
        return dict(reply.data)

    def _version(self, game_id: str, expected_version: int | None) -> int:
        return expected_version if expected_version is not None else self.view(game_id).version

    def play(
        self,
        game_id: str,
        turn: TurnLike,
        *,
        draw_extra: bool = False,
        expected_version: int | None = None,
    ) -> GameView:
        """Play a whole turn (a ``mathable.BestTurn``, a ``Play``, placements) as one
        ``turn`` command; a turn with no placement passes. An engine's
        ``ExchangeTiles`` or ``PassTurn`` is sent as an exchange or a pass, so
        ``play(game_id, engine(view.player_view()))`` plays any engine's answer.
        See ``turn_command``.

        Without ``expected_version`` the game is read first. A ``Play`` that does not
        end the turn (``end_turn=False``: the engine places the extra tiles it draws
        when asked again), or any play in a turn already begun (known from that
        read), goes as ``place`` and ``draw_extra`` commands, then ``end_turn`` if the
        turn ends there; a ``PassTurn`` in a turn begun ends it.
        """
        # deferred: start-up time of mathable-cli (the rules engine; show --json never needs it)
        from mathable.games.mathable.engine import ExchangeTiles, PassTurn

        known = self.view(game_id) if expected_version is None else None
        version = known.version if known is not None else int(expected_version or 0)
        begun = bool(known and known.your_turn and known.turn and known.turn.placements)
        # A turn this client began and left going on, at the version it left it.
        begun = begun or self._begun.get(game_id) == version
        goes_on = getattr(turn, "end_turn", True) is False
        if not (goes_on or begun) or isinstance(turn, ExchangeTiles):
            command = turn_command(turn, version, draw_extra=draw_extra)
            try:
                return _view(self.command(game_id, command))
            except ApiError as err:
                if err.code != "turn_in_progress" or isinstance(turn, ExchangeTiles):
                    raise
                # Begun elsewhere (by hand, another process): go on with it in parts.
        self._begun.pop(game_id, None)
        placements, asked = ([], False) if isinstance(turn, PassTurn) else _placements(turn)
        data: Json | None = None
        for square, tile in placements:
            data = self.command(
                game_id,
                {"type": "place", "expected_version": version, "square": square, "tile": tile},
            )
            version = int(data["version"])
            if (draw_extra or asked) and OPERATION[parse_square(square)] and data.get("bag_size"):
                data = self.command(game_id, {"type": "draw_extra", "expected_version": version})
                version = int(data["version"])
        if goes_on and data is not None:
            self._begun[game_id] = int(data["version"])
            return _view(data)
        return _view(
            self.command(game_id, {"type": "end_turn", "expected_version": version})
        )

    def exchange(
        self, game_id: str, tiles: Iterable[int], *, expected_version: int | None = None
    ) -> GameView:
        """Give ``tiles`` back to the bag and draw as many; the turn ends."""
        version = self._version(game_id, expected_version)
        body = {"type": "exchange", "expected_version": version, "tiles": list(tiles)}
        return _view(self.command(game_id, body))

    def simple(self, game_id: str, kind: str, *, expected_version: int | None = None) -> GameView:
        """A command with no fields: ``pass``, ``resign``, ``end_turn``, ``draw_extra``,
        ``correct``, ``claim_timeout``."""
        version = self._version(game_id, expected_version)
        return _view(
            self.command(game_id, {"type": kind, "expected_version": version})
        )

    # --- waiting ----------------------------------------------------------------------

    def wait_for_change(self, game_id: str, since: int, seconds: float = LONG_POLL) -> Json:
        """The game once its version passes ``since``, or as it is after ``seconds``.

        The one place the client waits for news of a game: today a long-poll
        (``GET /v1/games/{id}?wait=S&since=V``). When the server offers the event
        stream (``GET /v1/me/stream``), a client following it wakes here instead:
        override this method (or pass ``waiter`` to ``wait_for_turn``).
        """
        wait = max(1, min(int(seconds), 60))
        reply = self.request(
            "GET",
            f"/v1/games/{game_id}",
            params={"wait": wait, "since": since},
            timeout=wait + self.timeout,
        )
        refused = any(
            k.lower() == "x-long-poll" and v == "refused" for k, v in reply.headers.items()
        )
        if refused:
            # The server holds as many long-polls as it may and answered at once: pause
            # before the caller polls again, as the API asks, rather than hammer it.
            self.sleep(min(REFUSED_POLL_PAUSE, wait))
        return dict(reply.data)

    def wait_for_turn(
        self,
        game_id: str,
        *,
        timeout: float | None = None,
        waiter: Callable[[str, int, float], Mapping[str, Any]] | None = None,
    ) -> GameView:
        """The game once it is the caller's turn or the game is over (``view.over``).

        ``timeout`` (seconds; None waits for ever) gives back the view as it is
        when it runs out: check ``view.your_turn``. ``waiter(game_id, since,
        seconds)`` replaces ``wait_for_change`` (a stream, a test).
        """
        wait = waiter or self.wait_for_change
        deadline = None if timeout is None else time.monotonic() + timeout
        view = self.view(game_id)
        while not (view.your_turn or view.over):
            left = LONG_POLL if deadline is None else deadline - time.monotonic()
            if left <= 0:
                return view
            view = _view(wait(game_id, view.version, min(left, LONG_POLL)))
        return view


__all__ = ["LONG_POLL", "ApiError", "Client", "PlacementLike", "TurnLike", "turn_command"]
