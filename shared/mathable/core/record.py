"""Game records: a whole game as plain text, one turn a line, read back exactly.

The kernel owns the frame of a record, the same for every game: headers in
brackets (``[Game "mathable"]``), then one turn a line (``12. ada: I8=12 J8=16+
(55)``), comments (``# ...``) anywhere, and what every game shares (``pass``,
``resign``, ``timeout``). Each game writes and reads its own turns through its
ruleset (``Ruleset.record_turns``, ``Ruleset.record_commands``): a game with no
notation says so (``no_record_notation``). ``docs/records.md`` describes the
format.

``write_record`` writes a game's events; ``read_record`` parses a text;
``replay_record`` plays a record through the rules again (every turn checked, the
points each line states, the final scores, and the bag order against its
commitment), refusing the first line that breaks them with its line number.

>>> rec = read_record('[Game "mathable"]\\n[Seat1 "ada"]\\n[Seat2 "bob"]\\n# hi\\n1. ada: pass')
>>> rec.names, rec.turns[0].text, rec.comments
(('ada', 'bob'), 'pass', [(0, 'hi')])
>>> try:
...     read_record('[Game "mathable"]\\n\\n1. ada pass')
... except RuleError as err:
...     print(err.message, err.details)
line 3: a turn is written "N. PLAYER: TURN" (1. ada pass) {'line': 3}
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mathable.core.commitment import commit
from mathable.core.errors import RuleError
from mathable.core.events import (
    Event,
    GameCreated,
    Passed,
    PlayerJoined,
    Resigned,
    TimedOut,
)
from mathable.core.lifecycle import Create, Join, Pass, Resign, TimeOut
from mathable.core.ruleset import AnyState, RecordTurn, Ruleset, ruleset
from mathable.core.state import ClockSpec
from mathable.core.words import Text, concat, says

#: The headers the kernel writes, in this order (a game's record may add others after).
HEADERS = (
    "Game", "Rules", "Seat1", "Seat2", "Seat3", "Seat4", "Referee", "Clock", "Date", "Id",
    "Result", "End", "Winners", "Imported", "Commitment", "Salt", "Order", "OrderGiven",
)  # fmt: skip

_HEADER = re.compile(r'\A\[([A-Za-z][A-Za-z0-9]*) "((?:[^"\\]|\\.)*)"\]\Z')
#: The longest line a record may hold (a turn of a whole rack is far shorter).
MAX_LINE = 2000
#: The most digits a number of a record (a turn's number, its points, a clock's) may have.
MAX_DIGITS = 9
_NAME = re.compile(r"\A[^\s:#\[\]\"]+\Z")
#: What a record writes for a withheld or not yet known result.
UNKNOWN = "*"


def record_error(
    line: int, code: str, message: str, details: Mapping[str, Any] | None = None
) -> RuleError:
    """A refusal of a record: the line (1 = the first of the text; 0: the record as a whole)
    in the message and in the details."""
    said = message if isinstance(message, Text) else Text(message)
    text = says("line {line}: {message}", line=line, message=said) if line else said
    return RuleError(code, text, {**(details or {}), "line": line})


@dataclass
class Record:
    """A record read or to be written: its headers (in order), turn lines, and comments
    (each with how many turn lines come before it)."""

    headers: dict[str, str] = field(default_factory=dict)
    turns: list[RecordTurn] = field(default_factory=list)
    comments: list[tuple[int, str]] = field(default_factory=list)
    #: The line each header was read from (for refusals).
    header_lines: dict[str, int] = field(default_factory=dict)
    #: The player name each turn line gave (checked against the seat when read).
    players: list[str] = field(default_factory=list)

    @property
    def names(self) -> tuple[str, ...]:
        """The players, seat by seat (``Seat1``, ``Seat2``...)."""
        out = []
        for index in range(1, 5):
            name = self.headers.get(f"Seat{index}")
            if name is None:
                break
            out.append(name)
        return tuple(out)

    def line_of(self, header: str) -> int:
        return self.header_lines.get(header, 0)

    def text(self) -> str:
        """The record as text (what ``read_record`` reads back to an equal record)."""
        names = self.names
        out = [f'[{key} "{_quote(value)}"]' for key, value in self.headers.items()]
        out.append("")
        comments = sorted(self.comments, key=lambda c: c[0])
        pending = list(comments)
        for number, turn in enumerate(self.turns, 1):
            while pending and pending[0][0] < number:
                out.append(f"# {one_line(pending.pop(0)[1])}")
            who = names[turn.seat] if 0 <= turn.seat < len(names) else f"seat{turn.seat + 1}"
            out.append(f"{number}. {who}: {turn.written}")
        out += [f"# {one_line(text)}" for _, text in pending]
        return "\n".join(out) + "\n"


#: What ``str.splitlines`` breaks a line at besides ``\n``: a record's lines end at ``\n``
#: only, and these are written as spaces (a comment or header holding one stays one line).
_BREAKS = re.compile("[\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def one_line(value: str) -> str:
    """``value`` with every line break (as any reader may see one) a space."""
    return _BREAKS.sub(" ", value)


def _quote(value: str) -> str:
    return one_line(value.replace("\\", "\\\\").replace('"', '\\"'))


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


# --- reading ------------------------------------------------------------------------------


def read_record(text: str) -> Record:
    """The record a text holds; RuleError ``bad_record`` with the line of what is not one."""
    record = Record()
    seen_turns = False
    # Lines end at "\n" (and "\r\n"): not at what else ``splitlines`` takes for a break.
    for number, raw in enumerate(text.split("\n"), 1):
        if len(raw) > MAX_LINE:
            raise record_error(
                number,
                "bad_record",
                says(
                    "the line is {length} characters long, more than a record's {max}",
                    length=len(raw),
                    max=MAX_LINE,
                ),
                {"length": len(raw), "max": MAX_LINE},
            )
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            record.comments.append((len(record.turns), line[1:].strip()))
            continue
        if line.startswith("["):
            match = _HEADER.match(line)
            if match is None:
                raise record_error(
                    number,
                    "bad_record",
                    says('a header is written [Name "value"] ({line})', line=line[:60]),
                )
            if seen_turns:
                raise record_error(number, "bad_record", says("the headers come before the turns"))
            key = match.group(1)
            if key in record.headers:
                raise record_error(
                    number, "bad_record", says("the header {key} is given twice", key=key)
                )
            record.headers[key] = _unquote(match.group(2))
            record.header_lines[key] = number
            continue
        turn = _turn_line(line, number)
        seen_turns = True
        at, player, body = turn
        if at != len(record.turns) + 1:
            raise record_error(
                number,
                "bad_record",
                says("turn {at} where turn {next} comes next", at=at, next=len(record.turns) + 1),
                {"expected": len(record.turns) + 1, "got": at},
            )
        if not body:
            raise record_error(
                number,
                "bad_record",
                says("the turn is missing (the line ends after the player)"),
            )
        names = record.names
        if player not in names:
            raise record_error(
                number,
                "bad_record",
                says("{player} is not a player of this game", player=repr(player[:32])),
                {"player": player[:32]},
            )
        body, points, bonus = _turn_points(body)
        if points is not None and not body:
            raise record_error(number, "bad_record", says("the turn is missing before its points"))
        record.turns.append(RecordTurn(names.index(player), body, points, bonus, number))
        record.players.append(player)
    if "Game" not in record.headers:
        raise record_error(
            0, "bad_record", says('a record begins with its game: [Game "mathable"]')
        )
    return record


def number_word(text: str) -> bool:
    """``text`` is a whole number a record may hold: ASCII digits, at most ``MAX_DIGITS``
    (``str.isdigit`` takes ``²``, which ``int`` refuses; ``int`` refuses very long ones)."""
    return 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdecimal()


def _turn_line(line: str, number: int) -> tuple[int, str, str]:
    """``N. PLAYER: TURN`` read in one pass (no backtracking: a long line costs its length)."""
    at, dot, rest = line.partition(".")
    player, colon, body = rest.lstrip().partition(":")
    if (
        not number_word(at)
        or not dot
        or not rest[:1].isspace()
        or not colon
        or not player
        or any(c.isspace() for c in player)
        or (body and not body[0].isspace())
    ):
        raise record_error(
            number,
            "bad_record",
            says('a turn is written "N. PLAYER: TURN" ({line})', line=line[:60]),
        )
    return int(at), player, body.strip()


def _turn_points(body: str) -> tuple[str, int | None, int]:
    """A turn's text and the points written after it: ``I8=12 (12)``, ``... (39+10)``."""
    if not body.endswith(")"):
        return body, None, 0
    opening = body.rfind("(")
    if opening < 0:
        return body, None, 0
    points, plus, bonus = body[opening + 1 : -1].partition("+")
    negative = points.startswith("-")
    digits = points[1:] if negative else points
    if not number_word(digits) or (plus and not number_word(bonus)):
        return body, None, 0
    value = -int(digits) if negative else int(digits)
    return body[:opening].rstrip(), value, int(bonus) if plus else 0


# --- writing ------------------------------------------------------------------------------


def _kernel_turn(event: Event, names: Sequence[str]) -> RecordTurn | None:
    match event:
        case Passed():
            return RecordTurn(event.seat, "pass")
        case Resigned():
            return RecordTurn(event.seat, "resign")
        case TimedOut():
            claimed = event.claimed_by
            if claimed is not None and 0 <= claimed < len(names):
                return RecordTurn(event.seat, f"timeout claimed by {names[claimed]}")
            return RecordTurn(event.seat, "timeout")
    return None


def _clock_text(spec: ClockSpec) -> str:
    def word(value: Any) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        return "none" if value is None else str(value)

    return " ".join(f"{key}={word(value)}" for key, value in spec.to_dict().items())


def _clock_of(text: str, line: int) -> ClockSpec:
    from mathable.core.events import CLOCK

    values: dict[str, Any] = {}
    for word in text.split():
        key, eq, value = word.partition("=")
        if not eq:
            raise record_error(
                line,
                "bad_record",
                says("a clock is written key=value ... ({word})", word=word[:20]),
            )
        values[key] = (
            True if value == "yes" else False if value == "no" else None if value == "none"
            else int(value) if number_word(value.removeprefix("-")) else value
        )  # fmt: skip
    try:
        spec = CLOCK.decode(values)
    except (RuleError, TypeError) as err:
        error = (
            says("{code}: {message}", code=err.code, message=err.message)
            if isinstance(err, RuleError)
            else str(err)
        )
        raise record_error(
            line, "bad_record", says("the clock is not one: {error}", error=error)
        ) from None
    assert spec is not None
    return spec


def write_record(
    events: Sequence[Event],
    *,
    names: Sequence[str] | None = None,
    revealed: bool | None = None,
    headers: Mapping[str, str] | None = None,
    comments: Iterable[tuple[int, str]] = (),
) -> Record:
    """The record of a game's (unredacted) events.

    ``names``: the players seat by seat (default: as the events name them). ``revealed``:
    the bag order and the tiles players kept to themselves may be written (default: the
    game revealed its order at its end); a game not revealed is written as anyone may
    see it: no order, no salt, exchanged tiles as ``?``, no final scores (a withheld order
    hides what the end took off the racks). ``headers``: more headers (``Date``, ``Id``).
    ``comments``: ``(turns before it, text)`` each, the place for a game's messages.
    """
    if not events or not isinstance(events[0], GameCreated):
        raise RuleError(
            "bad_record", says("a record is written from a game's events, from its creation"), {}
        )
    created = events[0]
    rules = ruleset(created.ruleset)
    # The creator's seat: 0, or the one a rematch's seating gives them (as the state has it).
    players = [""] * created.players
    players[0 if created.seating is None else created.seating.index(created.creator)] = (
        created.creator
    )
    for event in events:
        if isinstance(event, PlayerJoined) and 0 <= event.seat < len(players):
            players[event.seat] = event.player
    seat_names = list(names) if names is not None else players
    if revealed is None:
        revealed = any(e.type == "draws_revealed" for e in events)
    record = Record()
    record.headers["Game"] = created.ruleset
    record.headers["Rules"] = str(created.rules_version)
    for index, name in enumerate(seat_names):
        record.headers[f"Seat{index + 1}"] = name
    record.headers["Referee"] = created.referee
    if created.clock is not None:
        record.headers["Clock"] = _clock_text(created.clock)
    if created.imported:
        record.headers["Imported"] = "yes"
    for key, value in (headers or {}).items():
        record.headers[key] = value
    state: AnyState = rules.new_state()
    run: list[Event] = []
    run_state: AnyState = state
    for event in events:
        if event.game and not event.starts_clocks:
            if not run:
                run_state = state
            run.append(event)
        else:
            if run:
                record.turns += rules.record_turns(run_state, run, event, revealed)
                run = []
            turn = _kernel_turn(event, seat_names)
            if turn is not None:
                record.turns.append(turn)
        state = rules.apply(state, event)
    if run:
        record.turns += rules.record_turns(run_state, run, None, revealed)
    result = state.result
    if result is not None:
        record.headers["Result"] = " ".join(map(str, result.scores)) if revealed else UNKNOWN
        record.headers["End"] = result.reason
        if revealed:
            record.headers["Winners"] = " ".join(seat_names[s] for s in result.winners)
    else:
        record.headers["Result"] = UNKNOWN
    options = state.options
    if options.commitment is not None:
        record.headers["Commitment"] = options.commitment
    order = options.tiles if options.tiles is not None else options.order
    if revealed and order is not None:
        if options.salt is not None:
            record.headers["Salt"] = options.salt
        record.headers["Order"] = " ".join(rules.record_tile(t) for t in order)
        if options.tiles is not None:
            record.headers["OrderGiven"] = "yes"
    record.comments = sorted(comments, key=lambda c: c[0])
    return record


# --- replaying ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Played:
    """One turn line replayed: the line, the game before it, and the events it made."""

    turn: RecordTurn
    before: AnyState
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Replayed:
    """A record played through the rules: its events, the final state, each turn, and
    whether its order was checked against a commitment."""

    record: Record
    rules: Ruleset
    events: tuple[Event, ...]
    state: AnyState
    played: tuple[Played, ...]
    committed: bool


def current_rules_version(rules: Ruleset) -> int:
    """The rules version a game created now is played by."""
    created = rules.check(rules.new_state(), Create("x", ruleset=rules.name))[0]
    assert isinstance(created, GameCreated)
    return created.rules_version


def created_event(record: Record, rules: Ruleset) -> tuple[GameCreated, bool]:
    headers = record.headers
    names = record.names
    if not 2 <= len(names) <= 4:
        raise record_error(
            record.line_of("Seat1"),
            "bad_record",
            says("a game has 2 to 4 players: Seat1, Seat2..."),
        )
    if len(set(names)) != len(names) or not all(_NAME.match(n) for n in names):
        raise record_error(
            record.line_of("Seat1"),
            "bad_record",
            says("each player's name is one word, each once"),
        )
    version_text = headers.get("Rules", "")
    latest = current_rules_version(rules)
    if not number_word(version_text) or not 1 <= int(version_text) <= latest:
        raise record_error(
            record.line_of("Rules"),
            "bad_record",
            says('the header [Rules "N"] gives the rules version, 1 to {latest}', latest=latest),
            {"max": latest, "header": "Rules"},
        )
    if "Order" not in headers:
        raise record_error(
            0,
            "no_order",
            says(
                "the record holds no bag order (hidden while the game is played, or withheld): "
                "its draws cannot be replayed"
            ),
        )
    order_line = record.line_of("Order")
    try:
        order = tuple(rules.read_record_tile(word) for word in headers["Order"].split())
    except RuleError as err:
        raise record_error(
            order_line, "bad_record", says("the bag order: {message}", message=err.message)
        ) from None
    if sorted(order) != sorted(rules.tile_set):
        raise record_error(
            order_line,
            "bad_record",
            says("the bag order is not the {count} tiles of the game", count=len(rules.tile_set)),
            {"count": len(order), "expected": len(rules.tile_set)},
        )
    salt = headers.get("Salt")
    commitment = headers.get("Commitment")
    committed = False
    if commitment is not None:
        # A salt is hex (the creation's own check): anything else commits to nothing.
        if (
            salt is None
            or re.fullmatch(r"[0-9a-f]{32,64}", salt) is None
            or commit(order, salt) != commitment
        ):
            raise record_error(
                order_line,
                "bad_commitment",
                says(
                    "the bag order and salt do not match the commitment made at the game's creation"
                ),
            )
        committed = True
    referee = headers.get("Referee", "server")
    clock = _clock_of(headers["Clock"], record.line_of("Clock")) if "Clock" in headers else None
    given = headers.get("OrderGiven") == "yes"
    # The creation goes through the rules' own checks, as a game made here does.
    create = Create(
        names[0],
        players=len(names),
        referee=referee,
        tiles=order if given else None,
        clock=clock,
        order=None if given else order,
        salt=salt if committed else None,
        ruleset=rules.name,
    )
    try:
        made = rules.check(rules.new_state(), create)
    except RuleError as err:
        where = {
            "bad_referee": "Referee", "bad_clock": "Clock", "bad_tiles": "Order",
            "bad_salt": "Salt",
        }.get(err.code, "Clock" if err.details.get("field") == "clock" else "Game")  # fmt: skip
        raise record_error(record.line_of(where), err.code, err.message, err.details) from None
    created = made[0]
    assert isinstance(created, GameCreated)
    created = replace(created, rules_version=int(version_text))
    if not committed:
        created = replace(created, salt=None, commitment=None)
    return created, committed


#: The headers that make a record's game (not where or when it was written).
_GAME_HEADERS = (
    "Game", "Rules", "Seat1", "Seat2", "Seat3", "Seat4", "Referee", "Clock", "Result", "End",
    "Commitment", "Salt", "Order", "OrderGiven",
)  # fmt: skip


def record_digest(record: Record) -> str:
    """SHA-256 (hex) of what makes a record's game: the headers of ``_GAME_HEADERS`` and
    every turn (its seat, words and points), not its comments, date or id: two records of
    one game have the same digest.

    >>> a = read_record('[Game "mathable"]\\n[Seat1 "a"]\\n[Seat2 "b"]\\n1. a:  pass')
    >>> b = read_record('[Game "mathable"]\\n[Seat1 "a"]\\n[Seat2 "b"]\\n[Id "g1"]\\n'
    ...                 '# hi\\n1. a: pass')
    >>> record_digest(a) == record_digest(b)
    True
    """
    made = {
        "headers": {k: " ".join(record.headers[k].split()) for k in _GAME_HEADERS
                    if k in record.headers},
        "turns": [[t.seat, t.text.split(), t.points, t.bonus] for t in record.turns],
    }  # fmt: skip
    return hashlib.sha256(json.dumps(made, sort_keys=True).encode()).hexdigest()


def _kernel_commands(turn: RecordTurn, names: Sequence[str]) -> list[Any] | None:
    words = turn.text.split()
    if words == ["pass"]:
        return [Pass(turn.seat)]
    if words == ["resign"]:
        return [Resign(turn.seat)]
    if words == ["timeout"]:
        return [TimeOut(turn.seat)]
    if words[:3] == ["timeout", "claimed", "by"] and len(words) == 4:
        if words[3] not in names:
            raise record_error(
                turn.line,
                "bad_record",
                says("{player} is not a player of this game", player=repr(words[3][:32])),
            )
        return [TimeOut(turn.seat, names.index(words[3]))]
    return None


def replay_record(record: Record | str) -> Replayed:
    """Play a record through the rules: RuleError (with ``line`` in its details) at the first
    line the rules refuse, whose points differ from what the rules score, or a result or
    commitment that does not match."""
    if isinstance(record, str):
        record = read_record(record)
    try:
        rules = ruleset(record.headers["Game"])
    except RuleError as err:
        raise record_error(record.line_of("Game"), err.code, err.message, err.details) from None
    created, committed = created_event(record, rules)
    names = record.names
    try:
        state: AnyState = rules.apply(rules.new_state(), created)
        events: list[Event] = [created]
        for name in names[1:]:
            for event in rules.check(state, Join(name)):
                events.append(event)
                state = rules.apply(state, event)
    except RuleError as err:
        raise record_error(record.line_of("Seat1"), err.code, err.message, err.details) from None
    played: list[Played] = []
    for turn in record.turns:
        before = state
        kernel = _kernel_commands(turn, names)
        try:
            commands = (
                kernel if kernel is not None else rules.record_commands(state, turn.seat, turn.text)
            )
            made: list[Event] = []
            for command in commands:
                for event in rules.check(state, command):
                    made.append(event)
                    state = rules.apply(state, event)
        except RuleError as err:
            raise record_error(turn.line, err.code, err.message, err.details) from None
        if kernel is None:
            _same_turn(rules, before, made, turn)
        events += made
        played.append(Played(turn, before, tuple(made)))
    _same_result(record, state)
    return Replayed(record, rules, tuple(events), state, tuple(played), committed)


def _same_turn(rules: Ruleset, before: AnyState, made: list[Event], turn: RecordTurn) -> None:
    """The events a line made, written again, are the line: same turn, same points."""
    own = [e for e in made if e.game and not e.starts_clocks]
    again = rules.record_turns(before, own, None, True)
    if len(again) != 1 or again[0].seat != turn.seat:
        written = "; ".join(t.written for t in again) or says("nothing")
        raise record_error(
            turn.line, "bad_record", says("the rules play this line as {played}", played=written)
        )
    found = again[0]
    if found.text.split() != turn.text.split() and not _same_commands(rules, before, found, turn):
        raise record_error(
            turn.line,
            "bad_record",
            says("the rules play this line as {played}", played=found.written),
            {"played": found.written},
        )
    if (found.points, found.bonus) != (turn.points, turn.bonus):
        raise record_error(
            turn.line,
            "wrong_score",
            says(
                "the record scores this turn {written}, the rules {scored}",
                written=_points(turn),
                scored=_points(found),
            ),
            {"written": turn.total, "scored": found.total},
        )


def _same_commands(rules: Ruleset, before: AnyState, found: RecordTurn, turn: RecordTurn) -> bool:
    """The line and the rules' writing of it read as the same commands (``h9=8`` is
    ``H9=8``): the notation's spelling may differ, the turn may not."""
    try:
        return rules.record_commands(before, turn.seat, found.text) == rules.record_commands(
            before, turn.seat, turn.text
        )
    except RuleError:
        return False


def _points(turn: RecordTurn) -> str:
    if turn.points is None:
        return says("nothing")
    return f"{turn.points}+{turn.bonus}" if turn.bonus else str(turn.points)


def _same_result(record: Record, state: AnyState) -> None:
    result = record.headers.get("Result", UNKNOWN)
    line = record.line_of("Result")
    if result == UNKNOWN:
        return
    if state.result is None:
        raise record_error(
            line,
            "truncated_record",
            says("the record gives a result but its turns end before the game does"),
        )
    scores = " ".join(map(str, state.result.scores))
    if result.split() != scores.split():
        raise record_error(
            line,
            "wrong_score",
            says(
                "the record's result is {written}, the rules end the game {scored}",
                written=result,
                scored=scores,
            ),
            {"written": result, "scored": scores},
        )
    end = record.headers.get("End")
    if end is not None and end != state.result.reason:
        raise record_error(
            record.line_of("End"),
            "bad_record",
            says(
                "the game ends by {reason}, not {written}", reason=state.result.reason, written=end
            ),
        )


def final_words(replayed: Replayed) -> str:
    """The final position and scores of a replayed record, as text."""
    state = replayed.state
    names = replayed.record.names
    rules = replayed.rules
    view = rules.view(state, None)
    lines: list[str] = [rules.draw(view), ""]
    for index, seat in enumerate(state.seats):
        lines.append(f"{names[index]}: {seat.score}")
    if state.result is not None:
        winners = ", ".join(names[s] for s in state.result.winners)
        lines.append(
            says(
                "game over ({reason}); won by {winners}",
                reason=rules.end_words(state.result.reason),
                winners=winners,
            )
        )
    else:
        lines.append(says("the game goes on"))
    return concat(*(lines[0], *(part for line in lines[1:] for part in ("\n", line))))


__all__ = [
    "HEADERS",
    "UNKNOWN",
    "Played",
    "Record",
    "Replayed",
    "current_rules_version",
    "final_words",
    "number_word",
    "read_record",
    "record_digest",
    "record_error",
    "replay_record",
    "write_record",
]
