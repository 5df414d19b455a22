"""The bags tiles are drawn from (``mathable.core.bag``): ordered, seeded, random."""

from __future__ import annotations

from mathable import TILE_SET, OrderedBag, RandomBag, SeededBag

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_board.py -----------------
# Board geometry, arithmetic, tiles, bags and errors, pinned value by value (RULES.md).


def test_an_ordered_bag_draws_from_the_front_in_order() -> None:
    assert OrderedBag().draw((5, 3, 9, 3), 3) == [5, 3, 9]
    assert OrderedBag().draw((5, 3), 0) == []


def test_a_seeded_bag_depends_on_seed_and_salt_but_not_on_the_bag_order() -> None:
    bag = tuple(TILE_SET)
    first = SeededBag(7, salt=1).draw(bag, 7)
    assert SeededBag(7, salt=1).draw(tuple(reversed(bag)), 7) == first
    assert SeededBag(7, salt=2).draw(bag, 7) != first
    assert SeededBag(8, salt=1).draw(bag, 7) != first
    assert SeededBag(7).draw(bag, 7) == SeededBag(7, salt=0).draw(bag, 7)
    assert len(first) == 7 and all(first.count(t) <= bag.count(t) for t in first)


def test_a_random_bag_draws_distinct_positions_of_the_bag() -> None:
    bag = tuple(range(50))
    drawn = RandomBag().draw(bag, 50)
    assert sorted(drawn) == list(bag)
    assert len(RandomBag().draw(bag, 5)) == 5
