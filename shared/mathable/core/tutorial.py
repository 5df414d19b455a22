"""Tutorials: a game's worked example, played step by step from its record.

A game offers a tutorial through its ruleset (``Ruleset.tutorial``: None without
one): a title, words before it, and a record (``mathable.core.record``) with a
given bag order. ``steps`` replays the record command by command through the rules
and yields each step: what the player types to play it (``Ruleset.tutorial_step``),
what it did and why it scores what it scores (``Ruleset.explain``, from the events
the step made), and the turn's words at its end. ``mathable-cli tutorial`` shows
them, waiting for the player at each step (``--auto`` runs them through).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from mathable.core.errors import RuleError
from mathable.core.events import GameCreated
from mathable.core.lifecycle import Join
from mathable.core.record import created_event, read_record
from mathable.core.ruleset import AnyState, Ruleset
from mathable.core.words import Text, says


@dataclass(frozen=True)
class Tutorial:
    """A worked example: its title, words before it, its record (a given order), and
    words to say after a turn (by turn number, 1 the first). The words are marked
    (``N_``/``says``) and said in the reader's language at the edge (``mathable-cli
    tutorial``), as are the steps' prompts and words (``Ruleset.tutorial_step``,
    ``Ruleset.explain``); the record, the moves typed and the boards never change."""

    title: str
    intro: str
    record: str
    after: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """One command of the example: whose turn (``player``), what to type (``expect``:
    "" for a step the player only confirms), the words it earns, the state after it,
    and the turn's end (``turn_done``: its line and any words after it)."""

    turn: int
    player: str
    expect: str
    prompt: str
    words: tuple[str, ...]
    state: AnyState
    turn_done: str | None = None
    #: The state before the step, and the seat playing it (to say why another try fails).
    before: AnyState | None = None
    seat: int = 0


def joined(separator: str, parts: list[str]) -> Text:
    """``parts`` one after the other with ``separator`` between them, each said in the
    reader's language at the edge (a list of sentences or sums: nothing to translate in
    the joining itself, so it has no catalog entry).

    >>> joined("; ", [says("{n} tiles", n=2), "I8"]).params
    {'p0': '2 tiles', 'p1': 'I8'}
    """
    names = [f"p{i}" for i in range(len(parts))]
    return Text(
        separator.join("{" + name + "}" for name in names), dict(zip(names, parts, strict=True))
    )


def start(tutorial: Tutorial, rules: Ruleset) -> AnyState:
    """The example's game, dealt."""
    record = read_record(tutorial.record)
    created, _ = created_event(record, rules)
    state: AnyState = rules.apply(rules.new_state(), created)
    for name in record.names[1:]:
        for event in rules.check(state, Join(name)):
            state = rules.apply(state, event)
    assert isinstance(created, GameCreated)
    return state


def steps(tutorial: Tutorial, rules: Ruleset) -> Iterator[Step]:
    """Every step of the example, in order (RuleError if its record breaks the rules)."""
    record = read_record(tutorial.record)
    names = record.names
    state = start(tutorial, rules)
    for number, turn in enumerate(record.turns, 1):
        commands: list[Any] = rules.record_commands(state, turn.seat, turn.text)
        for index, command in enumerate(commands):
            before = state
            events = rules.check(state, command)
            for event in events:
                state = rules.apply(state, event)
            words = tuple(
                w for w in (rules.explain(before, event) for event in events) if w is not None
            )
            expect, prompt = rules.tutorial_step(before, command)
            done = None
            if index == len(commands) - 1:
                done = f"{number}. {names[turn.seat]}: {turn.written}"
                if number in tutorial.after:  # the words are said at the edge
                    done = joined("\n", [done, says(tutorial.after[number])])
            yield Step(
                number, names[turn.seat], expect, prompt, words, state, done, before, turn.seat
            )
    if state.result is None and record.headers.get("Result", "*") != "*":
        raise RuleError("bad_record", says("the tutorial's record ends before its game"), {})


def why_not(step: Step, rules: Ruleset, typed: str) -> str | None:
    """Why the rules refuse ``typed`` where the example plays ``step`` (their message),
    or None when they would take it (it is only not the example's move)."""
    if step.before is None:
        return None
    try:
        commands = rules.record_commands(step.before, step.seat, typed)
        if commands:
            rules.check(step.before, commands[0])
    except RuleError as err:
        return err.message
    return None


__all__ = ["Step", "Tutorial", "joined", "start", "steps", "why_not"]
