"""The board as a picture: the SVG drawing, ``GET /v1/games/{id}/board.svg`` and the PNG."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from flask.testing import FlaskClient

from mathable import CENTRE, OPERATION, PREMIUM, SIZE, parse_square, square_name
from mathable.games.mathable.board import SQUARES
from mathable.games.mathable.picture import (
    CELL,
    COLOUR_CENTRE,
    COLOUR_DOUBLE,
    COLOUR_LAST,
    COLOUR_OPERATION,
    COLOUR_PLAIN,
    COLOUR_TILE,
    COLOUR_TRIPLE,
    MARGIN,
)
from mathable_server.games.pictures import PngUnavailable, board_svg, svg_to_png
from tests.server.helpers import Table

SVG = "{http://www.w3.org/2000/svg}"

#: A full board: a tile on every square but the printed centre.
FULL_BOARD = {square_name(s): (s * 7) % 91 for s in SQUARES if s not in CENTRE}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def squares_of(root: ET.Element) -> dict[str, ET.Element]:
    found: dict[str, ET.Element] = {}
    for rect in root.iter(f"{SVG}rect"):
        if "square" in rect.get("class", "").split():
            name = rect.get("data-square")
            assert name is not None and name not in found
            found[name] = rect
    return found


def tiles_of(root: ET.Element) -> dict[str, ET.Element]:
    return {
        g.get("data-square", ""): g
        for g in root.iter(f"{SVG}g")
        if "tile" in g.get("class", "").split() and g.get("data-square")
    }


def tile_value(group: ET.Element) -> str:
    texts = [t.text for t in group.iter(f"{SVG}text")]
    assert len(texts) == 1
    return texts[0] or ""


def rack_values(root: ET.Element) -> list[int] | None:
    racks = [g for g in root.iter(f"{SVG}g") if g.get("class") == "rack"]
    if not racks:
        return None
    (rack,) = racks
    return [int(t.text or "") for t in rack.iter(f"{SVG}text")]


def view(board: dict[str, int], **more: Any) -> dict[str, Any]:
    return {"ruleset": "mathable", "version": 7, "board": board, "you": None, **more}


def test_the_picture_is_valid_xml_with_one_shape_per_square() -> None:
    root = parse(board_svg(view(FULL_BOARD)))
    assert root.tag == f"{SVG}svg"
    assert set(squares_of(root)) == {square_name(s) for s in SQUARES}
    assert len(squares_of(root)) == 196


def test_squares_have_the_printed_board_colours() -> None:
    squares = squares_of(parse(board_svg(view({}))))
    for square in SQUARES:
        if OPERATION[square] is not None:
            expected = COLOUR_OPERATION
        elif square in CENTRE:
            expected = COLOUR_CENTRE
        else:
            expected = {1: COLOUR_PLAIN, 2: COLOUR_DOUBLE, 3: COLOUR_TRIPLE}[PREMIUM[square]]
        assert squares[square_name(square)].get("fill") == expected, square_name(square)
    # A few squares read off the rule book's board, independently of the tables.
    assert squares["J8"].get("fill") == COLOUR_OPERATION  # +
    assert squares["E2"].get("fill") == COLOUR_OPERATION  # /
    assert squares["B2"].get("fill") == COLOUR_DOUBLE
    assert squares["H14"].get("fill") == COLOUR_TRIPLE
    assert squares["A2"].get("fill") == COLOUR_PLAIN


def test_operation_squares_show_their_sign_and_the_centre_its_number() -> None:
    svg = board_svg(view({}))
    texts = [t.text for t in parse(svg).iter(f"{SVG}text")]
    assert texts.count("\u00f7") == 8 and texts.count("\u00d7") == 8
    assert texts.count("+") == 8 and texts.count("\u2212") == 8
    assert texts.count("2x") == 16 and texts.count("3x") == 12
    for number in ("1", "2", "3", "4"):
        assert number in texts


def test_every_tile_is_drawn_on_its_square_with_its_value() -> None:
    root = parse(board_svg(view(FULL_BOARD)))
    tiles = tiles_of(root)
    assert set(tiles) == set(FULL_BOARD)
    for name, value in FULL_BOARD.items():
        assert tile_value(tiles[name]) == str(value)
        square = squares_of(root)[name]
        shapes = list(tiles[name].iter(f"{SVG}rect"))
        # The tile lies inside its square.
        x, y = float(square.get("x", "nan")), float(square.get("y", "nan"))
        for shape in shapes:
            assert x - 1 <= float(shape.get("x", "nan")) <= x + CELL
            assert y - 1 <= float(shape.get("y", "nan")) <= y + CELL


def test_tiles_of_the_last_turn_and_of_the_turn_being_played_are_marked() -> None:
    board = {"I8": 12, "J8": 16, "I9": 1, "F8": 7}
    last = {"placements": [{"square": "I8", "tile": 12}, {"square": "J8", "tile": 16}]}
    now = {"placements": [{"square": "I9", "tile": 1}]}
    tiles = tiles_of(parse(board_svg(view(board, last_turn=last, turn=now))))
    marked = {name for name, g in tiles.items() if "last" in g.get("class", "").split()}
    assert marked == {"I8", "J8", "I9"}
    edge = [r.get("stroke") for r in tiles["I8"].iter(f"{SVG}rect") if r.get("stroke")]
    assert edge == [COLOUR_LAST]


def test_a_spectators_picture_has_no_rack_and_a_players_only_their_own() -> None:
    spectator = parse(board_svg(view({"I8": 12}, rack=None)))
    assert rack_values(spectator) is None
    player = parse(board_svg(view({"I8": 12}, you=1, rack=[42, 3, 7])))
    assert rack_values(player) == [3, 7, 42]


def test_the_description_names_every_tile_for_screen_readers() -> None:
    root = parse(
        board_svg(
            view({"I8": 12, "J8": 16}, last_turn={"placements": [{"square": "J8", "tile": 16}]})
        )
    )
    assert root.get("role") == "img"
    desc = root.find(f"{SVG}desc")
    assert desc is not None and desc.text is not None
    assert "I8 12, J8 16" in desc.text and "Last turn: J8 16" in desc.text
    assert root.find(f"{SVG}title") is not None


# --- over HTTP ---------------------------------------------------------------------------


def picture(client: FlaskClient, game_id: str, headers: dict[str, str] | None = None) -> Any:
    return client.get(f"/v1/games/{game_id}/board.svg", headers=headers or {})


def test_board_svg_shows_each_viewer_what_they_may_see(table: Table) -> None:
    table.ok(table.ada, type="turn", placements=[{"square": "I8", "tile": 12}])
    state = table.client.application.extensions["mathable"].games.state(table.id)
    seen = {}
    for who, headers in (
        ("ada", table.ada.auth),
        ("bob", table.bob.auth),
        ("eve", table.eve.auth),
        ("nobody", {}),
    ):
        response = picture(table.client, table.id, headers)
        assert response.status_code == 200
        assert response.mimetype == "image/svg+xml"
        root = parse(response.get_data(as_text=True))
        assert tile_value(tiles_of(root)["I8"]) == "12"
        seen[who] = (rack_values(root), response.get_data(as_text=True))
    assert seen["ada"][0] == sorted(state.seats[0].rack)
    assert seen["bob"][0] == sorted(state.seats[1].rack)
    assert seen["eve"][0] is None and seen["nobody"][0] is None
    # An outsider's picture is the spectator's; nobody's shows another rack in words.
    assert seen["eve"][1] == seen["nobody"][1]
    assert "rack" not in seen["nobody"][1].lower()
    bob_rack = ", ".join(map(str, sorted(state.seats[1].rack)))
    assert bob_rack not in seen["ada"][1] and bob_rack in seen["bob"][1]


def test_board_svg_is_cached_by_version_with_an_etag(table: Table) -> None:
    first = picture(table.client, table.id)
    assert first.headers["ETag"] == '"3"' and first.headers["Vary"] == "Authorization"
    pictures = table.client.application.extensions["mathable"].pictures
    assert pictures.get((table.id, 3, None)) == first.get_data(as_text=True)
    again = picture(table.client, table.id, {"If-None-Match": '"3"'})
    assert again.status_code == 304 and not again.get_data()
    table.ok(table.ada, type="turn", placements=[{"square": "I8", "tile": 12}])
    changed = picture(table.client, table.id, {"If-None-Match": '"3"'})
    assert changed.status_code == 200 and changed.headers["ETag"] == f'"{table.version}"'
    assert 'data-square="I8"' in changed.get_data(as_text=True)


def test_board_svg_of_no_game_or_with_a_bad_token_is_a_json_error(client: FlaskClient) -> None:
    missing = picture(client, "gnosuchgame")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "game_not_found"
    bad = picture(client, "gnosuchgame", {"Authorization": "Bearer nope"})
    assert bad.status_code == 401 and bad.json["error"]["code"] == "bad_token"


# --- PNG, for mail ---------------------------------------------------------------------------


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _near(pixel: Any, colour: str, tolerance: int = 12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], _rgb(colour), strict=True))


def test_png_shows_the_printed_colours_and_the_tiles() -> None:
    image_module = pytest.importorskip("PIL.Image", reason="Pillow comes with CairoSVG")
    svg = board_svg(view({"I8": 12}, last_turn={"placements": [{"square": "I8", "tile": 12}]}))
    try:
        png = svg_to_png(svg, scale=2)
    except PngUnavailable as err:
        pytest.skip(f"no PNG here: {err}")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = image_module.open(io.BytesIO(png)).convert("RGB")
    root = parse(svg)
    width, height = int(root.get("width", "0")), int(root.get("height", "0"))
    assert image.size == (2 * width, 2 * height)

    def at(square: str, dx: float, dy: float) -> Any:
        row, col = divmod(parse_square(square), SIZE)
        return image.getpixel((2 * (MARGIN + col * CELL + dx), 2 * (MARGIN + row * CELL + dy)))

    assert _near(at("J8", 5, 5), COLOUR_OPERATION)
    assert _near(at("A1", 5, 5), COLOUR_TRIPLE)
    assert _near(at("B2", 5, 5), COLOUR_DOUBLE)
    assert _near(at("A2", 5, 5), COLOUR_PLAIN)
    assert _near(at("G7", 5, 5), COLOUR_CENTRE)
    assert _near(at("I8", 8, 8), COLOUR_TILE)  # the tile's face, off its number
    assert _near(at("I8", 2.5, CELL / 2), COLOUR_LAST, 40)  # its red edge


def test_svg_to_png_refuses_a_non_positive_scale() -> None:
    with pytest.raises(ValueError):
        svg_to_png(board_svg(view({})), scale=0)
