"""Benchmark of Summy's end check (issue 47), each figure beside its baseline in one run.

Run: .venv/bin/python bench/bench_summy_end.py [--agree 10000]

With the supply empty (rules version 3) every command asks whether any hand in play can
still form an equation. The baseline is the code at the start of issue 47: the
exhaustive move generator (``tests/rules/summy_exhaustive.py``, a verbatim copy) asked
afresh at every command. Each position is timed with the baseline and then with the
code of today, alternately; times are CPU seconds of this process (``process_time``).

1. The positions of the issue: a real 4-player table of 59 tiles as the supply runs out,
   with the hands within the game's tile counts that cost the baseline most: two hands
   of eight digits and no ``=`` (the heaviest of a few tried), a third hand without an
   equation and a fourth that has one. The end check, one pass, and the passes that end
   the game ``idle`` (three hands stuck, the fourth passing); then the heaviest hand at
   every seat. Target: at most 50 ms for any command's end check.
2. The worst positions for today's search: on the same tables, hands dealt at random
   within the tile counts, each proof timed, and the slowest hands without an equation
   put before the slowest with one (the end check stops at the first that can play).
3. Random 4-player play: games played to their end, each turn one of the first five
   equations found or else a discard or a pass, and the end check after every command
   once the supply is empty. Target: median under 5 ms.
4. ``legal_moves`` (every equation) and ``best_move`` for the hand to move on the
   mid-game tables of bench_summy.py and for the hands of part 1. Target: legal_moves
   under 100 ms at the worst table measured.
5. With ``--agree N``: N random positions with the supply empty (2-4 seats, hands of 1-8
   tiles within the counts, one position in eight dealing digits first): today's
   has_move must give the baseline's answer for every hand, and the end its verdict; one
   position in 20 (``--lists``, 0: none) compares every equation and the best too. The
   agreement alone: ``--parts 5 --agree 10000`` (``--every 100``: a progress line each
   100 positions, to read how far a run got).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(_ROOT), str(_ROOT / "shared")]

from tests.rules import summy_exhaustive as baseline  # noqa: E402
from tests.rules.summy_positions import dry_table, mid_game, tiles_left, with_hands  # noqa: E402

from mathable.core.lifecycle import Pass  # noqa: E402
from mathable.games.summy import SummyState, apply, check, commands  # noqa: E402
from mathable.games.summy.commands import end_reason  # noqa: E402
from mathable.games.summy.movegen import best_move, has_move, legal_moves  # noqa: E402
from mathable.games.summy.tiles import NAMES  # noqa: E402

Hand = tuple[int, ...]


def _baseline_printed_end(state: SummyState, active: Sequence[int]) -> str | None:
    """``commands._printed_end`` as it was at the start of issue 47 (2751051)."""
    if state.supply:
        return None
    hands = [state.seats[s].rack for s in active if state.seats[s].rack]
    if not any(baseline.has_move(state.table, hand, state.closed) for hand in hands):
        return "no_equations"
    if state.dry_turns >= 2 * len(hands):
        return "idle"
    return None


_TODAY = commands._printed_end


@contextmanager
def code(which: str, keep: bool = False) -> Iterator[None]:
    """Run the end check as ``which``: "baseline", or "today" (its kept answers forgotten
    first unless ``keep``)."""
    if which == "today" and not keep:
        commands.can_play.cache_clear()
    commands._printed_end = _baseline_printed_end if which == "baseline" else _TODAY  # type: ignore[assignment]
    try:
        yield
    finally:
        commands._printed_end = _TODAY  # type: ignore[assignment]


def cpu(function: Callable[..., object], *args: object) -> tuple[float, object]:
    start = time.process_time()
    result = function(*args)
    return time.process_time() - start, result


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


def spread(seconds: Sequence[float]) -> str:
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return (
        f"median {ms(statistics.median(ordered))}, p90 {ms(p90)}, max {ms(ordered[-1])} "
        f"over {len(ordered)}"
    )


def text(hand: Sequence[int]) -> str:
    return "".join(NAMES[t] for t in hand)


def _fits(hands: Sequence[Hand], pool: Counter[int]) -> bool:
    return not (sum((Counter(h) for h in hands), Counter()) - pool)


# --- 1. the positions of the issue ---------------------------------------------------------


def issue_position(seed: int, tries: int) -> tuple[SummyState, list[Hand]]:
    """The 4-player table of ``seed`` as its supply ran out, with hands within the counts:
    the two heaviest of ``tries`` hands of eight digits (timed with the baseline, stuck),
    a third hand that is stuck, a fourth that can play."""
    state = dry_table(seed, 4)
    pool = Counter(tiles_left(state))
    rng = random.Random(seed)
    digits = sorted(t for t in pool.elements() if t <= 9)
    heavy: list[tuple[float, Hand]] = []
    for _ in range(tries):
        distinct = sorted(set(digits))
        hand = rng.sample(distinct, min(8, len(distinct)))
        while len(hand) < 8:
            hand.append(rng.choice(digits))
        candidate = tuple(sorted(hand))
        if Counter(candidate) - pool or has_move(state.table, candidate, state.closed):
            continue
        seconds, _ = cpu(baseline.has_move, state.table, candidate, state.closed)
        heavy.append((seconds, candidate))
    heavy.sort(reverse=True)
    hands: list[Hand] = []
    for _, candidate in heavy:
        if len(hands) < 2 and _fits([*hands, candidate], pool):
            hands.append(candidate)
    rest = list((pool - sum((Counter(h) for h in hands), Counter())).elements())
    while len(hands) < 4:
        want_move = len(hands) == 3
        for _ in range(2000):
            candidate = tuple(sorted(rng.sample(rest, min(8, len(rest)))))
            if has_move(state.table, candidate, state.closed) == want_move:
                break
        hands.append(candidate)
        rest = list((Counter(rest) - Counter(candidate)).elements())
    return state, hands


def passes_to_the_end(dry: SummyState) -> tuple[list[float], str | None]:
    """Every seat passes in turn until the game ends: the CPU time of each pass."""
    state = dry
    times: list[float] = []
    while state.status == "playing" and state.turn is not None and len(times) < 20:
        seconds, events = cpu(check, state, Pass(state.turn.seat))
        times.append(seconds)
        for event in events:  # type: ignore[attr-defined]
            state = apply(state, event)
    return times, state.result.reason if state.result is not None else None


def part_issue(seeds: Sequence[int], tries: int) -> None:
    print("1. The positions of the issue (4 players, hands within the tile counts)")
    worst_today = 0.0
    for seed in seeds:
        state, hands = issue_position(seed, tries)
        dry = with_hands(state, hands)
        playable = [has_move(state.table, h, state.closed) for h in hands]
        print(
            f"  table of seed {seed}: {len(state.table)} tiles; hands "
            + ", ".join(
                f"{text(h)} ({'can play' if p else 'stuck'})"
                for h, p in zip(hands, playable, strict=True)
            )
        )
        for hand in hands[:2]:
            before, _ = cpu(baseline.has_move, state.table, hand, state.closed)
            after, _ = cpu(has_move, state.table, hand, state.closed)
            print(f"    has_move {text(hand)}: baseline {ms(before)}, today {ms(after)}")
        results = {}
        for which in ("baseline", "today"):
            with code(which):
                end, reason = cpu(end_reason, dry)
                commands.can_play.cache_clear()
                one_pass, _ = cpu(check, dry, Pass(dry.turn.seat))  # type: ignore[union-attr]
                commands.can_play.cache_clear()
                times, ended = passes_to_the_end(dry)
            results[which] = (end, one_pass, times, ended, reason)
            if which == "today":
                worst_today = max(worst_today, end, one_pass, *times)
        for which, (end, one_pass, times, ended, reason) in results.items():
            print(
                f"    {which:8s}: end check {ms(end)} ({reason}); one pass {ms(one_pass)}; "
                f"{len(times)} passes to the end ({ended}): {ms(sum(times))} in all, "
                f"each {ms(min(times))}-{ms(max(times))}"
            )
        everyone = with_hands(state, [hands[0]] * 4)  # the heaviest hand (not in the counts)
        for which in ("baseline", "today"):
            with code(which):
                seconds, reason = cpu(end_reason, everyone)
            print(f"    heaviest hand at every seat, {which}: end check {ms(seconds)} ({reason})")
            if which == "today":
                worst_today = max(worst_today, seconds)
    print(f"  target: any command's end check at most 50 ms; today's worst {ms(worst_today)}")


# --- 2. the worst positions for today's search ---------------------------------------------


def _proof(state: SummyState, hand: Hand) -> tuple[float, bool]:
    """The CPU time of today's has_move for ``hand`` (the least of two runs), its answer."""
    first, found = cpu(has_move, state.table, hand, state.closed)
    second, _ = cpu(has_move, state.table, hand, state.closed)
    return min(first, second), bool(found)


def _climb(
    state: SummyState, pool: Counter[int], hand: Hand, steps: int, rng: random.Random
) -> tuple[float, Hand]:
    """A hand as slow as can be found for today's search near ``hand``: one tile changed
    at a time (within the counts), kept when the proof gets slower and its answer stays."""
    best, playable = _proof(state, hand)
    tiles = sorted(pool)
    for _ in range(steps):
        changed = list(hand)
        changed[rng.randrange(len(changed))] = rng.choice(tiles)
        candidate = tuple(sorted(changed))
        if Counter(candidate) - pool:
            continue
        seconds, found = _proof(state, candidate)
        if found == playable and seconds > best:
            best, hand = seconds, candidate
    return best, hand


def _slowest(
    state: SummyState,
    pool: Counter[int],
    playable: bool,
    tries: int,
    steps: int,
    rng: random.Random,
) -> tuple[float, Hand]:
    """The slowest hand of 8 (or what is left) for today's proof, among ``tries`` dealt
    from ``pool`` at random and then changed tile by tile, that can (or cannot) play."""
    tiles = list(pool.elements())
    timed = []
    for _ in range(tries):
        hand = tuple(sorted(rng.sample(tiles, min(8, len(tiles)))))
        seconds, found = _proof(state, hand)
        if found == playable:
            timed.append((seconds, hand))
    if not timed:
        return 0.0, ()
    return max(_climb(state, pool, max(timed)[1], steps, rng), max(timed))


def part_adversary(seeds: Sequence[int], hands_tried: int, steps: int) -> None:
    print(
        f"2. The worst positions for today's search: seat by seat, the slowest of "
        f"{hands_tried} hands dealt from the tiles left, then changed tile by tile "
        f"({steps} tries); three hands that cannot play, then one that can"
    )
    worst = 0.0
    for seed in seeds:
        state = dry_table(seed, 4)
        pool = Counter(tiles_left(state))
        rng = random.Random(1000 + seed)
        hands: list[Hand] = []
        proofs: list[float] = []
        for seat in range(4):
            seconds, hand = _slowest(state, pool, seat == 3, hands_tried, steps, rng)
            hands.append(hand)
            proofs.append(seconds)
            pool -= Counter(hand)
        dry = with_hands(state, hands)
        line = [
            f"  seed {seed}: "
            + ", ".join(f"{text(h) or '-'} ({ms(t)})" for h, t in zip(hands, proofs, strict=True))
        ]
        for which in ("baseline", "today"):
            with code(which):
                seconds, reason = cpu(end_reason, dry)
            line.append(f"end check {which} {ms(seconds)}")
            if which == "today":
                worst = max(worst, seconds)
        line.append(reason or "plays on")
        print("; ".join(line))
    print(f"  today's worst end check: {ms(worst)}")


# --- 3. random 4-player play ---------------------------------------------------------------


def part_random_play(games: int) -> None:
    print(f"3. Random 4-player play ({games} games): the end check after every command")
    before: list[float] = []
    after: list[float] = []
    cold: list[float] = []
    from mathable.core.bag import SeededBag
    from mathable.core.lifecycle import Create, Join
    from mathable.games.summy.selfplay import fallback

    commands.can_play.cache_clear()
    for seed in range(games):
        rng = random.Random(seed)
        bag = SeededBag(seed)
        state = SummyState()
        setup = [Create("p0", players=4, seed=seed, ruleset="summy")]
        for command in [*setup, Join("p1"), Join("p2"), Join("p3")]:
            for event in check(state, command, bag):
                state = apply(state, event)
        for _ in range(500):
            if state.status != "playing" or state.turn is None:
                break
            seat = state.turn.seat
            found = legal_moves(state.table, state.seats[seat].rack, state.closed)
            moves = [m for _, m in zip(range(5), found, strict=False)]
            command = rng.choice(moves).command(seat) if moves else fallback(state, seat)
            for event in check(state, command, bag):
                state = apply(state, event)
            if state.status == "playing" and not state.supply:
                with code("today", keep=True):  # the answers kept from earlier commands
                    after.append(cpu(end_reason, state)[0])
                with code("baseline"):
                    before.append(cpu(end_reason, state)[0])
                with code("today"):
                    cold.append(cpu(end_reason, state)[0])
    print(f"  baseline: {spread(before)}")
    print(f"  today (answers kept from command to command, as in play): {spread(after)}")
    print(f"  today, nothing kept (every command proves afresh): {spread(cold)}")
    print("  target: median under 5 ms")


# --- 4. legal_moves and best_move ----------------------------------------------------------


def part_moves(tables: int, seeds: Sequence[int], tries: int, repeat: int = 3) -> None:
    """Each call timed ``repeat`` times, the baseline's and today's alternately, each
    after a collection of the garbage the call before left; the least time counts (as
    ``timeit`` advises: the rest is what else the machine did meanwhile)."""
    print(f"4. legal_moves (every equation) and best_move (the least CPU of {repeat} calls)")
    positions: list[tuple[str, SummyState, Hand]] = []
    seed = 0
    while sum(1 for p in positions if p[0] == "mid-game") < tables:
        state = mid_game(seed, 30)
        seed += 1
        if state is not None and state.turn is not None:
            positions.append(("mid-game", state, state.seats[state.turn.seat].rack))
    for seed in seeds:
        state, hands = issue_position(seed, tries)
        positions += [("end", state, hand) for hand in hands]
    rows: dict[str, list[float]] = {k: [] for k in ("all0", "all1", "best0", "best1")}
    worst = (0.0, 0.0, 0, "")
    for _, state, hand in positions:
        times: dict[str, list[float]] = {k: [] for k in rows}
        for _turn in range(repeat):
            gc.collect()
            old_all, old_moves = cpu(list, baseline.legal_moves(state.table, hand, state.closed))
            gc.collect()
            new_all, new_moves = cpu(list, legal_moves(state.table, hand, state.closed))
            times["all0"].append(old_all)
            times["all1"].append(new_all)
            gc.collect()
            times["best0"].append(cpu(baseline.best_move, state.table, hand, state.closed)[0])
            gc.collect()
            times["best1"].append(cpu(best_move, state.table, hand, state.closed)[0])
        count = len(new_moves)  # type: ignore[arg-type]
        assert count == len(old_moves)  # type: ignore[arg-type]
        for key, seen in times.items():
            rows[key].append(min(seen))
        old_all, new_all = min(times["all0"]), min(times["all1"])
        if new_all > worst[1]:
            worst = (old_all, new_all, count, text(hand))
    ends = len(positions) - tables
    print(f"  {len(positions)} hands ({tables} mid-game tables, {ends} hands of part 1)")
    print(f"  legal_moves baseline: {spread(rows['all0'])}")
    print(f"  legal_moves today:    {spread(rows['all1'])}")
    print(f"  best_move baseline:   {spread(rows['best0'])}")
    print(f"  best_move today:      {spread(rows['best1'])}")
    print(
        f"  worst table today: {worst[2]} equations for {worst[3]}, today {ms(worst[1])} "
        f"(baseline {ms(worst[0])}); target: under 100 ms"
    )


# --- 5. the agreement run ------------------------------------------------------------------


def _move_key(move: object) -> object:
    """A move of either generator as plain data (None stays None)."""
    if move is None:
        return None
    fields = ("placements", "direction", "equation", "points", "start")
    return tuple(getattr(move, field) for field in fields)


def part_agree(positions: int, every: int = 1000, lists: int = 20) -> None:
    print(f"5. Agreement with the baseline on {positions} random positions with the supply empty")
    rng = random.Random(47)
    # The tables of the positions (seeds below 400, 2-4 players: 1,200 at most), each made
    # once: playing each game to its dry table again was half the run's CPU.
    tables: dict[tuple[int, int], SummyState] = {}
    hands_compared = disagreements = stuck_hands = lists_compared = 0
    ends = 0
    before = after = lists_before = lists_after = 0.0
    start = time.monotonic()
    cpu_start = time.process_time()
    for index in range(positions):
        state = SummyState(status="ended")
        while state.status != "playing":  # a few 2-player games end before the last draw
            players = rng.randint(2, 4)
            seed = rng.randrange(400)
            if (seed, players) not in tables:
                tables[seed, players] = dry_table(seed, players)
            state = tables[seed, players]
        left = tiles_left(state)
        rng.shuffle(left)
        if index % 8 == 0:
            left = [t for t in left if t <= 9] + [t for t in left if t > 9]
        hands: list[Hand] = []
        for _ in range(players):
            size = rng.randint(1, 8)
            hands.append(tuple(left[:size]))
            left = left[size:]
        verdicts = []
        for hand in hands:
            seconds, theirs = cpu(baseline.has_move, state.table, hand, state.closed)
            before += seconds
            seconds, mine = cpu(has_move, state.table, hand, state.closed)
            after += seconds
            hands_compared += 1
            stuck_hands += not theirs
            verdicts.append(theirs)
            if mine != theirs:
                disagreements += 1
                print(f"  DISAGREE: table {seed}/{players}, {text(hand)}: {theirs} / {mine}")
        if lists and index % lists == 0:  # one position in ``lists``: every equation, the best
            table, closed = state.table, state.closed
            for hand in hands:
                lists_compared += 1
                clock = time.process_time()
                theirs_all = [_move_key(m) for m in baseline.legal_moves(table, hand, closed)]
                best_theirs = baseline.best_move(table, hand, closed)
                lists_before += time.process_time() - clock
                clock = time.process_time()
                mine_all = [_move_key(m) for m in legal_moves(table, hand, closed)]
                best_mine = best_move(table, hand, closed)
                lists_after += time.process_time() - clock
                if mine_all != theirs_all or _move_key(best_mine) != _move_key(best_theirs):
                    disagreements += 1
                    print(f"  DISAGREE on the equations: table {seed}/{players}, {text(hand)}")
        dry = with_hands(state, hands)
        commands.can_play.cache_clear()
        reason = end_reason(dry)
        ends += reason == "no_equations"
        if (reason == "no_equations") != (not any(verdicts)):
            disagreements += 1
            print(f"  DISAGREE on the end: hands {[text(h) for h in hands]}")
        if (index + 1) % every == 0:
            print(
                f"  ... {index + 1} positions, {hands_compared} hands, {disagreements} "
                f"disagreements ({time.monotonic() - start:.0f} s)",
                flush=True,
            )
    print(
        f"  {positions} positions, {hands_compared} hands ({stuck_hands} without an equation), "
        f"{ends} positions where the game ends, {lists_compared} hands whose every equation "
        f"and best equation were compared too: {disagreements} disagreements"
    )
    print(f"  has_move CPU in all: baseline {ms(before)}, today {ms(after)}")
    print(
        f"  every equation and the best, CPU in all: baseline {ms(lists_before)}, today "
        f"{ms(lists_after)}; the whole part: {ms(time.process_time() - cpu_start)} CPU"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="15,30,35", help="4-player tables of 59 tiles")
    parser.add_argument("--tries", type=int, default=6, help="digit hands tried per table")
    parser.add_argument("--hands", type=int, default=200, help="random hands per table (part 2)")
    parser.add_argument("--steps", type=int, default=60, help="changes tried per hand (part 2)")
    parser.add_argument("--games", type=int, default=12, help="random 4-player games (part 3)")
    parser.add_argument("--tables", type=int, default=30, help="mid-game tables (part 4)")
    parser.add_argument("--repeat", type=int, default=3, help="part 4: calls timed (least)")
    parser.add_argument("--agree", type=int, default=0, help="positions for part 5 (10000)")
    parser.add_argument("--every", type=int, default=1000, help="part 5: a progress line each")
    parser.add_argument(
        "--lists", type=int, default=20, help="part 5: every equation compared too, one in (0: no)"
    )
    parser.add_argument("--parts", default="12345", help="which parts to run")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    if "1" in args.parts:
        part_issue(seeds, args.tries)
    if "2" in args.parts:
        part_adversary(seeds, args.hands, args.steps)
    if "3" in args.parts:
        part_random_play(args.games)
    if "4" in args.parts:
        part_moves(args.tables, seeds, args.tries, args.repeat)
    if "5" in args.parts and args.agree:
        part_agree(args.agree, args.every, args.lists)


if __name__ == "__main__":
    main()
