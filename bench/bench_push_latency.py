"""The time from a move to its push arriving at a push service: a live ``mathable-server
run`` (its delivery worker polling every ``MATHABLE_DELIVER_SECONDS``), the push service
of the tests on loopback (it checks each push's VAPID signature and decrypts it), and
``--moves`` passes answered in turn by two players who both subscribed. Printed: the
median, 90th percentile and worst time from the move's request being sent to the push
decrypted at the push service (the push often arrives before the move's answer is read).

    python bench/bench_push_latency.py --moves 40 --poll 0.1
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / p) for p in ("", "shared", "server")]

import requests  # noqa: E402
from tests.server.helpers import EXAMPLE_TILES  # noqa: E402
from tests.server.live import live_server  # noqa: E402
from tests.server.push_service import PushService  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--poll", type=float, default=0.1, help="MATHABLE_DELIVER_SECONDS")
    args = parser.parse_args()
    env = {"MATHABLE_PUSH_ALLOW_PRIVATE": "1", "MATHABLE_DELIVER_SECONDS": str(args.poll),
           "MATHABLE_RATE_LIMIT": "off", "MATHABLE_ADDRESS_RATE_LIMIT": "off"}  # fmt: skip
    service = PushService()
    service.start()
    try:
        with live_server(env=env) as base:
            service.server_key = requests.get(f"{base}/v1/push/key", timeout=10).json()[
                "public_key"
            ]
            players = []
            for name in ("ada", "bob"):
                body = requests.post(f"{base}/v1/players", json={"name": name}, timeout=10).json()
                auth = {"Authorization": f"Bearer {body['token']}"}
                added = requests.post(f"{base}/v1/me/push", json=service.subscribe(f"/{name}"),
                                      headers=auth, timeout=10)  # fmt: skip
                assert added.status_code == 201, added.text
                players.append(auth)
            game = requests.post(f"{base}/v1/games", json={"tiles": EXAMPLE_TILES},
                                 headers=players[0], timeout=10).json()["id"]  # fmt: skip
            requests.post(f"{base}/v1/games/{game}/join", headers=players[1], timeout=10)
            delays = []
            version, turn = 3, 0
            for _number in range(args.moves):
                before = len(service.pushes)
                sent = time.time()
                moved = requests.post(f"{base}/v1/games/{game}/moves", headers=players[turn],
                                      json={"type": "pass", "expected_version": version},
                                      timeout=10)  # fmt: skip
                assert moved.status_code == 200, moved.text
                view = moved.json()
                version, turn = view["version"], 1 - turn
                pushes = service.wait(before + 1)  # your turn, or the game's end
                delays.append((pushes[-1].at - sent) * 1000)
                if view["status"] != "playing":  # passes end a game: a new one
                    game = requests.post(f"{base}/v1/games", json={"tiles": EXAMPLE_TILES},
                                         headers=players[0], timeout=10).json()["id"]
                    requests.post(f"{base}/v1/games/{game}/join", headers=players[1],
                                  timeout=10)  # fmt: skip
                    version, turn = 3, 0
    finally:
        service.stop()
    delays.sort()
    print(f"moves: {len(delays)}, delivery poll {args.poll} s")
    print(f"move sent -> push decrypted at the push service: median "
          f"{statistics.median(delays):.0f} ms, p90 {delays[int(len(delays) * 0.9) - 1]:.0f} ms,"
          f" worst {delays[-1]:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
