"""Each game's board in the browser: a script the play page loads, found by the game's
ruleset name the way the CLI finds a game's screen (``mathable_cli.screens``).

A package registers its board in the entry-point group ``mathable_server.boards`` (name:
the ruleset's name; value: ``module:attr``, the path of a JavaScript file it ships as
package data, a ``str`` or a ``Path``). The server serves it at ``/boards/{ruleset}.js``
and the play page (``/play/{id}``) loads it. A game that registers none is played on the
generic board (``/static/generic.js``): its text board (``Ruleset.draw``), its legal
moves as buttons (``games.legal_json``) and a field for its notation
(``POST /v1/games/{id}/notation``), with nothing of the game known to the page.

The two games of this distribution register ``tiles.js`` (``http/static``): the board
of tiles, squares and a rack that Mathable and Summy share.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from flask import Blueprint, Response

from mathable.core import plugins
from mathable.core.ruleset import RULESETS

bp = Blueprint("boards", __name__)

#: The entry-point group that names each game's board script.
GROUP = "mathable_server.boards"

#: The board script Mathable and Summy register (their entry points name it).
TILES = Path(__file__).parent / "static" / "tiles.js"

#: Scripts are read at most this big: a board, not a bundle.
MAX_BYTES = 512 * 1024


@cache
def registered() -> dict[str, Path]:
    """The board scripts the installed packages register, by ruleset name (read once)."""
    found: dict[str, Path] = {}
    for entry in plugins.in_group(GROUP):
        try:
            path = Path(entry.load())
        except Exception:  # a broken plugin: its game plays on the generic board
            continue
        if entry.name in RULESETS and path.suffix == ".js" and path.is_file():
            found[entry.name] = path
    return found


def board_of(ruleset: str) -> str | None:
    """The address of the game's board script, or None: the generic board."""
    return f"/boards/{ruleset}.js" if ruleset in registered() else None


@cache
def _script(name: str) -> bytes:
    return registered()[name].read_bytes()[:MAX_BYTES]


@bp.get("/boards/<name>.js")
def board_script(name: str) -> Response:
    if name not in registered():
        return Response("// no such board\n", 404, mimetype="text/javascript")
    return Response(
        _script(name),
        200,
        mimetype="text/javascript",
        headers={"Cache-Control": "public, max-age=300"},
    )


def script_paths() -> list[Path]:
    """Every board script registered (their words are the page's to translate)."""
    return sorted(set(registered().values()))


__all__ = ["GROUP", "TILES", "board_of", "bp", "registered", "script_paths"]
