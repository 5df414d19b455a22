"""A worker loop: each job every its seconds in one thread, a failing job tried again."""

from __future__ import annotations

import logging
import threading
import time

from mathable_server.notify.worker import Job, Worker


def test_one_thread_runs_each_job_again_and_again_even_after_one_fails() -> None:
    runs: dict[str, int] = {"fast": 0, "failing": 0}
    threads: set[str] = set()

    def fast() -> None:
        threads.add(threading.current_thread().name)
        runs["fast"] += 1

    def failing() -> None:
        threads.add(threading.current_thread().name)
        runs["failing"] += 1
        raise RuntimeError("the database is down")

    quiet = logging.getLogger("test_worker")
    quiet.disabled = True
    worker = Worker([Job("fast", 0.01, fast, quiet), Job("failing", 0.02, failing, quiet)])
    worker.start()
    deadline = time.monotonic() + 10
    while (runs["fast"] < 3 or runs["failing"] < 3) and time.monotonic() < deadline:
        time.sleep(0.01)
    worker.stop()
    assert runs["fast"] >= 3 and runs["failing"] >= 3
    assert threads == {"mathable-worker"}


def test_no_job_no_thread() -> None:
    worker = Worker([])
    worker.start()
    assert not worker._thread.is_alive()
