"""The operator's commands, run as processes: ``mathable-server tournament-create`` makes a
league (which no player may organise), ``tournament-start`` starts it, ``tick`` sweeps
the tournaments with the clocks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.server.apps import close_app, make_app
from tests.server.helpers import register


def _server(*args: str, url: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MATHABLE_")}
    return subprocess.run(
        [sys.executable, "-m", "mathable_server", *args, "--database-url", url],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip


def test_the_operator_runs_a_league(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'league.db'}"
    made = _server("tournament-create", "Championship", "--format", "league",
                   "--division-size", "4", url=url)  # fmt: skip
    assert made.returncode == 0, made.stderr
    tid = made.stdout.strip()
    app = make_app(url)
    try:
        client = app.test_client()
        accounts = [register(client, f"lg{i}") for i in range(6)]
        for a in accounts:
            assert client.post(f"/v1/tournaments/{tid}/join", headers=a.auth).status_code == 200
        view = client.get(f"/v1/tournaments/{tid}").json
        assert view["format"] == "league" and view["organiser"] is None
        assert view["clock"]["initial"] == 864000 and view["clock"]["increment"] == 129600
        started = _server("tournament-start", tid, url=url)
        assert started.returncode == 0, started.stderr
        ticked = _server("tick", url=url)
        assert ticked.returncode == 0 and "1 tournaments looked at" in ticked.stderr
        view = client.get(f"/v1/tournaments/{tid}").json
        assert view["status"] == "running" and len(view["rounds"][0]) == 6  # 2 divisions of 3
        again = _server("tournament-start", tid, url=url)
        assert again.returncode != 0 and "tournament_started" in again.stderr
    finally:
        close_app(app)
