"""The operator's documentation stays true to the code: the migration table of
docs/server.md names every revision, and only those, in order."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
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
