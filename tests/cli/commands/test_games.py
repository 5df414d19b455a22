"""``new``, ``join``, ``games``, ``show``, ``history`` and ``export`` (the last two sections:
what new users' trials found, from the former test_newcomer.py and test_trial_findings.py)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import responses

import mathable
from mathable.core.lifecycle import Create, Decline
from mathable.core.ruleset import ruleset
from mathable_cli.exits import ExitCode
from mathable_cli.game import local_time
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


# --- found in a new user's trial (the former test_newcomer.py): looking at a game --------


def test_show_history_and_export_need_no_account(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    cli("move", gid, "I8=12", "J8=16")
    anonymous = {"MATHABLE_TOKEN": ""}
    shown = cli("show", gid, env=anonymous)
    assert shown.exit_code == 0, shown.stderr
    assert "12* 16*" in shown.stdout and "Your rack" not in shown.stdout
    history = cli("history", gid, env=anonymous)
    assert history.exit_code == 0, history.stderr
    assert "alice: I8=12 (12), J8=16 (16) = 28" in history.stdout
    assert cli("export", gid, env=anonymous).exit_code == 0
    # Without a game, there is nothing to guess from: say which.
    assert cli("show", env=anonymous).exit_code == ExitCode.USAGE


def test_export_is_the_same_whoever_exports_it(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    by_alice = cli("export", gid, "--table").stdout
    by_bob = cli("export", gid, "--table", env={"MATHABLE_TOKEN": "tok-bob"}).stdout
    assert by_alice == by_bob
    assert "Status: alice's turn" in by_alice and "your turn" not in by_alice
    assert "version" not in by_alice


def test_export_letters_stand_over_their_columns(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    cli("move", gid, "I8=12")
    text = cli("export", gid, "--table").stdout.splitlines()
    header = next(line for line in text if line.split() == list("ABCDEFGHIJKLMN"))
    row8 = next(line for line in text if line.startswith(" 8 "))
    assert header.index("I") == row8.index("12") + 1
    assert header.index("A") == row8.index("3x") + 1


def test_the_game_over_header_fits_80_columns_and_has_no_version(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Resign(0))
    shown = cli("show", gid).stdout.splitlines()
    assert shown[0] == f"Game {gid} | game over: bob wins"
    assert all(len(line) <= 80 for line in shown)
    assert "The game is over: all players but one resigned." in shown
    playing = cli("show", fake.new_game("p-alice", "p-bob")).stdout.splitlines()[0]
    assert "version" not in playing


def test_history_deductions_never_read_minus_zero(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Resign(1))
    history = cli("history", gid).stdout
    line = next(x for x in history.splitlines() if x.startswith("Rack deductions:"))
    assert "-0" not in line and re.fullmatch(r"Rack deductions: alice -\d+, bob -\d+", line)


def test_history_times_are_local(cli: Invoke) -> None:
    stamp = "2026-03-01T09:15:00.000000Z"
    expected = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone()
    assert local_time(stamp) == expected.strftime("%Y-%m-%d %H:%M")
    assert local_time(None) == "" and local_time("yesterday") == ""


def test_show_reads_the_last_turn_from_the_view_not_the_whole_log(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    cli("move", gid, "I8=12", "J8=16")
    cli("exchange", gid, "2", "8", env={"MATHABLE_TOKEN": "tok-bob"})
    before = len(fake.http.calls)
    shown = cli("show", gid)
    assert "Last turn: bob: exchanged 2 tiles" in shown.stdout
    calls = [c.request.url for c in fake.http.calls[before:]]
    # The game's view, and the seat's new messages: never the whole log.
    assert len(calls) == 2 and not any("/events" in c for c in calls)
    assert "/messages" in calls[1]


# --- found in a new user's trial of issue 27's features (the former test_trial_findings.py):
# cancelled games in the list; what show tells the creator of a declined game -----------


def test_games_active_leaves_cancelled_games_out(cli: Invoke, http: responses.RequestsMock) -> None:
    http.get(
        f"{SERVER}/v1/me",
        json={"games": [{"id": "gcancelled1", "status": "cancelled"},
                        {"id": "gplaying001", "status": "playing"}], "next_offset": None},
    )  # fmt: skip
    active = json.loads(cli("games", "--active", "--json").stdout)
    assert [g["id"] for g in active["games"]] == ["gplaying001"]
    finished = json.loads(cli("games", "--finished", "--json").stdout)
    assert [g["id"] for g in finished["games"]] == ["gcancelled1"]


def _waiting_view(*commands: object) -> dict[str, Any]:
    """A Mathable game of ann's for three, bob and cy invited, after ``commands``; ann's view."""
    rules = ruleset("mathable")
    state = rules.new_state()
    for command in [Create("p-ann", players=3, invited=("p-bob", "p-cy")), *commands]:
        for event in rules.check(state, command):
            state = rules.apply(state, event)
    view = rules.view(state, 0)
    view["id"] = FULL
    return view


FULL = "gbzxgg784vx"


def test_show_tells_the_creator_of_a_declined_game_how_to_open_it(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    """Found in a new user's trial: the creator was never told a declined game is closed."""
    http.get(f"{SERVER}/v1/games/{FULL}", json=_waiting_view(Decline("p-bob")))
    http.get(f"{SERVER}/v1/games/{FULL}/events", json={"version": 2, "events": [
        {"type": "game_created", "version": 1, "creator": "p-ann"},
        {"type": "invitation_declined", "version": 2, "player": "p-bob"},
    ]})  # fmt: skip
    result = cli("show", FULL)
    assert result.exit_code == 0, result.stderr
    assert "An invitee declined" in result.stderr
    assert f"mathable-cli open {FULL} --to-anyone" in result.stderr


def test_show_tells_a_rematch_creator_outside_seat_0_too(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    rules = ruleset("mathable")
    state = rules.new_state()
    seating = ("p-cy", "p-ann", "p-bob")  # a rematch: ann, its creator, sits in seat 1
    create = Create("p-ann", players=3, invited=("p-bob", "p-cy"), seating=seating)
    for command in (create, Decline("p-bob")):
        for event in rules.check(state, command):
            state = rules.apply(state, event)
    view = rules.view(state, 1)
    view["id"] = FULL
    http.get(f"{SERVER}/v1/games/{FULL}", json=view)
    http.get(f"{SERVER}/v1/games/{FULL}/events", json={"version": 2, "events": [
        {"type": "game_created", "version": 1, "creator": "p-ann"},
        {"type": "invitation_declined", "version": 2, "player": "p-bob"},
    ]})  # fmt: skip
    result = cli("show", FULL)
    assert result.exit_code == 0, result.stderr
    assert "An invitee declined" in result.stderr


def test_show_says_nothing_of_it_once_the_game_is_opened(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    http.get(f"{SERVER}/v1/games/{FULL}", json=_waiting_view(Decline("p-bob")))
    http.get(f"{SERVER}/v1/games/{FULL}/events", json={"version": 3, "events": [
        {"type": "game_created", "version": 1, "creator": "p-ann"},
        {"type": "invitation_declined", "version": 2, "player": "p-bob"},
        {"type": "game_opened", "version": 3, "player": "p-ann"},
    ]})  # fmt: skip
    result = cli("show", FULL)
    assert result.exit_code == 0, result.stderr
    assert "An invitee declined" not in result.stderr
