"""A bot written from openapi.yaml and GET /v1/rulesets/mathable alone, in plain ``requests``.

It knows nothing else of the game: the squares, their operations, premiums and
pairs, what each operation makes and the exchange limits all come from the
ruleset; the board, rack and whose turn from the game view. It never imports
the rules package (``run`` blocks it). Each turn it places, greedily, the
tile that scores most until none fits, and sends the whole turn; with nothing
to place it exchanges (when the bag holds enough) or passes.

    python tests/bots/requests_bot.py BASE_URL TOKEN GAME_ID TRANSCRIPT

Every request and answer is written to TRANSCRIPT (one JSON object a line) for
the test to check against openapi.yaml; the exit code is the number of
refusals (4xx answers) it got, 0 when every move was legal.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import requests


class RequestsBot:
    def __init__(self, base_url: str, token: str, transcript: Any) -> None:
        self.base = base_url.rstrip("/")
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"
        self.transcript = transcript
        self.refusals = 0
        rules = self.call("GET", "/v1/rulesets/mathable")
        self.rules = rules
        self.squares = {s["name"]: s for s in rules["board"]["squares"]}
        self.exchange_max = rules["exchange"]["max"]

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.session.request(method, self.base + path, timeout=60, **kwargs)
        self.transcript.write(
            json.dumps(
                {
                    "method": method,
                    "path": path,
                    "status": response.status_code,
                    "content_type": response.headers.get("Content-Type"),
                    "body": response.text,
                }
            )
            + "\n"
        )
        if response.status_code >= 400:
            self.refusals += 1
            print(f"refused: {method} {path}: {response.text}", file=sys.stderr)
            return None
        return response.json()

    # --- the rules, as the ruleset states them ------------------------------------

    @staticmethod
    def makes(a: int, b: int, op: str) -> set[int]:
        """What the pair (a, b) makes by ``op`` (the ruleset: placement.operations)."""
        if op == "+":
            return {a + b}
        if op == "-":
            return {abs(a - b)}
        if op == "x":
            return {a * b}
        out = set()
        if b != 0 and a % b == 0:
            out.add(a // b)
        if a != 0 and b % a == 0:
            out.add(b // a)
        return out

    def completes(self, board: dict[str, int], square: str, tile: int) -> int:
        """How many of the square's pairs make ``tile`` (by the square's operation, if any)."""
        info = self.squares[square]
        ops = [info["operation"]] if info["operation"] else ["+", "-", "x", "/"]
        count = 0
        for near, far in info["pairs"]:
            if near in board and far in board:
                if any(tile in self.makes(board[near], board[far], op) for op in ops):
                    count += 1
        return count

    def greedy_turn(self, board: dict[str, int], rack: list[int]) -> list[dict[str, Any]]:
        board, rack = dict(board), list(rack)
        placements = []
        while True:
            best = None
            for square, info in self.squares.items():
                if square in board:
                    continue
                for tile in set(rack):
                    n = self.completes(board, square, tile)
                    points = tile * n * info["premium"]
                    if n and (best is None or points > best[0]):
                        best = (points, square, tile)
            if best is None:
                return placements
            _, square, tile = best
            board[square] = tile
            rack.remove(tile)
            placements.append({"square": square, "tile": tile})

    # --- playing ------------------------------------------------------------------

    def play(self, game_id: str) -> dict[str, Any]:
        view = self.call("GET", f"/v1/games/{game_id}")
        while view["status"] not in ("ended", "cancelled"):
            if not view["your_turn"]:
                view = self.call(
                    "GET", f"/v1/games/{game_id}", params={"wait": 20, "since": view["version"]}
                )
                continue
            placements = self.greedy_turn(view["board"], view["rack"])
            command: dict[str, Any] = {"expected_version": view["version"]}
            if placements:
                command.update(type="turn", placements=placements)
            elif view["bag_size"] >= 1 and view["rack"]:
                room = min(self.exchange_max, view["bag_size"], len(view["rack"]))
                command.update(type="exchange", tiles=sorted(view["rack"])[-room:])
            else:
                command.update(type="pass")
            answer = self.call("POST", f"/v1/games/{game_id}/moves", json=command)
            if answer is None and command["type"] != "pass":
                # Refused (counted): pass, so the game goes on and the test fails at
                # once, rather than send the same refused turn again until it times out.
                answer = self.call(
                    "POST",
                    f"/v1/games/{game_id}/moves",
                    json={"type": "pass", "expected_version": view["version"]},
                )
            if answer is None:
                answer = self.call("GET", f"/v1/games/{game_id}")
            view = answer
        return dict(view)


def run(base_url: str, token: str, game_id: str, transcript_path: str) -> int:
    with open(transcript_path, "w") as transcript:
        bot = RequestsBot(base_url, token, transcript)
        final = bot.play(game_id)
    print(json.dumps(final["result"]))
    return bot.refusals


if __name__ == "__main__":
    # Proof of "no other knowledge of the game": the rules package cannot be imported.
    sys.modules["mathable"] = None  # type: ignore[assignment]
    sys.exit(run(*sys.argv[1:5]))
