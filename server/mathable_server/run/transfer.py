"""``mathable-server dump`` and ``load``: the dump's file (or stdout, stdin) and what the
command says.

The dump itself is the store's: its format, what it carries and what it leaves behind
and why (``store.dump_format``), reading the database and writing it back
(``store.dumps``). A dump holds every running game's bag order and salt, the server
secret and the mail waiting to go: its file is made its owner's alone.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from sqlalchemy import Engine

from mathable_server.store.dump_format import DumpError
from mathable_server.store.dumps import dump, load


@contextmanager
def _opened(path: str, mode: str) -> Iterator[IO[str]]:
    if path == "-":
        if "w" in mode:
            _private_stdout()
        yield sys.stdout if "w" in mode else sys.stdin
    elif "w" in mode:
        # A dump holds every running game's bag order and salt: only its owner reads it.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(fd, 0o600)  # a file that was there keeps no wider mode
        except OSError:
            os.close(fd)
            raise
        with open(fd, "w", encoding="utf-8", newline="\n") as handle:
            yield handle
    else:
        with Path(path).open(mode, encoding="utf-8", newline="\n") as handle:
            yield handle


def _private_stdout() -> None:
    """A dump written to a file by the shell (``dump > games.jsonl``) is made its owner's
    alone, as ``-o`` makes it: the shell created it readable by everyone (umask 022),
    and it holds the server secret, every bag order and the mail waiting to go."""
    try:
        fd = sys.stdout.fileno()
        found = os.fstat(fd)
    except (OSError, ValueError, AttributeError):
        return  # not a file (a test's buffer)
    if stat.S_ISREG(found.st_mode) and found.st_mode & 0o077:
        try:
            os.fchmod(fd, 0o600)
        except OSError:
            print(
                "mathable-server: warning: the dump's file can be read by others; it holds "
                "secrets: write it with -o FILE",
                file=sys.stderr,
            )
        else:
            print("mathable-server: the dump's file was made readable by its owner only "
                  "(it holds secrets)", file=sys.stderr)  # fmt: skip


def dump_to(engine: Engine, path: str) -> None:
    try:
        with _opened(path, "w") as out:
            counts = dump(engine, out)
    except OSError as err:
        raise SystemExit(f"mathable-server: cannot write {path}: {err.strerror or err}") from None
    print(f"mathable-server: dumped {counts}", file=sys.stderr)


def load_from(engine: Engine, path: str) -> None:
    try:
        with _opened(path, "r") as handle:
            counts = load(engine, handle)
    except DumpError as err:
        raise SystemExit(f"mathable-server: load refused: {err}") from None
    except UnicodeDecodeError:
        raise SystemExit("mathable-server: load refused: the file is not UTF-8 text") from None
    except OSError as err:
        raise SystemExit(f"mathable-server: cannot read {path}: {err.strerror or err}") from None
    print(f"mathable-server: loaded {counts}", file=sys.stderr)
