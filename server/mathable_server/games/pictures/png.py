"""SVG to PNG, for mail clients that show no SVG: CairoSVG, from the ``pictures`` extra.

CairoSVG draws with the system's cairo library (Debian's ``libcairo2``). It is
imported only when a PNG is asked for, so a server without the extra runs as
before and says what to install when a PNG is needed.
"""

from __future__ import annotations

import importlib
from typing import Any


class PngUnavailable(RuntimeError):
    """CairoSVG (or the cairo library under it) is not installed here."""


def _cairosvg() -> Any:
    try:
        return importlib.import_module("cairosvg")
    except (ImportError, OSError) as err:
        # OSError: the Python package is there but libcairo2 is not.
        raise PngUnavailable(
            "PNG pictures need CairoSVG and cairo: pip install 'mathable[pictures]' "
            f"(and Debian's libcairo2): {err}"
        ) from err


def svg_to_png(svg: str, *, scale: float = 1.0) -> bytes:
    """The PNG image of an SVG document, ``scale`` times its own size.

    PngUnavailable when CairoSVG or cairo is missing.
    """
    if not scale > 0:
        raise ValueError("scale must be positive")
    png: bytes = _cairosvg().svg2png(bytestring=svg.encode("utf-8"), scale=scale, unsafe=False)
    return png
