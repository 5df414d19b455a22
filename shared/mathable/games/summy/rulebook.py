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

import textwrap
from typing import Any

from mathable.games.summy.notation import draw_table
from mathable.games.summy.ruleset_data import ruleset_data
from mathable.games.summy.tiles import parse_tiles


def _numbered(items: list[dict[str, Any]]) -> str:
    return "\n".join(
        textwrap.fill(
            f"{n}. `{item['name']}`: {item['rule']}{'.' if n == len(items) else ';'}",
            78,
            subsequent_indent="   ",
        )
        for n, item in enumerate(items, 1)
    )


def _fill(text: str) -> str:
    return textwrap.fill(text, 78)


def _sentence(text: str) -> str:
    """``text`` as a sentence: its first letter upper case, a full stop at the end."""
    return text[:1].upper() + text[1:] + "."


def _material(data: dict[str, Any]) -> str:
    tiles = data["tiles"]
    counts = ", ".join(f"{c['count']} `{c['tile']}`" for c in tiles["counts"])
    face_up = tiles["face_up"]
    return _fill(
        f"{tiles['total']} tiles: {counts}. One `{face_up['tile']}` starts face up in the "
        f"middle of the table; the other {tiles['supply']} are shuffled into the supply. "
        f"Each player draws a hand of {data['hand_size']}, which the others do not see."
    )


def _table(data: dict[str, Any]) -> str:
    table = data["table"]
    bound = table["max_coordinate"]
    first = draw_table({(0, 0): parse_tiles("=")[0]})
    return f"""\
{
        _fill(
            _sentence(table["rule"]) + f" Coordinates run from -{bound} to {bound}; the table "
            "grows as tiles are laid."
        )
    }

At the start the table holds only the `=` (`mathable-cli show` draws it so):

```
{first}
```"""


def _turn(data: dict[str, Any]) -> str:
    return _fill(
        f"{_sentence(data['turn']['rule'])} {_sentence(data['refill'])} "
        f"{_sentence(data['discard']['rule'])}"
    )


def _equations(data: dict[str, Any]) -> str:
    eq = data["equation"]
    operators = "\n".join(f"- `{o['operator']}` {o['does']}" for o in eq["operators"])
    refused = "\n".join(f"| `{r['line']}` | `{r['code']}` |" for r in eq["refused"])
    return f"""\
{_fill(_sentence(eq["rule"]))}

{
        _fill(
            f"Exactly one `=`: before it {eq['left']}, after it {eq['right']}. No number "
            f"starts with 0 (a lone 0 is fine), no number has more than {eq['max_digits']} "
            "digits, and an equation never begins with a sign."
        )
    }

{operators}

{_fill("The signs " + eq["precedence"] + ".")}

Lines that are not equations, and how the server refuses them:

| line | refused as |
|---|---|
{refused}"""


def _scoring(data: dict[str, Any]) -> str:
    rows = "\n".join(f"| `{e['equation']}` | {e['points']} |" for e in data["scoring"]["examples"])
    return f"""\
{_fill(_sentence(data["scoring"]["rule"]))}

| equation | points |
|---|---|
{rows}"""


def _end(data: dict[str, Any]) -> str:
    return f"""\
The game ends for one of these reasons (named as the server names them):

{_numbered(data["end_conditions"])}

{_fill(_sentence(data["deductions"]) + " The final score is " + data["final_scores"] + ".")}"""


def _versions(data: dict[str, Any]) -> str:
    lines = "\n".join(
        textwrap.fill(
            f"- **Version {v['version']}**: {_sentence(v['changes'])}", 78, subsequent_indent="  "
        )
        for v in data["versions"]
    )
    earlier = _numbered(data["earlier_end_conditions"])
    return f"""\
New games play version {data["rules_version"]}; a game keeps the version it began with to its end
(its view says which: `rules_version`).

{lines}

Games of earlier versions also end for these reasons:

{earlier}"""


def _choices(data: dict[str, Any]) -> str:
    return f"""\
Where the printed rules leave a choice, this server does this (named as in `GET
/v1/rulesets/summy`):

{_numbered(data["choices"])}"""


NOTATION = """\
`mathable-cli move GAME` takes a play as the first square of the whole
equation, its direction and the whole equation, table tiles included:
`-3,0 across 1+2=3` lays 1, + and 2 left of the `=` in the middle and 3 right
of it (`a` or `>` for across, `d` or `v` for down). The client works out which
tiles are new. `mathable-cli discard GAME 7 x` discards a 7 and an x;
`mathable-cli pass GAME` passes; `mathable-cli hint GAME` shows the best
equation your hand makes."""


def sections() -> list[tuple[str, str]]:
    """The Summy rules as (title, markdown) pairs, in reading order."""
    data = ruleset_data()
    return [
        ("The game", INTRO),
        ("What is in the box", _material(data)),
        ("The table", _table(data)),
        ("A turn", _turn(data)),
        ("Equations", _equations(data)),
        ("Scoring", _scoring(data)),
        ("The end of the game", _end(data)),
        ("The server's choices", _choices(data)),
        ("Rules versions", _versions(data)),
        ("Writing moves", NOTATION),
    ]


INTRO = """\
Summy (Corné van Moorsel, Cwali, 2010) is a crossword game of whole equations
on an open table. Players take turns laying tiles from their hand so that
they form one equation with tiles already on the table, like `1+2=3` or
`8x15=120`; an equation scores the digits in it. Create a game with
`mathable-cli new --ruleset summy`."""


def rules_markdown() -> str:
    """The Summy part of ``docs/rules.md`` (and all of ``mathable-cli rules summy``)."""
    parts = ["# The rules of Summy"]
    for title, text in sections():
        parts += ["", f"## {title}", "", text]
    return "\n".join(parts) + "\n"


__all__ = ["rules_markdown", "sections"]
