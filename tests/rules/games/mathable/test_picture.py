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


# The empty board is drawn once, when the module loads (``EMPTY_BOARD``): these tests call
# its builder, so a change to the drawing is seen here and not only in a loaded module.

TEXT = 'text-anchor="middle" dominant-baseline="central"'


def test_each_square_s_kind_colour_and_printed_label() -> None:
    from collections import Counter

    from mathable.games.mathable.board import parse_square

    kinds = {
        name: picture._square_kind(parse_square(name))
        for name in ("A1", "B1", "B2", "G7", "H8", "E2", "F3", "G4", "H4")
    }
    assert kinds == {
        "A1": ("triple", "#ee7d14", "3x"),
        "B1": ("plain", "#ece6d6", ""),
        "B2": ("double", "#7b3fa6", "2x"),
        "G7": ("centre", "#b9b4a6", "1"),
        "H8": ("centre", "#b9b4a6", "4"),
        "E2": ("op-divide", "#1f5fae", "\u00f7"),
        "F3": ("op-subtract", "#1f5fae", "\u2212"),
        "G4": ("op-add", "#1f5fae", "+"),
        "H4": ("op-multiply", "#1f5fae", "\u00d7"),
    }
    assert Counter(picture._square_kind(s)[0] for s in SQUARES) == {
        "plain": 132, "double": 16, "triple": 12, "centre": 4,
        "op-divide": 8, "op-subtract": 8, "op-add": 8, "op-multiply": 8,
    }  # fmt: skip


def test_the_empty_board_its_frame_coordinates_and_squares() -> None:
    import hashlib

    board = picture._empty_board()
    assert board == picture.EMPTY_BOARD
    assert board.startswith(
        '<rect class="frame" x="21" y="21" width="566" height="566" rx="6" fill="#2b3a4a"/>'
        f'<text x="44" y="12" font-size="13" fill="#555" {TEXT}>A</text>'
        f'<text x="84" y="12" font-size="13" fill="#555" {TEXT}>B</text>'
    )
    assert f'<text x="11" y="564" font-size="13" fill="#555" {TEXT}>14</text>' in board
    assert (
        '<rect class="square triple" data-square="A1" x="25" y="25" width="38" height="38" '
        f'rx="3" fill="#ee7d14"/><text x="44" y="44" font-size="14" fill="#ffffff" {TEXT} '
        'font-weight="bold">3x</text><rect class="square plain" data-square="B1" x="65" y="25" '
        'width="38" height="38" rx="3" fill="#ece6d6"/><rect class="square plain"'
    ) in board
    assert (
        '<rect class="square op-divide" data-square="E2" x="185" y="65" width="38" height="38" '
        f'rx="3" fill="#1f5fae"/><text x="204" y="84" font-size="24" fill="#ffffff" {TEXT} '
        'font-weight="bold">\u00f7</text>'
    ) in board
    assert (
        '<rect class="square centre" data-square="G7" x="265" y="265" width="38" height="38" '
        f'rx="3" fill="#b9b4a6"/><text x="284" y="284" font-size="18" fill="#1c1c1c" {TEXT} '
        'font-weight="bold">1</text>'
    ) in board
    assert board.count('<rect class="square ') == 196
    # and the rest of it, byte for byte
    assert hashlib.sha256(board.encode()).hexdigest() == (
        "b1a1a4810325a9bf8f93600d81608cc1e39f21f4c73e8334899c5dd074dfde08"
    )


def test_the_picture_of_a_known_view_byte_for_byte() -> None:
    import hashlib

    assert hashlib.sha256(picture.mathable_svg(VIEW).encode()).hexdigest() == (
        "ee5c3bf1cc6701ef9c422da76a75d3a848f89876327098f02f681d979e93c574"
    )


def test_a_turn_of_several_placements_is_listed_in_words() -> None:
    placed = [{"square": "I8", "tile": 12}, {"square": "J8", "tile": 16}]
    words = picture.board_text_alternative(
        {"board": {"I8": 12, "J8": 16}, "last_turn": {"placements": placed}, "you": None}
    )
    assert words.endswith("Tiles placed: I8 12, J8 16. Last turn: I8 12, J8 16.")
    assert picture._tile(0, 0, 5, square="A1", last=True).startswith(
        '<g class="tile last" data-square="A1">'
    )
