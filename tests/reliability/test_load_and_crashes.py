"""Short versions of the soak and crash-durability runs (bench/soak.py, bench/crash.py).

A real ``mathable-server serve`` with two gunicorn workers, bots over HTTP.
"""

from __future__ import annotations

import pytest
from bench.harness import crash, soak

pytestmark = pytest.mark.e2e


def test_concurrent_bot_games_finish_replay_and_leak_nothing(database_url: str) -> None:
    report = soak(database_url, games=6, workers=2, node_limit=100)
    assert report.failures == []
    assert report.five_xx == 0
    assert len(report.games) == 6
    assert report.answers_scanned > 100


def test_killing_the_server_loses_no_acknowledged_command(database_url: str) -> None:
    report = crash(database_url, kills=3, bots=3, workers=2, seed=7)
    assert report.failures == []
    assert report.kills == 3
    assert report.acks_checked > 0
