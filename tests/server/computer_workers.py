"""``mathable-server computers`` processes for the computer's tests, and an engine plugin
installed for them alone (a ``.dist-info`` folder on their path: the entry-point group
``mathable.engines``, as a package installed by pip would add)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.server.live import REPO

#: The plugin's engine: ``slow`` thinks ``SLOW_SECONDS`` (saying so in a file first), then
#: plays as ``greedy`` does.
PLUGIN = '''
import os, time
from mathable.core.computer import GREEDY

class Slow:
    rulesets = ("mathable", "summy")

    def turn(self, ruleset, view, seed):
        marker = os.environ.get("SLOW_ENGINE_MARKER")
        if marker:
            with open(marker, "a") as out:
                out.write(f"{view['version']}\\n")
        time.sleep(float(os.environ.get("SLOW_ENGINE_SECONDS", "0")))
        return GREEDY.turn(ruleset, view, seed)

SLOW = Slow()
'''


def install_plugin(folder: Path) -> Path:
    """The slow engine as an installed distribution in ``folder`` (put it on the path)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "slow_engine.py").write_text(PLUGIN)
    info = folder / "slow_engine-1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: slow-engine\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[mathable.engines]\nslow = slow_engine:SLOW\n")
    return folder


@dataclass
class Computers:
    """A running ``mathable-server computers``: its process and its log."""

    process: subprocess.Popen[bytes]
    log: Path

    def played(self) -> list[tuple[str, int, str]]:
        """(game, version, outcome) of each command it sent, from its log."""
        text = self.log.read_text(errors="replace")
        return [(g, int(v), o) for g, v, o in
                re.findall(r"played game=(\w+) at=(\d+) type=\w+ outcome=(\w+)", text)]  # fmt: skip

    def kill(self) -> None:
        """SIGKILL, to its thinking process too (its process group)."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(30)


@contextmanager
def computers_process(
    database_url: str, log: Path, env: Mapping[str, str] | None = None, path: str = ""
) -> Iterator[Computers]:
    environ = dict(os.environ)
    paths = [path, str(REPO / "shared"), str(REPO / "server"), environ.get("PYTHONPATH", "")]
    environ["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    environ["MATHABLE_POOL_SIZE"] = "2"
    environ.update(env or {})
    with open(log, "ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "mathable_server", "computers", "--database-url", database_url],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=environ,
            start_new_session=True,
        )
    running = Computers(process, log)
    try:
        yield running
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                running.kill()
