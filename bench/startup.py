"""How long ``mathable-cli`` takes to start: every command, against a local server.

    nice .venv/bin/python bench/startup.py [--runs 20] [--commands-only]
        [--against TREE --against-python PYTHON]

First the table of every command (``COMMANDS``: ``--version``, ``--help`` (from
the help's cache, ``mathable_cli.helpcache``, which the run before filled), its
first run (an empty cache each run), ``show --help``, no arguments (the help, exit
2), ``show``, ``games``, ``hint``, ``wait`` on a game waiting on the caller,
``move`` in a fresh game), each run right after a run of ``python -c pass`` so that both
see the same load: the CPU (user + system) of the process, its median over
``--runs`` and its ratio to the floor's median (target: within 4x), and the
wall time; then the CPU of importing what the app's ``--help`` prints with
(``LIBRARIES``: Typer, its Click, rich), the floor of a ``--help`` through the app.
Then, unless ``--commands-only``, the figures below (median and best
of ``--runs`` runs of the installed console script, each a fresh process, as a
user runs it):

- ``python3 -c pass``: the floor, what any Python program costs to start;
- ``mathable-cli --version`` (target: under 5x the floor);
- ``mathable-cli show GAME`` against ``mathable-server run`` on a temporary
  SQLite file, a game in play with a few turns (targets: under 200 ms, and
  within 3x the floor on a quiet machine);
- ``mathable-cli --help``, for information;
- ``show GAME`` through the app (Typer, rich), as every command but a plain
  ``show`` runs, for information: what ``mathable_cli.quick`` saves;
- the modules ``show`` imports that cost the most (``python -X importtime``).

Each run starts ``python -c "from mathable_cli.main import main; main()"``, as
the console script does. With ``--against TREE --against-python PY`` the same
commands of another checkout (say the code before a change, with its own
venv) are timed too, each run of one followed by a run of the other, so that
a machine loaded by other work weighs on both alike.

Everything runs on 127.0.0.1; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from tests.server.helpers import EXAMPLE_TILES  # noqa: E402
from tests.server.live import live_server  # noqa: E402


@dataclass
class Timing:
    """Seconds per run: wall clock, and CPU (user + system) of the process."""

    wall: list[float]
    cpu: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.wall)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu)


def timed(
    command: list[str], env: dict[str, str], runs: int, warm: bool = True, ok: int = 0
) -> Timing:
    """``runs`` fresh runs of ``command`` (each must exit 0, or ``ok``), after one to warm
    the caches."""
    if warm:
        _run_ok(command, env, ok)
    wall, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        _run_ok(command, env, ok)
        wall.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return Timing(wall, cpu)


def _run_ok(command: list[str], env: dict[str, str], ok: int) -> None:
    done = subprocess.run(command, env=env, capture_output=True)
    if done.returncode not in (0, ok):
        raise subprocess.CalledProcessError(done.returncode, command, done.stdout, done.stderr)


def line(label: str, timing: Timing, floor: Timing | None = None) -> str:
    text = (
        f"{label:<26} wall median {timing.median * 1000:6.1f} ms (best "
        f"{min(timing.wall) * 1000:6.1f})   cpu median {timing.cpu_median * 1000:6.1f} ms"
    )
    if floor is not None:
        text += (
            f"   {timing.median / floor.median:4.1f}x wall, "
            f"{timing.cpu_median / floor.cpu_median:4.1f}x cpu of python -c pass"
        )
    return text


def a_game(base: str) -> tuple[str, str]:
    """Two players, a game with a few turns played; (game id, alice's token)."""
    tokens = []
    for name in ("alice", "bob"):
        reply = requests.post(f"{base}/v1/players", json={"name": name}, timeout=10)
        reply.raise_for_status()
        tokens.append(reply.json()["token"])
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    game = requests.post(f"{base}/v1/games", json={"seed": 3}, headers=auth[0], timeout=10).json()
    gid = game["id"]
    requests.post(f"{base}/v1/games/{gid}/join", json={}, headers=auth[1], timeout=10)
    for _ in range(4):
        view = requests.get(f"{base}/v1/games/{gid}", headers=auth[0], timeout=10).json()
        seat = view["turn"]["seat"]
        mine = requests.get(f"{base}/v1/games/{gid}", headers=auth[seat], timeout=10).json()
        requests.post(
            f"{base}/v1/games/{gid}/moves",
            json={"type": "pass", "expected_version": mine["version"]},
            headers=auth[seat],
            timeout=10,
        ).raise_for_status()
    return gid, tokens[0]


def heaviest_imports(args: list[str], env: dict[str, str], top: int = 8) -> list[str]:
    """The packages ``mathable-cli ARGS`` imports that cost the most (``-X importtime``).

    Cumulative times of whole packages (a package includes what it imports).
    """
    code = "from mathable_cli.main import main; main()"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code, *args],
        env=env,
        capture_output=True,
        text=True,
    )
    rows = []
    for row in done.stderr.splitlines():
        found = re.match(r"import time:\s+\d+ \|\s+(\d+) \| *(\S+)$", row)
        if found and "." not in found.group(2) and not found.group(2).startswith("_"):
            rows.append((int(found.group(1)), found.group(2)))
    rows.sort(reverse=True)
    return [f"  {name:<24} {us / 1000:6.1f} ms" for us, name in rows[:top]]


@dataclass
class Variant:
    """A client to time: a Python and the PYTHONPATH that finds its code."""

    name: str
    python: str
    path: str | None = None

    def command(self, *args: str) -> list[str]:
        return [self.python, "-c", "from mathable_cli.main import main; main()", *args]

    def env(self, env: dict[str, str]) -> dict[str, str]:
        if self.path is None:
            return env
        tree = Path(self.path)
        return {**env, "PYTHONPATH": f"{tree / 'client'}{os.pathsep}{tree / 'shared'}"}


def interleaved(
    variants: list[Variant], args: list[str], env: dict[str, str], runs: int
) -> dict[str, Timing]:
    """``mathable-cli ARGS`` of each variant, run in turn so that all see the same load."""
    found = {v.name: Timing([], []) for v in variants}
    for v in variants:  # warm the caches
        subprocess.run(v.command(*args), env=v.env(env), capture_output=True, check=True)
    for _ in range(runs):
        for v in variants:
            one = timed(v.command(*args), v.env(env), 1, warm=False)
            found[v.name].wall += one.wall
            found[v.name].cpu += one.cpu
    return found


def fresh_game(base: str, tokens: list[str], names: list[str]) -> str:
    """A new game of the worked example's racks (the rest of the bag in an order of its
    own), alice to play: ``move GAME I8=12`` plays in it."""
    rest = EXAMPLE_TILES[14:]
    random.shuffle(rest)
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    created = requests.post(
        f"{base}/v1/games", json={"tiles": EXAMPLE_TILES[:14] + rest, "invite": [names[1]]},
        headers=auth[0], timeout=10,
    )  # fmt: skip
    created.raise_for_status()
    gid: str = created.json()["id"]
    requests.post(f"{base}/v1/games/{gid}/join", headers=auth[1], timeout=10).raise_for_status()
    return gid


#: The commands timed, each as a user types it (``GAME``: a game in play, alice to move;
#: ``NEW``: a fresh one for each run, as ``move`` changes it; ``FIRST``: the first run of
#: a help, an empty help cache for each run, as ``mathable_cli.helpcache`` meets it once
#: for each terminal and version; the bare ``mathable-cli`` prints the help, exit 2).
COMMANDS: list[list[str]] = [
    ["--version"],
    ["--help"],
    ["FIRST", "--help"],
    ["show", "--help"],
    [],
    ["show", "GAME"],
    ["games"],
    ["hint", "GAME"],
    ["wait", "GAME"],
    ["move", "NEW", "I8=12"],
]


def every_command(
    variants: list[Variant], env: dict[str, str], runs: int, base: str, tokens: list[str],
    names: list[str],
) -> dict[str, tuple[Timing, dict[str, Timing]]]:  # fmt: skip
    """Each command of ``COMMANDS``, each run of each variant right after a run of
    ``python -c pass`` (the floor), so that both see the same load: by command, the
    floor's timings and each variant's."""
    game = fresh_game(base, tokens, names)
    env = {**env, "MATHABLE_SERVER": base, "MATHABLE_TOKEN": tokens[0]}
    floor_command = [sys.executable, "-c", "pass"]
    found: dict[str, tuple[Timing, dict[str, Timing]]] = {}
    for words in COMMANDS:
        label = " ".join(words).replace("FIRST ", "") + (", first run" if "FIRST" in words else "")
        label = label or "(no arguments)"
        floor = Timing([], [])
        timings = {v.name: Timing([], []) for v in variants}
        for run in range(runs + 1):  # the first run of each warms the caches
            for v in variants:
                args = [
                    game if w == "GAME" else fresh_game(base, tokens, names) if w == "NEW"
                    else w for w in words if w != "FIRST"
                ]  # fmt: skip
                run_env = v.env(env)
                if "FIRST" in words:
                    fresh = tempfile.mkdtemp(prefix="help-", dir=env.get("MATHABLE_CACHE_DIR"))
                    run_env = {**run_env, "MATHABLE_CACHE_DIR": fresh}
                one_floor = timed(floor_command, env, 1, warm=False)
                one = timed(v.command(*args), run_env, 1, warm=False, ok=0 if words else 2)
                if run:
                    floor.wall += one_floor.wall
                    floor.cpu += one_floor.cpu
                    timings[v.name].wall += one.wall
                    timings[v.name].cpu += one.cpu
        found[label] = (floor, timings)
    return found


#: What the app's ``--help`` imports before it prints a word (Typer, its Click, rich and
#: Typer's help layout), timed alone: a floor no ``--help`` through the app goes below;
#: and the parts of rich the layout is made of (a help drawn by rich without Typer).
LIBRARIES: list[str] = [
    "import typer",
    "import typer.rich_utils",
    "import rich.console, rich.table, rich.panel, rich.padding, rich.align, rich.text",
]


def libraries(env: dict[str, str], runs: int) -> dict[str, tuple[Timing, Timing]]:
    """``python -c CODE`` for each of ``LIBRARIES``, each run right after a run of
    ``python -c pass``: by code, the floor's timings and its own."""
    found = {}
    for code in LIBRARIES:
        floor, timing = Timing([], []), Timing([], [])
        for run in range(runs + 1):  # the first run warms the caches
            one_floor = timed([sys.executable, "-c", "pass"], env, 1, warm=False)
            one = timed([sys.executable, "-c", code], env, 1, warm=False)
            if run:
                floor.wall += one_floor.wall
                floor.cpu += one_floor.cpu
                timing.wall += one.wall
                timing.cpu += one.cpu
        found[f"python -c {code!r}"] = (floor, timing)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument(
        "--against",
        metavar="TREE",
        help="also time the client in another checkout (its client/ and shared/), "
        "interleaved with this one so that both see the same load",
    )
    parser.add_argument(
        "--against-python", metavar="PYTHON", help="the Python (venv) for --against"
    )
    parser.add_argument(
        "--commands-only", action="store_true", help="only the table of every command"
    )
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MATHABLE_")}
    env["NO_COLOR"] = "1"
    env["MATHABLE_CONFIG_DIR"] = tempfile.mkdtemp(prefix="mathable-startup-")
    # The help's cache (mathable_cli.helpcache): filled by each command's first run, which
    # warms the caches and is not counted, except in the "first run" row.
    env["MATHABLE_CACHE_DIR"] = tempfile.mkdtemp(prefix="mathable-startup-cache-")
    # As a user runs it: compiled modules are cached (pip compiles what it installs). With
    # PYTHONDONTWRITEBYTECODE set (as some sandboxes set it) every run would compile the
    # project's modules again, a third of a run's time.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    variants = [Variant("this", sys.executable)]
    if args.against:
        variants.append(Variant("other", args.against_python or sys.executable, args.against))
    with live_server() as base:
        gid, token = a_game(base)
        tokens, names = [token, register(base, "carol")], ["alice", "carol"]
        table = every_command(variants, env, args.runs, base, tokens, names)
        print(
            f"every command, each run right after a run of python -c pass (median of "
            f"{args.runs}; CPU is user + system of the process; target within 4x):"
        )
        for label, (floor, by_variant) in table.items():
            for v in variants:
                timing = by_variant[v.name]
                ratio = timing.cpu_median / floor.cpu_median
                name = f"mathable-cli {label}" + (f" [{v.name}]" if len(variants) > 1 else "")
                print(
                    f"  {name:<40} cpu {timing.cpu_median * 1000:6.1f} ms = {ratio:4.1f}x "
                    f"(floor {floor.cpu_median * 1000:5.1f} ms)   wall "
                    f"{timing.median * 1000:6.1f} ms   {'met' if ratio <= 4 else 'NOT met'}"
                )
        print(
            "what the app's --help (a help's first run) cannot go below: importing the "
            "libraries it prints with "
            "(each run right after a run of python -c pass):"
        )
        for label, (floor, timing) in libraries(env, args.runs).items():
            ratio = timing.cpu_median / floor.cpu_median
            print(
                f"  {label:<40} cpu {timing.cpu_median * 1000:6.1f} ms = {ratio:4.1f}x "
                f"(floor {floor.cpu_median * 1000:5.1f} ms)"
            )
        if args.commands_only:
            load = os.getloadavg()[0]
            print(f"load average while measuring: {load:.1f} on {os.cpu_count()} cores")
            return
        floor = timed([sys.executable, "-c", "pass"], env, args.runs)
        print(line("python3 -c pass", floor))
        results: dict[str, dict[str, Timing]] = {}
        results["--version"] = interleaved(variants, ["--version"], env, args.runs)
        results["--help"] = interleaved(variants, ["--help"], env, args.runs)
        env_game = {**env, "MATHABLE_SERVER": base, "MATHABLE_TOKEN": token}
        results["show GAME"] = interleaved(variants, ["show", gid], env_game, args.runs)
        app = [sys.executable, "-c", "from mathable_cli.app import app; app()", "show", gid]
        through_app = timed(app, env_game, args.runs)
        for what, by_variant in results.items():
            for v in variants:
                label = f"mathable-cli {what}" + (f" [{v.name}]" if len(variants) > 1 else "")
                print(line(label, by_variant[v.name], floor))
        print(line("show GAME through the app", through_app, floor))
        print("heaviest imports of `show` (cumulative):")
        print("\n".join(heaviest_imports(["show", gid], env_game)))
    version, show = results["--version"]["this"], results["show GAME"]["this"]
    ok_version = version.median < 5 * floor.median
    ok_show = show.median < 0.200
    ok_show_floor = show.median < 3 * floor.median
    verdict = {True: "met", False: "NOT met"}
    print(f"target --version under 5x python -c pass (wall): {verdict[ok_version]}")
    print(f"target show under 200 ms (wall): {verdict[ok_show]}")
    print(f"target show under 3x python -c pass (wall): {verdict[ok_show_floor]}")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def register(base: str, name: str) -> str:
    reply = requests.post(f"{base}/v1/players", json={"name": name}, timeout=10)
    reply.raise_for_status()
    token: str = reply.json()["token"]
    return token


if __name__ == "__main__":
    main()
