"""``move`` one-shot, ``exchange``, ``pass``, ``correct``, ``resign`` (``move`` without
placements, the interactive turn: screens/mathable/test_interactive.py)."""

from __future__ import annotations

import json

import responses

import mathable
from mathable_cli.exits import ExitCode
from tests.cli.conftest import SERVER, TILES, FakeGame, FakeServer, Invoke, requests_to


def test_one_shot_move_plays_the_whole_turn_and_ends_it(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, "I8=12", "16@J8")
    assert result.exit_code == ExitCode.OK, result.stderr
    assert fake.commands == [
        {
            "type": "turn",
            "expected_version": 3,
            "placements": [
                {"square": "I8", "tile": 12, "draw_extra": False},
                {"square": "J8", "tile": 16, "draw_extra": False},
            ],
        }
    ]
    assert "Your score: 28 (+28)" in result.stderr
    assert "bob's turn" in result.stderr
    assert "Played I8=12 (12 points: 4 x 3), J8=16 (16 points: 12 + 4)." in result.stderr
    state = fake.games[gid].state
    assert state.seats[0].score == 28 and state.turn is not None and state.turn.seat == 1


def test_every_write_carries_an_idempotency_key(
    cli: Invoke, fake: FakeServer, http: responses.RequestsMock
) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    cli("move", gid, "I8=12")
    (post,) = requests_to(http, "POST", "/moves")
    assert len(post.headers["Idempotency-Key"]) >= 16
    assert post.headers["Authorization"] == "Bearer tok-alice"


def test_draw_extra_marks_operation_squares_only(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, "I8=12", "J8=16", "--draw-extra", "--json")
    assert result.exit_code == 0, result.stderr
    placements = fake.commands[0]["placements"]
    assert [p["draw_extra"] for p in placements] == [False, True]  # J8 is a + square
    assert "drew 1 extra tile" in result.stderr
    view = json.loads(result.stdout)
    assert view["seats"][0]["score"] == 28


def test_square_with_no_pair_is_refused_locally(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, "J8=12")
    assert result.exit_code == ExitCode.ILLEGAL_MOVE
    assert "J8 is not next to two tiles in a row or column" in result.stderr
    assert "[no_pair]" in result.stderr
    assert fake.commands == []


def test_an_illegal_move_suggests_hint_only_in_an_unrated_game(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    assert f"mathable-cli hint {gid}" in cli("move", gid, "J8=12").stderr
    fake.rated.add(gid)
    result = cli("move", gid, "J8=12")
    assert result.exit_code == ExitCode.ILLEGAL_MOVE and "[no_pair]" in result.stderr
    assert "mathable-cli hint" not in result.stderr


def test_operation_square_demands_its_operation(cli: Invoke, http: responses.RequestsMock) -> None:
    http.get(f"{SERVER}/v1/games/g1", json={**_view_for_alice(), "board": {"I8": 12}, "rack": [8]})
    result = cli("move", "g1", "J8=8")
    assert result.exit_code == ExitCode.ILLEGAL_MOVE
    assert "J8 demands +" in result.stderr and "[wrong_operation]" in result.stderr
    assert requests_to(http, "POST", "/moves") == []


def test_refusal_names_the_pairs_and_what_they_make(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, "I8=9")
    assert result.exit_code == ExitCode.ILLEGAL_MOVE
    assert "placement 1 (I8=9)" in result.stderr
    assert "4 and 3 make 1 by -, 7 by +, 12 by x" in result.stderr
    assert "[no_equation]" in result.stderr
    assert fake.commands == []


def test_tile_not_on_rack_is_refused_locally(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, "I8=12", "J8=12")
    assert result.exit_code == ExitCode.ILLEGAL_MOVE
    assert "no 12 on your rack" in result.stderr
    assert fake.commands == []


def test_bad_placement_syntax_is_a_usage_error(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    for text in ("I8-12", "Z9=3", "I8=x"):
        result = cli("move", gid, text)
        assert result.exit_code == ExitCode.USAGE, text
        assert "Traceback" not in result.output
    assert fake.commands == []


def test_move_when_it_is_not_your_turn_exits_4(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, "I8=3", env={"MATHABLE_TOKEN": "tok-bob"})
    assert result.exit_code == ExitCode.CONFLICT
    assert "not your turn" in result.stderr and "alice's" in result.stderr
    assert f"mathable-cli wait {gid}" in result.stderr


def test_server_refusal_422_exits_3_with_its_code(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    view = _view_for_alice()
    http.get(f"{SERVER}/v1/games/g1", json=view)
    http.post(
        f"{SERVER}/v1/games/g1/moves",
        status=422,
        json={"error": {"code": "no_equation", "message": "placement 1: 12 at I8: nope"}},
    )
    result = cli("move", "g1", "I8=12")
    assert result.exit_code == ExitCode.ILLEGAL_MOVE
    assert "placement 1: 12 at I8: nope" in result.stderr and "[no_equation]" in result.stderr


def test_conflict_409_says_what_changed_and_exits_4(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    old = _view_for_alice()
    new = {**old, "version": 5}
    http.get(f"{SERVER}/v1/games/g1", json=old)
    http.get(f"{SERVER}/v1/games/g1", json=new)
    http.post(
        f"{SERVER}/v1/games/g1/moves",
        status=409,
        json={"error": {"code": "version_conflict", "message": "the game is at version 5"}},
    )
    http.get(
        f"{SERVER}/v1/games/g1/events",
        json={
            "id": "g1",
            "version": 5,
            "events": [
                {
                    "type": "corrected",
                    "seat": 1,
                    "target": 0,
                    "removed": [[106, 12]],
                    "points_lost": 12,
                    "reason": "12 at I8 is wrong",
                    "version": 4,
                },
                {"type": "passed", "seat": 0, "version": 5},
            ],
        },
    )
    result = cli("move", "g1", "I8=12")
    assert result.exit_code == ExitCode.CONFLICT
    assert "changed while you were deciding (version 3 -> 5)" in result.stderr
    assert "bob corrected alice" in result.stderr and "alice passed" in result.stderr
    assert "nothing was played" in result.stderr


def test_open_turn_goes_on_one_command_at_a_time(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Place(0, mathable.parse_square("I8"), 12))
    result = cli("move", gid, "J8=16", "--draw-extra")
    assert result.exit_code == 0, result.stderr
    assert [c["type"] for c in fake.commands] == ["place", "draw_extra", "end_turn"]
    assert fake.games[gid].state.seats[0].score == 28


def test_players_referee_sends_the_claimed_equations(cli: Invoke, fake: FakeServer) -> None:
    gid = "g1"
    fake.games[gid] = FakeGame(mathable.replay([]))
    fake.run(gid, mathable.Create("p-alice", referee="players", tiles=tuple(TILES)))
    fake.run(gid, mathable.Join("p-bob"))
    result = cli("move", gid, "I8=12")
    assert result.exit_code == 0, result.stderr
    (placement,) = fake.commands[0]["placements"]
    assert placement["equations"] == [{"near": "H8", "far": "G8", "op": "x"}]


def test_one_shot_anyway_in_a_players_game(cli: Invoke, fake: FakeServer) -> None:
    gid = "g1"
    fake.games[gid] = FakeGame(mathable.replay([]))
    fake.run(gid, mathable.Create("p-alice", referee="players", tiles=tuple(TILES)))
    fake.run(gid, mathable.Join("p-bob"))
    refused = cli("move", gid, "I8=9")
    assert refused.exit_code == ExitCode.ILLEGAL_MOVE
    assert "--anyway" in refused.stderr
    sent = cli("move", gid, "I8=9", "--anyway")
    assert sent.exit_code == 0, sent.stderr
    assert "completes no equation; sent anyway" in sent.stderr
    assert fake.games[gid].state.seats[0].score == 9  # as claimed, until corrected


# --- other turn commands -------------------------------------------------------


def test_exchange_pass_and_their_local_checks(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    bad = cli("exchange", gid, "41")
    assert bad.exit_code == ExitCode.ILLEGAL_MOVE and "no 41 on your rack" in bad.stderr
    ok = cli("exchange", gid, "40", "9")
    assert ok.exit_code == 0, ok.stderr
    assert fake.commands[-1] == {"type": "exchange", "tiles": [40, 9], "expected_version": 3}
    passed = cli("pass", gid, env={"MATHABLE_TOKEN": "tok-bob"})
    assert passed.exit_code == 0
    assert fake.commands[-1]["type"] == "pass"
    assert fake.games[gid].state.idle_turns == 2


def test_resign_needs_confirmation_when_not_at_a_terminal(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    refused = cli("resign", gid)
    assert refused.exit_code == ExitCode.USAGE and "--yes" in refused.stderr
    done = cli("resign", gid, "--yes")
    assert done.exit_code == 0
    assert fake.games[gid].state.status == "ended"
    assert "bob wins" in done.stderr


def test_correct_of_a_wrong_claim_says_the_tile_stays_and_only_the_points_were_fixed(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = "g1"
    fake.games[gid] = FakeGame(mathable.replay([]))
    fake.run(gid, mathable.Create("p-alice", referee="players", tiles=tuple(TILES)))
    fake.run(gid, mathable.Join("p-bob"))
    wrong = (mathable.Equation(mathable.parse_square("H8"), mathable.parse_square("G8"), "+"),)
    fake.run(gid, mathable.Place(0, mathable.parse_square("I8"), 12, wrong))  # 12 is 4 x 3
    fake.run(gid, mathable.EndTurn(0))
    result = cli("correct", gid, env={"MATHABLE_TOKEN": "tok-bob"})
    assert result.exit_code == 0, result.stderr
    assert "bob corrected alice" in result.stderr and "12 points lost" in result.stderr
    assert "the tiles stay, only the points were fixed (I8=12 now scores 0)" in result.stderr
    assert "taken back" not in result.stderr
    assert fake.games[gid].state.seats[0].score == 0
    assert fake.games[gid].state.position.cells[mathable.parse_square("I8")] == 12
    again = cli("correct", gid, env={"MATHABLE_TOKEN": "tok-bob"})
    assert again.exit_code == ExitCode.REFUSED  # nothing to correct: not an illegal move
    assert "nothing_to_correct" in again.stderr


def test_correct_says_the_extra_tile_went_back_into_the_bag_without_naming_it(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = "g1"
    fake.games[gid] = FakeGame(mathable.replay([]))
    fake.run(gid, mathable.Create("p-alice", referee="players", tiles=tuple(TILES)))
    fake.run(gid, mathable.Join("p-bob"))
    sq = mathable.parse_square
    fake.run(gid, mathable.Place(0, sq("I8"), 12, (mathable.Equation(sq("H8"), sq("G8"), "x"),)))
    wrong = (mathable.Equation(sq("I8"), sq("H8"), "+"),)  # 12 + 4 is 16, not 7
    fake.run(gid, mathable.Place(0, sq("J8"), 7, wrong))
    fake.run(gid, mathable.DrawExtra(0))  # draws the 45
    fake.run(gid, mathable.EndTurn(0))
    result = cli("correct", gid, env={"MATHABLE_TOKEN": "tok-bob"})
    assert result.exit_code == 0, result.stderr
    assert "J8=7 taken back; the extra tile went back into the bag" in result.stderr
    assert "(45)" not in result.stderr
    history = cli("history", gid)  # alice drew it: she is told which
    assert "J8=7 taken back; the extra tile (45) went back into the bag" in history.stdout
    assert 45 not in fake.games[gid].state.seats[0].rack


def _view_for_alice() -> dict[str, object]:
    return {
        "id": "g1",
        "version": 3,
        "status": "playing",
        "referee": "server",
        "seats": [
            {"seat": 0, "player": "p-alice", "name": "alice", "score": 0, "rack_size": 7},
            {"seat": 1, "player": "p-bob", "name": "bob", "score": 0, "rack_size": 7},
        ],
        "you": 0,
        "rack": [12, 16, 3, 7, 40, 9, 5],
        "board": {},
        "bag_size": 92,
        "turn": {
            "seat": 0,
            "started_with": 7,
            "placements": [],
            "points": 0,
            "extra_available": False,
            "bonus": 0,
        },
        "last_turn": None,
        "result": None,
    }
