"""The tutorials (``mathable.core.tutorial`` and each game's ``tutorial``, ``tutorial_step``
and ``explain``): every step of each game's worked example, word for word in English
(``tests/rules/fixtures/tutorial_<game>.txt``) and marked for translation; why another
move is refused; a record that breaks off (issue 48: the CLI's tests alone read them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mathable.core.errors import RuleError
from mathable.core.ruleset import ruleset
from mathable.core.tutorial import Tutorial, joined, start, steps, why_not
from mathable.core.words import says
from tests.rules.words_helpers import assert_marked

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def walkthrough(game: str) -> str:
    """Every step of the game's tutorial as text: what to type, the prompt, the words."""
    rules = ruleset(game)
    lesson = rules.tutorial()
    assert lesson is not None
    out = [f"# {lesson.title}", lesson.intro, ""]
    for step in steps(lesson, rules):
        out.append(f"turn {step.turn}, {step.player} (seat {step.seat}): {step.expect!r}")
        out.append(f"  prompt: {step.prompt}")
        out.extend(f"  says: {w}" for w in step.words)
        if step.turn_done is not None:
            out.append(f"  done: {step.turn_done}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("game", ["mathable", "summy"])
def test_every_step_of_the_tutorial_word_for_word(game: str) -> None:
    assert walkthrough(game) == (FIXTURES / f"tutorial_{game}.txt").read_text("utf-8")


@pytest.mark.parametrize("game", ["mathable", "summy"])
def test_every_word_of_the_tutorial_is_marked_for_translation(game: str) -> None:
    rules = ruleset(game)
    lesson = rules.tutorial()
    assert lesson is not None
    assert_marked(lesson.title)
    assert_marked(lesson.intro)
    for words in lesson.after.values():
        assert_marked(words)
    for step in steps(lesson, rules):
        assert_marked(step.prompt)
        for words in step.words:
            assert_marked(words)
        if step.turn_done is not None and "\n" in step.turn_done:
            assert_marked(step.turn_done)


def test_the_example_s_game_is_dealt_from_its_record() -> None:
    rules = ruleset("mathable")
    lesson = rules.tutorial()
    assert lesson is not None
    state = start(lesson, rules)
    assert state.status == "playing" and state.turn.seat == 0
    assert rules.view(state, 0)["rack"] == [1, 2, 8, 12, 16, 17, 42]
    assert rules.view(state, 1)["rack"] == [3, 4, 6, 7, 7, 8, 21]


def test_why_another_move_is_refused_or_none_when_the_rules_take_it() -> None:
    rules = ruleset("mathable")
    lesson = rules.tutorial()
    assert lesson is not None
    first = next(steps(lesson, rules))
    refused = why_not(first, rules, "I8=16")
    assert refused == "16 at I8: 4 and 3 make 1 by -, 7 by +, 12 by x (H8, G8); none makes 16"
    assert_marked(refused)
    assert why_not(first, rules, "H6=8") is None  # legal, only not the example's move
    assert why_not(first, rules, "Z99=1") == "'Z99=1': a placement is written SQUARE=TILE (I8=12)"
    bare = type(first)(1, "x", "", "", (), first.state)
    assert why_not(bare, rules, "I8=12") is None  # no state before: nothing to say


def test_a_tutorial_whose_record_ends_before_its_game_is_refused() -> None:
    rules = ruleset("summy")
    lesson = rules.tutorial()
    assert lesson is not None
    first_turn_only = "\n".join(
        line for line in lesson.record.splitlines() if not line.startswith("2.")
    )
    cut = Tutorial(lesson.title, lesson.intro, first_turn_only.replace('"*"', '"1-0"'))
    if '[Result "' not in cut.record:
        cut = Tutorial(lesson.title, lesson.intro, '[Result "6-0"]\n' + first_turn_only)
    with pytest.raises(RuleError) as raised:
        list(steps(cut, rules))
    err = raised.value
    assert (err.code, err.message, err.details) == (
        "bad_record",
        "the tutorial's record ends before its game",
        {},
    )
    assert_marked(err.message)


def test_joined_says_each_part_with_its_separator() -> None:
    found = joined("; ", [says("{n} tiles", n=2), "I8"])
    assert found == "2 tiles; I8"
    assert (found.template, found.params) == ("{p0}; {p1}", {"p0": "2 tiles", "p1": "I8"})


def test_summy_s_explanations_of_a_discard_and_of_a_seat_without_a_name() -> None:
    from dataclasses import replace

    from mathable.games.summy.events import EquationPlayed, TilesDiscarded

    rules = ruleset("summy")
    lesson = rules.tutorial()
    assert lesson is not None
    state = start(lesson, rules)
    discard = rules.explain(state, TilesDiscarded(1, (3, 4), (5, 6)))
    assert discard == "bob puts 2 tiles out of the game."
    assert_marked(discard)
    unnamed = replace(state, seats=tuple(replace(s, player="") for s in state.seats))
    said = rules.explain(unnamed, TilesDiscarded(1, (3, 4, 5), ()))
    assert said == "seat 2 puts 3 tiles out of the game."
    assert_marked(said)
    first = next(steps(lesson, rules))
    (played,) = [e for e in rules.check(first.before, rules.record_commands(
        first.before, 0, "-3,0 across 1+2=3"
    )[0]) if isinstance(e, EquationPlayed)]  # fmt: skip
    alone = replace(played, placements=played.placements[:1] + played.placements[2:])
    words = rules.explain(state, replace(alone, equation="1+2=3"))
    assert words == (
        "ada lays 1 2 3 across, with 2 tiles of the table: 1+2=3 holds. "
        "Its digits score 1 + 2 + 3 = 6 points."
    )
    assert_marked(words)


def test_why_a_summy_move_is_refused_reads_it_on_the_table_before_it() -> None:
    rules = ruleset("summy")
    lesson = rules.tutorial()
    assert lesson is not None
    first = next(steps(lesson, rules))
    assert why_not(first, rules, "0,0 down 3=3") == "(0, 0) holds =, not 3 as written"
    assert why_not(first, rules, "-3,0 across 1+2=4") == "you have no 4 in your hand"
    assert why_not(first, rules, "-3,0 across 1+2=3") is None


@pytest.mark.parametrize("game", ["mathable", "summy"])
def test_each_tutorial_s_bag_order_is_its_front_then_every_other_tile(game: str) -> None:
    """The record's order is built when the module loads: built again here, so that a
    change of its builder is seen (the record itself keeps the order of the first build)."""
    import importlib

    module = importlib.import_module(f"mathable.games.{game}.tutorial")
    rules = ruleset(game)
    order = module._order()
    assert f'[Order "{order}"]' in module.RECORD
    names = order.split(" ")
    tiles = [rules.read_record_tile(name) for name in names]
    assert sorted(tiles) == sorted(rules.tile_set)
    front = [rules.record_tile(t) for t in module_front(module)]
    assert names[: len(front)] == front


def module_front(module: object) -> list[int]:
    """A tutorial's ``FRONT``: Mathable's tiles, or Summy's as the tiles' names in one text."""
    from mathable.games.summy.tiles import parse_tile

    front = module.FRONT  # type: ignore[attr-defined]
    return [parse_tile(c) for c in front] if isinstance(front, str) else list(front)


def test_summy_s_explanation_of_an_equation_laid_whole() -> None:
    from dataclasses import replace

    from mathable.games.summy.events import EquationPlayed

    rules = ruleset("summy")
    lesson = rules.tutorial()
    assert lesson is not None
    first = next(steps(lesson, rules))
    (played,) = [e for e in rules.check(first.before, rules.record_commands(
        first.before, 0, "-3,0 across 1+2=3"
    )[0]) if isinstance(e, EquationPlayed)]  # fmt: skip
    whole = replace(played, placements=(*played.placements[:3], (0, 0, 14), played.placements[3]))
    words = rules.explain(start(lesson, rules), whole)
    assert words == "ada lays 1 + 2 = 3 across: 1+2=3 holds. Its digits score 1 + 2 + 3 = 6 points."
    assert_marked(words)


@pytest.mark.parametrize("game", ["mathable", "summy"])
def test_a_step_that_is_no_play_is_to_press_enter(game: str) -> None:
    from mathable.core.lifecycle import Pass

    rules = ruleset(game)
    lesson = rules.tutorial()
    assert lesson is not None
    typed, prompt = rules.tutorial_step(start(lesson, rules), Pass(0))
    assert (typed, prompt) == ("", "press Enter")
    assert_marked(prompt)


def test_mathable_s_explanation_names_a_seat_without_a_player_by_its_number() -> None:
    from dataclasses import replace

    rules = ruleset("mathable")
    lesson = rules.tutorial()
    assert lesson is not None
    first = next(steps(lesson, rules))
    before = first.before
    unnamed = replace(before, seats=tuple(replace(s, player="") for s in before.seats))
    [event, *_] = rules.check(before, rules.record_commands(before, 0, first.expect)[0])
    words = rules.explain(unnamed, event)
    assert words == (
        "seat 1 places 12 on I8: 3 x 4 = 12 (I8 and H8, G8). 12 x 1 equation = 12 points."
    )
    assert_marked(words)


def test_each_step_holds_the_game_after_its_turn() -> None:
    rules = ruleset("summy")
    lesson = rules.tutorial()
    assert lesson is not None
    first = next(steps(lesson, rules))
    assert first.state.version == first.before.version + 1
    assert [seat.score for seat in first.state.seats] == [6, 0] and first.state.turn.seat == 1


def test_a_record_without_a_result_may_end_before_its_game() -> None:
    rules = ruleset("summy")
    lesson = rules.tutorial()
    assert lesson is not None
    first_turn_only = "\n".join(
        line for line in lesson.record.splitlines() if not line.startswith(("2.", "[Result "))
    )
    cut = Tutorial(lesson.title, lesson.intro, first_turn_only)
    assert [step.turn for step in steps(cut, rules)] == [1]
