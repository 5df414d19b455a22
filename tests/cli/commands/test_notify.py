"""``mathable-cli notify`` tells a player their webhook is paused, failing or over http://."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from mathable_cli.commands.notify import _show


def _shown(webhook: dict[str, Any] | None) -> list[str]:
    lines: list[str] = []
    actx: Any = SimpleNamespace(output=SimpleNamespace(data=lines.append, json=print))
    _show(actx, {"address": None, "verified": False, "email": "turn", "webhook": webhook}, False)
    return lines


def test_a_paused_webhook_and_an_http_one_are_shown_with_what_to_do() -> None:
    paused = {"url": "http://bot.test/h", "state": "paused", "failures": 5,
              "paused_until": "2026-12-02T04:00:00Z", "last_error": "no answer within 10 s",
              "warning": "this webhook is called over http://, in the clear"}  # fmt: skip
    lines = _shown(paused)
    assert lines[2] == "webhook: http://bot.test/h"
    assert "paused until 2026-12-02T04:00:00Z after 5 failures" in lines[3]
    assert "set it again to resume" in lines[3] and "http://" in lines[4]
    ok = {"url": "https://bot.test/h", "state": "ok", "failures": 0, "paused_until": None,
          "last_error": None, "warning": None}  # fmt: skip
    assert _shown(ok)[2:] == ["webhook: https://bot.test/h"]
    assert _shown(None)[2:] == ["webhook: (none)"]
