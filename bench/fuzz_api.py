"""Hostile input: schemathesis fuzzing and stateful runs against openapi.yaml on a live server.

    .venv/bin/python bench/fuzz_api.py --minutes 5
    .venv/bin/python bench/fuzz_api.py --minutes 5 --database postgresql://postgres@127.0.0.1:5432/test

Starts ``mathable-server serve --workers 2`` on a fresh database, registers a
player whose token the fuzzer sends, seeds a game in play and one waiting, and
runs every schemathesis phase (examples, coverage, fuzzing, stateful) for the
time given with the checks: no 5xx, status codes, content types, headers and
bodies as the spec says, invalid data refused. The server log is then checked
for tracebacks. Exits with schemathesis' code (non-zero on any failure).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import ROOT, Server, Stats, isolated_database, register  # noqa: E402

CHECKS = ",".join(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
        "negative_data_rejection",
    ]
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--database", default=None)
    parser.add_argument("--phases", default="examples,coverage,fuzzing,stateful")
    args = parser.parse_args()
    st = shutil.which("schemathesis", path=str(Path(sys.executable).parent)) or "schemathesis"
    # The fuzzer drives one token hard: without the rate limit it reaches the handlers.
    unlimited = {"MATHABLE_RATE_LIMIT": "off"}
    with isolated_database(args.database) as url, Server(url, workers=2, env=unlimited) as server:
        stats = Stats()
        ann = register(server.base, stats, "fuzz-ann")
        bob = register(server.base, stats, "fuzz-bob")
        game = ann.call("POST", "/v1/games", "create", {"players": 2, "invite": ["fuzz-bob"]})
        bob.call("POST", f"/v1/games/{game.json()['id']}/join", "join", {})
        ann.call("POST", "/v1/games", "create", {"players": 3})
        command = [
            st, "run", str(ROOT / "openapi.yaml"), "--url", server.base,
            "--header", f"Authorization: Bearer {ann.token}",
            "--phases", args.phases, "--checks", CHECKS,
            "--max-time", str(int(args.minutes * 60)),
            "--suppress-health-check", "all", "--workers", "2", "--request-timeout", "75",
        ]  # fmt: skip
        print(
            "running:", " ".join(c if "Bearer" not in c else "Authorization: ..." for c in command)
        )
        env = {**os.environ, "SCHEMATHESIS_HOOKS": "fuzz_hooks",
               "PYTHONPATH": str(Path(__file__).resolve().parent)}  # fmt: skip
        code = subprocess.call(command, env=env)
        log = server.log.read_text(errors="replace")
    tracebacks = log.count("Traceback")
    print(f"server log: {tracebacks} tracebacks; token in log: {ann.token in log}")
    return code or (1 if tracebacks or (ann.token and ann.token in log) else 0)


if __name__ == "__main__":
    sys.exit(main())
