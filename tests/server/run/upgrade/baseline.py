"""A database as the server made it before migrations, filled from ``baseline.json``."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, MetaData, insert, text

from mathable_server.store import migrations
from mathable_server.store.engine import make_engine

FIXTURE = Path(__file__).with_name("baseline.json")


@lru_cache(maxsize=1)
def fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def make_baseline_database(url: str, copies: int = 1) -> Engine:
    """The baseline schema as pre-migration servers made it (no revision table), with the
    fixture's rows; ``copies`` > 1 repeats every game under new ids (a bigger database)."""
    engine = make_engine(url, 2)
    migrations.upgrade(engine, migrations.BASELINE)
    # One transaction (sqlite_write: BEGIN IMMEDIATE), not a commit per row.
    with engine.connect().execution_options(sqlite_write=True) as conn, conn.begin():
        conn.execute(text(f"DROP TABLE {migrations.VERSION_TABLE}"))
        tables = MetaData()
        tables.reflect(conn)
        for name, rows in fixture()["tables"].items():
            if not rows:
                continue
            if name in ("events", "games", "game_members") and copies > 1:
                key = "game_id" if name != "games" else "id"
                rows = [
                    {**row, key: row[key] + (f"c{n}" if n else "")}
                    for n in range(copies)
                    for row in rows
                ]
            for start in range(0, len(rows), 5000):
                conn.execute(insert(tables.tables[name]), rows[start : start + 5000])
    return engine


def facts(view: dict[str, Any]) -> dict[str, Any]:
    """What a view says of a game that every later server must still say after an upgrade.

    The board is compared on the squares the baseline listed (a later view may add more,
    such as the centre tiles).
    """
    turn = view.get("turn")
    return {
        "status": view["status"],
        "version": view["version"],
        "players": view["players"],
        "referee": view["referee"],
        "rack": view.get("rack"),
        "you": view.get("you"),
        "bag_size": view["bag_size"],
        "seats": [
            (s["seat"], s["player"], s["name"], s["score"], s["rack_size"], s["resigned"])
            for s in view["seats"]
        ],
        "turn_seat": None if turn is None else turn["seat"],
        "correctable": view["correctable"],
        "result": view["result"],
    }
