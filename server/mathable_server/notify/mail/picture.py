"""The board as a picture in a game mail: an HTML part with the board inline as a PNG.

Only where the PNG converter is installed (the ``pictures`` extra: CairoSVG and
cairo) and the game's ruleset draws a picture (``Ruleset.svg``); the plain-text part is always
there and comes first, and the HTML part repeats its text under the picture.
The picture is drawn from the recipient seat's own view: no other seat's rack.
"""

from __future__ import annotations

import html
from email.message import EmailMessage
from email.utils import make_msgid

from mathable.core.errors import RuleError
from mathable.core.ruleset import AnyState, ruleset_of
from mathable_i18n import current
from mathable_server.games.pictures import PngUnavailable, svg_to_png


def board_png(state: AnyState, seat: int) -> tuple[bytes, str] | None:
    """The board as ``seat`` sees it, as PNG bytes and in words; None if it cannot be drawn."""
    rules = ruleset_of(state)
    view = rules.view(state, seat)
    try:
        svg = rules.svg(view)
    except RuleError:  # the game draws no picture
        return None
    try:
        return svg_to_png(svg), rules.picture_words(view)
    except PngUnavailable:
        return None


def add_picture(message: EmailMessage, text: str, png: bytes, words: str, domain: str) -> None:
    """Make ``message`` (plain text so far) multipart/alternative with an HTML part that
    shows ``png`` inline above ``text``."""
    cid = make_msgid("board", domain=domain)
    page = (
        f'<!doctype html><html lang="{current()}"><body>'
        f'<p><img src="cid:{cid[1:-1]}" alt="{html.escape(words)}" width="560"></p>'
        f'<pre style="font-family: monospace">{html.escape(text)}</pre>'
        "</body></html>"
    )
    message.add_alternative(page, subtype="html")
    part = list(message.iter_parts())[-1]
    assert isinstance(part, EmailMessage)
    part.add_related(png, maintype="image", subtype="png", cid=cid, filename="board.png")
