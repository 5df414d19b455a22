"""Mathable's board as a picture (``mathable.games.mathable.picture``): tiles drawn as
tiles, the last turn's and this turn's edged in red, the viewer's own rack below, and the
picture in words for screen readers and mail without pictures, in English and marked for
translation (issue 48: the server's tests alone read it)."""

from __future__ import annotations

from mathable.games.mathable import picture
from mathable.games.mathable.board import SQUARES, square_name
from tests.rules.words_helpers import assert_marked

VIEW = {
    "board": {"I8": 12, "J8": 3},
    "last_turn": {"placements": [{"square": "I8", "tile": 12}]},
    "turn": {"placements": [{"square": "J8", "tile": 3}]},
    "you": 0,
    "rack": [9, 2],
    "version": 7,
}

SHADOW = '<rect x="13" y="24" width="34" height="34" rx="5" fill="#000" fill-opacity="0.25"/>'
INK = (
    '<text x="29" y="39" font-size="18" fill="#1c1c1c" text-anchor="middle" '
    'dominant-baseline="central" font-weight="bold">'
)


def test_a_tile_is_an_ivory_piece_around_its_number_red_edged_when_just_played() -> None:
    assert picture._tile_parts(10, 20, "A1", False) == (
        '<g class="tile" data-square="A1">' + SHADOW
        + '<rect x="12" y="22" width="34" height="34" rx="5" fill="#fdf7e4" stroke="#9c8a5c" '
        'stroke-width="1"/>' + INK,
        "</text></g>",
    )  # fmt: skip
    head, tail = picture._tile_parts(10.5, 20, None, True)
    assert head.startswith('<g class="tile last"><rect x="13.5" y="24" ')
    assert 'stroke="#d62828" stroke-width="3"/>' in head
    assert '<text x="29.5" y="39" ' in head and tail == "</text></g>"
    assert picture._tile(10, 20, 57, square="A1", last=False) == (
        picture._tile_parts(10, 20, "A1", False)[0] + "57</text></g>"
    )


def test_every_square_s_tiles_are_drawn_where_the_square_is() -> None:
    for square in SQUARES:
        name = square_name(square)
        x, y = picture._origin(square)
        assert picture._TILES[name] == (
            picture._tile_parts(x, y, name, False),
            picture._tile_parts(x, y, name, True),
        )
    assert len(picture._TILES) == 196


def test_the_board_in_words_lists_the_tiles_the_turns_and_the_viewer_s_rack() -> None:
    words = picture.board_text_alternative(VIEW)
    assert words == (
        "Mathable board. Printed centre: G7 1, H7 2, G8 3, H8 4. Tiles placed: I8 12, J8 3. "
        "Last turn: I8 12. This turn so far: J8 3. Your rack: 2, 9."
    )
    assert_marked(words)
    empty = picture.board_text_alternative({"board": {}, "you": 1, "rack": []})
    assert empty == (
        "Mathable board. Printed centre: G7 1, H7 2, G8 3, H8 4. No tile placed yet. "
        "Your rack: empty."
    )
    assert_marked(empty)
    # a spectator's view: no rack, even if one came with it
    watched = picture.board_text_alternative({"board": {"I8": 12}, "you": None, "rack": [1]})
    assert watched.endswith("Tiles placed: I8 12.")
    assert_marked(watched)


def test_the_tiles_of_the_turns_are_marked_and_only_those_on_the_board() -> None:
    assert picture.placed_tiles(VIEW) == {"I8": 12, "J8": 3}
    assert picture.marked_squares(VIEW) == {"I8", "J8"}
    gone = {**VIEW, "board": {"I8": 12}}
    assert picture.marked_squares(gone) == {"I8"}


def test_the_picture_draws_the_board_the_tiles_and_the_rack_with_its_words() -> None:
    svg = picture.mathable_svg(VIEW)
    assert svg.startswith(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 592 656" width="592" '
        'height="656" role="img" aria-labelledby="board-title board-desc" '
    )
    assert '<title id="board-title">Mathable board, version 7</title>' in svg
    assert (
        '<desc id="board-desc">' + picture.board_text_alternative(VIEW) + "</desc>"
    ) in svg
    head, tail = picture._TILES["I8"][True]
    assert head + "12" + tail in svg
    assert '<g class="rack">' in svg and svg.endswith("</g></svg>")
    assert picture._tile(108, 596, 2, square=None, last=False) in svg
    assert picture._tile(150, 596, 9, square=None, last=False) in svg
    bare = picture.mathable_svg({"board": {}, "you": None})
    assert 'viewBox="0 0 592 592"' in bare and '<g class="rack">' not in bare
    assert '<title id="board-title">Mathable board</title>' in bare
