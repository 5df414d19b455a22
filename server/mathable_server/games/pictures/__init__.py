"""Pictures of a game: the board as SVG (from a per-viewer view) and as PNG (for mail)."""

from mathable_server.games.pictures.board_svg import board_svg, board_text_alternative
from mathable_server.games.pictures.png import PngUnavailable, svg_to_png

__all__ = ["PngUnavailable", "board_svg", "board_text_alternative", "svg_to_png"]
