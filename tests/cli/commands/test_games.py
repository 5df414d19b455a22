"""``new``, ``join``, ``games``, ``show``, ``history`` and ``export``."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import responses

import mathable
from mathable_cli.exits import ExitCode
from tests.cli.conftest import SERVER, TILES, FakeServer, Invoke, body_of, requests_to


def test_new_sends_every_game_option(cli: Invoke, http: responses.RequestsMock) -> None:
    created = {"id": "g9", "status": "waiting", "seats": [{"player": "p"}, {}, {}]}
    http.post(f"{SERVER}/v1/games", status=201, json=created)
    result = cli(
        "new", "--players", "3", "--referee", "players", "--seed", "42",
        "--tiles", "1, 2 3", "--invite", "bob", "-i", "carol,dave",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "g9\n"
    (post,) = requests_to(http, "POST", "/v1/games")
    assert body_of(post) == {
        "players": 3,
        "referee": "players",
        "seed": 42,
        "tiles": [1, 2, 3],
        "invite": ["bob", "carol", "dave"],
    }
    assert "mathable-cli join g9" in result.stderr


def test_new_reads_the_bag_order_from_a_file(cli: Invoke, fake: FakeServer, tmp_path: Path) -> None:
    order = tmp_path / "bag.txt"
    order.write_text("\n".join(map(str, TILES)))
    result = cli("new", "--tiles", f"@{order}", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["status"] == "waiting"


def test_new_refuses_bad_options_as_usage_errors(cli: Invoke, http: responses.RequestsMock) -> None:
    assert cli("new", "--players", "5").exit_code == ExitCode.USAGE
    assert cli("new", "--referee", "judge").exit_code == ExitCode.USAGE
    bad = cli("new", "--tiles", "1,two")
    assert bad.exit_code == ExitCode.USAGE and "whole numbers" in bad.stderr
    assert len(http.calls) == 0


def test_join_takes_a_seat(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", None)
    result = cli("join", gid, env={"MATHABLE_TOKEN": "tok-bob"})
    assert result.exit_code == 0, result.stderr
    assert "You sit in seat 1" in result.stderr and "alice's turn" in result.stderr
    full = cli("join", gid, env={"MATHABLE_TOKEN": "tok-bob"})
    assert full.exit_code == ExitCode.REFUSED and "[game_full]" in full.stderr


def test_games_lists_those_waiting_on_me_first(cli: Invoke, fake: FakeServer) -> None:
    first = fake.new_game("p-alice", "p-bob")
    fake.run(first, mathable.Pass(0))  # now bob's turn
    second = fake.new_game("p-alice", "p-bob")
    result = cli("games")
    lines = result.stdout.splitlines()
    assert lines[0].startswith(second) and "YOUR TURN" in lines[0]
    assert lines[1].startswith(first) and "YOUR TURN" not in lines[1]
    assert "2 games, 1 waiting on you." in result.stderr
    data = json.loads(cli("games", "--json").stdout)
    assert [g["id"] for g in data["games"]] == [second, first]


def test_show_prints_board_scores_rack_bag_turn_and_last_turn(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    cli("move", gid, "I8=12", "J8=16")
    result = cli("show", gid, env={"MATHABLE_TOKEN": "tok-bob"})
    out = result.stdout
    assert result.exit_code == 0
    assert f"Game {gid} | your turn | bag 90 tiles" in out
    assert "  alice      28      7" in out
    assert "> bob         0      7  (you)" in out
    assert "Your rack: 1 2 4 6 8 10 11" in out
    assert "Last turn: alice: I8=12 (12), J8=16 (16) = 28" in out
    assert "12* 16*" in out


def test_show_json_is_the_apis_view(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    data = json.loads(cli("show", gid, "--json").stdout)
    assert data == fake.view(gid, "p-alice")


def test_history_lists_every_turn_with_placements_and_points(cli: Invoke, fake: FakeServer) -> None:
    gid = _finished_game(fake)
    result = cli("history", gid)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "  1. alice: I8=12 (12), J8=16 (16) = 28   [alice 28, bob 0]"
    assert lines[1] == "  2. bob: exchanged 2 tiles   [alice 28, bob 0]"
    assert lines[2] == "  3. alice: resigned   [alice 28, bob 0]"
    assert "Final scores:" in result.stdout and "bob wins" in result.stdout
    events = json.loads(cli("history", gid, "--json").stdout)
    assert events[0]["type"] == "game_created" and events[-1]["type"] == "game_ended"


def test_export_table_writes_a_readable_table(
    cli: Invoke, fake: FakeServer, tmp_path: Path
) -> None:
    gid = _finished_game(fake)
    target = tmp_path / "record.txt"
    result = cli("export", gid, "--table", "-o", str(target))
    assert result.exit_code == 0, result.stderr
    text = target.read_text()
    assert text.startswith(f"Mathable game {gid}\n")
    assert "Players: alice (seat 0), bob (seat 1)" in text
    assert "alice: I8=12 (12), J8=16 (16) = 28" in text
    assert "Rack deductions: alice -" in text
    assert " 8  3x  .  .  +  x  .  3  4 12 16  x  .  . 3x" in text  # the rule book's layout
    assert cli("export", gid, "--table").stdout == text


def test_export_writes_the_games_record(cli: Invoke, fake: FakeServer, tmp_path: Path) -> None:
    gid = _finished_game(fake)
    target = tmp_path / "record.txt"
    result = cli("export", gid, "-o", str(target))
    assert result.exit_code == 0, result.stderr
    text = target.read_text()
    assert text.startswith('[Game "mathable"]\n[Rules "3"]\n[Seat1 "alice"]\n[Seat2 "bob"]\n')
    assert "\n1. alice: I8=12 J8=16 (28)\n" in text
    assert "\n3. alice: resign\n" in text
    assert cli("export", gid).stdout == text


def _finished_game(fake: FakeServer) -> str:
    gid = fake.new_game("p-alice", "p-bob")
    sq = mathable.parse_square
    fake.run(gid, mathable.PlayTurn(0, (mathable.TurnPlacement(sq("I8"), 12),
                                        mathable.TurnPlacement(sq("J8"), 16))))  # fmt: skip
    fake.run(gid, mathable.Exchange(1, (2, 8)))
    fake.run(gid, mathable.Resign(0))
    return gid


def _summaries() -> dict[str, object]:
    seats = [
        {"seat": 0, "player": "p1", "name": "alice", "score": 28},
        {"seat": 1, "player": "p2", "name": "bob", "score": 0},
    ]
    last = {
        "seat": 0,
        "ended_by": "played",
        "points": 28,
        "bonus": 0,
        "exchanged": 0,
        "placements": [
            {"square": "I8", "tile": 12, "points": 12, "equations": []},
            {"square": "J8", "tile": 16, "points": 16, "equations": []},
        ],
    }
    an_hour_ago = (datetime.now(UTC) - timedelta(minutes=61)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        "id": "p2",
        "name": "bob",
        "next_offset": None,
        "games": [
            {"id": "g1", "status": "playing", "your_turn": True, "waiting_on_you": True,
             "your_seat": 1, "seats": seats, "last_turn": last, "updated_at": an_hour_ago},
            {"id": "g2", "status": "waiting", "your_turn": False, "waiting_on_you": True,
             "your_seat": None, "seats": [{**seats[0], "score": 0}], "last_turn": None},
            {"id": "g3", "status": "ended", "your_turn": False, "waiting_on_you": False,
             "your_seat": 1, "seats": seats, "last_turn": {**last, "seat": 1,
             "ended_by": "passed", "placements": []}, "result": {"reason": "blocked",
             "deductions": [0, 0], "scores": [28, 0], "winners": [0]}},
        ],
    }  # fmt: skip


def test_games_shows_scores_time_since_and_the_last_turn(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    http.get(f"{SERVER}/v1/me", json=_summaries())
    lines = cli("games").stdout.splitlines()
    # Each game's ruleset (a summary without one: the default game's) and who won.
    assert lines == [
        "g1           mathable  YOUR TURN     alice 28, bob 0  (1 h ago)",
        "             last: alice played I8=12 (12), J8=16 (16): 28 points",
        "g2           mathable  invited: join alice",
        "g3           mathable  finished      alice 28, bob 0  (alice won)",
        "             last: you passed",
    ]


def test_games_filters_active_and_finished(cli: Invoke, http: responses.RequestsMock) -> None:
    http.get(f"{SERVER}/v1/me", json=_summaries())
    active = cli("games", "--active").stdout
    assert "g1" in active and "g2" in active and "g3" not in active
    finished = cli("games", "--finished").stdout
    assert finished.startswith("g3") and "g1" not in finished
    data = json.loads(cli("games", "--finished", "--json").stdout)
    assert [g["id"] for g in data["games"]] == ["g3"]
    assert cli("games", "--active", "--finished").exit_code == ExitCode.USAGE


def test_show_falls_back_on_the_views_last_turn(cli: Invoke, http: responses.RequestsMock) -> None:
    view = {
        "id": "g1", "version": 9, "status": "playing", "you": None, "rack": None,
        "seats": [{"player": "p1", "name": "alice", "score": 28, "rack_size": 7},
                  {"player": "p2", "name": "bob", "score": 0, "rack_size": 7}],
        "board": {"I8": 12, "J8": 16}, "bag_size": 90,
        "turn": {"seat": 1, "placements": []},
        "last_turn": {"seat": 0, "placements": [
            {"square": "I8", "tile": 12, "points": 12, "equations": []},
            {"square": "J8", "tile": 16, "points": 16, "equations": []}],
            "points": 28, "bonus": 0},
    }  # fmt: skip
    http.get(f"{SERVER}/v1/games/g1", json=view)
    http.get(f"{SERVER}/v1/games/g1/events", status=403, json={"error": {"code": "x"}})
    result = cli("show", "g1")
    assert result.exit_code == 0, result.stderr
    assert "Last turn: alice: I8=12 (12), J8=16 (16) = 28" in result.stdout
    assert "12* 16*" in result.stdout
    assert "Your rack" not in result.stdout  # a spectator has none
