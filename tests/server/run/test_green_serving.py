"""What ``serve``'s workers change in gunicorn's writing of an answer: the Date header is
formatted once a second (``gunicorn_writes`` has its own tests)."""

from __future__ import annotations

from typing import Any

import pytest

from mathable_server.run.gunicorn_app import _DateOncePerSecond


def test_the_date_is_formatted_once_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []

    def formatted(timestamp: float | None = None) -> str:
        calls.append(timestamp)
        return f"second {int(timestamp or 0)}"

    clock = iter([100.1, 100.5, 100.9, 101.2])
    monkeypatch.setattr("mathable_server.run.gunicorn_app.time.time", lambda: next(clock))
    date = _DateOncePerSecond(formatted)
    assert [date() for _ in range(4)] == ["second 100"] * 3 + ["second 101"]
    assert calls == [100, 101]
    assert date(5.0) == "second 5"  # a given time is formatted as asked
