"""Tournaments over the store and the game service: create, join, leave, start, read,
and the sweep that starts rounds, closes them and opens a league's next season.

Every game of a round starts at once. A round begins in one transaction (the round
number compared and set, its boards written: ``store.tournaments``); each board's game
has an id fixed by the tournament, round and board, so that any process may create a
round's missing games, and two processes creating them at once make each game once
(the second append is a version conflict). A duplicate round's tables draw one order:
a seed made from the tournament's secret and the round, which the server's own secret
turns into the order (``games.draws.bag_order``); a table's finished game withholds it
while another table of it still plays (``games.orders``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError

from mathable import ClockSpec, Command, Create, Join, Resign
from mathable.core.ruleset import AnyState, ruleset
from mathable_server.games import ratings
from mathable_server.games.draws import bag_order, new_salt
from mathable_server.games.orders import order_withheld
from mathable_server.games.service import Games, new_id
from mathable_server.store import Store, VersionConflict
from mathable_server.store.outbox import Notification
from mathable_server.tournaments import pairing
from mathable_server.tournaments.standings import Line, Played, crosstable, standings

FORMATS = ("round_robin", "swiss", "duplicate", "league")
#: Formats any player may organise; the others are the operator's.
PLAYER_FORMATS = ("round_robin", "swiss")
HOUR_MS = 3_600_000
_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"

#: The clocks of ``New game``, by name, and Little Golem's: 10 days in the bank, 36 hours
#: more a move, never more than the 10 days.
CLOCK_PRESETS: dict[str, ClockSpec] = {
    "1d": ClockSpec(per_move=86_400),
    "3d": ClockSpec(per_move=3 * 86_400),
    "7d": ClockSpec(per_move=7 * 86_400),
    "little_golem": ClockSpec(initial=10 * 86_400, increment=36 * 3_600, max=10 * 86_400),
}


class TournamentError(Exception):
    """A refusal: ``status``, a stable ``code`` and the words (already said)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Spec:
    """What a tournament is made with (``POST /v1/tournaments``)."""

    name: str
    ruleset: str
    format: str
    seats: int = 2
    clock: ClockSpec | None = None
    rated: bool = True
    max_players: int = 16
    starts_at: int | None = None
    rounds: int | None = None
    division_size: int | None = None
    season_break_hours: int | None = None
    close_after_hours: int | None = None


def board_game_id(tournament_id: str, round_: int, board: int) -> str:
    """The id of a board's game: the same in every process.

    >>> board_game_id("tx", 1, 0) == board_game_id("tx", 1, 0) != board_game_id("tx", 1, 1)
    True
    """
    digest = hashlib.sha256(f"{tournament_id}:{round_}:{board}".encode()).digest()
    return "g" + "".join(_ID_ALPHABET[b % len(_ID_ALPHABET)] for b in digest[:14])


def request_id(creator: str | None, key: str) -> str:
    """The id of the tournament a creator's keyed request makes.

    >>> request_id("p1", "k" * 16) == request_id("p1", "k" * 16) != request_id("p2", "k" * 16)
    True
    """
    digest = hashlib.sha256(f"{creator}:{key}".encode()).digest()
    return "t" + "".join(_ID_ALPHABET[b % len(_ID_ALPHABET)] for b in digest[:12])


def result_of(state: AnyState, settled: bool = False) -> dict[str, Any]:
    """A finished game's result as a board keeps it: each seat's place and score."""
    result = state.result
    scores = [] if result is None else list(result.scores)
    return {
        "places": ratings.places(state) if result is not None else [1] * len(state.seats),
        "scores": scores,
        "reason": None if result is None else result.reason,
        **({"settled": True} if settled else {}),
    }


#: What a keyed ``POST /v1/tournaments`` asked: the same key asking another is refused.
_ASKED = ("creator", "name", "ruleset", "format", "seats", "clock", "rated", "max_players",
          "starts_at", "rounds", "division_size", "season_break_hours", "close_after_hours")


#: A board's result while its game's bag order is withheld (``Tournaments._withheld``).
WITHHELD: dict[str, Any] = {"places": None, "scores": None, "reason": None, "withheld": True}


def settled_result(state: AnyState) -> dict[str, Any]:
    """An unfinished game's result on the score (a round closed): the higher scores first,
    a seat that resigned or ran out of time last."""
    scores = [seat.score for seat in state.seats]
    out = [seat.resigned for seat in state.seats]
    keys = [(not gone, score) for gone, score in zip(out, scores, strict=True)]
    places = [1 + sum(1 for other in keys if other > mine) for mine in keys]
    return {"places": places, "scores": scores, "reason": "settled", "settled": True}


class Tournaments:
    """Tournaments stored in ``store``, their games made by ``games``."""

    def __init__(
        self,
        store: Store,
        games: Games,
        secret: Callable[[], str],
        *,
        per_player: int = 5,
        operators: frozenset[str] = frozenset(),
    ) -> None:
        self.store = store
        self.games = games
        self.secret = secret
        self.per_player = per_player
        self.operators = operators

    # --- organising -----------------------------------------------------------------

    def create(self, creator: str | None, spec: Spec, request_key: str | None = None) -> str:
        """A new open tournament; ``creator`` None for the operator's. Its id.

        With ``request_key`` (a creator's ``Idempotency-Key``) the id is made from the
        creator and the key: the same request again finds the tournament it made (a
        retry after a lost answer makes no second one)."""
        from mathable_i18n import _

        if spec.format not in FORMATS:
            raise TournamentError(422, "unknown_format", _("format must be one of {formats}",
                                  formats=", ".join(FORMATS)))  # fmt: skip
        if creator is not None and spec.format not in PLAYER_FORMATS and (
            creator not in self.operators
        ):
            raise TournamentError(
                403, "operator_only",
                _("leagues and duplicate events are the operator's to organise"),
            )  # fmt: skip
        if spec.format == "swiss" and spec.seats != 2:
            raise TournamentError(422, "bad_seats", _("a Swiss tournament has two seats a game"))
        if spec.format in ("swiss", "duplicate") and not spec.rounds:
            raise TournamentError(
                422, "rounds_required", _("Swiss and duplicate events need a number of rounds")
            )
        rules = ruleset(spec.ruleset)  # unknown_ruleset from the rules package
        if not 2 <= spec.seats <= 4:
            raise TournamentError(422, "bad_seats", _("a game has 2 to 4 seats"))
        if creator is not None and creator not in self.operators:
            if self.store.open_tournaments_of(creator) >= self.per_player:
                raise TournamentError(
                    422, "too_many_tournaments",
                    _("you organise {cap} tournaments not finished yet", cap=self.per_player),
                )  # fmt: skip
        tournament_id = new_id("t") if request_key is None else request_id(creator, request_key)
        row = self._row(tournament_id, creator, spec, rules.name)
        if request_key is not None and self._replayed(row):
            return tournament_id
        try:
            self.store.create_tournament(row)
        except IntegrityError:  # the same keyed request at once: the first one made it
            if request_key is None or not self._replayed(row):
                raise
        return tournament_id

    def _replayed(self, row: dict[str, Any]) -> bool:
        """A keyed request made ``row``'s tournament already: True if it asked the same,
        422 ``idempotency_key_reused`` if it asked another (fourth review)."""
        from mathable_i18n import _

        known = self.store.tournament(row["id"])
        if known is None:
            return False
        if any(known[k] != row[k] for k in _ASKED):
            raise TournamentError(422, "idempotency_key_reused",
                                  _("this Idempotency-Key was used before for a different "
                                    "request"))  # fmt: skip
        return True

    def _row(
        self, tournament_id: str, creator: str | None, spec: Spec, ruleset_name: str
    ) -> dict[str, Any]:
        """The row a tournament of ``spec`` is written as."""
        now = self.games.now()
        return (
            {
                "id": tournament_id,
                "name": spec.name,
                "ruleset": ruleset_name,
                "format": spec.format,
                "seats": spec.seats,
                "clock": None if spec.clock is None else json.dumps(spec.clock.to_dict()),
                "rated": int(spec.rated and spec.format != "duplicate"),
                "max_players": spec.max_players,
                "starts_at": spec.starts_at,
                "rounds": spec.rounds if spec.format in ("swiss", "duplicate") else None,
                "creator": creator,
                "status": "open",
                "round": 0,
                "division_size": (spec.division_size or 10) if spec.format == "league" else None,
                "season_break_hours": (
                    (spec.season_break_hours if spec.season_break_hours is not None else 168)
                    if spec.format == "league"
                    else None
                ),
                "close_after_hours": spec.close_after_hours,
                "next_at": None,
                "closes_at": None,
                "secret": secrets.token_hex(32) if spec.format == "duplicate" else None,
                "version": 1,
                "created_at": now,
            }
        )

    def get(self, tournament_id: str) -> dict[str, Any]:
        from mathable_i18n import _

        found = self.store.tournament(tournament_id) if len(tournament_id) <= 32 else None
        if found is None:
            raise TournamentError(404, "no_such_tournament", _("there is no such tournament"))
        return found

    def join(self, tournament_id: str, player_id: str) -> None:
        from mathable_i18n import _

        found = self.get(tournament_id)
        joinable = found["status"] == "open" or (
            found["format"] == "league" and found["status"] == "running"
        )
        if not joinable:
            raise TournamentError(
                409, "tournament_closed", _("this tournament takes no more players")
            )
        if not self.store.enter(
            tournament_id, player_id, self.games.now(), int(found["max_players"]),
            ("open", "running") if found["format"] == "league" else ("open",),
        ):
            raise TournamentError(409, "tournament_full", _("this tournament is full"))

    def leave(self, tournament_id: str, player_id: str) -> int:
        """``player_id`` leaves; their unfinished games there are resigned (how many)."""
        from mathable_i18n import _

        found = self.get(tournament_id)
        if found["status"] == "finished":
            raise TournamentError(409, "tournament_finished", _("this tournament is over"))
        if not self.store.leave(tournament_id, player_id, self.games.now()):
            raise TournamentError(
                409, "not_in_tournament", _("you are not playing in this tournament")
            )
        resigned = 0
        for board in self.store.boards(tournament_id):
            if board["game_id"] is None or board["result"] is not None:
                continue
            seats = board["players"].split()
            if player_id not in seats:
                continue
            self.create_board(found, board)  # a game not made yet is made, then resigned

            def resign(game: Any, seat: int = seats.index(player_id)) -> Resign | None:
                state = game.state
                if state.status != "playing":
                    return None
                return Resign(seat)

            if self.games.run_anyhow(board["game_id"], resign):
                resigned += 1
        return resigned

    def start(self, tournament_id: str, player_id: str | None) -> None:
        """Its creator (or the operator, ``player_id`` None) starts it now."""
        from mathable_i18n import _

        found = self.get(tournament_id)
        if player_id is not None and found["creator"] != player_id:
            raise TournamentError(
                403, "not_organiser", _("only the organiser may start this tournament")
            )
        if found["status"] != "open":
            raise TournamentError(409, "tournament_started", _("this tournament has started"))
        active = self._active(tournament_id)
        if len(active) < 2:
            raise TournamentError(
                422, "too_few_players", _("a tournament needs at least two players")
            )
        self._begin(found)
        self.create_games(tournament_id)

    # --- reading --------------------------------------------------------------------

    def view(self, tournament_id: str) -> dict[str, Any]:
        """The tournament as ``GET /v1/tournaments/{id}`` answers it (names, not ids)."""
        found = self.get(tournament_id)
        entrants = self.store.entrants(tournament_id)
        boards = self.store.boards(tournament_id)
        ids = {e["player_id"] for e in entrants}
        for board in boards:
            ids.update(board["players"].split())
        names = self.store.names(sorted(ids))
        hidden = self._withheld(boards)

        def name(player_id: str) -> str:
            return names.get(player_id, player_id)

        rounds: list[list[dict[str, Any]]] = []
        for board in boards:
            while len(rounds) < board["round"]:
                rounds.append([])
            result = None if board["result"] is None else json.loads(board["result"])
            if board["game_id"] in hidden:
                result = WITHHELD
            rounds[board["round"] - 1].append(
                {
                    "game_id": board["game_id"],
                    "seats": [name(p) for p in board["players"].split()],
                    "result": result,
                    **({"division": board["division"]} if found["format"] == "league" else {}),
                }
            )
        shown = [{**b, "result": None} if b["game_id"] in hidden else b for b in boards]
        lines, divisions = self.standings(found, entrants, shown)
        table = [
            {
                "name": name(line.name),
                "points": line.points,
                "tiebreak": round(line.tiebreak, 2),
                "played": line.played,
                **({"division": divisions.get(line.name, 0)} if divisions else {}),
            }
            for line in lines
        ]
        clock = None if found["clock"] is None else json.loads(found["clock"])
        return {
            "id": found["id"],
            "name": found["name"],
            "ruleset": found["ruleset"],
            "format": found["format"],
            "status": found["status"],
            "seats": found["seats"],
            "clock": clock,
            "rated": bool(found["rated"]),
            "max_players": found["max_players"],
            "starts_at": found["starts_at"],
            "rounds_planned": found["rounds"],
            "round": found["round"],
            "organiser": None if found["creator"] is None else name(found["creator"]),
            "close_after_hours": found["close_after_hours"],
            "season_break_hours": found["season_break_hours"],
            "next_at": found["next_at"],
            "version": found["version"],
            "players": [name(e["player_id"]) for e in entrants if e["left_at"] is None],
            "left": [name(e["player_id"]) for e in entrants if e["left_at"] is not None],
            "rounds": rounds,
            "standings": table,
            "crosstable": crosstable(lines),
        }

    def _withheld(self, boards: Sequence[dict[str, Any]]) -> set[str]:
        """The boards' finished games whose bag order is withheld (``order_withheld``):
        their final scores give what the end took off each rack (tiles another game not
        finished deals), so their results count and show once that order is revealed."""
        out = set()
        for board in boards:
            game_id = board["game_id"]
            if game_id is None or board["result"] is None or '"bye"' in board["result"]:
                continue
            if not self.store.order_shared_with_running(game_id):
                continue
            if order_withheld(self.store, game_id, self.games.state(game_id)):
                out.add(game_id)
        return out

    def standings(
        self,
        found: dict[str, Any],
        entrants: Sequence[dict[str, Any]],
        boards: Sequence[dict[str, Any]],
    ) -> tuple[list[Line], dict[str, int]]:
        """The standings (a league's: of its latest season, division by division) and each
        player's division (a league's only)."""
        fmt = found["format"]
        order = [e["player_id"] for e in entrants]
        if fmt != "league":
            return standings(fmt, order, _played(boards)), {}
        season = max((b["round"] for b in boards), default=0)
        divisions: dict[str, int] = {}
        out: list[Line] = []
        by_division: dict[int, list[dict[str, Any]]] = {}
        for board in boards:
            if board["round"] == season:
                by_division.setdefault(board["division"], []).append(board)
                for p in board["players"].split():
                    divisions[p] = board["division"]
        if not by_division:
            return standings(fmt, order, []), {}
        for division in sorted(by_division):
            members = [p for p in order if divisions.get(p) == division]
            out.extend(standings(fmt, members, _played(by_division[division])))
        return out, divisions

    # --- the sweep ------------------------------------------------------------------

    def sweep(self) -> int:
        """Start what is due, create missing games, close rounds, begin the next round or
        season, finish what is over. The tournaments looked at."""
        now = self.games.now()
        found = self.store.running_tournaments(now)
        for tournament in found:
            try:
                self.advance(tournament["id"])
            except TournamentError:
                continue
        return len(found)

    def advance(self, tournament_id: str) -> None:
        """Whatever this tournament calls for now (safe to run in several processes)."""
        found = self.get(tournament_id)
        now = self.games.now()
        if found["status"] == "open":
            if found["starts_at"] is not None and found["starts_at"] <= now:
                if len(self._active(tournament_id)) >= 2:
                    self._begin(found)
                else:  # nobody to play: it ends empty
                    self.store.update_tournament(
                        tournament_id, {"status": "finished"}, {"status": "open"}, at=now
                    )
            found = self.get(tournament_id)
            if found["status"] != "running":
                return
        if found["status"] != "running":
            return
        self.create_games(tournament_id)
        boards = [b for b in self.store.boards(tournament_id) if b["round"] == found["round"]]
        self._settle_timeouts(boards)
        boards = [b for b in self.store.boards(tournament_id) if b["round"] == found["round"]]
        open_boards = [b for b in boards if b["result"] is None]
        if open_boards and found["closes_at"] is not None and found["closes_at"] <= now:
            for board in open_boards:
                state = self.games.state(board["game_id"])
                result = result_of(state) if state.status == "ended" else settled_result(state)
                self.store.settle_board(board["game_id"], result, now)
            open_boards = []
        if open_boards:
            return
        fmt = found["format"]
        if fmt == "league":
            if found["next_at"] is None:
                wait = int(found["season_break_hours"] or 0) * HOUR_MS
                self.store.update_tournament(
                    tournament_id, {"next_at": now + wait, "closes_at": None},
                    {"round": found["round"], "next_at": None},
                    self._mails(found, "season_over", found["round"]), now,
                )  # fmt: skip
                found = self.get(tournament_id)
            if found["next_at"] is not None and found["next_at"] <= now:
                self._begin(found)
                self.create_games(tournament_id)
            return
        last = 1 if fmt == "round_robin" else int(found["rounds"] or 1)
        if found["round"] >= last or len(self._active(tournament_id)) < 2:
            self.store.update_tournament(
                tournament_id, {"status": "finished", "closes_at": None},
                {"round": found["round"], "status": "running"},
                self._mails(found, "finished", found["round"]), now,
            )  # fmt: skip
            return
        self._begin(found)
        self.create_games(tournament_id)

    def _settle_timeouts(self, boards: Sequence[dict[str, Any]]) -> None:
        """A board's game whose clock ran out is settled by reading it (the game service
        writes the time-out; the hook records the result)."""
        for board in boards:
            if board["game_id"] is not None and board["result"] is None and board["created"]:
                state = self.games.state(board["game_id"])
                if state.status == "ended":  # ended before the hook existed: record it
                    self.store.settle_board(board["game_id"], result_of(state), self.games.now())

    def _active(self, tournament_id: str) -> list[str]:
        return [e["player_id"] for e in self.store.entrants(tournament_id) if e["left_at"] is None]

    def _begin(self, found: dict[str, Any]) -> bool:
        """Write the next round's boards (once, whoever comes first)."""
        tournament_id = found["id"]
        fmt = found["format"]
        entrants = self.store.entrants(tournament_id)
        active = [e["player_id"] for e in entrants if e["left_at"] is None]
        boards_before = self.store.boards(tournament_id)
        round_ = int(found["round"]) + 1
        seats = int(found["seats"])
        tables: list[tuple[tuple[str, ...], int]] = []
        bye: str | None = None
        divisions: dict[str, int] | None = None
        if fmt == "round_robin":
            tables = [(t, 0) for t in pairing.round_robin(active, seats)]
        elif fmt == "swiss":
            ranked = self._ranked(found, entrants, boards_before, active)
            met = {frozenset(b["players"].split()) for b in boards_before if b["game_id"]}
            had = {b["players"] for b in boards_before if b["game_id"] is None}
            pairs, bye = pairing.swiss(ranked, met, had)
            tables = [(p, 0) for p in pairs]
        elif fmt == "duplicate":
            ranked = self._ranked(found, entrants, boards_before, active)
            sat: set[frozenset[str]] = set()
            for b in boards_before:
                sat |= pairing.pairs_of(b["players"].split())
            tables = [(t, 0) for t in pairing.duplicate_tables(ranked, seats, sat)]
        else:
            divisions = self._next_divisions(found, entrants, boards_before, active)
            groups: dict[int, list[str]] = {}
            for player, division in divisions.items():
                groups.setdefault(division, []).append(player)
            for division in sorted(groups):
                tables += [(t, division) for t in pairing.round_robin(groups[division], seats)]
        now = self.games.now()
        rows = [
            {
                "tournament_id": tournament_id,
                "round": round_,
                "board": index,
                "game_id": board_game_id(tournament_id, round_, index),
                "players": " ".join(table),
                "division": division,
                "created": 0,
                "result": None,
                "ended_at": None,
            }
            for index, (table, division) in enumerate(tables)
        ]
        if bye is not None:
            rows.append(
                {
                    "tournament_id": tournament_id,
                    "round": round_,
                    "board": len(rows),
                    "game_id": None,
                    "players": bye,
                    "division": 0,
                    "created": 1,
                    "result": json.dumps({"bye": True}),
                    "ended_at": now,
                }
            )
        close = found["close_after_hours"]
        changes = {
            "status": "running",
            "next_at": None,
            "closes_at": None if close is None else now + int(close) * HOUR_MS,
        }
        return self.store.begin_round(
            tournament_id, int(found["round"]), rows, changes, divisions,
            self._mails(found, "round", round_, rows), now,
        )  # fmt: skip

    def _ranked(
        self,
        found: dict[str, Any],
        entrants: Sequence[dict[str, Any]],
        boards: Sequence[dict[str, Any]],
        active: Sequence[str],
    ) -> list[str]:
        """The active players by standing (before a first round: by rating, then joining)."""
        if not boards:
            rating = self.store.ratings_for(found["ruleset"], active)
            return sorted(active, key=lambda p: -rating.get(p, float("-inf")))
        lines = standings(found["format"], list(active), _played(boards))
        return [line.name for line in lines if line.name in set(active)]

    def _next_divisions(
        self,
        found: dict[str, Any],
        entrants: Sequence[dict[str, Any]],
        boards: Sequence[dict[str, Any]],
        active: Sequence[str],
    ) -> dict[str, int]:
        """A league's divisions for its next season: by rating for the first; then the
        last season's standings with the top two of each division up and the bottom two
        down; those who left out, newcomers at the bottom."""
        size = int(found["division_size"] or 10)
        if not boards:
            rating = self.store.ratings_for(found["ruleset"], active)
            ranked = sorted(active, key=lambda p: -rating.get(p, float("-inf")))
            return {p: d for d, group in enumerate(pairing.divisions(ranked, size)) for p in group}
        lines, divisions = self.standings(found, entrants, boards)
        count = max(divisions.values(), default=0) + 1
        by_division = [[line.name for line in lines if divisions.get(line.name) == d]
                       for d in range(count)]  # fmt: skip
        moved = pairing.promote(by_division)
        out: dict[str, int] = {}
        for division, group in enumerate(moved):
            for player in group:
                if player in active:
                    out[player] = division
        for player in active:
            out.setdefault(player, count - 1)
        return out

    def create_games(self, tournament_id: str) -> int:
        """Create the games of the round not created yet (by any process); how many this
        call made."""
        found = self.get(tournament_id)
        made = 0
        for board in self.store.boards(tournament_id):
            if board["round"] == found["round"] and not board["created"] and board["game_id"]:
                made += self.create_board(found, board)
        return made

    def create_board(self, found: dict[str, Any], board: dict[str, Any]) -> int:
        """Create a board's game if nobody has (1), else 0."""
        if board["created"] or board["game_id"] is None:
            return 0
        seats = tuple(board["players"].split())
        rules = ruleset(found["ruleset"])
        seed = None
        if found["format"] == "duplicate":
            mixed = hmac.new(
                str(found["secret"]).encode(), f"round:{board['round']}".encode(), hashlib.sha256
            ).digest()
            seed = int.from_bytes(mixed[:7], "big")
        clock = None if found["clock"] is None else ClockSpec(**json.loads(found["clock"]))
        create = Create(
            seats[0],
            players=len(seats),
            invited=seats[1:],
            clock=clock,
            order=bag_order(self.secret(), seed, rules.tile_set),
            salt=new_salt(),
            ruleset=rules.name,
            seed=seed,
            seating=seats,
        )
        joins: list[Command] = [Join(p) for p in seats[1:]]
        made = 0
        try:
            with ratings.creating(bool(found["rated"]) and ratings.available()):
                made = int(self.games.start_seated(board["game_id"], create, joins))
        except VersionConflict:
            made = 0
        self.store.mark_created(found["id"], board["round"], board["board"])
        return made

    def _mails(
        self,
        found: dict[str, Any],
        event: str,
        round_: int,
        rows: Sequence[dict[str, Any]] = (),
    ) -> list[Notification]:
        """A mail to each player: a round begins (their games), a season or the event ends."""
        players = self._active(found["id"])
        out = []
        for player in players:
            games = [r["game_id"] for r in rows if r["game_id"] and player in r["players"].split()]
            out.append(
                Notification(
                    "email",
                    "tournament",
                    player,
                    {
                        "tournament_id": found["id"],
                        "name": found["name"],
                        "event": event,
                        "round": round_,
                        "games": games,
                    },
                    message_id=f"tournament.{found['id']}.{event}.{round_}.{player}",
                )
            )
        return out


def _played(boards: Sequence[dict[str, Any]]) -> list[Played]:
    out = []
    for board in boards:
        if board["result"] is None:
            continue
        result = json.loads(board["result"])
        players = tuple(board["players"].split())
        if result.get("bye"):
            out.append(Played(board["round"], players))
        else:
            out.append(
                Played(
                    board["round"],
                    players,
                    tuple(result["places"]),
                    tuple(int(s) for s in result.get("scores") or ()),
                )
            )
    return out


def clock_from(body: Any) -> ClockSpec | None:
    """A tournament's clock from its body: a preset's name, or a clock's fields."""
    if body is None:
        return None
    if isinstance(body, str):
        return CLOCK_PRESETS[body]
    return ClockSpec(**body)
