"""Review of issue 47's help cache (``mathable_cli.helpcache._store``) in a cache folder
other users can write to (``MATHABLE_CACHE_DIR`` or ``XDG_CACHE_HOME`` pointed at a shared
folder): its writes must not follow a link planted there, and what it keeps is the
user's alone. Both fail on main at 94761c4 (review branch wreview)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from mathable_cli import helpcache

pytestmark = pytest.mark.skipif(sys.platform.startswith("win"), reason="no help cache there")


def test_a_link_planted_at_the_partial_name_is_not_followed(tmp_path: Path) -> None:
    """Another user who can write to the folder links ``<entry>.<pid>.part`` (the pid is
    easy to guess) to a file of the victim's: writing the entry must not clobber it."""
    folder = tmp_path / "help"
    folder.mkdir()
    victim = tmp_path / "bashrc"
    victim.write_text("precious\n")
    line = "some key"
    entry = helpcache._path(str(folder), line)
    os.symlink(victim, f"{entry}.{os.getpid()}.part")
    helpcache._store(str(folder), line, 0, "help text\n")
    assert victim.read_text() == "precious\n"


def test_an_entry_and_its_folder_are_the_users_alone(tmp_path: Path) -> None:
    """With the usual umask 022 an entry was written 0644 and its folder 0755: in a shared
    folder others read which helps the user asked for (the key line names the command
    line and environment). Neither should be readable, let alone writable, by others."""
    old = os.umask(0o022)
    try:
        folder = tmp_path / "cache" / "help"
        helpcache._store(str(folder), "some key", 0, "help text\n")
    finally:
        os.umask(old)
    entry = Path(helpcache._path(str(folder), "some key"))
    assert stat.S_IMODE(entry.stat().st_mode) & 0o077 == 0, oct(entry.stat().st_mode)
    assert stat.S_IMODE(folder.stat().st_mode) & 0o077 == 0, oct(folder.stat().st_mode)
