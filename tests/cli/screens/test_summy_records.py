"""The CLI's records of a Summy game (history, export, the game list's last line) tell
Summy's equations, discards, passes and scores, through the ruleset interface.

The views and events are those the server sends: the rules make them (``view`` and
``redact``), as the server does, for a game played with a given supply order.
"""

from __future__ import annotations

from typing import Any

import responses

from mathable.core.events import Passed
from mathable.core.lifecycle import Create, Join, Pass, Resign
from mathable.core.ruleset import ruleset
from mathable.games.summy import Discard, PlayEquation, parse_tiles
from mathable.games.summy.tiles import SUPPLY_SET
from mathable_cli.commands.games import export_text, history_lines
from mathable_cli.game import last_turn_words, result_line
from mathable_cli.gamelist import entry_lines as _entry_lines
from tests.cli.conftest import SERVER, Invoke, requests_to

SUMMY = ruleset("summy")


def _supply(front: str) -> tuple[int, ...]:
    rest = list(SUPPLY_SET)
    for tile in parse_tiles(front):
        rest.remove(tile)
    return tuple(parse_tiles(front)) + tuple(rest)


def _played() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Ann lays 1+2 and 3 round the middle = (1+2=3, 6 points), Ben discards two
    tiles, Ann passes, Ben resigns: ann's view and the events as she gets them.

    Ann's pass is recorded as it is once the supply is empty (and in rules version 1
    games at any time): the records tell the events, whatever the supply."""
    state = SUMMY.new_state()
    events = []
    commands: list[object] = [
        Create("ann", tiles=_supply("12+345x=" + "6789-:=0"), ruleset="summy"),
        Join("ben"),
        PlayEquation(0, ((-3, 0, 1), (-2, 0, 10), (-1, 0, 2), (1, 0, 3))),
        Discard(1, tuple(parse_tiles("69"))),
        Pass(0),
        Resign(1),
    ]
    for command in commands:
        made = [Passed(0)] if isinstance(command, Pass) else SUMMY.check(state, command)
        for event in made:
            state = SUMMY.apply(state, event)
            data = SUMMY.redact(event, 0)
            data["version"] = state.version
            events.append(data)
    view = SUMMY.view(state, 0)
    view["id"] = "g1"
    for index, seat in enumerate(view["seats"]):
        seat["name"] = ("ann", "ben")[index]
    return view, events


def test_history_tells_the_equation_the_discard_the_pass_and_the_scores() -> None:
    view, events = _played()
    lines = history_lines(view, events)
    assert lines[0].endswith("ann: 1+2=3 (4 tiles laid across) = 6   [ann 6, ben 0]")
    assert lines[1].endswith("ben: discarded 2 tiles   [ann 6, ben 0]")  # not which: hidden
    assert lines[2].endswith("ann: passed   [ann 6, ben 0]")
    assert lines[3].endswith("ben: resigned   [ann 6, ben 0]")
    assert lines[4] == "End: all players but one resigned"
    assert lines[5].startswith("Final scores: ann 6, ben 0")  # rules version 3: no deductions
    assert "Mathable" not in "\n".join(lines) and "Rack" not in "\n".join(lines)


def test_export_is_a_summy_record_with_the_table() -> None:
    view, events = _played()
    text = export_text(view, events, "g1")
    assert text.startswith("Summy game g1\n=============\n")
    assert "ann: 1+2=3 (4 tiles laid across) = 6" in text
    table = text.split("Table\n-----\n", 1)[1]
    assert "*1 *+ *2  = *3" in table  # the equation as laid, the last play starred
    assert "Board" not in text and "Mathable" not in text


def test_the_game_lists_last_line_tells_summys_last_turn() -> None:
    view, _ = _played()
    entry = {
        "id": "g1",
        "ruleset": "summy",
        "status": "playing",
        "your_seat": 0,
        "seats": [{"seat": 0, "player": "a", "name": "ann", "score": 6}],
        "last_turn": {"seat": 0, "ended_by": "played", "equation": "1+2=3", "points": 6},
    }
    assert _entry_lines(entry)[1].strip() == "last: you played 1+2=3: 6 points"
    entry["last_turn"] = {"seat": 1, "ended_by": "discarded", "discarded": 2}
    entry["seats"].append({"seat": 1, "player": "b", "name": "ben", "score": 0})
    assert _entry_lines(entry)[1].strip() == "last: ben discarded 2 tiles"
    assert _entry_lines(entry)[0].startswith("g1           summy     their turn    ann 6, ben 0")
    # The view's own last turn carries the same (the server's list copies it).
    assert view["last_turn"] == {"seat": 0, "ended_by": "passed"}
    assert last_turn_words(view) == "you passed"


def test_every_end_of_each_game_has_words_of_its_own() -> None:
    for game in ("mathable", "summy"):
        rules = ruleset(game)
        ends = [c["name"] for c in rules.data()["end_conditions"]]
        words = [rules.end_words(end) for end in ends]
        assert all(w and w != end and len(w) < 60 for w, end in zip(words, ends, strict=True))
        assert len(set(words)) == len(words), game
    assert SUMMY.end_words("no_equations") == ("no more equations, the supply empty")
    assert SUMMY.end_words("no_such_end") == "no_such_end"


def test_a_finished_summy_game_says_why_it_ended_in_words() -> None:
    view, _ = _played()
    view["result"] = {**view["result"], "reason": "no_equations"}
    assert result_line(view).startswith("game over (no more equations, the supply empty): ")


def test_the_game_list_names_each_game_and_who_won_the_finished_ones(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    seats = [
        {"seat": 0, "player": "a", "name": "ann", "score": 6},
        {"seat": 1, "player": "b", "name": "ben", "score": 9},
    ]

    def ended(gid: str, ruleset: str, winners: list[int]) -> dict[str, Any]:
        result = {"reason": "resigned", "deductions": [0, 0], "scores": [6, 9], "winners": winners}
        return {"id": gid, "ruleset": ruleset, "status": "ended", "your_turn": False,
                "waiting_on_you": False, "your_seat": 0, "seats": seats, "last_turn": None,
                "result": result}  # fmt: skip

    games = [
        {"id": "g1", "ruleset": "summy", "status": "playing", "your_turn": True,
         "waiting_on_you": True, "your_seat": 0, "seats": seats, "last_turn": None},
        ended("g2", "summy", [1]),
        ended("g3", "mathable", [0]),
        ended("g4", "fifteen", []),
        ended("g5", "summy", [0, 1]),
    ]  # fmt: skip
    me = {"id": "a", "name": "ann", "games": games, "next_offset": None}
    http.get(f"{SERVER}/v1/me", json=me)
    result = cli("games")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "g1           summy     YOUR TURN     ann 6, ben 9",
        "g2           summy     finished      ann 6, ben 9  (ben won)",
        "g3           mathable  finished      ann 6, ben 9  (you won)",
        "g4           fifteen   finished      ann 6, ben 9  (nobody won)",
        "g5           summy     finished      ann 6, ben 9  (you and ben won)",
    ]
    (asked,) = requests_to(http, "GET", "/v1/me")
    assert "details=" in (asked.url or "")  # the scores and results come with the details
