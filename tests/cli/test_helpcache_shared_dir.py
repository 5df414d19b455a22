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


def test_a_link_planted_at_the_partial_name_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another user who can write to the folder links the partial file's name (it was
    ``<entry>.<pid>.part``, the pid easy to guess; now random, made here or not at all,
    never through a link: the name is given away below) to a file of the victim's:
    writing the entry must not clobber it."""
    monkeypatch.setattr(helpcache.os, "urandom", lambda n: bytes(n))
    folder = tmp_path / "help"
    folder.mkdir()
    victim = tmp_path / "bashrc"
    victim.write_text("precious\n")
    line = "some key"
    entry = helpcache._path(str(folder), line)
    os.symlink(victim, f"{entry}.{bytes(8).hex()}.part")
    helpcache._store(str(folder), line, 0, "help text\n")
    assert victim.read_text() == "precious\n"


def test_an_entry_others_could_have_written_is_never_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An entry with the right key planted by someone else (here: writable by others, or a
    link to a file) is passed over: the app prints the help, not the planted bytes."""
    folder = tmp_path / "help"
    monkeypatch.setenv("MATHABLE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(helpcache, "cache_dir", lambda env: str(folder))
    monkeypatch.setattr(helpcache, "key", lambda argv: "the key")
    helpcache._store(str(folder), "the key", 0, "help text\n")
    assert helpcache.replay(["--help"]) == 0 and capsys.readouterr().out == "help text\n"
    entry = Path(helpcache._path(str(folder), "the key"))
    entry.chmod(0o666)
    assert helpcache.replay(["--help"]) is None and capsys.readouterr().out == ""
    planted = tmp_path / "planted"
    planted.write_text("the key\n0\n\x1b]0;owned\x07\n")
    planted.chmod(0o600)
    entry.unlink()
    entry.symlink_to(planted)
    assert helpcache.replay(["--help"]) is None and capsys.readouterr().out == ""


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
