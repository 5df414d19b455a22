"""A Summy log reads in a process that has loaded nothing of Summy (a server after a restart)."""

from __future__ import annotations

import subprocess
import sys

FRESH_DECODE = """
import sys
from mathable.core.events import Event
event = Event.from_dict(
    {"type": "tiles_discarded", "v": 1, "seat": 0, "discarded": ["x"], "drawn": ["3"]}
)
assert "mathable.games.summy.events" in sys.modules
print(type(event).__name__)
"""


def test_a_summy_event_decodes_in_a_fresh_process() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FRESH_DECODE], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "TilesDiscarded"


def test_an_unknown_event_type_is_still_refused_in_a_fresh_process() -> None:
    code = (
        "from mathable.games.mathable.events import Event\n"
        "from mathable.core.errors import RuleError\n"
        "try:\n"
        "    Event.from_dict({'type': 'no_such_event', 'v': 1})\n"
        "except RuleError as err:\n"
        "    print(err.code)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "bad_event"
