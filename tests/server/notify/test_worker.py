"""A worker loop: each job every its seconds in one thread, a failing job tried again."""

from __future__ import annotations

import logging
import threading
import time

from mathable_server.notify.worker import Job, Worker, lane_workers


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


def test_mail_and_webhooks_are_sent_from_threads_of_their_own(sqlite_url: str) -> None:
    """Every process that delivers builds its threads from the lanes: mail (with the sweep)
    in one, webhooks in ``webhook_workers`` of their own, each taking one row at a time, and
    pushes in as many more."""
    from tests.server.apps import make_app

    app = make_app(sqlite_url, webhook_workers=3, smtp_url="smtp://127.0.0.1:9")
    lanes = app.extensions["mathable_mail"].lanes(app.extensions["mathable"].games.now)
    assert [(lane.name, len(lane.deliverers)) for lane in lanes] == [
        ("mail", 1), ("webhooks", 3), ("push", 3)
    ]
    mail, webhooks = lanes[0].deliverers[0], lanes[1].deliverers
    assert mail.channels == {"email"} and mail.batch > 1
    assert all(d.channels == {"webhook"} and d.batch == 1 for d in webhooks)
    sweep = Job("sweep", 1.0, lambda: None, logging.getLogger("test_worker"))
    workers = lane_workers(lanes, 1.0, [sweep])
    assert [[job.name for job in w.jobs] for w in workers] == [
        ["sweep", "mail"], ["webhooks-1"], ["webhooks-2"], ["webhooks-3"],
        ["push-1"], ["push-2"], ["push-3"],
    ]
    assert len({w._thread.name for w in workers}) == 7
    assert all(d.channels == {"push"} and d.batch == 1 for d in lanes[2].deliverers)


def test_a_woken_worker_runs_its_jobs_at_once() -> None:
    """A commit wakes a push thread (``create_app``): its jobs run now, not at their time."""
    ran = threading.Event()
    runs: list[float] = []

    def job() -> None:
        runs.append(time.monotonic())
        ran.set()

    worker = Worker([Job("push", 60.0, job, logging.getLogger("test_worker"))])
    worker.start()
    try:
        assert not ran.wait(0.2)  # its time is a minute away
        worker.wake()
        assert ran.wait(5) and len(runs) == 1
    finally:
        worker.stop()
        worker.join(5)
    assert not worker._thread.is_alive()
