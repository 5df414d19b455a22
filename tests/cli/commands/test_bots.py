"""``wait`` (one game, --any), ``hint`` and ``bot`` (one game, --all)."""

from __future__ import annotations

import json

import pytest

import mathable
from mathable.games.mathable.events import ExtraTileDrawn, TilePlaced, TurnEnded
from mathable_cli.commands.bots import decide
from mathable_cli.exits import ExitCode
from mathable_cli.screens.mathable.tournaments import bag_order as tournament_bag_order
from tests.cli.conftest import TILES, FakeGame, FakeServer, Invoke, bag_order, bob_plays


def test_wait_long_polls_until_it_is_my_turn(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Pass(0))
    fake.on_poll = lambda: bob_plays(fake, gid)
    result = cli("wait", gid)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{gid}\n"
    assert fake.polls == [{"wait": "60", "since": "4"}]
    assert "Your turn in game" in result.stderr


def test_wait_returns_at_once_when_it_is_already_my_turn(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("wait", gid, "--json")
    assert json.loads(result.stdout)["id"] == gid
    assert fake.polls == []


def test_wait_gives_up_at_the_timeout(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Pass(0))
    result = cli("wait", gid, "--timeout", "5", "--interval", "1")
    assert result.exit_code == ExitCode.ERROR
    assert "still not your turn" in result.stderr
    assert fake.polls[0] == {"wait": "5", "since": "4"}


def test_wait_ends_when_the_game_ends(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Pass(0))
    fake.on_poll = lambda: fake.run(gid, mathable.Resign(1))
    result = cli("wait", gid)
    # Not 0 ("your turn"): `while mathable-cli wait GAME; do ...; done` stops at the end.
    assert result.exit_code == ExitCode.GAME_OVER
    assert "is over" in result.stderr and "alice wins" in result.stderr
    again = cli("wait", gid)  # at once, without waiting, whenever asked again
    assert again.exit_code == ExitCode.GAME_OVER


def test_wait_any_polls_the_game_list(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Pass(0))
    calls = []

    def later() -> None:
        calls.append(1)
        if len(calls) == 3:
            bob_plays(fake, gid)

    fake.on_poll = later
    result = cli("wait", "--any", "--interval", "2")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{gid}\n"
    assert len(calls) == 4  # three polls, then one for what was played in the games found
    assert [p.get("details") for p in fake.polls] == [None, None, None, "true"]
    assert f"{gid}: bob played" in result.stderr


def test_wait_any_with_no_games_in_play_is_an_error(cli: Invoke, fake: FakeServer) -> None:
    result = cli("wait", "--any")
    assert result.exit_code == ExitCode.ERROR and "no game in play" in result.stderr


def test_wait_takes_a_game_or_any_not_both(cli: Invoke, fake: FakeServer) -> None:
    both = cli("wait", "g1", "--any")
    assert both.exit_code == ExitCode.USAGE and "not both" in both.stderr
    # No game: all of yours, as --any (here there are none in play, and it says so).
    alone = cli("wait")
    assert alone.exit_code == ExitCode.ERROR
    assert "you have no game in play to wait for" in alone.stderr


def test_wait_says_what_the_opponent_just_played(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Pass(0))

    def bob_plays() -> None:
        if fake.games[gid].state.turn.seat == 1:  # type: ignore[union-attr]
            fake.run(gid, mathable.Place(1, mathable.parse_square("H6"), 8))
            fake.run(gid, mathable.EndTurn(1))

    fake.on_poll = bob_plays
    result = cli("wait", gid)
    assert result.exit_code == 0, result.stderr
    assert "bob played H6=8 (8): 8 points." in result.stderr


def test_hint_gives_the_best_turn_and_legal_placements(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("hint", gid)
    assert result.exit_code == 0
    assert result.stdout.startswith("Best turn: ")
    assert "  I8=12  12 points" in result.stdout
    data = json.loads(cli("hint", gid, "--json").stdout)
    legal = {(p["square"], p["tile"]) for p in data["legal"]}
    assert legal == {(str(p.square), p.tile) for p in mathable.legal_placements({}, TILES[:7])}
    best = mathable.best_turn({}, TILES[:7])
    assert data["best_turn"]["total"] == best.total


def test_bot_decides_to_exchange_the_biggest_tiles_when_nothing_fits() -> None:
    view = {"you": 0, "board": {}, "rack": [90, 81, 13, 0], "bag_size": 2, "turn": {}}
    decision = decide(view, draw_extra=True)
    assert decision.kind == "exchange" and decision.tiles == [81, 90]
    assert decide({**view, "bag_size": 0}, draw_extra=True).kind == "pass"


def test_bot_passes_to_end_a_game_whose_last_turn_holds_no_mistake() -> None:
    view = {"you": 0, "board": {}, "rack": [12, 16], "bag_size": 0, "turn": {}}
    view["pending_end"] = "blocked"
    assert decide(view, draw_extra=True).kind == "pass"
    assert decide({**view, "pending_end": None}, draw_extra=True).kind == "turn"


def test_bot_does_not_draw_extras_that_would_cost_the_bonus() -> None:
    view = {"you": 0, "board": {}, "rack": [12, 16], "bag_size": 50, "turn": {}}
    assert [p.draw_extra for p in decide(view, draw_extra=True).planned] == [False, True]
    rack = {"you": 0, "board": {}, "rack": [1, 2, 8, 12, 16, 17, 42], "bag_size": 50, "turn": {}}
    best = decide(rack, draw_extra=True)
    if mathable.best_turn({}, rack["rack"]).bonus:  # pragma: no branch
        assert not any(p.draw_extra for p in best.planned)


def test_bot_plays_one_game_to_the_end(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob", tiles=None)  # random bag
    fake.on_poll = lambda: bob_plays(fake, gid)
    result = cli("bot", gid, "--interval", "0.01")
    assert result.exit_code == 0, result.stderr
    state = fake.games[gid].state
    assert state.status == "ended"
    assert result.stdout.startswith(f"{gid}: alice {state.seats[0].score}, bob")
    assert f"{gid}: played" in result.stderr


def test_bot_places_the_extra_tiles_an_engine_draws_in_a_turn_that_goes_on(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = fake.new_game("p-alice", "p-bob", tiles=list(tournament_bag_order(1, 0)))
    fake.on_poll = lambda: bob_plays(fake, gid)
    result = cli("bot", gid, "--interval", "0.01", "--engine", "strong")
    assert result.exit_code == 0, result.stderr
    state = fake.games[gid].state
    assert state.status == "ended"
    assert "; the turn goes on" in result.stderr
    # Alice placed tiles she drew as extras in the turn that drew them.
    log = fake.games[gid].log
    turn_extras: list[int] = []
    placed_extra = False
    for event in log:
        if isinstance(event, ExtraTileDrawn) and event.seat == 0:
            turn_extras.append(event.tile)
        elif isinstance(event, TilePlaced) and event.seat == 0:
            placed_extra |= event.tile in turn_extras
        elif isinstance(event, TurnEnded):
            turn_extras = []
    assert placed_extra


def test_bot_all_serves_every_game_with_one_request_per_poll(cli: Invoke, fake: FakeServer) -> None:
    games = [fake.new_game("p-alice", "p-bob", tiles=bag_order(*TILES[:14], (90, 81, 72)[i]))
             for i in range(3)]  # fmt: skip

    def everyone() -> None:
        for gid in games:
            bob_plays(fake, gid)

    fake.on_poll = everyone
    result = cli("bot", "--all", "--until-idle", "--interval", "0.01", "--max-interval", "1")
    assert result.exit_code == 0, result.stderr
    assert all(fake.games[g].state.status == "ended" for g in games)
    assert all(p.get("wait") is None for p in fake.polls)  # no long-poll per game
    for gid in games:
        assert f"{gid}: alice" in result.stdout


def test_bot_corrects_a_wrong_claim_in_players_mode(cli: Invoke, fake: FakeServer) -> None:
    gid = "g1"
    fake.games[gid] = FakeGame(mathable.replay([]))
    fake.run(gid, mathable.Create("p-bob", referee="players", tiles=tuple(TILES)))
    fake.run(gid, mathable.Join("p-alice"))
    sq = mathable.parse_square
    wrong = (mathable.Equation(sq("H8"), sq("G8"), "+"),)
    fake.run(gid, mathable.Place(0, sq("I8"), 12, wrong))  # bob (seat 0) claims 4 + 3 = 12
    fake.run(gid, mathable.EndTurn(0))
    fake.on_poll = lambda: fake.run(gid, mathable.Resign(0))
    result = cli("bot", gid, "--interval", "0.01")
    assert result.exit_code == 0, result.stderr
    assert fake.commands[0]["type"] == "correct"
    assert "corrected the last turn: 12 at I8: 4 + 3 does not make 12" in result.stderr


def test_bot_needs_games_or_all(cli: Invoke, fake: FakeServer) -> None:
    assert cli("bot").exit_code == ExitCode.USAGE
    assert cli("bot", "g1", "--all").exit_code == ExitCode.USAGE


@pytest.mark.parametrize("command", ["bot", "wait"])
def test_no_seat_in_the_game(cli: Invoke, fake: FakeServer, command: str) -> None:
    gid = fake.new_game("p-bob", None)
    result = cli(command, gid, "--timeout", "1") if command == "wait" else cli(command, gid)
    assert result.exit_code in (ExitCode.CONFLICT, ExitCode.ERROR)


def test_bot_leaves_a_rated_game_alone_unless_given_rated(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob", tiles=None)
    fake.rated.add(gid)
    before = fake.games[gid].state.version
    refused = cli("bot", gid, "--interval", "0.01")
    assert refused.exit_code == ExitCode.REFUSED
    assert f"game {gid} is rated" in refused.stderr and "--rated" in refused.stderr
    assert fake.games[gid].state.version == before and fake.commands == []
    fake.on_poll = lambda: bob_plays(fake, gid)
    played = cli("bot", gid, "--rated", "--interval", "0.01")  # a bot's own account
    assert played.exit_code == 0, played.stderr
    assert fake.games[gid].state.status == "ended"


def test_bot_all_skips_rated_games_and_says_so_once(cli: Invoke, fake: FakeServer) -> None:
    free, rated = (fake.new_game("p-alice", "p-bob", tiles=bag_order(*TILES[:14], last))
                   for last in (90, 81))  # fmt: skip
    fake.rated.add(rated)
    fake.on_poll = lambda: bob_plays(fake, free)
    result = cli("bot", "--all", "--until-idle", "--interval", "0.01", "--max-interval", "1")
    assert result.exit_code == 0, result.stderr
    assert fake.games[free].state.status == "ended"
    assert fake.games[rated].state.version == 3 and fake.games[rated].state.status == "playing"
    assert result.stderr.count(f"game {rated} is rated") == 1
