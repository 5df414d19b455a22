"""The rules of Mathable in words, for people: ``docs/rules.md`` and ``mathable-cli rules``.

The prose is written here once; every fact about the material (the squares,
the tiles, the rack, the bonus) is read from the rules package's constants,
and the worked example is played with the rules themselves, so its points and
boards are what the engine computes. ``sections()`` gives the text as
(title, markdown) pairs; ``mathable_markdown()`` Mathable's part of the page
(``mathable.core.rulebook.rules_markdown()`` is the whole page).

>>> mathable_markdown().splitlines()[0]
'# The rules of Mathable'
>>> [title for title, _ in sections()][:3]
['The game', 'What is in the box', 'The board']
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from mathable.core.bag import OrderedBag
from mathable.core.events import Event
from mathable.games.mathable.board import (
    CENTRE,
    COLUMNS,
    OPERATION,
    PREMIUM,
    SIZE,
    SQUARES,
    parse_square,
    render,
    square_name,
)
from mathable.games.mathable.commands import (
    Command,
    Create,
    DrawExtra,
    EndTurn,
    Join,
    Place,
    check,
    real_equations,
)
from mathable.games.mathable.events import ExtraTileDrawn, TilePlaced, TurnEnded, apply, replay
from mathable.games.mathable.ruleset_data import END_CONDITIONS, VERSIONS
from mathable.games.mathable.state import BONUS, RULES_VERSION, GameState
from mathable.games.mathable.tiles import RACK_SIZE, TILE_SET

OPERATION_NAMES = {"+": "add", "-": "subtract", "x": "multiply", "/": "divide"}


def _words(items: list[str]) -> str:
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def _squares_with(predicate: Callable[[int], bool]) -> list[str]:
    return [square_name(s) for s in SQUARES if predicate(s)]


def _item(text: str) -> str:
    """A list item of the page, wrapped at 78 columns."""
    return textwrap.fill(text, 78, initial_indent="- ", subsequent_indent="  ")


def _material() -> str:
    counts = Counter(TILE_SET)
    common = sorted(v for v, n in counts.items() if n > 1)
    single = sorted(v for v, n in counts.items() if n == 1)
    each = "/".join(str(n) for n in sorted({counts[v] for v in common}))
    centre = _words([f"{square_name(s)} holds {v}" for s, v in sorted(CENTRE.items())])
    items = [
        f"A board of {SIZE} x {SIZE} squares. The columns are lettered {COLUMNS[0]} to "
        f"{COLUMNS[-1]} from left to right, the rows numbered 1 to {SIZE} from top to "
        "bottom; a square is named by its column, then its row: `J8`.",
        f"Four numbers are printed in the middle of the board: {centre}. They work like "
        "tiles already played, but belong to nobody and score nothing.",
        f"{len(TILE_SET)} numbered tiles, each worth the number on it: {each} of each number "
        f"from {common[0]} to {common[-1]} ({sum(counts[v] for v in common)} tiles) and one "
        f"each of {', '.join(map(str, single))} ({len(single)} tiles).",
        f"For 2 to 4 players, each with a rack that holds {RACK_SIZE} tiles, hidden from the "
        "others. The other tiles wait face down in a bag.",
    ]
    return "\n".join(_item(text) for text in items)


def _board() -> str:
    by_op = {op: [square_name(s) for s in SQUARES if OPERATION[s] == op] for op in OPERATION_NAMES}
    doubles = _squares_with(lambda s: PREMIUM[s] == 2)
    triples = _squares_with(lambda s: PREMIUM[s] == 3)
    lines = "\n".join(
        f"- `{op}` ({OPERATION_NAMES[op]}): {' '.join(squares)}" for op, squares in by_op.items()
    )
    return f"""\
Empty squares show what they are: `+ - x /` are *operation squares* (blue on
the board), `2x` and `3x` *premium squares* (purple and orange), `.` a plain
square.

```
{render({})}
```

{lines}
- `2x` (double the points): {" ".join(doubles)}
- `3x` (triple the points): {" ".join(triples)}

No square is both an operation square and a premium square."""


SETUP = """\
Each player draws one tile from the bag; the highest number begins (players
who tie for it draw again, and the tiles drawn to break the tie go back into
the bag). Starting with the first player and going round in seat order,
everyone draws until their rack is full.

A game can also be made with the order of the bag given in advance (for
teaching, puzzles or tests). Then nobody draws to begin: the first seat
starts, and the racks are filled in seat order from the top of that order."""


def _turn() -> str:
    return f"""\
When it is your turn you do one of three things:

- **play**: put one or more tiles on the board, one after the other, then end
  the turn;
- **exchange**: give 1 to {RACK_SIZE} tiles back to the bag and draw as many new ones
  (only while the bag holds at least as many as you give back); this ends the
  turn;
- **pass**: end the turn without playing.

A tile once placed stays where it is (unless a correction takes it back, see
below)."""


PLACING = """\
Every tile has to finish a small sum. Look at the two squares in a straight
line on each side of the empty square: the two to its left, the two to its
right, the two above it, the two below it. Where both squares of such a *pair*
hold a number, the pair can be finished by a tile that is their sum, their
difference, their product, or their quotient when one divides the other
exactly. The order of the two does not matter: next to a 9 and a 3 you may
place 12, 6, 27 or 3.

So a tile goes on an empty square where at least one of the square's pairs
is finished by that tile. Diagonals never count, and a square between two
tiles (one on either side) is not next to a pair. Dividing by 0 is not
allowed, but 0 divided by a number is 0."""


def _operations() -> str:
    return f"""\
On an operation square only its own operation counts: on a `-` square next to
9 and 3 only 6 may be placed, on a `+` square only 12, and a tile that needs
another operation cannot go there at all.

Right after placing a tile on an operation square you may draw one extra tile
from the bag (if any are left). Decide at once: the chance is gone with your
next placement or the end of your turn. The extra tile can be played in the
same turn. With `mathable-cli` you are asked each time; the rack holds more
than {RACK_SIZE} tiles until the turn ends."""


def _scoring() -> str:
    return f"""\
A placed tile scores its number times the number of pairs it finishes, times
2 on a `2x` square or 3 on a `3x` square. On an operation square only the
pairs finished with its operation count. A pair that works two ways (2 and 2
make 4 by adding and by multiplying) counts once. A 0 scores nothing.

For example a 40 placed to the right of a 5 and an 8 (5 x 8) and at the same
time below a 64 and a 24 (64 - 24) finishes two pairs and scores 80; on a `2x`
square it would score 160.

The turn scores what its tiles scored. When you began the turn with a full
rack of {RACK_SIZE} tiles and end it with an empty rack (extra tiles drawn during the
turn included), you earn the **Mathable bonus** of {BONUS} points. Then you draw
from the bag until your rack holds {RACK_SIZE} tiles again, as far as the bag lasts."""


REFEREE = """\
Each game is made with one of two referees.

- **The server** (the usual choice) checks every tile as it is played. A tile
  that finishes nothing is refused with the reason, and nothing changes.
- **The players**, as at a real table. The server only checks that you play
  a tile of your own, on an empty square, in your turn, and you say which
  pairs the tile finishes. Until the next player acts, any opponent may ask
  for a **correction** of your turn, and the server then checks it:
  - a tile that finishes no pair (or not with its square's operation) goes
    back to your rack with every tile you placed after it in that turn; you
    keep only the points scored before the mistake, and the turn is over. Every
    extra tile drawn after a tile that goes back (the wrong tile's, and a later
    one's) goes back into the bag, and the Mathable bonus of that turn is lost;
  - a tile that is legal but claimed with a pair it does not finish stays,
    and scores only what its real claimed pairs give;
  - a correction that finds nothing wrong is refused.

  Once the next player has acted, the turn stands as played, mistakes
  included. In this mode a pair you do not claim scores nothing, even if your
  tile finishes it."""


def _end() -> str:
    # Named as the API names them (``result.reason``): mathable.ruleset_data holds the list.
    conditions = "\n".join(
        textwrap.fill(
            f"{n}. `{name}`: {rule}{'.' if n == len(END_CONDITIONS) else ';'}",
            78,
            subsequent_indent="   ",
        )
        for n, (name, rule) in enumerate(END_CONDITIONS, 1)
    )
    return f"""\
The game ends for one of these reasons (named as the server names them):

{conditions}

Then each player loses the total of the numbers left on their own rack. The
highest score wins; equal scores share the win."""


def _versions() -> str:
    lines = "\n".join(
        textwrap.fill(
            f"- **Version {v}**: {changes[:1].upper() + changes[1:]}.", 78, subsequent_indent="  "
        )
        for v, changes in VERSIONS
    )
    return f"""\
New games play version {RULES_VERSION}; a game keeps the version it began with to its end
(its view says which: `rules_version`).

{lines}"""


# --- the worked example ------------------------------------------------------------------


@dataclass(frozen=True)
class ExampleMove:
    """One placement of the worked example: where, which tile, and a word on it."""

    square: str
    tile: int
    note: str = ""


#: The two-player opening at the end of the Norwegian rule book (``shared/seeds/000_*``).
EXAMPLE_RACKS = ((1, 2, 8, 12, 16, 17, 42), (3, 4, 6, 7, 7, 8, 21))
EXAMPLE_EXTRA = 11  # the tile player 1 draws after the + square
EXAMPLE_TURNS = (
    (
        ExampleMove("I8", 12, "right of the printed 3 and 4"),
        ExampleMove("H6", 8, "above the printed 2 and 4"),
        ExampleMove("G9", 2, "below the printed 1 and 3"),
        ExampleMove("F7", 1, "left of the printed 1 and 2"),
        ExampleMove("J8", 16, "a `+` square, so only adding counts; then draws the extra tile"),
    ),
    (
        ExampleMove("F8", 7, "left of the printed 3 and 4"),
        ExampleMove("F9", 6, "below the 7 and the 1 (F8, F7)"),
        ExampleMove("H9", 8, "finishes two pairs: 6 and 2 across, 4 and 2 up"),
        ExampleMove("G6", 4, "above the printed 1 and 3"),
        ExampleMove("E9", 3, "left of the 6 and the 2"),
        ExampleMove("E8", 21, "an `x` square; the extra tile is declined"),
        ExampleMove("E10", 7, "below 3 and 21, on a `2x` square: double"),
    ),
)


def _run(state: GameState, bag: OrderedBag, command: Command) -> tuple[GameState, list[Event]]:
    events = check(state, command, bag)
    for event in events:
        state = apply(state, event)
    return state, events


def _sum(a: int, op: str, b: int, result: int) -> str:
    """``4 x 3 = 12``: a pair and the tile it makes, the larger number first."""
    high, low = max(a, b), min(a, b)
    return f"{high} {op} {low} = {result}"


def _example() -> str:
    order = list(TILE_SET)
    for tile in (*EXAMPLE_RACKS[0], *EXAMPLE_RACKS[1], EXAMPLE_EXTRA):
        order.remove(tile)
    order = [*EXAMPLE_RACKS[0], *EXAMPLE_RACKS[1], EXAMPLE_EXTRA, *order]
    bag = OrderedBag()
    state = replay([])
    state, _ = _run(state, bag, Create("player-1", tiles=tuple(order)))
    state, _ = _run(state, bag, Join("player-2"))
    out = [
        textwrap.fill(
            "The rule book ends with the opening of a two-player game. Player 1 holds "
            f"{' '.join(map(str, EXAMPLE_RACKS[0]))}; player 2 holds "
            f"{' '.join(map(str, EXAMPLE_RACKS[1]))}. Play it along: each line gives the "
            "placement as `mathable-cli move` writes it, the pairs it finishes and its points.",
            78,
        )
    ]
    for seat, turn in enumerate(EXAMPLE_TURNS):
        out += ["", f"**Player {seat + 1}**", "", "| placement | finishes | points | |"]
        out.append("| --- | --- | --- | --- |")
        for move in turn:
            square = parse_square(move.square)
            how = ", ".join(
                _sum(state.position.cells[e.near], e.op, state.position.cells[e.far], move.tile)
                for e in real_equations(state.position, square, move.tile)
            )
            state, events = _run(state, bag, Place(seat, square, move.tile))
            points = next(e.points for e in events if isinstance(e, TilePlaced))
            out.append(f"| `{move.square}={move.tile}` | {how} | {points} | {move.note} |")
            if OPERATION[square] is not None and seat == 0:
                state, events = _run(state, bag, DrawExtra(seat))
                drawn = next(e.tile for e in events if isinstance(e, ExtraTileDrawn))
                out.append(f"| draws the extra tile | | | the tile drawn: {drawn} |")
        state, events = _run(state, bag, EndTurn(seat))
        ended = next(e for e in events if isinstance(e, TurnEnded))
        total = f"The turn scores {ended.points}"
        if ended.bonus:
            total += (
                f", and as all {RACK_SIZE} tiles of a full rack went down, the Mathable bonus"
                f" of {ended.bonus}: {ended.points + ended.bonus} points"
            )
        board = render(state.position.placed())
        out += ["", textwrap.fill(total + ". The board now:", 78), "", "```", board, "```"]
    scores = " and ".join(f"{seat.score}" for seat in state.seats)
    out += ["", f"After these two turns the scores are {scores}."]
    return "\n".join(out)


NOTATION = """\
`mathable-cli` names a placement square first: `I8=12` puts the tile 12 on
I8 (`12@I8` is understood too). `mathable-cli hint GAME` lists the placements
that fit your rack, `mathable-cli show GAME` draws the board, and in
`mathable-cli move GAME` the placements of a turn are only sent when you type
`done` (until then `undo` takes the last one back)."""


def sections() -> list[tuple[str, str]]:
    """The rules as (title, markdown) pairs, in reading order."""
    return [
        ("The game", _intro()),
        ("What is in the box", _material()),
        ("The board", _board()),
        ("Getting ready", SETUP),
        ("A turn", _turn()),
        ("Placing a tile", PLACING),
        ("Operation squares and the extra tile", _operations()),
        ("Scoring", _scoring()),
        ("Who checks the moves: corrections", REFEREE),
        ("The end of the game", _end()),
        ("Rules versions", _versions()),
        ("A worked example", _example()),
        ("Writing moves", NOTATION),
    ]


def _intro() -> str:
    return """\
Mathable is played like a crossword game, with sums instead of words. Players
take turns placing numbered tiles on the board; every tile placed must be the
result of adding, subtracting, multiplying or dividing two tiles lying next to
it. Tiles score their number, more on the coloured squares, and the highest
score at the end wins."""


def mathable_markdown() -> str:
    """The rules of Mathable alone (``mathable-cli rules mathable``)."""
    parts = ["# The rules of Mathable"]
    for title, text in sections():
        parts += ["", f"## {title}", "", text]
    return "\n".join(parts) + "\n"
