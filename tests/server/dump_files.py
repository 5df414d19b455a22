"""Dump files and databases to dump, for the tests of ``mathable-server dump`` and ``load``."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from mathable_server.store import migrations
from mathable_server.store.dump_format import CARRIED
from tests.server.run.upgrade.baseline import make_baseline_database


def filled_database(url: str) -> None:
    """A database with the upgrade fixture's 10 games in every state, at the newest schema."""
    engine = make_baseline_database(url)
    migrations.upgrade(engine)
    engine.dispose()


def resealed(lines: list[str]) -> str:
    """``lines`` (header and body) with a freshly computed end line: consistent but forged."""
    digest = hashlib.sha256("".join(line + "\n" for line in lines).encode()).hexdigest()
    counts: dict[str, Any] = {"players": 0, "games": 0, "events": 0}
    if json.loads(lines[0])["version"] >= 2:
        counts["rows"] = {table.name: 0 for table in CARRIED}
    for line in lines[1:]:
        obj = json.loads(line)
        if "player" in obj:
            counts["players"] += 1
        elif "game" in obj:
            counts["games"] += 1
            counts["events"] += len(obj["game"]["events"])
        elif "table" in obj:
            counts["rows"][obj["table"]] += 1
    end = json.dumps({"end": {**counts, "sha256": digest}})
    return "\n".join([*lines, end]) + "\n"
