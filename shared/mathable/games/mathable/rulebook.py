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

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from mathable.core.bag import OrderedBag
from mathable.core.events import Event
from mathable.core.rulebook import Block, layout
from mathable.core.words import N_, says
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

OPERATION_NAMES = {"+": N_("add"), "-": N_("subtract"), "x": N_("multiply"), "/": N_("divide")}


def _squares_with(predicate: Callable[[int], bool]) -> list[str]:
    return [square_name(s) for s in SQUARES if predicate(s)]


def _p(text: str) -> Block:
    return Block(text)


def _item(text: str, tight: bool = True) -> Block:
    """A list item of the page, wrapped at 78 columns."""
    return Block(text, lead="- ", indent="  ", tight=tight)


def _material() -> list[Block]:
    counts = Counter(TILE_SET)
    common = sorted(v for v, n in counts.items() if n > 1)
    single = sorted(v for v, n in counts.items() if n == 1)
    each = "/".join(str(n) for n in sorted({counts[v] for v in common}))
    (s1, v1), (s2, v2), (s3, v3), (s4, v4) = (
        (square_name(s), v) for s, v in sorted(CENTRE.items())
    )
    items = [
        says(
            "A board of {size} x {size} squares. The columns are lettered {first} to {last} "
            "from left to right, the rows numbered 1 to {size} from top to bottom; a square "
            "is named by its column, then its row: `J8`.",
            size=SIZE,
            first=COLUMNS[0],
            last=COLUMNS[-1],
        ),
        says(
            "Four numbers are printed in the middle of the board: {s1} holds {v1}, {s2} "
            "holds {v2}, {s3} holds {v3} and {s4} holds {v4}. They work like tiles already "
            "played, but belong to nobody and score nothing.",
            s1=s1,
            v1=v1,
            s2=s2,
            v2=v2,
            s3=s3,
            v3=v3,
            s4=s4,
            v4=v4,
        ),  # fmt: skip
        says(
            "{total} numbered tiles, each worth the number on it: {each} of each number "
            "from {low} to {high} ({common} tiles) and one each of {singles} ({single} "
            "tiles).",
            total=len(TILE_SET),
            each=each,
            low=common[0],
            high=common[-1],
            common=sum(counts[v] for v in common),
            singles=", ".join(map(str, single)),
            single=len(single),
        ),
        says(
            "For 2 to 4 players, each with a rack that holds {rack} tiles, hidden from the "
            "others. The other tiles wait face down in a bag.",
            rack=RACK_SIZE,
        ),
    ]
    return [_item(text, tight=n > 0) for n, text in enumerate(items)]


def _board() -> list[Block]:
    by_op = {op: [square_name(s) for s in SQUARES if OPERATION[s] == op] for op in OPERATION_NAMES}
    doubles = _squares_with(lambda s: PREMIUM[s] == 2)
    triples = _squares_with(lambda s: PREMIUM[s] == 3)
    lines = [
        Block(name, lead=f"- `{op}` (", end=f"): {' '.join(by_op[op])}", wrap=False, tight=n > 0)
        for n, (op, name) in enumerate(OPERATION_NAMES.items())
    ]
    return [
        _p(
            N_(
                "Empty squares show what they are: `+ - x /` are *operation squares* (blue on\n"
                "the board), `2x` and `3x` *premium squares* (purple and orange), `.` a plain\n"
                "square."
            )
        ),
        Block(f"```\n{render({})}\n```", raw=True),
        *lines,
        Block(
            N_("double the points"),
            lead="- `2x` (",
            end=f"): {' '.join(doubles)}",
            wrap=False,
            tight=True,
        ),  # fmt: skip
        Block(
            N_("triple the points"),
            lead="- `3x` (",
            end=f"): {' '.join(triples)}",
            wrap=False,
            tight=True,
        ),  # fmt: skip
        _p(N_("No square is both an operation square and a premium square.")),
    ]


def _setup() -> list[Block]:
    return [
        _p(
            N_(
                "Each player draws one tile from the bag; the highest number begins (players\n"
                "who tie for it draw again, and the tiles drawn to break the tie go back into\n"
                "the bag). Starting with the first player and going round in seat order,\n"
                "everyone draws until their rack is full."
            )
        ),
        _p(
            N_(
                "A game can also be made with the order of the bag given in advance (for\n"
                "teaching, puzzles or tests). Then nobody draws to begin: the first seat\n"
                "starts, and the racks are filled in seat order from the top of that order."
            )
        ),
    ]


def _turn() -> list[Block]:
    return [
        _p(N_("When it is your turn you do one of three things:")),
        _item(
            N_(
                "**play**: put one or more tiles on the board, one after the other, then end\n"
                "the turn;"
            ),
            tight=False,
        ),
        _item(
            says(
                "**exchange**: give 1 to {rack} tiles back to the bag and draw as many new ones\n"
                "(only while the bag holds at least as many as you give back); this ends the\n"
                "turn;",
                rack=RACK_SIZE,
            )
        ),
        _item(N_("**pass**: end the turn without playing.")),
        _p(
            N_(
                "A tile once placed stays where it is (unless a correction takes it back, see\n"
                "below)."
            )
        ),
    ]


def _placing() -> list[Block]:
    return [
        _p(
            N_(
                "Every tile has to finish a small sum. Look at the two squares in a straight\n"
                "line on each side of the empty square: the two to its left, the two to its\n"
                "right, the two above it, the two below it. Where both squares of such a *pair*\n"
                "hold a number, the pair can be finished by a tile that is their sum, their\n"
                "difference, their product, or their quotient when one divides the other\n"
                "exactly. The order of the two does not matter: next to a 9 and a 3 you may\n"
                "place 12, 6, 27 or 3."
            )
        ),
        _p(
            N_(
                "So a tile goes on an empty square where at least one of the square's pairs\n"
                "is finished by that tile. Diagonals never count, and a square between two\n"
                "tiles (one on either side) is not next to a pair. Dividing by 0 is not\n"
                "allowed, but 0 divided by a number is 0."
            )
        ),
    ]


def _operations() -> list[Block]:
    return [
        _p(
            N_(
                "On an operation square only its own operation counts: on a `-` square next to\n"
                "9 and 3 only 6 may be placed, on a `+` square only 12, and a tile that needs\n"
                "another operation cannot go there at all."
            )
        ),
        _p(
            says(
                "Right after placing a tile on an operation square you may draw one extra tile\n"
                "from the bag (if any are left). Decide at once: the chance is gone with your\n"
                "next placement or the end of your turn. The extra tile can be played in the\n"
                "same turn. With `mathable-cli` you are asked each time; the rack holds more\n"
                "than {rack} tiles until the turn ends.",
                rack=RACK_SIZE,
            )
        ),
    ]


def _scoring() -> list[Block]:
    return [
        _p(
            N_(
                "A placed tile scores its number times the number of pairs it finishes, times\n"
                "2 on a `2x` square or 3 on a `3x` square. On an operation square only the\n"
                "pairs finished with its operation count. A pair that works two ways (2 and 2\n"
                "make 4 by adding and by multiplying) counts once. A 0 scores nothing."
            )
        ),
        _p(
            N_(
                "For example a 40 placed to the right of a 5 and an 8 (5 x 8) and at the same\n"
                "time below a 64 and a 24 (64 - 24) finishes two pairs and scores 80; on a `2x`\n"
                "square it would score 160."
            )
        ),
        _p(
            says(
                "The turn scores what its tiles scored. When you began the turn with a full\n"
                "rack of {rack} tiles and end it with an empty rack (extra tiles drawn during the\n"
                "turn included), you earn the **Mathable bonus** of {bonus} points. Then you draw\n"
                "from the bag until your rack holds {rack} tiles again, as far as the bag lasts.",
                rack=RACK_SIZE,
                bonus=BONUS,
            )
        ),
    ]


def _referee() -> list[Block]:
    def sub(text: str) -> Block:
        return Block(text, lead="  - ", indent="    ", tight=True)

    return [
        _p(N_("Each game is made with one of two referees.")),
        _item(
            N_(
                "**The server** (the usual choice) checks every tile as it is played. A tile\n"
                "that finishes nothing is refused with the reason, and nothing changes."
            ),
            tight=False,
        ),
        _item(
            N_(
                "**The players**, as at a real table. The server only checks that you play\n"
                "a tile of your own, on an empty square, in your turn, and you say which\n"
                "pairs the tile finishes. Until the next player acts, any opponent may ask\n"
                "for a **correction** of your turn, and the server then checks it:"
            )
        ),
        sub(
            N_(
                "a tile that finishes no pair (or not with its square's operation) goes\n"
                "back to your rack with every tile you placed after it in that turn; you\n"
                "keep only the points scored before the mistake, and the turn is over. Every\n"
                "extra tile drawn after a tile that goes back (the wrong tile's, and a later\n"
                "one's) goes back into the bag, and the Mathable bonus of that turn is lost;"
            )
        ),
        sub(
            N_(
                "a tile that is legal but claimed with a pair it does not finish stays,\n"
                "and scores only what its real claimed pairs give;"
            )
        ),
        sub(N_("a correction that finds nothing wrong is refused.")),
        Block(
            N_(
                "Once the next player has acted, the turn stands as played, mistakes\n"
                "included. In this mode a pair you do not claim scores nothing, even if your\n"
                "tile finishes it."
            ),
            lead="  ",
            indent="  ",
        ),
    ]


def _numbered(conditions: tuple[tuple[str, str], ...]) -> list[Block]:
    """Named as the API names them (``result.reason``), each with its rule."""
    return [
        Block(
            rule,
            lead=f"{n}. `{name}`: ",
            end="." if n == len(conditions) else ";",
            indent="   ",
            tight=n > 1,
        )
        for n, (name, rule) in enumerate(conditions, 1)
    ]


def _end() -> list[Block]:
    # mathable.ruleset_data holds the list.
    return [
        _p(N_("The game ends for one of these reasons (named as the server names them):")),
        *_numbered(END_CONDITIONS),
        _p(
            N_(
                "Then each player loses the total of the numbers left on their own rack. The\n"
                "highest score among the players still in the game wins (a player who\n"
                "resigned or ran out of time cannot win); equal scores share the win."
            )
        ),
    ]


def _versions() -> list[Block]:
    return [
        _p(
            says(
                "New games play version {version}; a game keeps the version it began with to "
                "its end\n(its view says which: `rules_version`).",
                version=RULES_VERSION,
            )
        ),
        *(
            Block(
                lead="- ",
                label=says("**Version {version}**", version=v),
                sentences=(changes,),
                indent="  ",
                tight=n > 0,
            )
            for n, (v, changes) in enumerate(VERSIONS)
        ),
    ]


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
        ExampleMove("I8", 12, N_("right of the printed 3 and 4")),
        ExampleMove("H6", 8, N_("above the printed 2 and 4")),
        ExampleMove("G9", 2, N_("below the printed 1 and 3")),
        ExampleMove("F7", 1, N_("left of the printed 1 and 2")),
        ExampleMove("J8", 16, N_("a `+` square, so only adding counts; then draws the extra tile")),
    ),
    (
        ExampleMove("F8", 7, N_("left of the printed 3 and 4")),
        ExampleMove("F9", 6, N_("below the 7 and the 1 (F8, F7)")),
        ExampleMove("H9", 8, N_("finishes two pairs: 6 and 2 across, 4 and 2 up")),
        ExampleMove("G6", 4, N_("above the printed 1 and 3")),
        ExampleMove("E9", 3, N_("left of the 6 and the 2")),
        ExampleMove("E8", 21, N_("an `x` square; the extra tile is declined")),
        ExampleMove("E10", 7, N_("below 3 and 21, on a `2x` square: double")),
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


def _example() -> list[Block]:
    order = list(TILE_SET)
    for tile in (*EXAMPLE_RACKS[0], *EXAMPLE_RACKS[1], EXAMPLE_EXTRA):
        order.remove(tile)
    order = [*EXAMPLE_RACKS[0], *EXAMPLE_RACKS[1], EXAMPLE_EXTRA, *order]
    bag = OrderedBag()
    state = replay([])
    state, _ = _run(state, bag, Create("player-1", tiles=tuple(order)))
    state, _ = _run(state, bag, Join("player-2"))
    out = [
        _p(
            says(
                "The rule book ends with the opening of a two-player game. Player 1 holds "
                "{first}; player 2 holds {second}. Play it along: each line gives the "
                "placement as `mathable-cli move` writes it, the pairs it finishes and its "
                "points.",
                first=" ".join(map(str, EXAMPLE_RACKS[0])),
                second=" ".join(map(str, EXAMPLE_RACKS[1])),
            )
        )
    ]
    for seat, turn in enumerate(EXAMPLE_TURNS):
        out += [
            _p(says("**Player {number}**", number=seat + 1)),
            Block(cells=(says("placement"), says("finishes"), says("points"), "")),
            Block("| --- | --- | --- | --- |", raw=True, tight=True),
        ]
        for move in turn:
            square = parse_square(move.square)
            how = ", ".join(
                _sum(state.position.cells[e.near], e.op, state.position.cells[e.far], move.tile)
                for e in real_equations(state.position, square, move.tile)
            )
            state, events = _run(state, bag, Place(seat, square, move.tile))
            points = next(e.points for e in events if isinstance(e, TilePlaced))
            cells = (f"`{move.square}={move.tile}`", how, str(points), says(move.note))
            out.append(Block(cells=cells, tight=True))
            if OPERATION[square] is not None and seat == 0:
                state, events = _run(state, bag, DrawExtra(seat))
                drawn = next(e.tile for e in events if isinstance(e, ExtraTileDrawn))
                extra = (
                    says("draws the extra tile"),
                    "",
                    "",
                    says("the tile drawn: {tile}", tile=drawn),
                )
                out.append(Block(cells=extra, tight=True))
        state, events = _run(state, bag, EndTurn(seat))
        ended = next(e for e in events if isinstance(e, TurnEnded))
        if ended.bonus:
            total = says(
                "The turn scores {points}, and as all {rack} tiles of a full rack went down, "
                "the Mathable bonus of {bonus}: {total} points. The board now:",
                points=ended.points,
                rack=RACK_SIZE,
                bonus=ended.bonus,
                total=ended.points + ended.bonus,
            )
        else:
            total = says("The turn scores {points}. The board now:", points=ended.points)
        board = render(state.position.placed())
        out += [_p(total), Block(f"```\n{board}\n```", raw=True)]
    first, second = (seat.score for seat in state.seats)
    out.append(
        _p(
            says(
                "After these two turns the scores are {first} and {second}.",
                first=first,
                second=second,
            )
        )
    )
    return out


def _notation() -> list[Block]:
    return [
        _p(
            N_(
                "`mathable-cli` names a placement square first: `I8=12` puts the tile 12 on\n"
                "I8 (`12@I8` is understood too). `mathable-cli hint GAME` lists the placements\n"
                "that fit your rack, `mathable-cli show GAME` draws the board, and in\n"
                "`mathable-cli move GAME` the placements of a turn are only sent when you type\n"
                "`done` (until then `undo` takes the last one back)."
            )
        ),
        _p(
            N_(
                "On the web's play page the squares where the chosen tile fits have a green\n"
                "frame in every game, rated or not: that is the rules, as a chess site shows\n"
                "the legal moves, not advice. A rated game shows no hint and no ranking of\n"
                "moves."
            )
        ),
    ]


def _intro() -> list[Block]:
    return [
        _p(
            N_(
                "Mathable is played like a crossword game, with sums instead of words. Players\n"
                "take turns placing numbered tiles on the board; every tile placed must be the\n"
                "result of adding, subtracting, multiplying or dividing two tiles lying next to\n"
                "it. Tiles score their number, more on the coloured squares, and the highest\n"
                "score at the end wins."
            )
        )
    ]


def chapters() -> list[tuple[str, list[Block]]]:
    """The rules as (title, blocks) pairs, in reading order; each title marked."""
    return [
        (N_("The game"), _intro()),
        (N_("What is in the box"), _material()),
        (N_("The board"), _board()),
        (N_("Getting ready"), _setup()),
        (N_("A turn"), _turn()),
        (N_("Placing a tile"), _placing()),
        (N_("Operation squares and the extra tile"), _operations()),
        (N_("Scoring"), _scoring()),
        (N_("Who checks the moves: corrections"), _referee()),
        (N_("The end of the game"), _end()),
        (N_("Rules versions"), _versions()),
        (N_("A worked example"), _example()),
        (N_("Writing moves"), _notation()),
    ]


def sections() -> list[tuple[str, str]]:
    """The rules as (title, markdown) pairs, in reading order (English)."""
    return [(title, layout(blocks)[:-1]) for title, blocks in chapters()]


def blocks() -> list[Block]:
    """Mathable's rule book as blocks to say (``mathable.core.rulebook``): its title, then
    each chapter's heading and words."""
    out = [Block(N_("The rules of Mathable"), lead="# ")]
    for title, chapter in chapters():
        out += [Block(title, lead="## "), *chapter]
    return out


def mathable_markdown(say: Callable[[str], str] = str) -> str:
    """The rules of Mathable alone (``mathable-cli rules mathable``), in the language of
    ``say`` (English by default)."""
    return layout(blocks(), say)
