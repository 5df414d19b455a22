"""Vacations and the year's allowance, on every backend."""

from __future__ import annotations

import threading

from mathable_server.store import Store, Vacation
from tests.server.store.conftest import Backend

DAY = 86_400_000
YEAR = (1_800_000_000_000, 1_800_000_000_000 + 365 * DAY)
START = YEAR[0] + 10 * DAY


def test_a_vacation_is_recorded_and_under_way_between_its_ends(store: Store) -> None:
    taken = store.add_vacation("pa", START, 3, (10, *YEAR))
    assert isinstance(taken, Vacation)
    assert (taken.kind, taken.starts_at, taken.ends_at, taken.days) == (
        "vacation",
        START,
        START + 3 * DAY,
        3,
    )
    assert store.current_vacation("pa", START) == taken
    assert store.current_vacation("pa", START + 3 * DAY - 1) == taken
    assert store.current_vacation("pa", START + 3 * DAY) is None
    assert store.current_vacation("pa", START - 1) is None
    assert store.current_vacation("pb", START) is None
    assert store.vacation_days_used("pa", *YEAR) == 3
    assert store.vacation_days_used("pa", YEAR[1], YEAR[1] + 365 * DAY) == 0


def test_no_second_vacation_while_one_is_under_way_nor_beyond_the_allowance(
    store: Store,
) -> None:
    assert store.add_vacation("pa", START, 3, (5, *YEAR)) is not None
    assert store.add_vacation("pa", START + DAY, 1, (5, *YEAR)) is None  # under way
    assert store.add_vacation("pa", START + 10 * DAY, 3, (5, *YEAR)) is None  # 3 + 3 > 5
    assert store.add_vacation("pa", START + 10 * DAY, 2, (5, *YEAR)) is not None
    assert store.vacation_days_used("pa", *YEAR) == 5


def test_ending_a_vacation_early_gives_the_rest_back(store: Store) -> None:
    taken = store.add_vacation("pa", START, 4, (4, *YEAR))
    assert taken is not None
    store.end_vacation(taken.id, START + DAY, 1)
    assert store.vacation_days_used("pa", *YEAR) == 1
    assert store.current_vacation("pa", START + DAY) is None
    assert store.add_vacation("pa", START + 2 * DAY, 3, (4, *YEAR)) is not None


def _race(stores: list[Store], player: str) -> list[Vacation | None]:
    """Every store asks for two of the player's three days at the same moment."""
    got: list[Vacation | None] = []
    gate = threading.Barrier(len(stores))

    def ask(store: Store, number: int) -> None:
        gate.wait()
        got.append(store.add_vacation(player, START + number * 5 * DAY, 2, (3, *YEAR)))

    threads = [threading.Thread(target=ask, args=(s, n)) for n, s in enumerate(stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return got


def test_two_processes_asking_at_once_cannot_both_take_the_last_days(backend: Backend) -> None:
    stores = [backend.store(), Store(backend.another_engine())] * 3
    for player in ("pa", "pb", "pc", "pd", "pe"):  # a race may need a few tries to show
        got = _race(stores, player)
        assert len([v for v in got if v is not None]) == 1, player
        assert stores[0].vacation_days_used(player, *YEAR) == 2
