"""The rules of Mathable as data (``GET /v1/rulesets/mathable``), pinned whole and checked
against the rules' own constants (RULES.md).

Folded from ``test_pinned_ruleset_data.py``: tests written to kill the survivors of the
mutation runs (docs/mutation.md)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from mathable.games.mathable.board import CENTRE, OPERATION, PAIRS, PREMIUM, square_name
from mathable.games.mathable.ruleset_data import CHOICES, END_CONDITIONS, ruleset_data
from mathable.games.mathable.tiles import TILE_SET

# What the server serves, word for word: a change to it is a change of the public contract
# (regenerate with json.dumps(ruleset_data(), indent=1) only on purpose).
PINNED = Path(__file__).resolve().parents[2] / "fixtures" / "ruleset_data_mathable.json"


def test_the_data_is_word_for_word_what_players_and_bots_were_given() -> None:
    assert ruleset_data() == json.loads(PINNED.read_text())


def test_every_square_is_described_from_the_board_itself() -> None:
    data = ruleset_data()
    squares = data["board"]["squares"]
    assert [s["name"] for s in squares] == [square_name(i) for i in range(196)]
    for i, entry in enumerate(squares):
        assert entry["index"] == i
        assert entry["column"] == "ABCDEFGHIJKLMN"[i % 14] and entry["row"] == i // 14 + 1
        assert entry["operation"] == OPERATION[i] and entry["premium"] == PREMIUM[i]
        assert entry["centre"] == CENTRE.get(i)
        assert entry["pairs"] == [[square_name(n), square_name(f)] for n, f in PAIRS[i]]
    j8 = squares[107]
    assert (j8["name"], j8["column"], j8["row"], j8["operation"]) == ("J8", "J", 8, "+")


def test_the_board_lists_its_centre_operations_and_premiums_by_square_name() -> None:
    board = ruleset_data()["board"]
    assert (board["size"], board["rows"], board["columns"]) == (14, 14, "ABCDEFGHIJKLMN")
    assert board["centre"] == {"G7": 1, "H7": 2, "G8": 3, "H8": 4}
    assert list(board["centre"]) == ["G7", "H7", "G8", "H8"]
    assert list(board["operations"]) == ["+", "-", "x", "/"]
    assert board["operations"]["+"][:2] == ["G4", "H5"]
    assert board["premiums"]["3"][:3] == ["A1", "G1", "H1"]
    assert sorted(board["premiums"]) == ["2", "3"]
    assert len(board["premiums"]["2"]) == sum(1 for p in PREMIUM if p == 2)


def test_the_tiles_rack_bonus_and_exchange_are_the_rules_numbers() -> None:
    data = ruleset_data()
    assert data["tiles"]["total"] == 106
    assert {c["tile"]: c["count"] for c in data["tiles"]["counts"]} == dict(Counter(TILE_SET))
    assert [c["tile"] for c in data["tiles"]["counts"]] == sorted(set(TILE_SET))
    assert data["rack_size"] == 7 and data["bonus"]["points"] == 50
    assert data["bonus"]["rule"] == (
        "a turn that began with 7 tiles and ends with an empty rack "
        "(extra tiles drawn in it included) scores 50 more"
    )
    assert data["exchange"] == {"min": 1, "max": 7, "bag_must_hold_as_many": True}
    assert data["refill"] == "at the end of a turn the rack is filled up to 7 from the bag"
    assert (data["name"], data["rules_version"]) == ("mathable", 3)
    assert data["players"] == {"min": 2, "max": 4}
    assert data["referees"] == ["server", "players"]


def test_the_end_conditions_and_choices_are_listed_in_order_by_name() -> None:
    data = ruleset_data()
    assert data["end_conditions"] == [{"name": n, "rule": r} for n, r in END_CONDITIONS]
    assert data["choices"] == [{"name": n, "rule": r} for n, r in CHOICES]
    assert [o["operation"] for o in data["placement"]["operations"]] == ["+", "-", "x", "/"]
    assert data["placement"]["operations"][1]["makes"] == "|a - b|"
