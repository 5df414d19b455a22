"""The one line a command run writes (``games.service._log_command``), as an operator
reads it: made and handled as ``command_log.info`` makes it, less the caller's frame
looked up (issue 47, the move path: a twentieth of the line's cost), so its text is
what it was."""

from __future__ import annotations

import logging
import re

import pytest
from flask.testing import FlaskClient

from mathable_server.run.logs import FORMAT, UtcFormatter
from tests.server.helpers import EXAMPLE_TILES, register, started_game

#: A command's line, after the time and level every line has.
LINE = r"game=(\w+) seat=(\d|-) command=(\w+) outcome=(\w+) version=(\d+) ms=\d+\.\d"


def test_each_command_writes_its_one_line(
    client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    game = started_game(client, ann, bob, tiles=EXAMPLE_TILES)
    gid = game["id"]
    with caplog.at_level(logging.INFO, logger="mathable_server.commands"):
        caplog.clear()
        placed = client.post(f"/v1/games/{gid}/moves", headers=ann.auth,
                             json={"type": "place", "square": "I8", "tile": 12,
                                   "expected_version": 3})  # fmt: skip
        refused = client.post(f"/v1/games/{gid}/moves", headers=ann.auth,
                              json={"type": "place", "square": "I8", "tile": 8,
                                    "expected_version": 4})  # fmt: skip
    assert placed.status_code == 200 and refused.status_code == 422
    records = [r for r in caplog.records if r.name == "mathable_server.commands"]
    found = [re.fullmatch(LINE, r.getMessage()) for r in records]
    assert all(found), [r.getMessage() for r in records]
    assert [m.groups() for m in found if m] == [
        (gid, "0", "place", "ok", "4"),
        (gid, "0", "place", "square_taken", "4"),
    ]
    assert {(r.levelno, r.funcName) for r in records} == {(logging.INFO, "_log_command")}
    line = UtcFormatter(FORMAT).format(records[0])
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO mathable_server\.commands: "
                        + LINE, line), line  # fmt: skip


def test_no_line_is_made_when_the_commands_log_is_off(
    client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    game = started_game(client, ann, bob, tiles=EXAMPLE_TILES)
    logger = logging.getLogger("mathable_server.commands")
    old = logger.level
    logger.setLevel(logging.WARNING)
    try:
        caplog.clear()
        placed = client.post(f"/v1/games/{game['id']}/moves", headers=ann.auth,
                             json={"type": "place", "square": "I8", "tile": 12,
                                   "expected_version": 3})  # fmt: skip
    finally:
        logger.setLevel(old)
    assert placed.status_code == 200
    assert not [r for r in caplog.records if r.name == "mathable_server.commands"]
