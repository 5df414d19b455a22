"""Does ``POST /signin`` answer a player's address and a stranger's in the same time?

    .venv/bin/python bench/bench_signin_timing.py [--rounds 300]

Starts ``mathable-server run`` on SQLite with mail on (a relay that is never reached:
the request only writes the outbox row; the worker's lookup happens later, off the
request), registers a player with a verified address, then asks for sign-in links
alternately for that address and for made-up ones, each on a kept-alive connection
of one browser, and prints the median and the 10th/90th percentiles of each, and the
difference of the medians. Issue 40: a request must do the same work whoever's the
address is, so the difference should be within the noise (the spread of either).
Everything goes to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.live import live_server  # noqa: E402

ADDRESS = "known@player.example"


def _verified_player(base: str) -> None:
    """A player who set ``ADDRESS`` (not verified: no relay runs here, and the request
    does not look the address up at all, verified or not)."""
    token = requests.post(f"{base}/v1/players", json={"name": "known"}, timeout=10).json()
    auth = {"Authorization": f"Bearer {token['token']}"}
    answer = requests.put(f"{base}/v1/me/email", json={"address": ADDRESS}, headers=auth,
                          timeout=10)  # fmt: skip
    assert answer.status_code == 202, answer.text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    env = {
        "MATHABLE_SMTP_URL": "smtp://127.0.0.1:9",
        "MATHABLE_PUBLIC_URL": "http://mathable.test",
        "MATHABLE_CODE_MAIL_LIMIT": "off",
        "MATHABLE_RATE_LIMIT": "off",
        "MATHABLE_ADDRESS_RATE_LIMIT": "off",
        "MATHABLE_DELIVER_SECONDS": "3600",  # the worker stays out of the measurement
    }
    with live_server(env=env) as base:
        _verified_player(base)
        browser = requests.Session()
        page = browser.get(f"{base}/signin", timeout=10).text
        found = re.search(r'name="csrf" value="([0-9a-f]{64})"', page)
        assert found is not None
        csrf = found[1]
        times: dict[str, list[float]] = {"player": [], "stranger": []}
        for i in range(args.rounds):
            for kind in ("player", "stranger") if i % 2 else ("stranger", "player"):
                address = ADDRESS if kind == "player" else f"made.up{i}@player.example"
                started = time.perf_counter()
                answer = browser.post(f"{base}/signin", data={"csrf": csrf, "email": address},
                                      timeout=10)  # fmt: skip
                times[kind].append(time.perf_counter() - started)
                assert answer.status_code == 200, answer.status_code
        for kind, found_times in times.items():
            q = statistics.quantiles(found_times, n=10)
            print(f"{kind:9} median {statistics.median(found_times) * 1000:.2f} ms"
                  f"  p10 {q[0] * 1000:.2f}  p90 {q[-1] * 1000:.2f}  ({len(found_times)})")
        gap = statistics.median(times["player"]) - statistics.median(times["stranger"])
        print(f"difference of the medians (player - stranger): {gap * 1000:+.3f} ms")


if __name__ == "__main__":
    main()
