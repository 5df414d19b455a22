"""End to end: bots outlive a server restart.

Two ``mathable-cli bot --all`` processes play two games against each other on a
real server (gunicorn, two workers); half-way the server is stopped with SIGTERM,
stays down for a few seconds and is started again on the same port and database.
The bots keep trying (saying so on stderr), pick their games up again and finish
them.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from tests.cli.players import Player
from tests.server.live import free_port, serve_process

pytestmark = pytest.mark.e2e


def test_bots_finish_their_games_across_a_server_restart(tmp_path: Path) -> None:
    port = free_port()
    server = f"http://127.0.0.1:{port}"
    url = f"sqlite:///{tmp_path / 'games.db'}"
    log = tmp_path / "server.log"
    ann, ben = Player(server, "ann", tmp_path), Player(server, "ben", tmp_path)
    with serve_process(port, url, log) as first:
        ann.register()
        ben.register()
        games = [ann.run("new", "--seed", str(seed)).stdout.strip() for seed in (7, 8)]
        for game in games:
            ben.run("join", game)
        bots = [
            p.popen("bot", "--all", "--until-idle", "--interval", "0.2", "--max-interval", "0.5")
            for p in (ann, ben)
        ]
        # Half-way through the first game, the server stops (as systemd stops it).
        deadline = time.monotonic() + 120
        while ann.view(games[0])["version"] < 20:
            assert time.monotonic() < deadline, "the bots did not start playing"
            assert all(b.poll() is None for b in bots), [b.communicate() for b in bots]
            time.sleep(0.2)
        before = [ann.view(g)["version"] for g in games]
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=30)
    time.sleep(4)  # down for a while: longer than the retries of a command
    assert all(b.poll() is None for b in bots), "a bot gave up while the server was down"
    with serve_process(port, url, log):
        outputs = [b.communicate(timeout=300) for b in bots]
        after = [ann.view(g) for g in games]
    for process, (_out, err) in zip(bots, outputs, strict=True):
        assert process.returncode == 0, err
        assert "Traceback" not in err
    assert all(view["status"] == "ended" for view in after)
    assert all(view["version"] > seen for view, seen in zip(after, before, strict=True))
    said = outputs[0][1] + outputs[1][1]
    assert "trying for as long as this runs" in said or "the event stream broke" in said


def test_wait_gives_up_at_its_timeout_while_the_server_is_away(tmp_path: Path) -> None:
    """``wait --timeout 2`` keeps trying a server that is away, but not past its 2 s: it
    ends with an error a little after, not after the endless retries' next minute."""
    import subprocess

    from tests.cli.players import cli_command

    player = Player(f"http://127.0.0.1:{free_port()}", "ann", tmp_path)  # nobody listens
    player.env["MATHABLE_TOKEN"] = "t" * 43
    started = time.monotonic()
    done = subprocess.run([*cli_command(), "wait", "gabcdefghij", "--timeout", "2"],
                          capture_output=True, text=True, env=player.env, timeout=120)  # fmt: skip
    took = time.monotonic() - started
    assert done.returncode != 0 and "cannot connect" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert took < 15, f"wait --timeout 2 gave up after {took:.1f} s"
