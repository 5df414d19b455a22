"""``mathable-cli --help`` (``-h``, a command's ``--help``, the bare ``mathable-cli``) from
the user's cache: what the app printed the first time, printed again without importing
Typer or rich, when nothing the help depends on has changed since.

The help is drawn by rich through Typer (``typer.rich_utils``): importing those alone
costs several times what starting Python does, before a word is printed. What they
print depends only on the code (this package's, ``mathable_i18n``'s, Typer's with its
own Click, rich's), the command line, the terminal (which standard streams are
terminals, and their sizes: rich takes the width of the first of stdin, stdout and
stderr that is one) and the environment variables Typer, its Click and rich read
(``ENV``; ``tests/cli/test_helpcache.py`` checks that the list names every variable
their sources read). All of that is an entry's key (``key``): the code's files by
path, size and modification time (an edit, an upgrade, a reinstall changes it), the
CLI's version, Python's. The first run of a key runs the app and keeps what it wrote
to stdout (``record``); a run that wrote anything to stderr, failed or was
interrupted keeps nothing, so errors always come from the app. An entry that cannot
be read or written is passed over: the app prints the help as before. A stdout that
is not UTF-8, or a shell's completion, is always the app's.

The cache is ``$MATHABLE_CACHE_DIR``, else ``$XDG_CACHE_HOME/mathable-cli`` (else
``~/.cache/mathable-cli``; ``~/Library/Caches/mathable-cli`` on macOS), under ``help/``:
one small file a key, at most ``KEEP`` of them (the oldest go first). Not on Windows,
where rich may write to a console without going through ``sys.stdout``.
"""

from __future__ import annotations

import os
import sys
import zlib

from mathable_cli import __version__

TYPE_CHECKING = False  # not ``typing``'s: importing it costs more than the whole replay
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

#: What asks for the help (the app's ``help_option_names``).
HELP = ("--help", "-h")

#: The environment variables that change what Typer, its Click and rich print for a help:
#: colours, terminal, width, the markup, the locale (Click's gettext).
ENV = (
    "COLORTERM",
    "COLUMNS",
    "DATABRICKS_RUNTIME_VERSION",
    "FORCE_COLOR",
    "GITHUB_ACTIONS",
    "JUPYTER_COLUMNS",
    "JUPYTER_LINES",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_MESSAGES",
    "LINES",
    "NO_COLOR",
    "PY_COLORS",
    "TERM",
    "TERMINAL_WIDTH",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
    "TYPER_USE_RICH",
    "UNICODE_VERSION",
    "_TYPER_FORCE_DISABLE_TERMINAL",
)

#: The packages whose code draws the help; with this one (``mathable_cli``), their
#: files are part of the key (Typer's Click is its own: ``typer._click``).
PACKAGES = ("mathable_i18n", "typer", "rich")

#: How many entries the cache keeps.
KEEP = 200

_HERE = os.path.dirname(os.path.abspath(__file__))

#: Folders of a package that hold no code of its own.
_NOT_CODE = frozenset({"__pycache__"})


def wanted(argv: list[str]) -> bool:
    """Whether ``argv`` only asks for a help: nothing, ``--help`` or ``-h``, or a word
    (a command) and one of them."""
    if not argv:
        return True
    if len(argv) == 1:
        return argv[0] in HELP
    return len(argv) == 2 and not argv[0].startswith("-") and argv[1] in HELP


def cache_dir(env: Mapping[str, str]) -> str | None:
    """Where the entries are; None: not here (Windows)."""
    if sys.platform.startswith("win"):
        return None
    if env.get("MATHABLE_CACHE_DIR"):
        return os.path.join(os.path.expanduser(env["MATHABLE_CACHE_DIR"]), "help")
    if sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Caches")
    else:
        base = env.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "mathable-cli", "help")


def _package_dirs() -> list[str]:
    from importlib.util import find_spec

    found = [_HERE]
    for name in PACKAGES:
        spec = find_spec(name)
        locations = spec.submodule_search_locations if spec is not None else None
        found.append(list(locations)[0] if locations else f"<no {name}>")
    return found


def code_files(dirs: list[str] | None = None) -> list[tuple[str, int, int]]:
    """Each file of the code that draws the help (the packages' folders and their
    subfolders): its path, size and modification time."""
    files = []
    folders = list(reversed(_package_dirs() if dirs is None else dirs))
    while folders:
        folder = folders.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            files.append((folder, -1, -1))
            continue
        below = []
        for entry in entries:
            if entry.name.endswith((".py", ".pyi")):
                stat = entry.stat()
                files.append((entry.path, stat.st_size, stat.st_mtime_ns))
            elif entry.name not in _NOT_CODE and entry.is_dir():
                below.append(entry.path)
        folders.extend(reversed(below))
    return files


def _terminal(fd: int) -> tuple[bool, tuple[int, int] | None]:
    try:
        size: tuple[int, int] | None = tuple(os.get_terminal_size(fd))  # type: ignore[assignment]
    except (OSError, ValueError):
        size = None
    try:
        tty = os.isatty(fd)
    except OSError:
        tty = False
    return tty, size


def key(argv: list[str], env: Mapping[str, str] | None = None) -> str | None:
    """Everything the help of ``argv`` depends on, on one line; None: not to be cached
    (shell completion asked for, or a stdout that is not UTF-8)."""
    env = os.environ if env is None else env
    if any(name.startswith("_TYPER_COMPLETE") or name.endswith("_COMPLETE") for name in env):
        return None
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    if encoding != "utf8":
        return None
    code = repr(code_files()).encode()
    parts = (
        __version__,
        f"{zlib.crc32(code):08x}{zlib.adler32(code):08x}{len(code)}",
        argv,
        [(name, env[name]) for name in ENV if name in env],
        [_terminal(fd) for fd in (0, 1, 2)],
        getattr(sys.stdout, "errors", None),
        sys.version,
        sys.platform,
        sys.prefix,
    )
    return repr(parts)


def _path(folder: str, line: str) -> str:
    return os.path.join(folder, f"{zlib.crc32(line.encode()):08x}.txt")


def replay(argv: list[str]) -> int | None:
    """Print the help of ``argv`` from the cache; its exit code, or None when it is not
    there (or the cache is not to be used)."""
    folder = cache_dir(os.environ)
    line = key(argv) if folder is not None else None
    if folder is None or line is None:
        return None
    try:
        stored = _read_own(_path(folder, line))
    except (OSError, UnicodeDecodeError):
        return None
    if stored is None:
        return None
    head, _, rest = stored.partition("\n")
    code, _, text = rest.partition("\n")
    if head != line or not code.isdigit():
        return None
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``| head``): nothing more to say.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - flushed at exit, never read
    return int(code)


#: Opening a file of the cache never follows a link (the folder may be one others can
#: write to: ``MATHABLE_CACHE_DIR`` or ``XDG_CACHE_HOME`` pointed at a shared folder).
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _read_own(path: str) -> str | None:
    """The text of the entry at ``path`` if it is the user's own (not a link, owned by
    them, writable by nobody else), else None: an entry someone else planted is never
    printed."""
    fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    with open(fd, encoding="utf-8", newline="") as file:
        found = os.fstat(fd)
        if found.st_uid != os.getuid() or found.st_mode & 0o022:
            return None
        return file.read()


class _Tee:
    """A stream that writes to ``stream`` and keeps what was written."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.said: list[str] = []

    def write(self, text: str) -> int:
        written: int = self._stream.write(text)
        self.said.append(text)
        return written

    def writelines(self, lines: Any) -> None:
        for text in lines:
            self.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def record(argv: list[str], run: Callable[[], object]) -> None:
    """Run the app (``run``) on ``argv``, keeping what it printed for the next run of the
    same key when it ends as a help does (exit 0 or 2, nothing on stderr)."""
    folder = cache_dir(os.environ)
    line = key(argv) if folder is not None else None
    if folder is None or line is None:
        run()
        return
    out, err = _Tee(sys.stdout), _Tee(sys.stderr)
    sys.stdout, sys.stderr = out, err
    code: object = None  # None: it did not end (an exception, Ctrl-C, a closed pipe)
    try:
        run()
        code = 0
    except SystemExit as done:
        code = 0 if done.code is None else done.code
        raise
    finally:
        sys.stdout, sys.stderr = out._stream, err._stream
        if code in (0, 2) and not err.said:
            _store(folder, line, code, "".join(out.said))


def _store(folder: str, line: str, code: object, text: str) -> None:
    """Write an entry (atomically: a reader sees the old one or the new), then drop the
    oldest beyond ``KEEP``; a cache that cannot be written is passed over."""
    partial = None
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        path = _path(folder, line)
        # A name nobody can guess, made here or not at all, the user's alone (0600), never
        # through a link planted in a shared folder.
        partial = f"{path}.{os.urandom(8).hex()}.part"
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
        with open(fd, "w", encoding="utf-8", newline="") as file:
            file.write(f"{line}\n{code}\n{text}")
        os.replace(partial, path)
        partial = None
        entries = [e for e in os.scandir(folder) if e.name.endswith(".txt")]
        if len(entries) > KEEP:
            entries.sort(key=lambda e: e.stat().st_mtime_ns)
            for entry in entries[: len(entries) - KEEP]:
                os.unlink(entry.path)
    except OSError:
        pass
    finally:
        if partial is not None:  # not written whole: not left behind
            try:
                os.unlink(partial)
            except OSError:
                pass
