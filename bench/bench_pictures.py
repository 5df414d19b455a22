"""How long drawing the board takes; prints medians. Run: .venv/bin/python bench/bench_pictures.py

- the SVG of the board at the end of complete self-play games (every tile a
  game puts down), from the view a seated player gets (rack included);
- the SVG of a board with a tile on every one of the 192 free squares (more
  than a game can place: the upper bound);
- the PNG made from such an SVG with CairoSVG (the turn mail's picture), when
  the ``pictures`` extra is installed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT)]

from bench.bench_rules import self_play  # noqa: E402
from mathable import CENTRE, replay, square_name, view  # noqa: E402
from mathable.games.mathable.board import SQUARES  # noqa: E402
from mathable_server.games.pictures import PngUnavailable, board_svg, svg_to_png  # noqa: E402


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=500)
    args = parser.parse_args()

    ended = [replay(self_play(2000 + g)) for g in range(args.games)]
    views = [view(state, 0) for state in ended]
    sizes = [len(v["board"]) for v in views]
    game_ms = statistics.median(median_ms(lambda v=v: board_svg(v), args.repeat) for v in views)
    print(
        f"board SVG, end of {len(views)} self-play games ({min(sizes)}-{max(sizes)} tiles "
        f"placed, rack shown): median {game_ms:.3f} ms  (target < 5)"
    )

    every = {square_name(s): (s * 7) % 91 for s in SQUARES if s not in CENTRE}
    full = {"ruleset": "mathable", "version": 400, "board": every, "you": None}
    full_ms = median_ms(lambda: board_svg(full), args.repeat)
    svg = board_svg(full)
    print(
        f"board SVG, a tile on all {len(every)} free squares: median {full_ms:.3f} ms, "
        f"{len(svg) / 1024:.0f} KiB  (target < 5)"
    )

    try:
        png_ms = median_ms(lambda: svg_to_png(board_svg(views[0])), 20)
    except PngUnavailable as err:
        print(f"PNG: skipped ({err})")
        return
    png = svg_to_png(board_svg(views[0]))
    print(f"board PNG (CairoSVG), end of a game: median {png_ms:.1f} ms, {len(png) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
