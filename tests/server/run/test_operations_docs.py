"""The operator's documentation stays true to the code: the migration table of
docs/server.md names every revision, and only those, in order; the systemd units
of docs/systemd/ pass ``systemd-analyze verify`` and run commands the server has."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.live import server_env

REPO = Path(__file__).resolve().parents[3]
VERSIONS = REPO / "server" / "mathable_server" / "store" / "migrations" / "versions"


def _revisions() -> list[str]:
    """Every revision of the chain, from the first (no ``down_revision``) to the head."""
    after: dict[str | None, str] = {}
    for path in VERSIONS.glob("r*.py"):
        text = path.read_text()
        revision = re.search(r'^revision\s*=\s*"([^"]+)"', text, re.M)
        down = re.search(r'^down_revision\s*=\s*(None|"([^"]+)")', text, re.M)
        assert revision is not None and down is not None, path
        after[down.group(2)] = revision.group(1)
    chain, current = [], None
    while current in after:
        current = after[current]
        chain.append(current)
    assert len(chain) == len(after), "the revisions are not one chain"
    return chain


def test_the_migration_table_of_server_md_lists_every_revision_in_order() -> None:
    guide = (REPO / "docs" / "server.md").read_text()
    section = guide.split("## Upgrading: migrations", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `(\d{4}_\w+)` \|", section, re.M)
    assert listed == _revisions()


UNITS = sorted((REPO / "docs" / "systemd").glob("*.service"))


def test_the_documented_systemd_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (no systemd here): units not verified")
    script = Path(sys.executable).parent / "mathable-server"
    if not script.exists():
        pytest.skip(f"{script} is not installed: the units' ExecStart cannot be checked")
    assert {u.name for u in UNITS} == {
        "mathable-server.service", "mathable-deliver.service", "mathable-smtpd.service",
        "mathable-computers.service",
    }  # fmt: skip
    copies = []
    for unit in UNITS:
        copy = tmp_path / unit.name
        copy.write_text(unit.read_text().replace("/opt/mathable/venv/bin", str(script.parent)))
        copies.append(str(copy))
    done = subprocess.run([analyze, "verify", *copies], capture_output=True, text=True, timeout=120)
    said = [
        line for line in done.stderr.splitlines() if str(tmp_path) in line or ".service" in line
    ]
    assert done.returncode == 0 and not said, done.stderr


def test_the_units_run_commands_the_server_has() -> None:
    for unit in UNITS:
        for line in unit.read_text().splitlines():
            if not line.startswith(("ExecStart=", "ExecStartPre=")):
                continue
            words = line.split("=", 1)[1].split()
            assert words[0].endswith("/mathable-server"), line
            command = [sys.executable, "-m", "mathable_server", words[1], "--help"]
            shown = subprocess.run(command, capture_output=True, text=True, timeout=120,
                                   env=server_env())  # fmt: skip
            assert shown.returncode == 0, (line, shown.stderr)
            for option in (w.split("=")[0] for w in words[2:] if w.startswith("--")):
                assert option in shown.stdout, (line, option)
