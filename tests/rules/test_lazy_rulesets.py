"""A ruleset looked up by name is imported alone, and with its event types: a program that
shows one game (``mathable-cli show``) imports no other game, nor the engine it does not use."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys
from mathable.core.ruleset import ruleset
rules = ruleset("mathable")
first = sorted(m for m in sys.modules if m.startswith("mathable.games."))
from mathable.core.events import Event
event = Event.from_dict({"type": "game_started", "v": 1, "start_draws": [[1], [2]],
                         "first_seat": 0, "racks": [[1], [2]]})
after = sorted(m for m in sys.modules if m.startswith("mathable.games.summy"))
from mathable.core.ruleset import rulesets
print(json.dumps({"first": first, "event": type(event).__name__, "after": after,
                  "all": sorted(rulesets())}))
"""


def test_looking_up_one_game_imports_it_alone_with_its_events() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout)
    first = set(found["first"])
    assert "mathable.games.mathable.ruleset" in first
    assert "mathable.games.mathable.events" in first  # its event types are known
    assert not any(m.startswith("mathable.games.summy") for m in first)
    for unused in ("engine", "commands", "movegen", "tutorial", "picture", "record"):
        assert f"mathable.games.mathable.{unused}" not in first, unused
    assert found["event"] == "GameStarted" and found["after"] == []  # read without the others
    assert {"mathable", "summy"} <= set(found["all"])  # listing them imports every game
