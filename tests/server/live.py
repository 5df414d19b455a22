"""Start a real ``mathable-server`` in a subprocess on a free port, for end-to-end tests.

>>> from tests.server.live import live_server
>>> with live_server() as base_url:  # doctest: +SKIP
...     requests.get(f"{base_url}/v1/health")

SQLite in a temporary folder unless ``database_url`` is given; one process
(``mathable-server run``) or gunicorn with ``workers`` processes of ``threads``
threads.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except urllib.error.HTTPError as err:
        return err.code == 429  # up, and counting the probes against a tight test limit
    except (urllib.error.URLError, OSError):
        return False


def server_command(
    port: int,
    database_url: str,
    workers: int,
    threads: int | None = None,
    worker_class: str | None = None,
) -> list[str]:
    """``run`` for one worker; ``serve`` for more, for ``threads`` (gthread workers) or for a
    ``worker_class`` (``gevent``, serve's default, or ``gthread``)."""
    base = [sys.executable, "-m", "mathable_server"]
    if worker_class is None and threads is not None:
        worker_class = "gthread"
    if workers > 1 or worker_class is not None:
        extra = ["--threads", str(threads)] if threads is not None else []
        if worker_class is not None:
            extra += ["--worker-class", worker_class]
        return base + ["serve", "--workers", str(workers), *extra, "--port", str(port),
                       "--database-url", database_url]  # fmt: skip
    return base + ["run", "--port", str(port), "--database-url", database_url]


@contextmanager
def live_server(
    database_url: str | None = None,
    workers: int = 1,
    env: Mapping[str, str] | None = None,
    threads: int | None = None,
    worker_class: str | None = None,
) -> Iterator[str]:
    """Run ``mathable-server`` until the block ends; yields its base URL (no trailing slash).

    With more than one worker it runs under gunicorn (``serve``, gevent workers); with
    ``threads``, gthread workers of that many threads; ``worker_class`` picks.
    """
    with tempfile.TemporaryDirectory(prefix="mathable-live-") as folder:
        url = database_url or f"sqlite:///{Path(folder) / 'live.db'}"
        environ = dict(os.environ)
        paths = [str(REPO / "shared"), str(REPO / "server")]
        environ["PYTHONPATH"] = os.pathsep.join(paths + [environ.get("PYTHONPATH", "")])
        # Tests set up games with a given bag order unless they say otherwise.
        environ.setdefault("MATHABLE_ALLOW_GIVEN_TILES", "1")
        environ.setdefault("MATHABLE_ALLOW_SEEDS", "1")
        # PostgreSQL here takes 100 connections, shared by every test worker: a live server
        # holds fewer than its default (8 + 8 overflow a process), so tests running at
        # once do not exhaust them (a worker refused one answers 503).
        environ.setdefault("MATHABLE_POOL_SIZE", "4")
        # A session-long server registers and creates more than an hour's worth for one
        # address: tests of those limits set them.
        environ.setdefault("MATHABLE_REGISTRATION_LIMIT", "off")
        environ.setdefault("MATHABLE_REGISTRATION_CEILING", "off")
        environ.setdefault("MATHABLE_GAME_LIMIT", "off")
        environ.update(env or {})
        log_path = Path(folder) / "server.log"
        for _attempt in range(3):
            port = free_port()
            with open(log_path, "wb") as log:
                process = subprocess.Popen(
                    server_command(port, url, workers, threads, worker_class),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=environ,
                    cwd=folder,
                )
            base_url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + START_TIMEOUT
            while time.monotonic() < deadline and process.poll() is None:
                if _answers(f"{base_url}/v1/health"):
                    break
                time.sleep(0.1)
            if process.poll() is None and _answers(f"{base_url}/v1/health"):
                break
            _stop(process)
            if b"Address already in use" not in log_path.read_bytes():
                raise RuntimeError(
                    "mathable-server did not start:\n" + log_path.read_text(errors="replace")
                )
        else:  # pragma: no cover - three ports taken in a row
            raise RuntimeError("mathable-server found no free port")
        try:
            yield base_url
        finally:
            _stop(process)
            # What the server logged as an error reaches the test's captured output (shown
            # when it fails): an unexpected 503 says there why (a deadlock, no connection).
            logged = log_path.read_text(errors="replace").splitlines()
            errors = [line for line in logged if " ERROR " in line or "Error:" in line]
            if errors:
                print("mathable-server logged:", *errors[:40], sep="\n", file=sys.stderr)


@contextmanager
def serve_process(
    port: int, url: str, log: Path, env: Mapping[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """``mathable-server serve --workers 2`` on ``port`` until the block ends (SIGTERM, as
    systemd stops it), or until the test stops it inside the block; yields the process."""
    env = server_env() | {
        "MATHABLE_ALLOW_SEEDS": "1",
        "MATHABLE_POOL_SIZE": "4",
        "MATHABLE_REGISTRATION_LIMIT": "off",
        "MATHABLE_GAME_LIMIT": "off",
        **(env or {}),
    }
    with log.open("ab") as out:
        process = subprocess.Popen(
            server_command(port, url, 2), stdout=out, stderr=subprocess.STDOUT, env=env
        )
    deadline = time.monotonic() + START_TIMEOUT
    while not _answers(f"http://127.0.0.1:{port}/v1/health"):
        assert process.poll() is None, log.read_text(errors="replace")
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def server_env() -> dict[str, str]:
    """The environment for a ``python -m mathable_server`` subprocess run from the checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "shared"), str(REPO / "server")])
    return env


def server_cli(
    *args: str, stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``mathable-server ARGS`` to the end in a real process; its exit code and output."""
    return subprocess.run(
        [sys.executable, "-m", "mathable_server", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=server_env(),
        timeout=timeout,
    )
