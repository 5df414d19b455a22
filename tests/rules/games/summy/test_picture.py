"""Summy's table as a picture (``mathable.games.summy.picture``, the ruleset's ``svg``):
tiles drawn as tiles, the last play marked, the picture as big as the table."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from mathable.core.lifecycle import Create, Join
from mathable.core.ruleset import ruleset
from mathable.games.summy import parse_tiles
from mathable.games.summy.picture import (
    CELL,
    LEFT,
    MARGIN_SQUARES,
    MIN_COLUMNS,
    MIN_ROWS,
    TOP,
    summy_svg,
)
from mathable.games.summy.tiles import SUPPLY_SET

SUMMY = ruleset("summy")
SVG = "{http://www.w3.org/2000/svg}"


def _game(*plays: str, viewer: int | None = None) -> dict[str, Any]:
    """A Summy game (ann seat 0 holding 1 2 + 3 4 5 x =, ben seat 1) after ``plays``
    (each in Summy's notation, seats taking turns), as ``viewer`` sees it."""
    rest = list(SUPPLY_SET)
    front = parse_tiles("12+345x=" + "6789-:=0" + "1231" + "0000")
    for tile in front:
        rest.remove(tile)
    state = SUMMY.new_state()
    for command in (Create("ann", tiles=tuple(front + rest), ruleset="summy"), Join("ben")):
        for event in SUMMY.check(state, command):
            state = SUMMY.apply(state, event)
    for index, words in enumerate(plays):
        body = SUMMY.read_move(words, SUMMY.view(state, index % 2))
        for event in SUMMY.check(state, SUMMY.command(index % 2, body)):
            state = SUMMY.apply(state, event)
    return SUMMY.view(state, viewer)


def _tiles(root: ET.Element) -> dict[tuple[int, int], ET.Element]:
    return {
        (int(g.get("data-x", "")), int(g.get("data-y", ""))): g
        for g in root.iter(f"{SVG}g")
        if "tile" in (g.get("class") or "").split() and g.get("data-x") is not None
    }


def _view_box(root: ET.Element) -> tuple[float, float, float, float]:
    x, y, w, h = (float(v) for v in (root.get("viewBox") or "").split())
    return x, y, w, h


def test_the_ruleset_draws_the_table_with_every_tile_as_a_tile() -> None:
    view = _game("-3,0 across 1+2=3")
    svg = SUMMY.svg(view)  # no longer "wrong_game": Summy draws its table
    assert svg == summy_svg(view)
    root = ET.fromstring(svg)
    tiles = _tiles(root)
    assert {square: g.get("data-tile") for square, g in tiles.items()} == {
        (-3, 0): "1", (-2, 0): "+", (-1, 0): "2", (0, 0): "=", (1, 0): "3",
    }  # fmt: skip
    for g in tiles.values():  # a piece: its shadow and its face, and its sign printed
        assert len(g.findall(f"{SVG}rect")) == 2 and g.find(f"{SVG}text") is not None
    assert [t.text for t in tiles[(-2, 0)].iter(f"{SVG}text")] == ["+"]
    # The equation's two ends are closed: crossed out, no tile may go there.
    closed = {
        (int(g.get("data-x", "")), int(g.get("data-y", "")))
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "closed"
    }
    assert closed == {(-4, 0), (2, 0)}


def test_the_last_equation_is_marked_and_only_its_new_tiles() -> None:
    first = ET.fromstring(SUMMY.svg(_game("-3,0 across 1+2=3")))
    marked = {s for s, g in _tiles(first).items() if "last" in (g.get("class") or "")}
    assert marked == {(-3, 0), (-2, 0), (-1, 0), (1, 0)}  # the "=" was there before
    second = ET.fromstring(SUMMY.svg(_game("-3,0 across 1+2=3", "-3,0 down 16-9=7")))
    marked = {s for s, g in _tiles(second).items() if "last" in (g.get("class") or "")}
    assert marked == {(-3, 1), (-3, 2), (-3, 3), (-3, 4), (-3, 5)}  # ben's, not the 1


def test_the_picture_grows_with_the_table_its_bounding_box_and_a_margin() -> None:
    small = ET.fromstring(SUMMY.svg(_game()))
    _, _, small_w, small_h = _view_box(small)
    # The lone "=": at least the minimum size, the table in the middle.
    assert small_w == LEFT + MIN_COLUMNS * CELL + 8 and small_h == TOP + MIN_ROWS * CELL + 8
    view = _game("-3,0 across 1+2=3")
    far = [{"x": -40, "y": 0, "tile": "7"}, {"x": 3, "y": 12, "tile": "9"}]
    view["table"] = [*view["table"], *far]
    wide = ET.fromstring(summy_svg(view))
    _, _, width, height = _view_box(wide)
    columns = 3 - (-40) + 1 + 2 * MARGIN_SQUARES
    rows = 12 - 0 + 1 + 2 * MARGIN_SQUARES
    assert (width, height) == (LEFT + columns * CELL + 8, TOP + rows * CELL + 8)
    assert (wide.get("width"), wide.get("height")) == (f"{width:g}", f"{height:g}")
    margin = MARGIN_SQUARES * CELL
    for g in _tiles(wide).values():  # every tile inside the picture, past the margin
        face = g.findall(f"{SVG}rect")[1]
        px, py = float(face.get("x", "")) - 2, float(face.get("y", "")) - 2
        assert LEFT + margin <= px <= width - 8 - margin - CELL
        assert TOP + margin <= py <= height - 8 - margin - CELL
    labels = [t.text for t in wide.iter(f"{SVG}text")]
    assert "-41" in labels and "4" in labels and "13" in labels  # the margin's coordinates


def test_only_a_seated_viewer_sees_a_hand_and_only_their_own() -> None:
    spectator = SUMMY.svg(_game("-3,0 across 1+2=3"))
    assert 'class="hand"' not in spectator and "Your hand" not in spectator
    ann = _game("-3,0 across 1+2=3", viewer=0)
    ben = _game("-3,0 across 1+2=3", viewer=1)
    ann_svg = SUMMY.svg(ann)
    hand = next(g for g in ET.fromstring(ann_svg).iter(f"{SVG}g") if g.get("class") == "hand")
    shown = sorted(g.get("data-tile") or "" for g in hand.findall(f"{SVG}g"))
    assert shown == sorted(ann["hand"])
    assert " ".join(sorted(ben["hand"])) not in ann_svg
    assert "Your hand: " + " ".join(sorted(ann["hand"])) in ann_svg  # the picture in words


def test_the_picture_in_words_lists_the_lines_on_the_table() -> None:
    view = _game("-3,0 across 1+2=3", "-3,0 down 16-9=7")
    words = SUMMY.picture_words(view)
    assert words.startswith("Summy table, 10 tiles.")
    assert "Across: 1+2=3 from -3,0." in words and "Down: 16-9=7 from -3,0." in words
    assert "Last play: 16-9=7, down." in words
    title = ET.fromstring(SUMMY.svg(view)).find(f"{SVG}title")
    assert title is not None and title.text == f"Summy table, version {view['version']}"


def test_text_in_the_view_is_escaped() -> None:
    view = _game()
    view["table"] = [{"x": 0, "y": 0, "tile": "<&>"}]
    root = ET.fromstring(summy_svg(view))  # well-formed: nothing of the view runs as markup
    assert _tiles(root)[(0, 0)].get("data-tile") == "<&>"


# --- the picture in words, word for word (issue 48) ----------------------------------------


def _line(x: int, y: int, text: str, *, down: bool = False) -> list[dict[str, Any]]:
    return [
        {"x": x, "y": y + i, "tile": c} if down else {"x": x + i, "y": y, "tile": c}
        for i, c in enumerate(text)
    ]


def test_the_picture_in_words_word_for_word_and_marked_for_translation() -> None:
    from mathable.games.summy.picture import table_text_alternative
    from tests.rules.words_helpers import assert_marked

    table = _line(-3, 0, "1+2=3") + _line(-3, 1, "+5=6", down=True) + _line(0, 6, "4=4")
    seated = {
        "table": table,
        "last_play": {"equation": "1+5=6", "direction": "down"},
        "you": 0,
        "hand": ["9", "x", "1"],
    }
    said = {
        "seated": table_text_alternative(seated),
        "across": table_text_alternative(
            {**seated, "last_play": {"equation": "4=4", "direction": "across"}, "you": None}
        ),
        "odd": table_text_alternative(
            {"table": _line(0, 0, "1"), "last_play": {"equation": "1", "direction": "x"}}
        ),
        "empty": table_text_alternative(
            {"table": [], "last_play": {"equation": ""}, "you": 1, "hand": []}
        ),
    }
    assert said == {
        "seated": "Summy table, 12 tiles. Across: 1+2=3 from -3,0; 4=4 from 0,6. "
        "Down: 1+5=6 from -3,0. Last play: 1+5=6, down. Your hand: 1 9 x.",
        "across": "Summy table, 12 tiles. Across: 1+2=3 from -3,0; 4=4 from 0,6. "
        "Down: 1+5=6 from -3,0. Last play: 4=4, across.",
        "odd": "Summy table, 1 tile. Last play: 1, x.",
        "empty": "Summy table, 0 tiles. Your hand: empty.",
    }
    for words in said.values():
        assert_marked(words)


def test_the_picture_of_a_known_table_byte_for_byte() -> None:
    import hashlib

    table = _line(-3, 0, "1+2=3") + _line(-3, 1, "+5=6", down=True) + _line(0, 6, "4=4")
    view = {
        "table": table,
        "last_play": {
            "equation": "1+5=6",
            "direction": "down",
            "placements": [{"x": -3, "y": 1, "tile": "+"}],
            "seat": 0,
        },
        "you": 0,
        "hand": ["9", "x", "1"],
        "version": 5,
    }
    svg = summy_svg(view)
    assert svg.startswith(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 468 456" width="468" '
        'height="456" role="img" aria-labelledby="board-title board-desc" '
    )
    assert hashlib.sha256(svg.encode()).hexdigest() == (
        "6a95e07b1a53135320f77ea1efc3e2db4d08427c3b760c8759a22bfc2501243c"
    )


def test_a_table_without_the_middle_tile_its_closed_squares_and_a_wide_hand() -> None:
    """The middle square is shaded while no tile is on it; a closed square is crossed out
    where it is drawn and left out past the picture's edge or under a tile; a hand wider
    than the table widens the picture (the parts the first pinned picture lacks)."""
    import hashlib

    view = {
        "table": _line(1, 0, "2=2"),
        "closed": [
            {"x": 0, "y": 0}, {"x": 4, "y": 0}, {"x": 40, "y": 0}, {"x": 0, "y": -9},
            {"x": 2, "y": 0},
        ],
        "last_play": {"equation": "2=2", "placements": [{"x": 1, "y": 0}, {"x": 9, "y": 9}]},
        "you": 1,
        "hand": list("123456789"),
    }  # fmt: skip
    svg = summy_svg(view)
    root = ET.fromstring(svg)
    crossed = [
        (int(g.get("data-x", "")), int(g.get("data-y", "")))
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "closed"
    ]
    assert crossed == [(0, 0), (4, 0)]
    [origin] = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "origin"]
    columns = range(-2, 7)  # 1..3 and a margin (0..4), widened to MIN_COLUMNS
    assert origin.get("x") == str(LEFT + (0 - columns[0]) * CELL + 1)
    assert origin.get("y") == str(TOP + (0 - -2) * CELL + 1)
    marked = {s for s, g in _tiles(root).items() if "last" in (g.get("class") or "")}
    assert marked == {(1, 0)}
    width = LEFT + 84 + 9 * (CELL + 2) + 8
    assert _view_box(root) == (0, 0, width, TOP + MIN_ROWS * CELL + 8 + 64)
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "Summy table"
    assert hashlib.sha256(svg.encode()).hexdigest() == (
        "955eba8dfc0c5c557cbda93f6b7718d4232aab2b5caa21509d18a12822937b42"
    )


def test_an_empty_table_is_drawn_round_the_middle_square() -> None:
    from mathable.games.summy.picture import extent

    assert extent({}) == (range(-4, 5), range(-2, 3))


def test_the_middle_square_is_shaded_only_when_the_picture_holds_it() -> None:
    right = summy_svg({"table": _line(2, 0, "12=") + _line(8, 0, "3=3")})
    below = summy_svg({"table": _line(0, 2, "1=1", down=True)})
    assert 'class="origin"' not in right and 'class="origin"' not in below
    assert 'class="origin"' in summy_svg({"table": _line(1, 0, "1=1")})


def test_tiles_are_drawn_row_by_row_left_to_right_whatever_the_view_s_order() -> None:
    view = {"table": [{"x": 3, "y": 0, "tile": "3"}, {"x": 1, "y": 1, "tile": "1"},
                      {"x": 1, "y": 0, "tile": "1"}, {"x": 2, "y": 0, "tile": "="}]}  # fmt: skip
    root = ET.fromstring(summy_svg(view))
    drawn = [
        (int(g.get("data-x", "")), int(g.get("data-y", "")))
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "tile"
    ]
    assert drawn == [(1, 0), (2, 0), (3, 0), (1, 1)]


def _last_play_template(words: Any) -> str:
    """The template of the "Last play" sentence of a picture in words (a layout of texts)."""
    [found] = [p for p in words.params.values() if str(p).startswith("Last play")]
    return str(found.template)


def test_the_picture_in_words_of_lines_two_tiles_long_in_row_order() -> None:
    from mathable.games.summy.picture import table_text_alternative

    table = _line(5, 0, "1=") + _line(0, 2, "2=2")
    assert table_text_alternative({"table": table}) == (
        "Summy table, 5 tiles. Across: 1= from 5,0; 2=2 from 0,2."
    )


def test_the_last_play_across_or_down_is_said_in_its_own_sentence() -> None:
    """Each direction has its own sentence for translators ("across" and "down" are words
    of the notation, translated apart), not the one for a direction of another name."""
    from mathable.games.summy.picture import table_text_alternative

    for direction in ("across", "down"):
        words = table_text_alternative(
            {"table": [], "last_play": {"equation": "1=1", "direction": direction}}
        )
        assert _last_play_template(words) == f"Last play: {{equation}}, {direction}."
    odd = table_text_alternative({"table": [], "last_play": {"equation": "1", "direction": "up"}})
    assert _last_play_template(odd) == "Last play: {equation}, {direction}."


def test_a_hand_written_as_one_text_is_no_hand() -> None:
    svg = summy_svg({"table": [], "you": 0, "hand": "12"})
    assert 'class="hand"' not in svg and "Your hand" not in svg
