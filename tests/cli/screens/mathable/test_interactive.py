"""``move`` without placements: Mathable's interactive turn (``screens/mathable/interactive.py``),
fed through stdin: placements staged and sent as one turn, undo, the extra tile, the
players' referee's "send it anyway", passing and exchanging."""

from __future__ import annotations

import mathable
from mathable_cli.exits import ExitCode
from tests.cli.conftest import TILES, FakeGame, FakeServer, Invoke


def test_interactive_turn_with_refusal_extra_tile_and_done(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    script = "I8=9\nI8=12\nJ8=16\ny\nhint\ndone\n"
    result = cli("move", gid, input=script)
    assert result.exit_code == 0, result.stderr
    assert "4 and 3 make 1 by -, 7 by +, 12 by x" in result.stderr  # the refusal, explained
    assert "I8=12 scores 12: 4 x 3." in result.stderr
    assert "J8=16 scores 16: 12 + 4." in result.stderr
    assert "draw an extra tile? That sends the 2 placements staged so far" in result.stderr
    assert "You drew 45." in result.stderr
    assert "Best turn:" in result.stderr
    # Both placements went with the extra draw; `done` only ends the turn.
    assert [c["type"] for c in fake.commands] == ["place", "place", "draw_extra", "end_turn"]
    assert "Turn ended: I8=12 (12), J8=16 (16): 28 points. Your score: 28." in result.stderr
    assert "Your rack:" in result.stdout  # the board and rack shown at the start


def test_interactive_placements_are_staged_and_sent_as_one_turn(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    script = "I8=12\nF8=7\nundo\nF8=7\nclear\nI8=12\nJ8=16\nn\ndone\n"
    result = cli("move", gid, input=script)
    assert result.exit_code == 0, result.stderr
    assert "Staged, not sent: I8=12 (12), F8=7 (7): 19 points this turn." in result.stderr
    assert "Took back F8=7. Staged, not sent: I8=12 (12): 12 points this turn." in result.stderr
    assert "Took back 2 placements. Nothing staged." in result.stderr
    assert "Staged, not sent: I8=12 (12), J8=16 (16): 28 points this turn." in result.stderr
    # One all-or-nothing turn, with only what was left staged.
    assert [c["type"] for c in fake.commands] == ["turn"]
    sent = [(p["square"], p["tile"]) for p in fake.commands[0]["placements"]]
    assert sent == [("I8", 12), ("J8", 16)]
    assert fake.games[gid].state.seats[0].score == 28


def test_interactive_undo_with_nothing_staged_is_no_notation_error(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, input="undo\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert "Nothing to take back." in result.stderr
    assert "error" not in result.stderr
    assert fake.commands == []


def test_interactive_end_of_input_sends_nothing_staged(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, input="I8=12\n")
    assert result.exit_code == 0
    assert "Dropped 1 staged placement: not sent." in result.stderr
    assert fake.commands == []
    assert fake.games[gid].state.position.cells[mathable.parse_square("I8")] < 0


def test_interactive_drawing_the_extra_tile_commits_and_undo_then_refuses(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, input="I8=12\nJ8=16\ny\nundo\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert [c["type"] for c in fake.commands] == ["place", "place", "draw_extra"]
    assert "sent with the extra tile: they stay" in result.stderr
    assert "Leaving with your turn open" in result.stderr


def test_interactive_declining_the_extra_tile_draws_nothing(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, input="I8=12 J8=16\nn\ndone\n")
    assert result.exit_code == 0, result.stderr
    assert [c["type"] for c in fake.commands] == ["turn"]
    assert fake.commands[0]["placements"][1]["draw_extra"] is False


def test_interactive_players_referee_offers_to_send_a_wrong_tile_anyway(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = "g1"
    fake.games[gid] = FakeGame(mathable.replay([]))
    fake.run(gid, mathable.Create("p-alice", referee="players", tiles=tuple(TILES)))
    fake.run(gid, mathable.Join("p-bob"))
    result = cli("move", gid, input="I8=9\ny\ndone\n")
    assert result.exit_code == 0, result.stderr
    assert "none makes 9" in result.stderr  # the warning: why it does not fit
    assert "refereed by the players: send it anyway?" in result.stderr
    (placement,) = fake.commands[0]["placements"]
    assert placement["square"] == "I8" and placement["tile"] == 9
    assert placement["equations"] == [{"near": "H8", "far": "G8", "op": "+"}]
    # Now bob can make the correction the mode exists for.
    bob = cli("correct", gid, env={"MATHABLE_TOKEN": "tok-bob"})
    assert bob.exit_code == 0, bob.stderr
    assert "bob corrected alice" in bob.stderr


def test_interactive_players_referee_declined_sends_nothing(cli: Invoke, fake: FakeServer) -> None:
    gid = "g1"
    fake.games[gid] = FakeGame(mathable.replay([]))
    fake.run(gid, mathable.Create("p-alice", referee="players", tiles=tuple(TILES)))
    fake.run(gid, mathable.Join("p-bob"))
    result = cli("move", gid, input="I8=9\nn\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert fake.commands == []


def test_server_referee_never_offers_to_send_anyway(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, input="I8=9\ny\nquit\n")
    assert "send it anyway" not in result.stderr
    assert fake.commands == []


def test_interactive_done_with_nothing_placed_offers_to_pass(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, input="done\ny\n")
    assert result.exit_code == 0
    assert [c["type"] for c in fake.commands] == ["pass"]
    assert "You passed." in result.stderr


def test_interactive_exchange(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, input="exchange 40 99\nexchange 40 9\n")
    assert result.exit_code == 0, result.stderr
    assert "tile_not_in_rack" in result.stderr
    assert fake.commands[-1]["tiles"] == [40, 9]
    assert "You exchanged 2 tiles." in result.stderr


def test_interactive_when_not_your_turn_exits_4(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("move", gid, input="", env={"MATHABLE_TOKEN": "tok-bob"})
    assert result.exit_code == ExitCode.CONFLICT
