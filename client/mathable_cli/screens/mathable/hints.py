"""Hints from the viewer's own view: every legal placement of the rack, and the best turn."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import mathable
from mathable import BestTurn, Placement
from mathable_cli.game import placed_this_turn
from mathable_i18n import _, ngettext

#: Search budget for hints and bots: enough for a strong turn in well under a second.
NODE_LIMIT = 20_000


@dataclass(frozen=True)
class Advice:
    """What the rules package suggests for the viewer's rack now."""

    legal: list[Placement]
    best: BestTurn


def advise(view: Mapping[str, Any], *, node_limit: int = NODE_LIMIT) -> Advice:
    """Legal placements and the best turn for the viewer's rack on the view's board."""
    position = mathable.position_from(view.get("board") or {})
    rack = [int(t) for t in view.get("rack") or []]
    turn = view.get("turn") or {}
    if placed_this_turn(view):
        bonus_possible = int(turn.get("started_with") or 0) >= mathable.RACK_SIZE
    else:
        bonus_possible = len(rack) >= mathable.RACK_SIZE
    best = mathable.best_turn_in(
        position, rack, bonus_possible=bonus_possible, node_limit=node_limit
    )
    return Advice(mathable.legal_placements_in(position, rack), best)


def advice_json(advice: Advice) -> dict[str, Any]:
    def item(p: Placement) -> dict[str, Any]:
        return {"square": p.square, "tile": p.tile, "points": p.points}

    return {
        "legal": [item(p) for p in advice.legal],
        "best_turn": {
            "placements": [item(p) for p in advice.best.placements],
            "total": advice.best.total,
            "bonus": advice.best.bonus,
            "exhaustive": advice.best.exhaustive,
        },
    }


def advice_lines(advice: Advice, *, limit: int = 10) -> list[str]:
    """The advice in words: the best turn first, then the best single placements."""
    best = advice.best
    if not advice.legal:
        return [_("No tile of your rack fits anywhere: exchange or pass.")]
    line = " ".join(str(p) for p in best.placements)
    text = _("Best turn: {placements}  = {points} points", placements=line, points=best.total)
    if best.bonus:
        text = _("{best} (with the {bonus} bonus)", best=text, bonus=best.bonus)
    if not best.exhaustive:
        text = _("{best} (best found; the search was cut short)", best=text)
    lines = [text, _("Legal placements ({n}), best first:", n=len(advice.legal))]
    for p in advice.legal[:limit]:
        lines.append(f"  {p}  " + ngettext("{n} point", "{n} points", p.points))
    if len(advice.legal) > limit:
        more = len(advice.legal) - limit
        lines.append("  " + _("... and {n} more (--all shows every one)", n=more))
    return lines
