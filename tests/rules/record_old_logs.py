"""Record game logs under the rules of today's code, before a change of rules.

Run under the code of the rules version being recorded, never after:

    python -m tests.rules.record_old_logs 2

It writes ``fixtures/rules_v<N>_*.json``: every command of a game, the events it
made (or the code it was refused with) and a digest of every state, so that
``test_old_rules_replay.py`` can check that a game begun under those rules
replays, and plays on, as it began. The version 2 logs were recorded at
ff8f8f7, just before rules version 3 (issue 26).
"""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime
from typing import Any

from mathable import (
    Correct,
    Create,
    DrawExtra,
    EndTurn,
    Equation,
    GameState,
    Join,
    Place,
    Resign,
    RuleError,
    apply,
    check,
    parse_square,
)
from mathable.core.events import Event
from mathable.games.summy import SUPPLY_SET, SummyState
from mathable.games.summy import apply as summy_apply
from mathable.games.summy import check as summy_check
from mathable.games.summy.commands import Discard
from mathable.games.summy.selfplay import best, fallback
from tests.rules.recorded_logs import FIXTURES, command_to_json, digest, state_summary
from tests.rules.summy_logs import summy_command_to_json, summy_summary

#: The full Mathable bag of the version 1 fixture: 12, 13, 16 and four 1s for ann first.
MATHABLE_TILES = json.loads((FIXTURES / "rules_v1_players_corrections.json").read_text())["steps"][
    0
]["command"]["tiles"]


def _claims(*triples: tuple[str, str, str]) -> tuple[Equation, ...]:
    return tuple(Equation(parse_square(n), parse_square(f), op) for n, f, op in triples)


def record_mathable(version: int) -> dict[str, Any]:
    """A players-refereed game whose turn has an illegal tile, then a legal tile on an
    operation square with its extra tile, corrected after the turn; then bob plays on."""
    commands: list[Any] = [
        Create("ann", 2, "players", tiles=tuple(MATHABLE_TILES)),
        Join("bob"),
        Place(0, parse_square("I8"), 12, _claims(("H8", "G8", "x"))),  # right
        Place(0, parse_square("H6"), 13, _claims(("H7", "H8", "x"))),  # illegal
        Place(0, parse_square("J8"), 16, _claims(("I8", "H8", "+"))),  # right, an op square
        DrawExtra(0),
        EndTurn(0),
        Correct(1),
        Resign(1),
    ]
    state = GameState()
    steps, digests = [], []
    for command in commands:
        events = check(state, command)
        steps.append({"command": command_to_json(command), "events": [e.to_dict() for e in events]})
        for event in events:
            state = apply(state, event)
            digests.append(digest(state_summary(state)))
    assert state.rules_version == version and state.status == "ended"
    return {
        "what": f"players referee (rules version {version}): an illegal tile, then a legal "
        "tile on an operation square with its extra tile, corrected after the turn",
        "steps": steps,
        "digests": digests,
        "final": state_summary(state),
        "recorded_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def record_summy(version: int, seed: int) -> dict[str, Any]:
    """A two-player Summy game of the best-equation engine from a shuffled supply, with a
    discard tried once the supply is empty (kept with the code it was refused with)."""
    order = list(SUPPLY_SET)
    random.Random(seed).shuffle(order)
    state = SummyState()
    steps: list[dict[str, Any]] = []
    digests: list[str] = []

    def run(command: Any) -> None:
        nonlocal state
        try:
            events: list[Event] = summy_check(state, command)
        except RuleError as err:
            steps.append({"command": summy_command_to_json(command), "refused": err.code})
            return
        steps.append(
            {"command": summy_command_to_json(command), "events": [e.to_dict() for e in events]}
        )
        for event in events:
            state = summy_apply(state, event)
            digests.append(digest(summy_summary(state)))

    run(Create("ann", players=2, tiles=tuple(order), ruleset="summy"))
    run(Join("bob"))
    tried_dry_discard = False
    for _ in range(500):
        if state.status != "playing":
            break
        assert state.turn is not None
        seat = state.turn.seat
        hand = state.seats[seat].rack
        if not state.supply and hand and not tried_dry_discard:
            run(Discard(seat, hand[:1]))
            tried_dry_discard = True
        move = best(state, seat)
        run(move.command(seat) if move is not None else fallback(state, seat))
    assert state.rules_version == version and state.status == "ended"
    return {
        "what": f"Summy (rules version {version}): the best-equation engine for both seats, "
        f"supply shuffled by random.Random({seed}), a discard tried with the supply empty",
        "steps": steps,
        "digests": digests,
        "final": summy_summary(state),
        "recorded_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


#: The Summy games recorded: seeds whose games end each way version 2 ends them
#: (no_equations: 2, 5; hand_emptied: 12, 53; idle with tiles in the supply: 24, 29).
SUMMY_SEEDS = (2, 5, 12, 53, 24, 29)


def main(argv: list[str]) -> None:
    version = int(argv[0])
    logs = {f"rules_v{version}_mathable_correction_extra.json": record_mathable(version)}
    for seed in SUMMY_SEEDS:
        logs[f"rules_v{version}_summy_{seed}.json"] = record_summy(version, seed)
    for name, data in logs.items():
        (FIXTURES / name).write_text(json.dumps(data, separators=(",", ":")) + "\n")
        end = data["final"]["result"]
        print(name, len(data["steps"]), "commands, ended", end and end[0])


if __name__ == "__main__":
    main(sys.argv[1:])
