"""A person playing the computer over HTTP, for the computer's tests and benchmarks: a
player who waits for their turn (long-polls) and plays the ``greedy`` engine's move."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import requests

from mathable.core.computer import engines


@dataclass
class Human:
    """One player's account on a live server."""

    base: str
    name: str
    token: str = ""
    session: requests.Session = field(default_factory=requests.Session)

    @classmethod
    def register(cls, base: str, name: str) -> Human:
        human = cls(base, name)
        answer = human.session.post(f"{base}/v1/players", json={"name": name}, timeout=30)
        assert answer.status_code == 201, answer.text
        human.token = answer.json()["token"]
        human.session.headers["Authorization"] = f"Bearer {human.token}"
        return human

    def new_game(self, **body: Any) -> dict[str, Any]:
        answer = self.session.post(f"{self.base}/v1/games", json=body, timeout=30)
        assert answer.status_code == 201, answer.text
        game: dict[str, Any] = answer.json()
        return game

    def view(self, game_id: str, since: int | None = None, wait: float = 0) -> dict[str, Any]:
        query = f"?wait={wait}&since={since}" if since is not None else ""
        answer = self.session.get(f"{self.base}/v1/games/{game_id}{query}", timeout=wait + 30)
        assert answer.status_code == 200, answer.text
        view: dict[str, Any] = answer.json()
        return view


@dataclass
class Played:
    """How a whole game against the computer went."""

    view: dict[str, Any]
    #: Seconds from each move of the person (or the start) to their next turn.
    waits: list[float]


def play_whole_game(human: Human, game_id: str, limit: float = 600) -> Played:
    """``human`` plays ``game_id`` to its end with the ``greedy`` engine; the computer
    is waited for (long-polls) after each of their moves."""
    engine = engines()["greedy"]
    waits: list[float] = []
    deadline = time.monotonic() + limit
    view = human.view(game_id)
    since = time.monotonic()
    while view["status"] == "playing":
        assert time.monotonic() < deadline, "the game did not end in time"
        if not view["your_turn"]:
            view = human.view(game_id, since=view["version"], wait=20)
            continue
        waits.append(time.monotonic() - since)
        for body in engine.turn(view["ruleset"], view, view["version"]):
            body["expected_version"] = view["version"]
            answer = human.session.post(
                f"{human.base}/v1/games/{game_id}/moves", json=body, timeout=30
            )
            assert answer.status_code == 200, answer.text
            view = answer.json()
            if view["status"] != "playing" or not view["your_turn"]:
                break
        since = time.monotonic()
    return Played(view, waits[1:] if waits and waits[0] < 0.001 else waits)
