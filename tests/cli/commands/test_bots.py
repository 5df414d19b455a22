"""``hint`` and ``bot`` (one game, --all) (``wait``: test_watch.py; what the bot decides:
screens/mathable/test_bot.py)."""

from __future__ import annotations

import json

import pytest

import mathable
from mathable.games.mathable.events import ExtraTileDrawn, TilePlaced, TurnEnded
from mathable_cli.exits import ExitCode
from mathable_cli.screens.mathable.tournaments import bag_order as tournament_bag_order
from tests.cli.conftest import TILES, FakeGame, FakeServer, Invoke, bag_order, bob_plays


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
