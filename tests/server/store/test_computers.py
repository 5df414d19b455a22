"""The computer's players (issue 44), on every backend: one account per level, made once
whoever asks first, a bot's account nobody signs in as, a name a person holds left to them."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from mathable_server.store import Store


def test_a_level_s_account_is_made_once_and_marked_as_a_bot(store: Store) -> None:
    made = store.ensure_computer("pcomp1", "hard", "best")
    again = store.ensure_computer("pcomp2", "hard", "best")
    assert made == again and (made.player_id, made.name) == ("pcomp1", "computer-hard")
    assert store.bots(["pcomp1"]) == {"pcomp1"}
    assert store.computer_ids(["pcomp1", "pother"]) == {"pcomp1"}
    record = store.player("pcomp1")
    assert record is not None and len(record.token_hash) == 64  # a token nobody was shown
    # The operator plugs another engine in for the level: the same account plays it.
    assert store.ensure_computer("pcomp3", "hard", "mine").engine == "mine"
    assert [(c.level, c.engine) for c in store.computers()] == [("hard", "mine")]


def test_a_person_named_like_a_level_keeps_the_name(store: Store) -> None:
    store.create_player("pperson", "computer-easy", None, "a" * 64)
    made = store.ensure_computer("pcomp", "easy", "casual")
    assert made.name == "computer-easy-2" and store.bots(["pperson"]) == set()


def test_two_processes_starting_at_once_make_one_account(store: Store) -> None:
    with ThreadPoolExecutor(4) as pool:
        rows = list(pool.map(lambda n: store.ensure_computer(f"pc{n}", "expert", "strong"),
                             range(4)))  # fmt: skip
    assert len({r.player_id for r in rows}) == 1
    assert len(store.computers()) == 1
