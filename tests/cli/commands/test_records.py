"""``import``, ``review`` and ``tutorial``: records replayed by the real executable, no server."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import responses

from mathable.core.record import write_record
from mathable.games.mathable.engine import PlayerView, checked_choice, to_commands
from mathable.games.mathable.engines import best
from mathable.games.summy import selfplay
from mathable_cli.exits import ExitCode
from tests.cli.players import cli_command
from tests.rules.record_helpers import Table, mathable_selfplay


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*cli_command(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "MATHABLE_CONFIG_DIR": "/nonexistent"},
    )


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "game.txt"
    path.write_text(write_record(mathable_selfplay(3)).text(), encoding="utf-8")
    return path


def test_import_replays_a_record_to_its_final_scores(record_file: Path) -> None:
    result = run("import", str(record_file))
    assert result.returncode == 0, result.stderr
    text = record_file.read_text()
    scores = re.search(r'\[Result "(\d+) (\d+)"\]', text)
    assert scores is not None
    assert f"ada: {scores.group(1)}\nbob: {scores.group(2)}\n" in result.stdout
    assert "game over" in result.stdout
    assert "the tiles drawn follow the bag order committed to at its creation" in result.stdout
    assert "not that these moves were played" in result.stdout
    assert "matches its commitment" not in result.stdout
    assert "     A  B  C  D  E  F  G  H  I  J  K  L  M  N" in result.stdout


def test_import_refuses_a_broken_record_with_its_line(record_file: Path, tmp_path: Path) -> None:
    lines = record_file.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("4. "))
    lines[at] = re.sub(r"\((\d+)", lambda m: f"({int(m.group(1)) + 5}", lines[at])
    broken = tmp_path / "broken.txt"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("import", str(broken))
    assert result.returncode == ExitCode.ILLEGAL_MOVE, result.stderr
    assert f"line {at + 1}: the record scores this turn" in result.stderr
    assert result.stdout == ""


def test_import_of_a_record_without_its_bag_order_says_why(tmp_path: Path) -> None:
    hidden = tmp_path / "hidden.txt"
    hidden.write_text(write_record(mathable_selfplay(3), revealed=False).text(), encoding="utf-8")
    result = run("import", str(hidden))
    assert result.returncode == ExitCode.ERROR
    assert "holds no bag order" in result.stderr


def _best_against_best(name: str) -> str:
    table = Table(name, 2, 7)
    while table.state.status == "playing":
        if name == "summy":
            for command in selfplay.turns(table.state, selfplay.best):
                table.run(command)
            continue
        seat = table.state.turn.seat
        view = PlayerView.of(table.state, seat)
        choice = checked_choice(best(view), view)
        for command in to_commands(choice, seat, bag_size=view.bag_size, mid_turn=False):
            table.run(command)
    return write_record(table.events).text()


@pytest.mark.parametrize("name", ["mathable", "summy"])
def test_a_game_of_best_against_best_loses_no_points(name: str, tmp_path: Path) -> None:
    path = tmp_path / "best.txt"
    path.write_text(_best_against_best(name), encoding="utf-8")
    result = run("review", str(path), "--json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["ruleset"] == name
    assert found["total_lost"] == 0 and found["costliest"] == []
    plays = [t for t in found["turns"] if t["best"] is not None]
    assert len(plays) > 5 and all(t["scored"] >= t["best"] for t in plays)
    text = run("review", str(path)).stdout
    assert "No turn left points on the table." in text


def test_review_names_the_turns_that_cost_most(record_file: Path) -> None:
    found = json.loads(run("review", str(record_file), "--json").stdout)
    turns = {t["number"]: t for t in found["turns"]}
    assert found["total_lost"] == sum(t["lost"] for t in turns.values()) > 0
    costliest = [turns[n]["lost"] for n in found["costliest"]]
    assert len(costliest) == 3 and costliest == sorted(costliest, reverse=True)
    assert costliest[-1] >= max(t["lost"] for n, t in turns.items() if n not in found["costliest"])
    for t in turns.values():
        assert t["lost"] == max(0, (t["best"] or 0) - t["scored"])
    text = run("review", str(record_file)).stdout
    assert text.count("Costliest turns: ") == 1


def test_the_tutorial_in_auto_mode_prints_the_rule_books_scores() -> None:
    result = run("tutorial", "--auto")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Mathable: the rule book's worked example\n")
    assert (
        "player1 places 12 on I8: 3 x 4 = 12 (I8 and H8, G8). 12 x 1 equation = 12 points." in out
    )
    assert "player1 draws the extra tile: 11." in out
    assert "player1 ends the turn: 39 points, 39 in all" in out
    assert "1. player1: I8=12 H6=8 G9=2 F7=1 J8=16+ (39)" in out
    assert "8 x 2 equations = 16 points" in out
    assert "player2 ends the turn: 71 points and the 50-point bonus, 121 in all" in out
    assert "2. player2: F8=7 F9=6 H9=8 G6=4 E9=3 E8=21 E10=7 (71+50)" in out


def test_the_tutorial_waits_for_each_placement() -> None:
    typed = ["I8=12", "h6=8", "G9=3", "G9=2", "", "", "", ""] + [""] * 8
    result = run("tutorial", stdin="\n".join(typed) + "\n")
    assert result.returncode == 0, result.stderr
    assert "Not quite: " in result.stdout and "the example plays G9=2 here." in result.stdout
    assert result.stdout.count("Not quite") == 1
    assert "121 in all" in result.stdout


def test_the_summy_tutorial_runs_through() -> None:
    result = run("tutorial", "summy", "--auto")
    assert result.returncode == 0, result.stderr
    assert "1. ada: -3,0 across 1+2=3 (6)" in result.stdout
    assert "2. bob: 1,-8 down 7x9-20=43 (25)" in result.stdout
    assert "Its digits score 7 + 9 + 2 + 0 + 4 + 3 = 25 points." in result.stdout


def test_the_games_list_says_imported_for_an_imported_game() -> None:
    from mathable_cli.gamelist import entry_lines as _entry_lines

    entry = {"id": "g1", "status": "ended", "ruleset": "mathable", "your_seat": 1,
             "seats": [{"seat": 0, "player": "p1", "name": "ada"},
                       {"seat": 1, "player": "p2", "name": "bob"}]}  # fmt: skip
    assert " finished " in _entry_lines(entry)[0]
    line = _entry_lines({**entry, "imported": True})[0]
    assert " imported " in line and "finished" not in line


def test_an_upload_without_a_login_says_so_before_replaying(tmp_path: Path) -> None:
    broken = tmp_path / "broken.txt"
    broken.write_text('[Game "mathable"]\n1. x', encoding="utf-8")
    result = run("import", str(broken), "--upload")
    assert result.returncode != 0
    assert "not logged in" in result.stderr.lower(), result.stderr
    assert "N. PLAYER" not in result.stderr


# --- after review (issue #32): the archive's pages, names and files --------------------


def _ndjson(*lines: dict[str, object]) -> str:
    return "".join(json.dumps(line) + "\n" for line in lines)


def test_archive_escapes_the_name_and_follows_every_page(cli: Any, http: Any) -> None:
    from tests.cli.conftest import SERVER

    base = f"{SERVER}/v1/players/ann%3Fx%3D1/games"
    line = {"id": "g2", "ended_at": "t", "record": '[Game "mathable"]\n'}
    http.add(
        responses.GET, base, body=_ndjson(line), headers={"Link": '<...>; rel="next"'},
        match=[responses.matchers.query_param_matcher({"max": "1000"})],
    )  # fmt: skip
    http.add(
        responses.GET, base, body=_ndjson({"id": "g1", "ended_at": "t", "record": None,
                                           "reason": "no notation"}),
        match=[responses.matchers.query_param_matcher({"max": "1000", "before": "g2"})],
    )  # fmt: skip
    result = cli("archive", "ann?x=1", "--json")
    assert result.exit_code == 0, result.output
    assert [json.loads(x)["id"] for x in result.stdout.splitlines()] == ["g2", "g1"]
    result = cli("archive", "ann?x=1")
    assert result.exit_code == 0, result.output
    assert "no record (no notation)" in result.stderr


def test_archive_of_nobody_says_there_is_no_such_player(cli: Any, http: Any) -> None:
    from tests.cli.conftest import SERVER

    http.add(
        responses.GET, f"{SERVER}/v1/players/nobody/games", status=404,
        json={"error": {"code": "unknown_player", "message": "there is no player named 'nobody'"}},
    )  # fmt: skip
    result = cli("archive", "nobody")
    assert result.exit_code != 0
    assert "no player named 'nobody'" in result.stderr
    assert "game id" not in result.stderr


def test_review_of_a_missing_file_says_so() -> None:
    result = run("review", "missing.txt")
    assert result.returncode != 0
    assert "missing.txt: no such file" in result.stderr
    assert "game id with" not in result.stderr


def test_review_of_a_running_game_says_it_needs_a_finished_one(cli: Any, http: Any) -> None:
    from tests.cli.conftest import SERVER

    http.add(
        responses.GET, f"{SERVER}/v1/games/gabcdefghij/record",
        body='[Game "mathable"]\n[Seat1 "a"]\n[Seat2 "b"]\n[Result "*"]\n\n1. a: pass\n',
    )  # fmt: skip
    result = cli("review", "gabcdefghij")
    assert result.exit_code != 0
    assert "has not ended: review needs a finished game" in result.stderr, result.output


def test_the_tutorial_says_why_a_wrong_tile_is_refused() -> None:
    typed = ["I8=99", "I8=12"] + [""] * 20
    result = run("tutorial", stdin="\n".join(typed) + "\n")
    assert result.returncode == 0, result.stderr
    assert "Not quite: there is no 99 on your rack" in result.stdout
    assert "the example plays I8=12 here." in result.stdout


def test_export_help_shows_no_markup() -> None:
    result = run("export", "--help")
    assert result.returncode == 0, result.stderr
    assert "mathable-cli import reads it back" in " ".join(result.stdout.split())
    assert "``" not in result.stdout
