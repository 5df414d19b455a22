"""The ruleset interface: one registry, games found by their recorded name."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import pytest

from mathable import Create, Exchange, GameState, Join, RuleError
from mathable.core.events import Event, GameCreated
from mathable.core.ruleset import (
    RULESETS,
    RulesetBase,
    Told,
    apply_any,
    check_any,
    redact_any,
    register,
    replay_any,
    ruleset,
    ruleset_of,
)
from mathable.core.view import lifecycle_view
from mathable.core.words import says
from mathable.games.mathable.board import render
from mathable.games.mathable.commands import PlayTurn, TurnPlacement
from mathable.games.mathable.movegen import legal_placements
from mathable.games.mathable.tiles import TILE_SET
from mathable.games.summy import SUPPLY_SET, Discard, PlayEquation, SummyState
from mathable.games.summy.movegen import legal_moves
from mathable.games.summy.notation import draw_table
from tests.rules.helpers import arranged, dealt, play
from tests.rules.summy_helpers import across, run, started


def test_a_new_game_is_played_by_the_ruleset_it_was_created_with() -> None:
    for name, kind in (("mathable", GameState), ("summy", SummyState)):
        events = check_any(GameState(), Create("a", ruleset=name, seed=1))
        state = replay_any(events)
        assert isinstance(state, kind) and state.ruleset == name
        assert isinstance(events[0], GameCreated) and events[0].ruleset == name
        for event in check_any(state, Join("b")):
            state = apply_any(state, event)
        assert state.status == "playing"


def test_old_mathable_logs_without_a_ruleset_choice_replay_as_mathable() -> None:
    events = check_any(GameState(), Create("a", seed=1))
    assert isinstance(replay_any(events), GameState)


def test_an_unknown_ruleset_is_refused() -> None:
    with pytest.raises(RuleError) as err:
        check_any(GameState(), Create("a", ruleset="chess"))
    assert err.value.code == "unknown_ruleset"


def test_a_second_ruleset_with_a_taken_name_is_refused() -> None:
    with pytest.raises(ValueError, match="registered already"):
        register(RULESETS["summy"])


def test_an_event_type_taken_by_another_game_is_refused() -> None:
    with pytest.raises(TypeError, match="taken"):

        @dataclass(frozen=True)
        class OtherPassed(Event):  # a second game's "passed" must not replace Mathable's
            type: ClassVar[str] = "passed"


def test_each_game_reads_only_its_own_json_commands() -> None:
    with pytest.raises(RuleError) as err:
        ruleset("summy").command(0, {"type": "place", "square": "H7", "tile": 1})
    assert err.value.code == "wrong_game"
    with pytest.raises(RuleError) as err:
        ruleset("mathable").command(0, {"type": "equation", "placements": []})
    assert err.value.code == "wrong_game"


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_game_s_view_has_the_lifecycle_keys_every_view_has(name: str) -> None:
    """Found by a bot author: a Summy view had no your_turn. Every installed game's view
    (Mathable, Summy, the example) holds every key of the kernel's lifecycle_view, with
    its values, for a spectator and for a seat, waiting and in play."""
    rules = RULESETS[name]
    state = rules.new_state()
    for command in (Create("ann", 2, ruleset=name), Join("bob")):
        for event in rules.check(state, command):
            state = rules.apply(state, event)
            for viewer in (None, 0, 1):
                shown = rules.view(state, viewer)
                shared = lifecycle_view(state, viewer)
                assert {k: shown[k] for k in shared} == shared
    assert state.status == "playing"
    assert [rules.view(state, seat)["your_turn"] for seat in (0, 1)].count(True) == 1


def test_the_interface_is_its_sections_each_member_once_and_with_its_docstring() -> None:
    """``Ruleset`` is grouped as pytest groups its hooks: a protocol per section."""
    from mathable.core import ruleset as interface

    sections = (
        interface.Rules,
        interface.JsonCommands,
        interface.Views,
        interface.ClientHooks,
        interface.ServerHooks,
        interface.MailHooks,
        interface.Records,
        interface.Tutorials,
    )
    assert interface.Ruleset.__mro__[1 : 1 + len(sections)] == sections

    def members(section: type) -> dict[str, object]:
        return {
            name: value
            for name, value in vars(section).items()
            if not name.startswith("_") and (callable(value) or isinstance(value, property))
        }

    found = [members(section) for section in sections]
    every = {name for part in found for name in part}
    assert sum(len(part) for part in found) == len(every) == 50
    for part in found:
        for name, value in part.items():
            doc = (value.fget if isinstance(value, property) else value).__doc__
            assert doc and doc.strip(), name
    for game in ("mathable", "summy"):
        assert not [name for name in every if not hasattr(ruleset(game), name)]


# --- was test_lazy_rulesets.py ----------------------------------------------------------------
# A ruleset looked up by name is imported alone, without its events: a program that shows
# one game (``mathable-cli show``) imports no other game, nor the engine or the events it
# does not use. Its events are imported when the first of them is read (``events_module``),
# still without the other games.


PROBE = """
import json, sys
from mathable.core.ruleset import ruleset
rules = ruleset("mathable")
first = sorted(m for m in sys.modules if m.startswith("mathable.games."))
from mathable.core.events import Event
event = Event.from_dict({"type": "game_started", "v": 1, "start_draws": [[1], [2]],
                         "first_seat": 0, "racks": [[1], [2]]})
after = sorted(m for m in sys.modules if m.startswith("mathable.games.summy"))
from mathable.core.ruleset import rulesets
print(json.dumps({"first": first, "event": type(event).__name__, "after": after,
                  "all": sorted(rulesets())}))
"""


def test_looking_up_one_game_imports_it_alone_and_its_events_when_read() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    first = set(found["first"])
    assert "mathable.games.mathable.ruleset" in first
    assert not any(m.startswith("mathable.games.summy") for m in first)
    for unused in ("events", "engine", "commands", "movegen", "tutorial", "picture", "record"):
        assert f"mathable.games.mathable.{unused}" not in first, unused
    assert found["event"] == "GameStarted" and found["after"] == []  # read without the others
    assert {"mathable", "summy"} <= set(found["all"])  # listing them imports every game


def test_an_event_read_before_any_game_is_looked_up_finds_its_game() -> None:
    """The decoder imports the games, and the events their rulesets name, itself."""
    code = (
        "from mathable.core.events import Event\n"
        "e = Event.from_dict({'type': 'turn_ended', 'v': 1, 'seat': 0, 'points': 3,"
        " 'bonus': 0, 'drawn': []})\n"
        "print(type(e).__module__, type(e).__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["mathable.games.mathable.events", "TurnEnded"]


# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_rulesets.py --------------
# Each game behind the ruleset interface does what its own functions do
# (``mathable.core.ruleset``).
#
# Everything that serves games goes through ``ruleset(name)``: each method is checked
# against the game's own function on a game in play, and the registry's refusals word
# for word.


FRONT = "12+3" + "4x5:" + "6789-:=0" + "1234"
MATHABLE = ruleset("mathable")
SUMMY = ruleset("summy")


def test_each_game_is_found_by_its_name_with_its_tiles_and_commands() -> None:
    assert sorted(RULESETS) == ["mathable", "summy"]
    assert (MATHABLE.name, SUMMY.name) == ("mathable", "summy")
    assert MATHABLE.tile_set == TILE_SET and SUMMY.tile_set == SUPPLY_SET
    assert MATHABLE.command_types == (
        "place", "turn", "exchange", "draw_extra", "end_turn", "pass", "correct", "resign",
        "give_time",
    )  # fmt: skip
    assert SUMMY.command_types == ("equation", "discard", "pass", "resign", "give_time")
    assert MATHABLE.new_state() == GameState() and SUMMY.new_state() == SummyState()
    assert ruleset_of(GameState()) is MATHABLE and ruleset_of(SummyState()) is SUMMY


@pytest.mark.parametrize(
    ("name", "shown"),
    [("chess", "'chess'"), ("c" * 40, repr("c" * 32)), (7, "'7'"), (None, "'None'")],
)
def test_an_unknown_ruleset_is_refused_naming_the_known_ones(name: object, shown: str) -> None:
    with pytest.raises(RuleError) as raised:
        ruleset(name)
    assert raised.value.code == "unknown_ruleset"
    assert raised.value.message == f"there is no game called {shown} (mathable, summy)"


def test_a_second_ruleset_under_a_taken_name_is_refused_in_words() -> None:
    with pytest.raises(ValueError) as raised:
        register(SUMMY)
    assert str(raised.value) == "a ruleset named 'summy' is registered already"
    assert RULESETS["summy"] is SUMMY


def test_mathable_behind_the_interface_checks_applies_and_shows_as_its_own_functions() -> None:
    import mathable
    from mathable.games.mathable.audit import expected_draw
    from tests.rules.helpers import ALICE, BOB, bag_order

    state = GameState()
    commands: list[object] = [
        Create("a", tiles=bag_order(*ALICE, *BOB)),
        Join("b"),
        PlayTurn(0, (TurnPlacement(106, 12), TurnPlacement(107, 16, draw_extra=True))),
    ]
    for command in commands:
        events = MATHABLE.check(state, command)
        assert events == mathable.check(state, command)  # type: ignore[arg-type]
        for event in events:
            assert MATHABLE.expected_draw(state, event) == expected_draw(state, event)
            assert MATHABLE.redact(event, 1) == mathable.redact(event, 1)
            assert MATHABLE.redact(event, 1, revealed=True) == mathable.redact(
                event, 1, revealed=True
            )
            after = MATHABLE.apply(state, event)
            assert after == mathable.apply(state, event)
            state = after
    assert MATHABLE.view(state, 1) == mathable.view(state, 1)
    assert MATHABLE.command(0, {"type": "pass"}) == mathable.Pass(0)
    dealt_state = dealt()
    rack = dealt_state.seats[1].rack
    assert list(MATHABLE.legal_moves(dealt_state, 1)) == legal_placements({}, rack)
    assert MATHABLE.end_reason(dealt_state) is None
    assert MATHABLE.deductions(dealt_state) == (92, 42)


def test_mathable_tiles_are_whole_numbers_only() -> None:
    assert MATHABLE.parse_tile(12) == 12
    for value, shown in [
        ("12", "'12'"),
        (True, "'True'"),
        (1.5, "'1.5'"),
        ("9" * 30, repr("9" * 20)),
    ]:
        with pytest.raises(RuleError) as raised:
            MATHABLE.parse_tile(value)
        assert (raised.value.code, raised.value.message) == (
            "bad_tile",
            f"{shown} is not a Mathable tile",
        )


def test_mathable_draws_reads_and_suggests_moves_from_the_view_alone() -> None:
    state = dealt()
    shown = MATHABLE.view(state, 0)
    assert MATHABLE.draw(shown) == render({})
    assert MATHABLE.draw({"board": {"I8": 12}}) == render({"I8": 12})
    assert MATHABLE.draw({}) == render({})
    assert MATHABLE.read_move("I8=12 j8=16", shown) == {
        "type": "turn",
        "placements": [{"square": "I8", "tile": 12}, {"square": "J8", "tile": 16}],
    }
    with pytest.raises(RuleError) as raised:
        MATHABLE.read_move("   ", shown)
    assert (raised.value.code, raised.value.message) == ("no_tiles", "write placements like I8=12")
    assert MATHABLE.suggest(shown) == (
        {
            "type": "turn",
            "placements": [
                {"square": "I8", "tile": 12},
                {"square": "J8", "tile": 16},
                {"square": "F8", "tile": 7},
                {"square": "I7", "tile": 3},
                {"square": "I9", "tile": 9},
            ],
        },
        "I8=12 J8=16 F8=7 I7=3 I9=9 (47)",
    )
    assert MATHABLE.suggest({**shown, "rack": [90]}) is None
    assert MATHABLE.suggest({}) is None


def test_summy_behind_the_interface_checks_applies_and_shows_as_its_own_functions() -> None:
    import mathable.games.summy as summy
    from mathable.games.summy.commands import end_reason, expected_draw
    from mathable.games.summy.view import redact, view

    state = started(FRONT)
    command = PlayEquation(0, tuple(across(-3, 0, "1+2.3")))
    events = SUMMY.check(state, command)
    assert events == summy.check(state, command)
    after = state
    for event in events:
        after = SUMMY.apply(after, event)
        assert SUMMY.redact(event, 1) == redact(event, 1)
        assert SUMMY.redact(event, 1, revealed=True) == redact(event, 1, revealed=True)
        assert SUMMY.expected_draw(state, event) == expected_draw(state, event)
    assert after == summy.apply(state, events[0])
    assert SUMMY.view(after, 1) == view(after, 1)
    assert SUMMY.command(0, {"type": "discard", "tiles": ["x"]}) == summy.Discard(0, (12,))
    assert SUMMY.parse_tile("x") == 12
    with pytest.raises(RuleError):
        SUMMY.parse_tile(12)
    assert list(SUMMY.legal_moves(state, 1)) == list(legal_moves(state.table, state.seats[1].rack))
    assert len(list(SUMMY.legal_moves(state, 0))) == 92
    assert SUMMY.end_reason(state) is None is end_reason(state)
    # Hands 1 2 + 3 4 x 5 : and 6 7 8 9 - : = 0: only digits count.
    assert SUMMY.deductions(state) == (0, 0)  # rules version 3: none
    assert SUMMY.deductions(replace(state, rules_version=2)) == (15, 30)


def test_summy_draws_reads_and_suggests_moves_from_the_view_alone() -> None:
    state = started(FRONT)
    shown = SUMMY.view(state, 0)
    assert SUMMY.draw(shown) == draw_table({(0, 0): 14})
    played = SUMMY.apply(
        state, SUMMY.check(state, PlayEquation(0, tuple(across(-3, 0, "1+2.3"))))[0]
    )
    after = SUMMY.view(played, 1)
    table = {(-3, 0): 1, (-2, 0): 10, (-1, 0): 2, (0, 0): 14, (1, 0): 3}
    assert SUMMY.draw(after) == draw_table(table, {(-3, 0), (-2, 0), (-1, 0), (1, 0)})
    assert SUMMY.draw({}) == draw_table({})
    assert SUMMY.read_move("0,-1 down 4=4", after) == {
        "type": "equation",
        "placements": [{"x": 0, "y": -1, "tile": "4"}, {"x": 0, "y": 1, "tile": "4"}],
        "direction": "down",
    }
    suggestion = SUMMY.suggest(shown)
    assert suggestion == (
        {
            "type": "equation",
            "placements": [
                {"x": -7, "y": 0, "tile": "1"},
                {"x": -6, "y": 0, "tile": "x"},
                {"x": -5, "y": 0, "tile": "3"},
                {"x": -4, "y": 0, "tile": "+"},
                {"x": -3, "y": 0, "tile": "4"},
                {"x": -2, "y": 0, "tile": ":"},
                {"x": -1, "y": 0, "tile": "2"},
                {"x": 1, "y": 0, "tile": "5"},
            ],
            "direction": "across",
        },
        "-7,0 across 1x3+4:2=5 (15)",
    )
    assert SUMMY.suggest({**shown, "hand": ["+", "-"]}) is None
    assert SUMMY.suggest({}) is None


def test_any_game_is_checked_applied_and_shown_by_its_own_rules() -> None:
    for name, kind in (("mathable", GameState), ("summy", SummyState)):
        created = check_any(GameState(), Create("a", ruleset=name, seed=1))
        assert isinstance(created[0], GameCreated) and created[0].ruleset == name
        state = apply_any(GameState(), created[0])
        assert isinstance(state, kind) and state.version == 1
        joined = check_any(state, Join("b"))
        state = replay_any([*created, *joined])
        assert isinstance(state, kind) and state.status == "playing"
        for event in joined:
            assert redact_any(event, 0) == ruleset(name).redact(event, 0)
            assert redact_any(event, None, revealed=True) == ruleset(name).redact(
                event, None, revealed=True
            )
    # A command without a ruleset in an empty game, and the empty log: Mathable's.
    assert isinstance(replay_any([]), GameState)
    assert isinstance(replay_any(check_any(GameState(), Create("a", seed=1))), GameState)


def test_mathable_suggests_from_the_board_of_the_view() -> None:
    assert MATHABLE.suggest({"board": {"I8": 12}, "rack": [16, 90, 8]}) == (
        {"type": "turn", "placements": [{"square": "J8", "tile": 16}, {"square": "H9", "tile": 8}]},
        "J8=16 H9=8 (24)",
    )
    assert MATHABLE.suggest({"rack": [16, 90, 8]}) == (
        {"type": "turn", "placements": [{"square": "H9", "tile": 8}]},
        "H9=8 (8)",
    )


def test_a_command_naming_no_ruleset_in_an_empty_game_goes_to_mathable() -> None:
    with pytest.raises(RuleError) as raised:
        check_any(GameState(), Join("b"))
    assert raised.value.code == "game_full"


def test_a_new_ruleset_registers_under_its_name() -> None:
    class Fake:
        name = "fake"

    fake = Fake()
    try:
        register(fake)  # type: ignore[arg-type]
        assert ruleset("fake") is fake
    finally:
        RULESETS.pop("fake", None)
    assert sorted(RULESETS) == ["mathable", "summy"]


def test_summy_shows_each_player_their_own_draws_behind_the_interface() -> None:
    from mathable.games.summy.view import redact

    state = started(FRONT)
    played = SUMMY.check(state, PlayEquation(0, tuple(across(-3, 0, "1+2.3"))))[0]
    assert SUMMY.redact(played, 0) == redact(played, 0)
    assert SUMMY.redact(played, 0)["drawn"] == ["1", "2", "3", "4"]
    assert SUMMY.redact(played, 1)["drawn"] is None


def test_only_game_created_picks_the_ruleset_of_an_empty_game() -> None:
    from mathable.core.events import DrawsRevealed
    from mathable.games.mathable.events import apply

    event = DrawsRevealed(order=(1, 2), salt="ab")
    assert apply_any(GameState(), event) == apply(GameState(), event)


def test_a_name_that_is_not_a_string_is_no_ruleset_even_unhashable() -> None:
    with pytest.raises(RuleError) as raised:
        ruleset(["summy"])
    assert (raised.value.code, raised.value.message) == (
        "unknown_ruleset",
        "there is no game called \"['summy']\" (mathable, summy)",
    )


# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_rulesets_told.py ---------
# How each game tells a finished turn and an end in words, for clients
# (``Ruleset.turn_told``, ``Ruleset.last_told``, ``Ruleset.end_words``).
#
# The CLI's status line and the mail tell a turn from its event (``turn_told``) or
# from the view's ``last_turn`` (``last_told``) and an end from its reason
# (``end_words``): each kind of event, view and end is pinned word for word.


@pytest.mark.parametrize(
    ("event", "told"),
    [
        (
            {"type": "turn_ended", "seat": 1, "points": 12, "bonus": 50},
            Told(1, "play", "played: 62 points", 62),
        ),
        ({"type": "turn_ended", "seat": 0, "points": 9}, Told(0, "play", "played: 9 points", 9)),
        ({"type": "turn_ended", "seat": 2, "bonus": 50}, Told(2, "play", "played: 50 points", 50)),
        (
            {"type": "turn_ended", "seat": 0, "points": None, "bonus": None},
            Told(0, "play", "played: 0 points", 0),
        ),
        (
            {"type": "tiles_exchanged", "seat": 1, "count": 3, "returned": [1, 2]},
            Told(1, "exchange", "exchanged 3 tiles"),
        ),
        (
            {"type": "tiles_exchanged", "seat": 0, "count": 1},
            Told(0, "exchange", "exchanged 1 tile"),
        ),
        (
            {"type": "tiles_exchanged", "seat": 0, "count": 0, "returned": [4, 5]},
            Told(0, "exchange", "exchanged 0 tiles"),
        ),
        (
            {"type": "tiles_exchanged", "seat": 3, "returned": [4, 5]},
            Told(3, "exchange", "exchanged 2 tiles"),
        ),
        (
            {"type": "tiles_exchanged", "seat": 3, "count": None, "returned": [7]},
            Told(3, "exchange", "exchanged 1 tile"),
        ),
        ({"type": "tiles_exchanged", "seat": 3}, Told(3, "exchange", "exchanged 0 tiles")),
    ],
)
def test_mathable_tells_a_played_or_exchanging_turn_from_its_event(
    event: dict[str, Any], told: Told
) -> None:
    assert MATHABLE.turn_told(event) == told


@pytest.mark.parametrize(
    "event",
    [
        {"type": "tiles_placed", "seat": 0},
        {"type": "passed", "seat": 0},
        {"type": "equation_played", "seat": 0, "points": 5},
        {"type": "tiles_discarded", "seat": 0, "count": 2},
        {"seat": 0},
    ],
)
def test_mathable_tells_no_turn_for_other_events(event: dict[str, Any]) -> None:
    assert MATHABLE.turn_told(event) is None


@pytest.mark.parametrize(
    ("event", "told"),
    [
        (
            {
                "type": "equation_played",
                "seat": 1,
                "points": 7,
                "equation": "1+2=3",
                "direction": "across",
                "placements": [{}, {}, {}],
            },
            Told(1, "play", "1+2=3 (3 tiles laid across)", 7),
        ),
        (
            {
                "type": "equation_played",
                "seat": 0,
                "points": 4,
                "equation": "2x2=4",
                "direction": "down",
                "placements": [{}],
            },
            Told(0, "play", "2x2=4 (1 tile laid down)", 4),
        ),
        (
            {"type": "equation_played", "seat": 2, "equation": "1=1", "direction": "down"},
            Told(2, "play", "1=1 (0 tiles laid down)", 0),
        ),
        (
            {"type": "tiles_discarded", "seat": 1, "discarded": [3, 12], "count": 5},
            Told(1, "discard", "discarded 2 tiles (3 12)"),
        ),
        (
            {"type": "tiles_discarded", "seat": 0, "discarded": [9]},
            Told(0, "discard", "discarded 1 tile (9)"),
        ),
        (
            {"type": "tiles_discarded", "seat": 0, "discarded": None, "count": 4},
            Told(0, "discard", "discarded 4 tiles"),
        ),
        (
            {"type": "tiles_discarded", "seat": 2, "count": 1},
            Told(2, "discard", "discarded 1 tile"),
        ),
        ({"type": "tiles_discarded", "seat": 2}, Told(2, "discard", "discarded 0 tiles")),
        (
            {"type": "tiles_discarded", "seat": 2, "discarded": [], "count": 3},
            Told(2, "discard", "discarded 0 tiles"),
        ),
    ],
)
def test_summy_tells_an_equation_or_a_discard_from_its_event(
    event: dict[str, Any], told: Told
) -> None:
    assert SUMMY.turn_told(event) == told


@pytest.mark.parametrize(
    "event",
    [
        {"type": "passed", "seat": 0},
        {"type": "turn_ended", "seat": 0, "points": 5},
        {"type": "tiles_exchanged", "seat": 0, "count": 2},
        {"seat": 0},
    ],
)
def test_summy_tells_no_turn_for_other_events(event: dict[str, Any]) -> None:
    assert SUMMY.turn_told(event) is None


@pytest.mark.parametrize(
    "view",
    [
        {},
        {"last_turn": None},
        {"last_turn": ["passed"]},
        {"last_turn": {"seat": 0}},
        {"last_turn": {"seat": 0, "ended_by": None}},
        {"last_turn": {"seat": 0, "ended_by": ""}},
    ],
)
def test_no_last_turn_is_told_before_a_turn_has_ended(view: dict[str, Any]) -> None:
    assert MATHABLE.last_told(view) is None
    assert SUMMY.last_told(view) is None


def test_a_pass_is_told_alike_in_both_games() -> None:
    view = {"last_turn": {"seat": 2, "ended_by": "passed", "points": 9}}
    assert MATHABLE.last_told(view) == Told(2, "pass", "passed")
    assert SUMMY.last_told(view) == Told(2, "pass", "passed")


@pytest.mark.parametrize(
    ("turn", "told"),
    [
        (
            {"seat": 1, "ended_by": "exchanged", "exchanged": 3},
            Told(1, "exchange", "exchanged 3 tiles"),
        ),
        (
            {"seat": 0, "ended_by": "exchanged", "exchanged": 1},
            Told(0, "exchange", "exchanged 1 tile"),
        ),
        ({"seat": 0, "ended_by": "exchanged"}, Told(0, "exchange", "exchanged 0 tiles")),
        (
            {"seat": 0, "ended_by": "exchanged", "exchanged": None},
            Told(0, "exchange", "exchanged 0 tiles"),
        ),
        (
            {
                "seat": 1,
                "ended_by": "played",
                "points": 12,
                "bonus": 50,
                "placements": [
                    {"square": "G6", "tile": 3, "points": 3},
                    {"square": "H6", "tile": 9, "points": 9},
                ],
            },
            Told(1, "play", "played G6=3 (3), H6=9 (9): 62 points with the 50 bonus", 62),
        ),
        (
            {
                "seat": 0,
                "ended_by": "played",
                "points": 4,
                "placements": [{"square": "I8", "tile": 4, "points": 4}],
            },
            Told(0, "play", "played I8=4 (4): 4 points", 4),
        ),
        (
            {"seat": 0, "ended_by": "played", "bonus": 0, "points": None, "placements": None},
            Told(0, "play", "played : 0 points", 0),
        ),
        (
            {"seat": 3, "ended_by": "discarded", "discarded": 2},
            Told(3, "play", "played : 0 points", 0),
        ),
    ],
)
def test_mathable_tells_the_last_turn_of_a_view(turn: dict[str, Any], told: Told) -> None:
    assert MATHABLE.last_told({"last_turn": turn}) == told


@pytest.mark.parametrize(
    ("turn", "told"),
    [
        (
            {"seat": 1, "ended_by": "discarded", "discarded": 3},
            Told(1, "discard", "discarded 3 tiles"),
        ),
        (
            {"seat": 0, "ended_by": "discarded", "discarded": 1},
            Told(0, "discard", "discarded 1 tile"),
        ),
        ({"seat": 0, "ended_by": "discarded"}, Told(0, "discard", "discarded 0 tiles")),
        (
            {"seat": 1, "ended_by": "played", "points": 7, "equation": "1+2=3"},
            Told(1, "play", "played 1+2=3: 7 points", 7),
        ),
        (
            {"seat": 2, "ended_by": "played", "equation": "1=1"},
            Told(2, "play", "played 1=1: 0 points", 0),
        ),
        (
            {"seat": 3, "ended_by": "exchanged", "exchanged": 2, "points": 1, "equation": "x"},
            Told(3, "play", "played x: 1 points", 1),
        ),
    ],
)
def test_summy_tells_the_last_turn_of_a_view(turn: dict[str, Any], told: Told) -> None:
    assert SUMMY.last_told({"last_turn": turn}) == told


def test_mathable_names_each_of_its_ends_in_words() -> None:
    words = {
        reason: MATHABLE.end_words(reason)
        for reason in ("resigned", "timeout", "rack_emptied", "blocked", "no_placements")
    }
    assert words == {
        "resigned": "all players but one resigned",
        "timeout": "a player ran out of time",
        "rack_emptied": "a player placed their last tile with the bag empty",
        "blocked": "no tile still in play can be placed anywhere",
        "no_placements": "every player passed or exchanged twice in a row",
    }


def test_summy_names_each_of_its_ends_in_words() -> None:
    words = {
        reason: SUMMY.end_words(reason)
        for reason in ("resigned", "timeout", "hand_emptied", "no_equations", "idle")
    }
    assert words == {
        "resigned": "all players but one resigned",
        "timeout": "a player ran out of time",
        "hand_emptied": "a player laid their last tile with the supply empty",
        "no_equations": "no more equations, the supply empty",
        "idle": "two full rounds without an equation",
    }


@pytest.mark.parametrize(
    ("rules", "reason"),
    [
        (MATHABLE, "hand_emptied"),
        (MATHABLE, "idle"),
        (SUMMY, "rack_emptied"),
        (SUMMY, "blocked"),
        (SUMMY, "no_placements"),
        (MATHABLE, "unheard_of"),
        (SUMMY, "unheard_of"),
    ],
)
def test_an_end_a_game_does_not_have_is_told_by_its_reason(rules: Any, reason: str) -> None:
    assert rules.end_words(reason) == reason


def test_an_exchange_and_a_discard_are_told_from_the_games_own_views() -> None:
    exchanged = play(arranged([(1, 2, 3), (4,)], bag=(30, 31, 32)), Exchange(0, (1, 2)))
    assert MATHABLE.last_told(MATHABLE.view(exchanged, 1)) == Told(
        0, "exchange", "exchanged 2 tiles"
    )
    discarded = run(started("12+3" + "4x5:" + "6789-:=0" + "1234"), Discard(0, (1,)))
    assert SUMMY.last_told(SUMMY.view(discarded, 1)) == Told(0, "discard", "discarded 1 tile")


# --- a third game's defaults (RulesetBase), word for word (issue 48) -----------------------
# A game that words nothing its own way says what RulesetBase says: each text in English,
# marked for translation. Only the example game's and the server's tests read them before.


class _Plain(RulesetBase):
    name = "plain"

    def draw(self, view: dict[str, Any]) -> str:
        return "a<b\n  c"

    def read_move(self, text: str, view: dict[str, Any]) -> dict[str, Any]:
        return {"type": "move", "text": text}

    def last_told(self, view: Any) -> Told | None:
        told = view.get("told")
        return told if isinstance(told, Told) else None


def test_a_third_game_s_mail_words_are_the_defaults_marked_for_translation() -> None:
    from tests.rules.words_helpers import assert_marked

    plain = _Plain()
    assert plain.display_name == "Plain" and plain.move_usage() == ""
    line = plain.tiles_line({"you": 0, "tiles": [3, "b", 1]})
    assert line == "Your tiles: 3 b 1"
    assert_marked(line)
    empty = plain.tiles_line({"you": 0, "tiles": []})
    assert empty == "Your tiles: (empty)"
    assert_marked(empty)
    assert plain.tiles_line({"you": None, "tiles": [1]}) == ""
    assert plain.tiles_line({"you": 0, "tiles": "12"}) == ""
    assert plain.tiles_line({"you": 0}) == ""
    help_words = plain.reply_help()
    assert help_words == (
        "To play, reply to this mail with your move on the first line, written as for "
        "mathable-cli in Plain's notation, or: pass, resign.\n"
        "Quoted text and your signature are ignored."
    )
    assert_marked(help_words)
    assert plain.table_text({}) == "a<b\n  c" and plain.picture_words({}) == "a<b\n  c"
    assert plain.pool({}) is None and plain.held({"tiles": 3}) is None


def test_a_third_game_s_last_turn_and_points_in_words() -> None:
    from tests.rules.words_helpers import assert_marked

    plain = _Plain()
    names = ["ada", "bob"]
    assert plain.last_turn_words({}, names) is None
    passed = plain.last_turn_words({"told": Told(1, "pass", says("passed"))}, names)
    assert passed == "bob passed."
    assert_marked(passed)
    assert plain.last_turn_words({"told": Told(5, "pass", says("passed"))}, names) == "? passed."
    assert plain.last_turn_words({"told": Told(None, "pass", says("passed"))}, names) == (
        "? passed."
    )
    assert plain.last_turn_words({"told": Told(-1, "pass", says("passed"))}, names) == ("? passed.")
    one = plain.points_words({"told": Told(0, "play", "b3", 1)})
    assert one == " for 1 point"
    assert_marked(one)
    assert plain.points_words({"told": Told(0, "play", "b3", 12)}) == " for 12 points"
    assert plain.points_words({"told": Told(0, "play", "b3", 0)}) == ""
    assert plain.points_words({"told": Told(0, "exchange", "3 tiles", 5)}) == ""
    assert plain.points_words({}) == ""


def test_a_third_game_reads_a_reply_by_the_kernel_then_by_its_own_notation() -> None:
    plain = _Plain()
    assert plain.read_reply("pass", {}) == {"type": "pass"}
    assert plain.read_reply("b3 c4", {}) == {"type": "move", "text": "b3 c4"}
    with pytest.raises(RuleError) as raised:
        plain.read_reply("  ", {})
    assert (raised.value.code, raised.value.message, raised.value.details) == (
        "bad_notation",
        "the mail holds no move",
        {"text": "  "},
    )
    with pytest.raises(RuleError) as raised:
        plain.own_command(0, {"type": "castle" * 5})
    assert (raised.value.code, raised.value.details) == (
        "wrong_game",
        {"ruleset": "plain", "type": ("castle" * 5)[:20]},
    )
    assert raised.value.message == f"Plain has no {('castle' * 5)[:20]!r} move"


def test_a_third_game_s_picture_is_its_text_drawing() -> None:
    svg = _Plain().svg({})
    assert svg.startswith(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 43 52" width="43" height="52" '
        'role="img"><title>Plain '
    )
    assert (
        '<text x="8" y="24" font-family="DejaVu Sans Mono, monospace" font-size="15" '
        'fill="#1c1c1c" xml:space="preserve">a&lt;b</text>'
    ) in svg
    assert '<text x="8" y="42" ' in svg and ">  c</text></svg>" in svg


def test_a_third_game_s_record_end_and_move_list_defaults() -> None:
    """What RulesetBase says of a game without a record notation, ends of its own or a list
    of legal moves (issue 48's run: no rules test reached them)."""
    from mathable.core.ruleset import SHARED_END_WORDS

    plain = _Plain()
    for call in (
        lambda: plain.record_turns(None, [], None, True),
        lambda: plain.record_commands(None, 0, "x"),
    ):
        with pytest.raises(RuleError) as raised:
            call()
        assert (raised.value.code, raised.value.message, raised.value.details) == (
            "no_record_notation",
            "Plain has no record notation: its games cannot be written as a record",
            {"ruleset": "plain"},
        )
    assert plain.record_tile(12) == "12"
    assert plain.end_words("resigned") == "all players but one resigned"
    assert plain.end_words("timeout") is SHARED_END_WORDS["timeout"]
    assert plain.end_words("stalemate") == "stalemate"
    assert plain.legal_commands(None, 0) == []


def test_a_turn_told_of_the_first_seat_and_of_one_past_the_last() -> None:
    plain = _Plain()
    names = ["ada", "bob"]
    assert plain.last_turn_words({"told": Told(0, "pass", says("passed"))}, names) == "ada passed."
    assert plain.last_turn_words({"told": Told(2, "pass", says("passed"))}, names) == "? passed."


def test_a_text_picture_escapes_its_markup_and_draws_an_empty_text_as_one_line() -> None:
    from mathable.core.ruleset import text_svg

    svg = text_svg("a<b & c>d", "T & <U>")
    assert "<title>T &amp; &lt;U&gt;</title>" in svg
    assert 'xml:space="preserve">a&lt;b &amp; c&gt;d</text></svg>' in svg
    empty = text_svg("", "T")
    assert empty.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 34" ')
    assert empty.endswith('xml:space="preserve"></text></svg>')


def test_plural_counts_in_english() -> None:
    from mathable.core.ruleset import plural

    assert [plural(n, "tile") for n in (0, 1, 2)] == ["0 tiles", "1 tile", "2 tiles"]


class _Viewed(_Plain):
    """A third game that draws and reads from the view it is given."""

    def draw(self, view: dict[str, Any]) -> str:
        return str(view["drawn"])

    def read_move(self, text: str, view: dict[str, Any]) -> dict[str, Any]:
        return {"type": "move", "text": text, "seen": view["drawn"]}


def test_a_third_game_s_pictures_and_replies_are_of_the_view_given() -> None:
    game = _Viewed()
    view = {"drawn": "x&y"}
    assert game.table_text(view) == "x&y" and game.picture_words(view) == "x&y"
    assert 'xml:space="preserve">x&amp;y</text>' in game.svg(view)
    assert game.read_reply("b3", view) == {"type": "move", "text": "b3", "seen": "x&y"}


def test_a_third_game_shows_the_shared_events_as_the_kernel_does() -> None:
    from mathable.core.view import redact_shared

    created = GameCreated(
        ruleset="plain", rules_version=1, players=2, referee="server", seed=3, tiles=None,
        invited=(), creator="ada",
    )  # fmt: skip
    assert _Plain().redact(created, 0) == redact_shared(created, 0)
    assert "seed" not in _Plain().redact(created, None)


def test_a_third_game_s_tutorial_step_is_to_press_enter() -> None:
    from tests.rules.words_helpers import assert_marked

    typed, prompt = _Plain().tutorial_step(None, None)
    assert (typed, prompt) == ("", "press Enter")
    assert_marked(prompt)


def test_the_registry_shows_itself_as_its_games() -> None:
    assert repr(RULESETS) == repr(dict(RULESETS))
    assert "'mathable'" in repr(RULESETS) and "'summy'" in repr(RULESETS)


def test_a_blank_reply_s_details_hold_its_first_80_characters() -> None:
    with pytest.raises(RuleError) as raised:
        _Plain().read_reply(" " * 90, {})
    assert raised.value.details == {"text": " " * 80}


def test_a_third_game_s_record_tiles_are_whole_numbers() -> None:
    plain = _Plain()
    assert plain.read_record_tile("12") == 12
    for text, shown in (("x", "x"), ("\u0663", "\u0663"), ("x" * 14, "x" * 12)):
        with pytest.raises(RuleError) as raised:
            plain.read_record_tile(text)
        assert (raised.value.code, raised.value.message, raised.value.details) == (
            "bad_tile",
            f"{shown!r} is not a tile",
            {"value": shown, "accepted": "a number"},
        )


def test_a_turn_that_gave_tiles_away_in_words_each_with_its_own_sentence() -> None:
    from mathable.core.ruleset import gave_tiles
    from tests.rules.words_helpers import assert_marked

    for done in ("exchanged", "discarded"):
        for n, words in ((1, f"{done} 1 tile"), (3, f"{done} 3 tiles")):
            said = gave_tiles(done, n)
            assert said == words and said.template == f"{done} {{n}} tile"
            assert_marked(said)
    other = gave_tiles("gave", 2)
    assert other == "gave 2 tiles" and gave_tiles("gave", 1) == "gave 1 tile"
    assert (other.template, other.plural) == ("{done} {n} tile", "{done} {n} tiles")
    assert_marked(other)


@pytest.mark.parametrize(
    ("name", "given"), [("chess", "chess"), ("c" * 40, "c" * 32), (7, 7), (["x"], "['x']")]
)
def test_an_unknown_ruleset_s_details_name_it_cut_to_32_and_the_known_ones(
    name: object, given: object
) -> None:
    with pytest.raises(RuleError) as raised:
        ruleset(name)
    assert raised.value.details == {"ruleset": given, "accepted": ["mathable", "summy"]}


def test_any_state_is_the_lifecycle_imported_when_first_read_and_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import mathable.core.ruleset as module
    from mathable.core.state import Lifecycle

    monkeypatch.delitem(vars(module), "AnyState", raising=False)
    assert module.AnyState is Lifecycle
    assert vars(module)["AnyState"] is Lifecycle  # kept: read again without __getattr__
    assert module.__getattr__("AnyState") is Lifecycle


@pytest.mark.parametrize("name", ["Lifecycle", "anystate", "AnyStates"])
def test_a_name_the_ruleset_module_does_not_have_is_refused_as_such(name: str) -> None:
    import mathable.core.ruleset as module

    with pytest.raises(AttributeError) as raised:
        getattr(module, name)
    assert str(raised.value) == f"module 'mathable.core.ruleset' has no attribute {name!r}"
    assert name not in vars(module)
