"""Messages between the seats of a game, as the CLI shows them: who wrote what, and which
of them this machine has shown already (``show`` and ``wait`` print only what is new).

The newest message id shown per server, profile and game is kept in ``messages-seen.json``
beside the config file (two profiles on one machine each see their own); it holds ids
only. Your own messages are never shown to you as new.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathable_i18n import _

if TYPE_CHECKING:
    from mathable_cli.api import ApiClient

SEEN_FILE = "messages-seen.json"
#: Games remembered at most (the oldest are forgotten first).
MAX_REMEMBERED = 500


def seat_names(view: Mapping[str, Any]) -> dict[int, str]:
    return {
        int(s["seat"]): str(s.get("name") or f"seat {s['seat']}")
        for s in view.get("seats", [])
        if s.get("seat") is not None
    }


def message_line(message: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """``ada writes: Good luck!`` (later lines indented).

    >>> message_line({"seat": 0, "text": "Hi\\nthere"}, {0: "ada"})
    'ada writes: Hi\\n    there'
    """
    seat = int(message["seat"])
    who = names.get(seat) or _("seat {n}", n=seat)
    text = "\n    ".join(str(message["text"]).split("\n"))
    # TRANSLATORS: a message between players; later lines of it are indented.
    return _("{who} writes: {message}", who=who, message=text)


class SeenMessages:
    """The newest message id shown per game, in a small file of the config folder."""

    def __init__(self, directory: Path, server: str, profile: str) -> None:
        self.path = directory / SEEN_FILE
        self.server = server
        self.profile = profile

    def _key(self, game: str) -> str:
        return json.dumps([self.server, self.profile, game])

    def _load(self) -> dict[str, int]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {k: v for k, v in data.items() if isinstance(v, int)} if isinstance(data, dict) \
            else {}  # fmt: skip

    def last(self, game: str) -> int:
        return self._load().get(self._key(game), 0)

    def remember(self, game: str, newest: int) -> None:
        data = self._load()
        data.pop(self._key(game), None)
        data[self._key(game)] = newest
        data = dict(list(data.items())[-MAX_REMEMBERED:])
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            import tempfile  # deferred: start-up time of the commands that write nothing

            fd, tmp = tempfile.mkstemp(prefix=".seen-", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            os.replace(tmp, self.path)
        except OSError:
            pass  # showing a message again next time is no harm


def unseen(api: ApiClient, seen: SeenMessages, game: str, view: Mapping[str, Any]) \
        -> list[str]:  # fmt: skip
    """The lines of the messages of ``game`` not shown here before (none for a spectator),
    and remember them as shown; the reader's own are never shown as new."""
    if view.get("you") is None or api.token is None:
        return []
    from mathable_cli.exits import CliError

    since = seen.last(game)
    # An extra beside the game, asked once: a server without messages (404), or one that
    # does not answer now, leaves the game shown as it is.
    retries, api.retries = api.retries, 0
    try:
        found = api.request("GET", f"/v1/games/{game}/messages", params={"since": since}).data
    except CliError:  # the API's errors are CliErrors too
        return []
    finally:
        api.retries = retries
    messages = found.get("messages", [])
    if not messages:
        return []
    seen.remember(game, max(int(m["id"]) for m in messages))
    names = seat_names(view)
    mine = view.get("you")
    return [message_line(m, names) for m in messages if m.get("seat") != mine]
