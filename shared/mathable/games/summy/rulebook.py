"""The rules of Summy in words, for people: the Summy part of ``docs/rules.md`` and
``mathable-cli rules summy``.

Written from ``mathable.games.summy.ruleset_data`` (the same source as ``GET
/v1/rulesets/summy``): the tiles, the hand, the grammar of an equation, the examples
and their points, the end conditions and the server's choices are read from there,
and the examples are scored by the rules themselves.

>>> rules_markdown().splitlines()[0]
'# The rules of Summy'
>>> [title for title, _ in sections()][:3]
['The game', 'What is in the box', 'The table']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mathable.core.rulebook import Block, layout
from mathable.core.words import N_, says
from mathable.games.summy.notation import draw_table
from mathable.games.summy.ruleset_data import ruleset_data
from mathable.games.summy.tiles import parse_tiles


def _numbered(items: list[dict[str, Any]]) -> list[Block]:
    return [
        Block(
            item["rule"],
            lead=f"{n}. `{item['name']}`: ",
            end="." if n == len(items) else ";",
            indent="   ",
            tight=n > 1,
        )
        for n, item in enumerate(items, 1)
    ]


def _material(data: dict[str, Any]) -> list[Block]:
    tiles = data["tiles"]
    counts = ", ".join(f"{c['count']} `{c['tile']}`" for c in tiles["counts"])
    face_up = tiles["face_up"]
    return [
        Block(
            says(
                "{total} tiles: {counts}. One `{face_up}` starts face up in the middle of the "
                "table; the other {supply} are shuffled into the supply. Each player draws a "
                "hand of {hand}, which the others do not see.",
                total=tiles["total"],
                counts=counts,
                face_up=face_up["tile"],
                supply=tiles["supply"],
                hand=data["hand_size"],
            )
        )
    ]


def _table(data: dict[str, Any]) -> list[Block]:
    table = data["table"]
    bound = table["max_coordinate"]
    first = draw_table({(0, 0): parse_tiles("=")[0]})
    return [
        Block(
            says(
                "Coordinates run from -{bound} to {bound}; the table grows as tiles are laid.",
                bound=bound,
            ),
            sentences=(table["rule"],),
        ),
        Block(N_("At the start the table holds only the `=` (`mathable-cli show` draws it so):")),
        Block(f"```\n{first}\n```", raw=True),
    ]


def _turn(data: dict[str, Any]) -> list[Block]:
    return [Block(sentences=(data["turn"]["rule"], data["refill"], data["discard"]["rule"]))]


def _equations(data: dict[str, Any]) -> list[Block]:
    eq = data["equation"]
    operators = [
        Block(o["does"], lead=f"- `{o['operator']}` ", wrap=False, tight=n > 0)
        for n, o in enumerate(eq["operators"])
    ]
    refused = [
        Block(f"| `{r['line']}` | `{r['code']}` |", raw=True, tight=True) for r in eq["refused"]
    ]
    return [
        Block(sentences=(eq["rule"],)),
        Block(
            says(
                "Exactly one `=`: before it {left}, after it {right}. No number starts with 0 "
                "(a lone 0 is fine), no number has more than {digits} digits, and an equation "
                "never begins with a sign.",
                left=says(eq["left"]),
                right=says(eq["right"]),
                digits=eq["max_digits"],
            )
        ),
        *operators,
        Block(says("The signs {precedence}.", precedence=says(eq["precedence"]))),
        Block(N_("Lines that are not equations, and how the server refuses them:")),
        Block(cells=(says("line"), says("refused as"))),
        Block("|---|---|", raw=True, tight=True),
        *refused,
    ]


def _scoring(data: dict[str, Any]) -> list[Block]:
    rows = [
        Block(f"| `{e['equation']}` | {e['points']} |", raw=True, tight=True)
        for e in data["scoring"]["examples"]
    ]
    return [
        Block(sentences=(data["scoring"]["rule"],)),
        Block(cells=(says("equation"), says("points"))),
        Block("|---|---|", raw=True, tight=True),
        *rows,
    ]


def _end(data: dict[str, Any]) -> list[Block]:
    return [
        Block(N_("The game ends for one of these reasons (named as the server names them):")),
        *_numbered(data["end_conditions"]),
        Block(
            says("The final score is {scores}.", scores=says(data["final_scores"])),
            sentences=(data["deductions"],),
        ),
    ]


def _versions(data: dict[str, Any]) -> list[Block]:
    return [
        Block(
            says(
                "New games play version {version}; a game keeps the version it began with to "
                "its end\n(its view says which: `rules_version`).",
                version=data["rules_version"],
            )
        ),
        *(
            Block(
                lead="- ",
                label=says("**Version {version}**", version=v["version"]),
                sentences=(v["changes"],),
                indent="  ",
                tight=n > 0,
            )
            for n, v in enumerate(data["versions"])
        ),
        Block(N_("Games of earlier versions also end for these reasons:")),
        *_numbered(data["earlier_end_conditions"]),
    ]


def _choices(data: dict[str, Any]) -> list[Block]:
    return [
        Block(
            N_(
                "Where the printed rules leave a choice, this server does this (named as in `GET\n"
                "/v1/rulesets/summy`):"
            )
        ),
        *_numbered(data["choices"]),
    ]


NOTATION = N_(
    "`mathable-cli move GAME` takes a play as the first square of the whole\n"
    "equation, its direction and the whole equation, table tiles included:\n"
    "`-3,0 across 1+2=3` lays 1, + and 2 left of the `=` in the middle and 3 right\n"
    "of it (`a` or `>` for across, `d` or `v` for down). The client works out which\n"
    "tiles are new. `mathable-cli discard GAME 7 x` discards a 7 and an x;\n"
    "`mathable-cli pass GAME` passes; `mathable-cli hint GAME` shows the best\n"
    "equation your hand makes."
)

INTRO = N_(
    "Summy (Corné van Moorsel, Cwali, 2010) is a crossword game of whole equations\n"
    "on an open table. Players take turns laying tiles from their hand so that\n"
    "they form one equation with tiles already on the table, like `1+2=3` or\n"
    "`8x15=120`; an equation scores the digits in it. Create a game with\n"
    "`mathable-cli new --ruleset summy`."
)


def chapters() -> list[tuple[str, list[Block]]]:
    """The Summy rules as (title, blocks) pairs, in reading order; each title marked."""
    data = ruleset_data()
    return [
        (N_("The game"), [Block(INTRO)]),
        (N_("What is in the box"), _material(data)),
        (N_("The table"), _table(data)),
        (N_("A turn"), _turn(data)),
        (N_("Equations"), _equations(data)),
        (N_("Scoring"), _scoring(data)),
        (N_("The end of the game"), _end(data)),
        (N_("The server's choices"), _choices(data)),
        (N_("Rules versions"), _versions(data)),
        (N_("Writing moves"), [Block(NOTATION)]),
    ]


def sections() -> list[tuple[str, str]]:
    """The Summy rules as (title, markdown) pairs, in reading order (English)."""
    return [(title, layout(blocks)[:-1]) for title, blocks in chapters()]


def blocks() -> list[Block]:
    """Summy's rule book as blocks to say (``mathable.core.rulebook``)."""
    out = [Block(N_("The rules of Summy"), lead="# ")]
    for title, chapter in chapters():
        out += [Block(title, lead="## "), *chapter]
    return out


def rules_markdown(say: Callable[[str], str] = str) -> str:
    """The Summy part of ``docs/rules.md`` (and all of ``mathable-cli rules summy``), in the
    language of ``say`` (English by default)."""
    return layout(blocks(), say)


__all__ = ["blocks", "chapters", "rules_markdown", "sections"]
