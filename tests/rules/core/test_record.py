"""Game records (``mathable.core.record``): written, read back and replayed exactly.

Every finished game here, self-played by engines in both rulesets and the recorded
logs of the suite's fixtures (players as referee with corrections, old rules
versions), is written as a record, read back and replayed through the rules to the
same events; a broken record is refused with its line."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from mathable.core.errors import RuleError
from mathable.core.events import Event, GameCreated, Passed, TimedOut
from mathable.core.lifecycle import Create, Join, Pass
from mathable.core.record import Record, _kernel_turn, read_record, replay_record, write_record
from mathable.core.ruleset import RecordTurn, RulesetBase, ruleset
from mathable.games.mathable.engine import PlayerView, checked_choice
from mathable.games.mathable.engines import best
from tests.rules.record_helpers import SALT, Table, mathable_selfplay, summy_selfplay
from tests.rules.recorded_logs import FIXTURES as FIXTURES_DIR
from tests.rules.recorded_logs import load

GAMES = [("mathable", seed, players) for seed, players in ((1, 2), (2, 2), (3, 3), (4, 4))] + [
    ("summy", seed, players) for seed, players in ((1, 2), (2, 2), (3, 3), (4, 4), (5, 2))
]


def selfplayed(name: str, seed: int, players: int) -> list[Event]:
    return (mathable_selfplay if name == "mathable" else summy_selfplay)(seed, players)


@pytest.fixture(scope="module")
def mathable_game() -> list[Event]:
    """A finished game of two engines (``mathable_selfplay(1)``), read from its file: playing
    it is a second of search, half a minute under the mutation tool (docs/mutation.md)."""
    kept = json.loads((FIXTURES_DIR / "selfplay_mathable_1.json").read_text(encoding="utf-8"))
    return [Event.from_dict(data) for data in kept["events"]]


@pytest.mark.parametrize(("name", "seed", "players"), GAMES)
def test_a_self_played_game_round_trips_through_its_record(
    name: str, seed: int, players: int
) -> None:
    events = selfplayed(name, seed, players)
    assert events[-1].type == "draws_revealed"
    text = write_record(events).text()
    assert read_record(text).text() == text
    replayed = replay_record(text)
    assert list(replayed.events) == events
    assert replayed.committed
    assert replayed.state.result is not None


FIXTURES = [
    "rules_v1_players_corrections.json",
    "rules_v1_blocked_with_bag.json",
    "rules_v2_mathable_correction_extra.json",
    *(f"rules_v2_summy_{seed}.json" for seed in (2, 5, 12, 53, 24, 29)),
]


@pytest.mark.parametrize("name", FIXTURES)
def test_every_recorded_fixture_game_round_trips_through_its_record(name: str) -> None:
    data = load(name)
    events = [Event.from_dict(e) for step in data["steps"] for e in step.get("events", [])]
    record = write_record(events, revealed=True)  # a given order, no commitment to reveal it
    assert record.headers["OrderGiven"] == "yes" and "Commitment" not in record.headers
    replayed = replay_record(record.text())
    assert list(replayed.events) == events
    assert not replayed.committed


def test_the_players_referee_record_writes_claims_corrections_and_turns_left() -> None:
    data = load("rules_v1_players_corrections.json")
    events = [Event.from_dict(e) for step in data["steps"] for e in step.get("events", [])]
    lines = write_record(events, revealed=True).text().splitlines()
    assert any(re.search(r": [A-N]\d+=\d+:[A-N]\d+[-+x/][A-N]\d+", line) for line in lines)
    assert any(line.endswith(": correct (-" + line.split("(-")[-1]) for line in lines)
    assert any(" ... (" in line for line in lines)


def test_a_record_reads_its_headers_and_lines_as_written(mathable_game: list[Event]) -> None:
    text = write_record(mathable_game, headers={"Date": "2026-12-02"}).text()
    record = read_record(text)
    assert record.names == ("ada", "bob")
    assert record.headers["Game"] == "mathable" and record.headers["Date"] == "2026-12-02"
    assert text.startswith('[Game "mathable"]\n[Rules "3"]\n[Seat1 "ada"]\n[Seat2 "bob"]\n')
    first = next(line for line in text.splitlines() if line.startswith("1. "))
    assert re.fullmatch(r"1\. (ada|bob): ([A-N]\d+=\d+\+? )+\(\d+(\+50)?\)", first)


def test_comments_are_kept_where_they_stand(mathable_game: list[Event]) -> None:
    record = write_record(mathable_game, comments=[(0, "good luck"), (2, "ada: nice one")])
    text = record.text()
    lines = text.splitlines()
    assert lines[lines.index("# good luck") + 1].startswith("1. ")
    assert lines[lines.index("# ada: nice one") - 1].startswith("2. ")
    again = read_record(text)
    assert again.comments == [(0, "good luck"), (2, "ada: nice one")]
    assert again.text() == text
    assert list(replay_record(again).events) == mathable_game


def test_a_record_not_revealed_hides_the_order_the_salt_and_the_exchanged_tiles() -> None:
    for seed in range(1, 12):
        events = mathable_selfplay(seed)
        if any(e.type == "tiles_exchanged" for e in events):
            break
    text = write_record(events, revealed=False).text()
    for header in ("Order", "Salt", "Winners"):
        assert f"[{header} " not in text
    assert '[Result "*"]' in text and "[Commitment " in text
    assert re.search(r": exchange( \?)+$", text, re.MULTILINE)
    assert not re.search(r": exchange \d", text)
    with pytest.raises(RuleError) as err:
        replay_record(text)
    assert err.value.code == "no_order"


def _turn_line(text: str, number: int) -> tuple[int, str]:
    for index, line in enumerate(text.splitlines()):
        if line.startswith(f"{number}. "):
            return index, line
    raise AssertionError(number)


def _with_line(text: str, index: int, line: str) -> str:
    lines = text.splitlines()
    lines[index] = line
    return "\n".join(lines) + "\n"


def refusal(text: str) -> RuleError:
    with pytest.raises(RuleError) as err:
        replay_record(text)
    return err.value


def test_a_move_that_does_not_fit_is_refused_with_its_line(mathable_game: list[Event]) -> None:
    text = write_record(mathable_game).text()
    index, line = _turn_line(text, 3)
    # The first placement of turn 3 moved to a corner of the board: it completes nothing.
    moved = re.sub(r": [A-N]\d+=", ": A1=", line, count=1)
    err = refusal(_with_line(text, index, moved))
    assert err.details["line"] == index + 1
    assert err.code in {"no_equation", "no_pair", "wrong_operation", "bad_placement"}
    assert err.message.startswith(f"line {index + 1}: ")


def test_a_wrong_score_is_refused_with_its_line(mathable_game: list[Event]) -> None:
    text = write_record(mathable_game).text()
    index, line = _turn_line(text, 5)
    points = int(re.search(r"\((\d+)", line).group(1))  # type: ignore[union-attr]
    wrong = line.replace(f"({points}", f"({points + 1}")
    err = refusal(_with_line(text, index, wrong))
    assert (err.code, err.details["line"]) == ("wrong_score", index + 1)
    assert err.details["written"] == err.details["scored"] + 1


@pytest.mark.parametrize(
    ("written", "says"),
    [
        (lambda p: f" ({p + 1})", "the record scores this turn {w}, the rules {p}"),
        (lambda p: f" ({p}+50)", "the record scores this turn {p}+50, the rules {p}"),
        (lambda p: "", "the record scores this turn nothing, the rules {p}"),
    ],
)
def test_a_wrong_score_says_what_the_record_and_the_rules_score(
    mathable_game: list[Event], written: Any, says: str
) -> None:
    text = write_record(mathable_game).text()
    index, line = _turn_line(text, 5)
    points = int(re.search(r"\((\d+)\)$", line).group(1))  # type: ignore[union-attr]
    wrong = re.sub(r" \(\d+\)$", written(points), line)
    err = refusal(_with_line(text, index, wrong))
    assert err.code == "wrong_score"
    expected = says.format(w=points + 1, p=points)
    assert err.message == f"line {index + 1}: {expected}"


def test_a_wrong_summy_score_is_refused_with_its_line() -> None:
    text = write_record(summy_selfplay(2)).text()
    index, line = next(
        (i, line) for i, line in enumerate(text.splitlines()) if re.search(r"\(\d+\)$", line)
    )
    wrong = re.sub(r"\((\d+)\)$", lambda m: f"({int(m.group(1)) + 3})", line)
    err = refusal(_with_line(text, index, wrong))
    assert (err.code, err.details["line"]) == ("wrong_score", index + 1)


def test_a_truncated_line_is_refused_with_its_line(mathable_game: list[Event]) -> None:
    text = write_record(mathable_game).text()
    index, line = _turn_line(text, 4)
    for cut in (line[: line.index(":") + 1], line[: line.index("=") + 1], line[: line.index("(")]):
        err = refusal(_with_line(text, index, cut))
        assert err.details["line"] == index + 1, cut


def test_a_record_cut_short_is_refused_at_its_result(mathable_game: list[Event]) -> None:
    text = write_record(mathable_game).text()
    index, _ = _turn_line(text, 10)
    cut = "\n".join(text.splitlines()[:index]) + "\n"
    err = refusal(cut)
    result_line = next(
        i for i, line in enumerate(cut.splitlines(), 1) if line.startswith("[Result")
    )
    assert (err.code, err.details["line"]) == ("truncated_record", result_line)


def test_a_bag_order_that_breaks_its_commitment_is_refused(mathable_game: list[Event]) -> None:
    text = write_record(mathable_game).text()
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("[Order "))
    tiles = lines[at][len('[Order "') : -2].split()
    tiles[0], tiles[1] = tiles[1], tiles[0]
    if tiles[0] == tiles[1]:
        tiles[0], tiles[2] = tiles[2], tiles[0]
    err = refusal(_with_line(text, at, '[Order "' + " ".join(tiles) + '"]'))
    assert (err.code, err.details["line"]) == ("bad_commitment", at + 1)


def test_a_turn_out_of_order_or_by_a_stranger_is_refused_with_its_line(
    mathable_game: list[Event],
) -> None:
    text = write_record(mathable_game).text()
    index, line = _turn_line(text, 2)
    err = refusal(_with_line(text, index, line.replace("2. ", "3. ", 1)))
    assert (err.code, err.details["line"]) == ("bad_record", index + 1)
    player = line.split()[1][:-1]
    err = refusal(_with_line(text, index, line.replace(f" {player}:", " zed:", 1)))
    assert (err.code, err.details["line"]) == ("bad_record", index + 1)
    other = "ada" if player == "bob" else "bob"
    err = refusal(_with_line(text, index, line.replace(f" {player}:", f" {other}:", 1)))
    assert (err.code, err.details["line"]) == ("not_your_turn", index + 1)


def test_a_game_without_a_notation_says_so() -> None:
    class Plain(RulesetBase):
        name = "plain"

    with pytest.raises(RuleError) as err:
        Plain().record_commands(None, 0, "x")
    assert err.value.code == "no_record_notation"
    assert "Plain has no record notation" in err.value.message


def test_a_clocked_game_with_a_turn_left_by_a_timeout_round_trips() -> None:
    from mathable.core.lifecycle import TimeOut
    from mathable.core.state import ClockSpec
    from mathable.games.mathable.board import parse_square
    from mathable.games.mathable.commands import Place

    rules = ruleset("mathable")
    order = list(rules.tile_set)
    random.Random(5).shuffle(order)
    table = Table.__new__(Table)
    table.rules, table.state, table.events = rules, rules.new_state(), []
    clock = ClockSpec(per_move=86400, weekends_off=True, on_timeout="claim")
    table.run(Create("ada", players=3, order=tuple(order), salt=SALT, clock=clock))
    table.run(Join("bob"))
    table.run(Join("cy"))
    seat = table.state.turn.seat
    view = PlayerView.of(table.state, seat)
    choice = checked_choice(best(view), view)
    first = choice.placements[0]  # type: ignore[attr-defined]
    table.run(Place(seat, parse_square(first.square), first.tile))
    table.run(TimeOut(seat, claimed_by=(seat + 1) % 3))
    record = write_record(table.events, revealed=True)  # still played: revealed to test it
    text = record.text()
    assert record.headers["Clock"].startswith("per_move=86400 weekends_off=yes")
    assert re.search(rf": {first.square}={first.tile} \.\.\. \(\d+\)$", text, re.MULTILINE)
    assert re.search(r": timeout claimed by (ada|bob|cy)$", text, re.MULTILINE)
    assert list(replay_record(text).events) == table.events


# --- after review (issue #32): hostile records only ever get the record's refusal ----------


def test_a_line_over_the_cap_is_refused_with_its_number() -> None:
    from mathable.core.record import MAX_LINE

    text = '[Game "mathable"]\n[Seat1 "ann"]\n[Seat2 "ben"]\n\n1. ann: x' + " " * 60_000 + "y"
    with pytest.raises(RuleError) as caught:
        read_record(text)
    assert caught.value.code == "bad_record"
    assert caught.value.details["line"] == 5 and caught.value.details["max"] == MAX_LINE
    assert caught.value.message.startswith("line 5: ")


def _numbered(mathable_game: list[Event], header: str, value: str) -> str:
    lines = write_record(mathable_game).text().splitlines()
    lines = [line for line in lines if not line.startswith(f"[{header} ")]
    lines.insert(1, f'[{header} "{value}"]')
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("header", "value"),
    [
        ("Rules", "²"),
        ("Rules", "9" * 5000),
        ("Rules", "١"),
        ("Clock", "per_move=²"),
        ("Clock", "per_move=" + "9" * 5000),
        ("Clock", "per_move=-5 foo=bar"),
        ("Referee", "nobody"),
    ],  # fmt: skip
)
def test_a_header_number_or_option_the_creation_refuses_is_the_records_refusal(
    mathable_game: list[Event], header: str, value: str
) -> None:
    with pytest.raises(RuleError) as caught:
        replay_record(_numbered(mathable_game, header, value))
    assert caught.value.details["line"] == 2, caught.value


@pytest.mark.parametrize(
    ("value", "code", "message"),
    [
        ("per_move=86400 x", "bad_record", "a clock is written key=value ... (x)"),
        (
            "per_move=86400 " + "y" * 30,
            "bad_record",
            f"a clock is written key=value ... ({'y' * 20})",
        ),
        (
            "per_move=abc",
            "bad_record",
            "the clock is not one: bad_event: expected an integer, got 'abc'",
        ),
        # the first = splits the key from the value: a value holding one is no number
        (
            "per_move=86400=",
            "bad_record",
            "the clock is not one: bad_event: expected an integer, got '86400='",
        ),
        (
            "weekends_off=maybe",
            "bad_record",
            "the clock is not one: bad_event: expected true or false, got 'maybe'",
        ),
        # a negative number is read as a number, and refused as the creation refuses it
        ("per_move=-5", "bad_clock", "per_move must be 1 to 31536000 seconds (a year)"),
    ],  # fmt: skip
)
def test_a_clock_header_that_is_no_clock_says_what_is_wrong(
    mathable_game: list[Event], value: str, code: str, message: str
) -> None:
    with pytest.raises(RuleError) as caught:
        replay_record(_numbered(mathable_game, "Clock", value))
    assert (caught.value.code, caught.value.message) == (code, f"line 2: {message}")
    assert caught.value.details["line"] == 2


def test_a_clock_the_codec_refuses_is_said_in_the_readers_language(
    mathable_game: list[Event],
) -> None:
    from mathable_i18n import say

    with pytest.raises(RuleError) as caught:
        replay_record(_numbered(mathable_game, "Clock", "per_move=abc"))
    assert say(caught.value.message, "fr") == (
        "ligne 2 : la pendule n'en est pas une : bad_event : attendu : un entier, reçu : 'abc'"
    )


def test_a_missing_rules_header_is_named() -> None:
    text = write_record(mathable_selfplay(1)).text()
    text = "\n".join(line for line in text.splitlines() if not line.startswith("[Rules "))
    with pytest.raises(RuleError) as caught:
        replay_record(text)
    assert "[Rules" in caught.value.message and caught.value.details["header"] == "Rules"
    # No line holds it: the refusal is of the record as a whole (line 0).
    assert caught.value.details["line"] == 0


@pytest.mark.parametrize(
    "line",
    [
        "1. ada: exchange ²",
        "1. ada: exchange " + "7" * 5000,
        "9" * 5000 + ". ada: pass",
        "1. ada: pass (" + "9" * 5000 + ")",
        "1. ada: pass (1+" + "9" * 5000 + ")",
        "١. ada: pass",
    ],  # fmt: skip
)
def test_odd_digits_in_a_turn_line_are_the_records_refusal(
    mathable_game: list[Event], line: str
) -> None:
    lines = write_record(mathable_game).text().splitlines()
    first = next(i for i, text in enumerate(lines) if text.startswith("1. "))
    seat1 = read_record("\n".join(lines)).names[0]
    lines[first] = line.replace("ada", seat1)
    with pytest.raises(RuleError) as caught:
        replay_record("\n".join(lines))
    assert caught.value.details["line"] == first + 1, caught.value


_FUZZ_RECORD = write_record(mathable_selfplay(1)).text()
_SUMMY_RECORD = write_record(summy_selfplay(1)).text()
_ODD = '0123456789²١-+=():.#[]"\\ \t\r\n\x0c\x85\u2028?xAaI8HJ' + "9" * 12


def _only_refused(text: str) -> None:
    from mathable.core.record import replay_record as replay

    try:
        replay(text)
    except RuleError as err:
        assert isinstance(err.code, str) and err.code
        assert isinstance(err.details.get("line", 0), int)


def _mutated(base: str, data: Any) -> str:
    from hypothesis import strategies as st

    lines = base.splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(lines) - 1))
        line = lines[at]
        cut = data.draw(st.integers(0, len(line)))
        end = data.draw(st.integers(cut, len(line)))
        insert = data.draw(st.text(alphabet=_ODD, max_size=12))
        how = data.draw(st.sampled_from(["replace", "drop", "double", "digits"]))
        if how == "replace":
            lines[at] = line[:cut] + insert + line[end:]
        elif how == "drop":
            del lines[at]
        elif how == "double":
            lines.insert(at, line)
        else:
            lines[at] = (
                line[:cut] + data.draw(st.sampled_from(["²", "9" * 5000, "-0", "١"])) + line[end:]
            )
        if not lines:
            lines = [""]
    return "\n".join(lines)


def test_random_and_mutated_records_only_ever_get_the_records_refusal() -> None:
    """Property: whatever the text, reading and replaying it either works or raises the
    record's refusal (RuleError with a code), never another exception."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data: Any) -> None:
        kind = data.draw(st.sampled_from(["random", "mathable", "summy"]))
        if kind == "random":
            text = data.draw(st.text(alphabet=_ODD, max_size=200))
            text = '[Game "mathable"]\n[Seat1 "a"]\n[Seat2 "b"]\n' + text
        else:
            text = _mutated(_FUZZ_RECORD if kind == "mathable" else _SUMMY_RECORD, data)
        _only_refused(text)

    check()


def test_a_turn_spelled_otherwise_but_the_same_is_taken(mathable_game: list[Event]) -> None:
    """``h9=8`` is ``H9=8``: the parsed turns are compared, not their text."""
    lines = write_record(mathable_game).text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    head, _, body = lines[at].partition(": ")
    lines[at] = f"{head}: {body.lower()}"
    assert lines[at] != write_record(mathable_game).text().splitlines()[at]
    replayed = replay_record("\n".join(lines))
    assert replayed.state.result is not None


@pytest.mark.parametrize("odd", ["\r", "\x0c", "\x85", "\u2028", "\n", "\x1e"])
def test_a_comment_or_header_with_a_line_break_stays_one_line(
    mathable_game: list[Event], odd: str
) -> None:
    written = write_record(
        mathable_game, headers={"Event": f"club{odd}night"}, comments=[(1, f"hi{odd}there")]
    )
    again = read_record(written.text())
    assert again.comments == [(1, "hi there")]
    assert again.headers["Event"] == "club night"
    assert [t.text for t in again.turns] == [t.text for t in written.turns]
    # Read as given, such a character inside a comment breaks no line either.
    text = written.text().replace("# hi there", f"# hi{odd}there") if odd != "\n" else ""
    if text:
        assert read_record(text).comments == [(1, f"hi{odd}there".strip())]


def test_a_summy_direction_written_short_is_the_same_turn() -> None:
    lines = write_record(summy_selfplay(1)).text().splitlines()
    at = next(i for i, line in enumerate(lines) if " across " in line)
    lines[at] = lines[at].replace(" across ", " a ", 1)
    assert replay_record("\n".join(lines)).state.result is not None


@pytest.mark.parametrize(
    "game, line, words",
    [
        ("mathable", "exchange 3 ? ?", "the exchanged tiles are hidden in this record"),
        ("summy", "discard ? 7", "the discarded tiles are hidden in this record"),
    ],
)
def test_an_exchange_or_discard_written_hidden_cannot_be_replayed(
    game: str, line: str, words: str
) -> None:
    rules = ruleset(game)
    with pytest.raises(RuleError) as raised:
        rules.record_commands(rules.new_state(), 0, line)
    err = raised.value
    assert (err.code, err.details) == ("hidden_tiles", {"text": line})
    assert err.message == f"{words}: it cannot be replayed"
    from tests.rules.words_helpers import assert_marked

    assert_marked(err.message)


# --- issue 48: a clock's header, the final words, the digest of a game ------------------------


def _clocked_game(clock: Any, *, resigned: bool) -> list[Event]:
    from mathable.core.lifecycle import Resign
    from mathable.core.ruleset import apply_any, check_any

    order = list(ruleset("mathable").tile_set)
    random.Random(5).shuffle(order)
    state: Any = ruleset("mathable").new_state()
    events: list[Event] = []
    commands: list[Any] = [Create("ada", order=tuple(order), salt=SALT, clock=clock), Join("bob")]
    for command in commands + ([Resign(1)] if resigned else []):
        for event in check_any(state, command):
            state = apply_any(state, event)
            events.append(event)
    return events


@pytest.mark.parametrize(
    ("clock", "header"),
    [
        (
            {"initial": 600, "increment": 5},
            "initial=600 increment=5 max=none weekends_off=no on_timeout=lose auto_vacation=yes",
        ),
        (
            {"per_move": 86400, "weekends_off": True, "on_timeout": "claim"},
            "per_move=86400 weekends_off=yes on_timeout=claim auto_vacation=yes",
        ),
        (
            {"per_move": 60, "auto_vacation": False},
            "per_move=60 weekends_off=no on_timeout=lose auto_vacation=no",
        ),
    ],
)
def test_a_clock_is_written_key_by_key_and_read_back(clock: dict[str, Any], header: str) -> None:
    from mathable.core.state import ClockSpec

    spec = ClockSpec(**clock)
    events = _clocked_game(spec, resigned=True)
    record = write_record(events, revealed=True)
    assert record.headers["Clock"] == header
    assert list(replay_record(record.text()).events) == events


def test_the_final_words_are_the_board_the_scores_and_the_end() -> None:
    from mathable.core.record import final_words

    going = replay_record(write_record(_clocked_game(None, resigned=False), revealed=True).text())
    words = str(final_words(going))
    board = ruleset("mathable").draw(ruleset("mathable").view(going.state, None))
    assert words == f"{board}\n\nada: 0\nbob: 0\nthe game goes on"
    ended = replay_record(write_record(_clocked_game(None, resigned=True), revealed=True).text())
    assert str(final_words(ended)).endswith(
        "\n\nada: -143\nbob: -150\ngame over (all players but one resigned); won by ada"
    )


def test_a_records_digest_is_its_game_whatever_its_comments_id_or_date() -> None:
    from mathable.core.record import record_digest

    text = write_record(_clocked_game(None, resigned=True), revealed=True).text()
    digest = record_digest(read_record(text))
    # Stable from version to version: a digest kept today finds the same game tomorrow.
    assert digest == "9d7f44271fedbe3a2ea31ee80c6c03ea5a2f0de81c309b402bb260c4f2315759"
    commented = text.replace("\n1. ", '\n[Id "g1"]\n[Date "2026-12-07"]\n# a comment\n1. ', 1)
    assert record_digest(read_record(commented)) == digest
    other = text.replace('[Seat2 "bob"]', '[Seat2 "cy"]').replace("bob: resign", "cy: resign")
    assert record_digest(read_record(other)) != digest


def _tied_game() -> list[Event]:
    """Both racks alike (1 to 7), every player passes twice: the game ends level."""
    rules = ruleset("mathable")
    rest = list(rules.tile_set)
    racks = [1, 2, 3, 4, 5, 6, 7] * 2
    for tile in racks:
        rest.remove(tile)
    table = Table.__new__(Table)
    table.rules, table.state, table.events = rules, rules.new_state(), []
    table.run(Create("ada", order=(*racks, *rest), salt=SALT))
    table.run(Join("bob"))
    for _ in range(4):
        table.run(Pass(table.state.turn.seat))
    return table.events


def test_a_tied_game_s_final_words_name_every_winner() -> None:
    """Both racks alike, every player passes twice: the game ends level, won by both."""
    from mathable.core.record import final_words

    ended = replay_record(write_record(_tied_game(), revealed=True).text())
    assert str(final_words(ended)).endswith(
        "\n\nada: -28\nbob: -28\n"
        "game over (every player passed or exchanged twice in a row); won by ada, bob"
    )


def test_a_record_without_a_result_replays_as_far_as_its_turns_go(
    mathable_game: list[Event],
) -> None:
    text = write_record(mathable_game).text()
    lines = [line for line in text.splitlines() if not line.startswith(("[Result ", "[End "))]
    replayed = replay_record("\n".join(lines))
    assert list(replayed.events)[:-1] == mathable_game[: len(replayed.events) - 1]
    assert replayed.state.result is not None


def test_a_wrong_result_is_refused_on_its_line(mathable_game: list[Event]) -> None:
    text = write_record(mathable_game).text()
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("[Result "))
    scores = lines[index].split('"')[1]
    first, second = scores.split()
    lines[index] = f'[Result "{first} {int(second) + 1}"]'
    with pytest.raises(RuleError) as caught:
        replay_record("\n".join(lines))
    written = f"{first} {int(second) + 1}"
    assert caught.value.code == "wrong_score"
    assert caught.value.message == (
        f"line {index + 1}: the record's result is {written}, the rules end the game {scores}"
    )
    assert caught.value.details == {"written": written, "scored": scores, "line": index + 1}


def test_a_record_error_names_its_line_and_says_a_plain_message_too() -> None:
    from mathable.core.record import record_error
    from mathable_i18n import say

    on_line = record_error(2, "bad_record", "the turn is empty", {"played": "pass"})
    assert (on_line.code, on_line.details) == ("bad_record", {"played": "pass", "line": 2})
    assert on_line.message == "line 2: the turn is empty"
    assert say(on_line.message, "fr") == "ligne 2 : le tour est vide"  # looked up as a text
    whole = record_error(0, "bad_record", "the turn is empty")
    assert (whole.message, whole.details) == ("the turn is empty", {"line": 0})
    assert say(whole.message, "fr") == "le tour est vide"


def test_the_end_header_is_optional_and_must_be_the_rules_end(mathable_game: list[Event]) -> None:
    lines = write_record(mathable_game).text().splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("[End "))
    assert lines[index] == '[End "blocked"]'
    without = lines[:index] + lines[index + 1 :]
    assert list(replay_record("\n".join(without)).events) == mathable_game
    lines[index] = '[End "resigned"]'
    with pytest.raises(RuleError) as caught:
        replay_record("\n".join(lines))
    assert (caught.value.code, caught.value.details) == ("bad_record", {"line": index + 1})
    assert caught.value.message == f"line {index + 1}: the game ends by blocked, not resigned"


def test_a_line_the_rules_play_as_no_turn_or_as_two_is_refused_on_its_line() -> None:
    """What ``replay_record`` checks of every line's events (``_same_turn``): they are one
    turn of the line's player. No record of the two games makes a line that fails it (a
    line is one seat's commands); a third game's notation could."""
    from mathable import EndTurn, Place
    from mathable.core.record import _same_turn
    from mathable.core.ruleset import RecordTurn
    from mathable.games.mathable.movegen import legal_placements_in
    from tests.rules.helpers import ALICE, BOB, Game, bag_order, sq

    rules = ruleset("mathable")
    game = Game(tiles=bag_order(*ALICE, *BOB))
    before = game.state
    with pytest.raises(RuleError) as nothing:
        _same_turn(rules, before, [], RecordTurn(0, "I8=12", 12, 0, 7))
    assert (nothing.value.code, nothing.value.details) == ("bad_record", {"line": 7})
    assert nothing.value.message == "line 7: the rules play this line as nothing"
    made = game.run(Place(0, sq("I8"), 12)) + game.run(EndTurn(0))
    with pytest.raises(RuleError) as other:
        _same_turn(rules, before, made, RecordTurn(1, "I8=12", 12, 0, 9))
    assert other.value.message == "line 9: the rules play this line as I8=12 (12)"
    assert other.value.details == {"line": 9}
    _same_turn(rules, before, made, RecordTurn(0, "I8=12", 12, 0, 9))  # its own: as written
    bob = legal_placements_in(game.state.position, game.state.seats[1].rack)[0]
    made += game.run(Place(1, sq(bob.square), bob.tile)) + game.run(EndTurn(1))
    with pytest.raises(RuleError) as two:
        _same_turn(rules, before, made, RecordTurn(0, "I8=12", 12, 0, 9))
    assert two.value.message == (
        f"line 9: the rules play this line as I8=12 (12); {bob.square}={bob.tile} ({bob.points})"
    )


def test_a_line_the_rules_write_as_other_commands_is_refused_with_what_they_played() -> None:
    """``_same_turn``'s second check: the line's events, written again by the rules, are
    the line's own commands (spelt as the line likes: ``i8=12`` is ``I8=12``); a line whose
    events the rules write as other commands is refused, and says what the rules played."""
    from mathable import EndTurn, Place
    from mathable.core.record import _same_turn
    from mathable.core.ruleset import RecordTurn
    from tests.rules.helpers import ALICE, BOB, Game, bag_order, sq

    rules = ruleset("mathable")
    game = Game(tiles=bag_order(*ALICE, *BOB))
    before = game.state
    made = game.run(Place(0, sq("I8"), 12)) + game.run(EndTurn(0))
    _same_turn(rules, before, made, RecordTurn(0, "i8=12", 12, 0, 4))  # spelt otherwise
    for other in ("I8=13", "H9=12", "I8=12 H9=5", "I8="):
        with pytest.raises(RuleError) as caught:
            _same_turn(rules, before, made, RecordTurn(0, other, 12, 0, 4))
        assert caught.value.code == "bad_record"
        assert caught.value.details == {"line": 4, "played": "I8=12 (12)"}
        assert caught.value.message == "line 4: the rules play this line as I8=12 (12)"


def test_a_timeout_line_replays_as_that_seats_timeout_and_a_claim_names_a_player() -> None:
    from mathable import TimeOut
    from mathable.core.state import ClockSpec
    from tests.rules.core.test_clock import HOUR, MONDAY, started, then

    log = then(started(ClockSpec(per_move=3600), players=3), MONDAY + HOUR, TimeOut(0))
    events = [event for _, event in log]
    text = write_record(events, revealed=True).text()
    assert text.endswith("\n1. p0: timeout\n")
    assert list(replay_record(text).events) == events
    lines = text.splitlines()
    lines[-1] = "1. p0: timeout claimed by zed"
    with pytest.raises(RuleError) as caught:
        replay_record("\n".join(lines))
    assert (caught.value.code, caught.value.details) == ("bad_record", {"line": len(lines)})
    assert caught.value.message == f"line {len(lines)}: 'zed' is not a player of this game"
    lines[-1] = "1. p0: timeout claimed by " + "z" * 40  # said cut to 32 characters
    with pytest.raises(RuleError) as long:
        replay_record("\n".join(lines))
    assert long.value.message == f"line {len(lines)}: {'z' * 32!r} is not a player of this game"


# --- the text written, line by line (no game needed) --------------------------------------


def test_a_header_with_quotes_and_backslashes_is_written_escaped_and_read_back() -> None:
    value = 'a "b" \\ c'
    record = Record(headers={"Game": "mathable", "Event": value})
    text = record.text()
    assert '[Event "a \\"b\\" \\\\ c"]' in text.splitlines()
    assert read_record(text).headers["Event"] == value


def test_a_turn_of_a_seat_without_a_name_is_written_as_its_seat_number() -> None:
    record = Record(
        headers={"Seat1": "ada", "Seat2": "bob"},
        turns=[RecordTurn(0, "pass"), RecordTurn(1, "pass"), RecordTurn(2, "pass")],
    )
    assert record.text().splitlines()[3:] == ["1. ada: pass", "2. bob: pass", "3. seat3: pass"]


def test_comments_at_one_place_keep_their_order_and_those_after_the_last_turn_end_it() -> None:
    record = Record(
        headers={"Seat1": "ada"},
        turns=[RecordTurn(0, "pass")],
        comments=[(1, "z first"), (0, "before"), (1, "a second")],
    )
    assert record.text().splitlines()[2:] == [
        "# before", "1. ada: pass", "# z first", "# a second",
    ]  # fmt: skip


def test_a_timeout_claimed_by_a_seat_without_a_name_says_only_timeout() -> None:
    names = ("ada", "bob")
    assert _kernel_turn(TimedOut(0, claimed_by=1), names) == RecordTurn(0, "timeout claimed by bob")
    assert _kernel_turn(TimedOut(0, claimed_by=2), names) == RecordTurn(0, "timeout")
    assert _kernel_turn(TimedOut(0), names) == RecordTurn(0, "timeout")


@pytest.mark.parametrize("events", [[], [Passed(0)]], ids=["none", "no creation"])
def test_a_record_is_written_only_from_a_game_s_creation(events: list[Event]) -> None:
    with pytest.raises(RuleError) as caught:
        write_record(events)
    assert (caught.value.code, caught.value.message, caught.value.details) == (
        "bad_record",
        "a record is written from a game's events, from its creation",
        {},
    )


# --- every refusal of a record, word for word (the mutation pass) -------------------------

_SEATS = '[Game "mathable"]\n[Seat1 "ada"]\n[Seat2 "bob"]\n'


@pytest.mark.parametrize(
    ("text", "message", "details"),
    [
        ('[Seat1 "ada"]\n# no game', 'a record begins with its game: [Game "mathable"]', {}),
        ("[Game mathable]", 'line 1: a header is written [Name "value"] ([Game mathable])', {}),
        (
            '[Game "mathable"]\n[Event ' + "x" * 70,
            f'line 2: a header is written [Name "value"] ([Event {"x" * 53})',
            {},
        ),
        (_SEATS + '1. ada: pass\n[Date "today"]', "line 5: the headers come before the turns", {}),
        ('[Game "mathable"]\n[Game "summy"]', "line 2: the header Game is given twice", {}),
        (
            _SEATS + "2. ada: pass",
            "line 4: turn 2 where turn 1 comes next",
            {"expected": 1, "got": 2},
        ),
        (
            _SEATS + "1. ada: pass\n\n3. bob: pass",
            "line 6: turn 3 where turn 2 comes next",
            {"expected": 2, "got": 3},
        ),
        (
            _SEATS + "123456789. ada: pass",
            "line 4: turn 123456789 where turn 1 comes next",
            {"expected": 1, "got": 123456789},
        ),
        (
            _SEATS + "1. " + "z" * 40 + ": pass",
            f"line 4: {'z' * 32!r} is not a player of this game",
            {"player": "z" * 32},
        ),
        (_SEATS + "1. ada: (12)", "line 4: the turn is missing before its points", {}),
        (_SEATS + "1. ada:", "line 4: the turn is missing (the line ends after the player)", {}),
        (
            _SEATS + "# " + "x" * 1999,
            "line 4: the line is 2001 characters long, more than a record's 2000",
            {"length": 2001, "max": 2000},
        ),
        *(
            (_SEATS + line, f'line 4: a turn is written "N. PLAYER: TURN" ({line[:60]})', {})
            for line in (
                "1. ada:pass",
                "1. ada bob: pass",
                "1. : pass",
                "1. adapass",
                "1.ada: pass",
                "1.ada: " + "x" * 70,
            )
        ),
    ],
)
def test_a_record_that_is_not_one_is_refused_word_for_word(
    text: str, message: str, details: dict[str, Any]
) -> None:
    with pytest.raises(RuleError) as caught:
        read_record(text)
    line = int(message.split(":")[0].removeprefix("line ")) if message.startswith("line ") else 0
    assert (caught.value.code, caught.value.message) == ("bad_record", message)
    assert caught.value.details == {**details, "line": line}


def test_a_record_reads_each_turns_points_and_player_and_its_comments() -> None:
    record = read_record(
        _SEATS
        + "#tight\n"
        + "# "
        + "x" * 1998  # as long as a line may be
        + "\n1. ada: pass (x) (12)\n2. bob: pass\n3. ada: pass (x)\n4. bob: pass (123456789)"
        + "\n5. ada: pass x)"
    )
    assert record.comments == [(0, "tight"), (0, "x" * 1998)]
    assert record.turns == [
        RecordTurn(0, "pass (x)", 12, 0, 6),
        RecordTurn(1, "pass", None, 0, 7),
        RecordTurn(0, "pass (x)", None, 0, 8),
        RecordTurn(1, "pass", 123456789, 0, 9),
        RecordTurn(0, "pass x)", None, 0, 10),
    ]
    assert record.players == ["ada", "bob", "ada", "bob", "ada"]


@pytest.fixture(scope="module")
def passed_game() -> list[Event]:
    """A Mathable game from a committed order whose players pass till it ends (4 turns)."""
    from mathable.core.lifecycle import Pass

    table = Table("mathable", 2, 1)
    for _ in range(4):
        table.run(Pass(table.state.turn.seat))
    return table.events


def _line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def _edited(text: str, start: str, line: str | None) -> str:
    """``text`` with its line beginning ``start`` replaced by ``line`` (None: left out)."""
    lines = text.splitlines()
    at = _line_of(text, start) - 1
    lines[at : at + 1] = [] if line is None else [line]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("start", "line", "code", "at", "message", "details"),
    [
        (
            "[Game ",
            '[Game "nope"]',
            "unknown_ruleset",
            "[Game ",
            "there is no game called 'nope' (mathable, summy)",
            {"ruleset": "nope", "accepted": ["mathable", "summy"]},
        ),
        (
            "[Seat2 ",
            None,
            "bad_record",
            "[Seat1 ",
            "a game has 2 to 4 players: Seat1, Seat2...",
            {},
        ),
        (
            "[Seat2 ",
            '[Seat2 "ada"]',
            "bad_record",
            "[Seat1 ",
            "each player's name is one word, each once",
            {},
        ),
        (
            "[Seat2 ",
            '[Seat2 "b:b"]',
            "bad_record",
            "[Seat1 ",
            "each player's name is one word, each once",
            {},
        ),
        (
            "[Rules ",
            None,
            "bad_record",
            None,
            'the header [Rules "N"] gives the rules version, 1 to 3',
            {"max": 3, "header": "Rules"},
        ),
        (
            "[Rules ",
            '[Rules "4"]',
            "bad_record",
            "[Rules ",
            'the header [Rules "N"] gives the rules version, 1 to 3',
            {"max": 3, "header": "Rules"},
        ),
        (
            "[Order ",
            None,
            "no_order",
            None,
            "the record holds no bag order (hidden while the game is played, or withheld): "
            "its draws cannot be replayed",
            {},
        ),
        (
            "[Order ",
            '[Order "1 2 x"]',
            "bad_record",
            "[Order ",
            "the bag order: 'x' is not a tile",
            {},
        ),
        (
            "[Order ",
            '[Order "1 2 3"]',
            "bad_record",
            "[Order ",
            "the bag order is not the 106 tiles of the game",
            {"count": 3, "expected": 106},
        ),
        (
            "[Salt ",
            None,
            "bad_commitment",
            "[Order ",
            "the bag order and salt do not match the commitment made at the game's creation",
            {},
        ),
        (
            "[Referee ",
            '[Referee "nobody"]',
            "bad_referee",
            "[Referee ",
            "referee is 'server' or 'players'",
            {"field": "referee", "value": "nobody", "accepted": ["server", "players"]},
        ),
        (
            "2. ",
            "2. ada: pass",
            "not_your_turn",
            "2. ",
            "it is seat 1's turn, not yours",
            {"seat": 1},
        ),
    ],  # fmt: skip
)
def test_a_record_the_rules_refuse_is_refused_word_for_word_on_its_line(
    passed_game: list[Event],
    start: str,
    line: str | None,
    code: str,
    at: str | None,
    message: str,
    details: dict[str, Any],
) -> None:
    text = _edited(write_record(passed_game).text(), start, line)
    if start == "[Seat2 ":  # the turns name a seat no longer there: the headers alone
        text = "\n".join(line for line in text.splitlines() if not line[:1].isdigit())
    number = 0 if at is None else _line_of(text, at)
    err = refusal(text)
    assert (err.code, err.message) == (code, f"line {number}: {message}" if number else message)
    assert err.details == {**details, "line": number}


def test_a_record_without_commitment_or_referee_replays_with_no_salt_and_the_servers_referee(
    passed_game: list[Event],
) -> None:
    text = write_record(passed_game).text()
    text = _edited(_edited(text, "[Commitment ", None), "[Referee ", None)
    text = _edited(text, "[Salt ", '[Salt "not hex"]')  # no commitment: the salt is not read
    replayed = replay_record(text)
    assert replayed.committed is False
    created = replayed.events[0]
    assert isinstance(created, GameCreated)
    assert (created.referee, created.salt, created.commitment) == ("server", None, None)
    assert [played.events for played in replayed.played] == [
        (Passed(0),), (Passed(1),), (Passed(0),), (Passed(1), replayed.events[-1])
    ]  # fmt: skip
    assert replayed.events[-1].type == "game_ended"


def test_a_game_s_record_hides_its_result_and_order_till_they_are_revealed(
    passed_game: list[Event],
) -> None:
    hidden = write_record(passed_game, revealed=False).headers
    assert (hidden["Result"], hidden["End"]) == ("*", "no_placements")
    assert "Commitment" in hidden
    assert not {"Winners", "Order", "Salt"} & set(hidden)
    going = write_record(passed_game[:-2]).headers  # not over: nothing revealed yet
    assert going["Result"] == "*"
    assert not {"End", "Winners", "Order", "Salt"} & set(going)
    shown = write_record(passed_game, revealed=True).headers
    assert (shown["Result"], shown["Winners"]) == ("-118 -57", "bob")
    assert "Order" in shown and "Salt" in shown


def test_a_waiting_game_s_record_leaves_its_free_seats_empty() -> None:
    events = Table("mathable", 3, 1).events[:2]  # ada created it, bob joined: cy's seat is free
    headers = write_record(events).headers
    assert [headers[f"Seat{i}"] for i in (1, 2, 3)] == ["ada", "bob", ""]
    assert headers["Result"] == "*"


def test_a_record_names_its_seats_as_told_and_says_an_imported_game_is_one(
    passed_game: list[Event],
) -> None:
    from dataclasses import replace

    named = write_record(passed_game, names=["ann", "ben"])
    assert (named.headers["Seat1"], named.headers["Seat2"]) == ("ann", "ben")
    assert named.text().endswith("\n1. ann: pass\n2. ben: pass\n3. ann: pass\n4. ben: pass\n")
    assert "Imported" not in write_record(passed_game).headers
    imported = [replace(passed_game[0], imported=True), *passed_game[1:]]
    assert write_record(imported).headers["Imported"] == "yes"
    assert '\n[Imported "yes"]\n' in write_record(imported).text()


def test_a_records_comments_are_sorted_by_their_place_keeping_their_order(
    passed_game: list[Event],
) -> None:
    record = write_record(passed_game, comments=[(1, "b"), (0, "z"), (1, "a")])
    assert record.comments == [(0, "z"), (1, "b"), (1, "a")]


def test_a_tied_game_s_record_names_every_winner() -> None:
    headers = write_record(_tied_game(), revealed=True).headers
    assert (headers["Result"], headers["Winners"]) == ("-28 -28", "ada bob")


def test_a_rematch_s_record_names_who_joined_the_first_seat() -> None:
    """A rematch seats its players as given: bob, who joins, takes seat 0, and ada, who
    made the game, seat 1 (a record named her nowhere before 2026-12-07)."""
    rules = ruleset("mathable")
    order = list(rules.tile_set)
    random.Random(1).shuffle(order)
    table = Table.__new__(Table)
    table.rules, table.state, table.events = rules, rules.new_state(), []
    table.run(Create("ada", invited=("bob",), seating=("bob", "ada"), order=tuple(order)))
    table.run(Join("bob"))
    headers = write_record(table.events).headers
    assert (headers["Seat1"], headers["Seat2"]) == ("bob", "ada")
