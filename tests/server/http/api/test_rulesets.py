"""GET /v1/rulesets/{name}: the rules as data, without a token, from the rules' own constants."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient

from mathable import (
    CENTRE,
    OPERATION,
    PAIRS,
    PREMIUM,
    RACK_SIZE,
    TILE_SET,
    RuleError,
    check,
    replay,
    ruleset_data,
    square_name,
)
from mathable.core.rulebook import rules_markdown
from mathable.core.ruleset import RULESETS
from mathable.games.mathable.commands import Create
from mathable.games.mathable.state import BONUS, RULES_VERSION
from tests.server.helpers import Table, move

pytestmark = pytest.mark.both_databases


def test_the_mathable_ruleset_is_served_without_a_token(client: FlaskClient) -> None:
    response = client.get("/v1/rulesets/mathable")
    assert response.status_code == 200
    data = response.json
    assert data is not None
    assert data["name"] == "mathable" and data["rules_version"] == RULES_VERSION
    assert data["rack_size"] == RACK_SIZE and data["bonus"]["points"] == BONUS
    assert data["board"]["centre"] == {square_name(s): v for s, v in CENTRE.items()}
    squares = data["board"]["squares"]
    assert [s["name"] for s in squares] == [square_name(i) for i in range(196)]
    for i, entry in enumerate(squares):
        assert entry["index"] == i
        assert entry["operation"] == OPERATION[i] and entry["premium"] == PREMIUM[i]
        assert entry["centre"] == CENTRE.get(i)
        assert entry["pairs"] == [[square_name(n), square_name(f)] for n, f in PAIRS[i]]
    counts = {c["tile"]: c["count"] for c in data["tiles"]["counts"]}
    assert counts == dict(Counter(TILE_SET)) and data["tiles"]["total"] == len(TILE_SET) == 106


def test_the_end_conditions_are_the_reasons_a_result_gives_and_the_rule_book_lists(
    client: FlaskClient,
) -> None:
    data = client.get("/v1/rulesets/mathable").json
    assert data is not None
    names = [c["name"] for c in data["end_conditions"]]
    assert names == ["rack_emptied", "blocked", "no_placements", "resigned", "timeout"]
    page = rules_markdown()
    # One source: the rule book names each condition as the data does.
    assert all(f"`{name}`" in page for name in names)
    assert "whole_turn_extra_tiles" in {c["name"] for c in data["choices"]}
    assert data["extra_tile"]["usable_in_turn_command"] is False


def _creates(**options: Any) -> bool:
    try:
        check(replay([]), Create("p0", **options))
    except RuleError:
        return False
    return True


def test_the_players_and_referees_stated_are_those_the_rules_accept() -> None:
    # ruleset_data states them as literals: this keeps them from drifting from the rules.
    data = ruleset_data()
    low, high = data["players"]["min"], data["players"]["max"]
    assert [n for n in range(8) if _creates(players=n)] == list(range(low, high + 1))
    assert [r for r in ("server", "players", "nobody", "") if _creates(referee=r)] == data[
        "referees"
    ]


def test_the_rulesets_played_here_are_listed_without_a_token(client: FlaskClient) -> None:
    response = client.get("/v1/rulesets")  # validated against openapi.yaml
    assert response.status_code == 200
    data = response.json
    assert data is not None
    listed = {entry["name"]: entry for entry in data["rulesets"]}
    assert sorted(listed) == sorted(RULESETS) and {"mathable", "summy"} <= set(listed)
    assert listed["mathable"]["rules_version"] == RULES_VERSION
    assert "turn" in listed["mathable"]["command_types"]
    assert "equation" in listed["summy"]["command_types"]


def test_an_unknown_ruleset_is_404_with_a_stable_code(client: FlaskClient) -> None:
    response = client.get("/v1/rulesets/chess")
    assert response.status_code == 404
    assert response.json is not None and response.json["error"]["code"] == "unknown_ruleset"
    # The details the rules' own unknown_ruleset gives (docs/errors.md: one row, one code).
    assert response.json["error"]["details"] == {
        "ruleset": "chess", "accepted": ["mathable", "summy"]
    }  # fmt: skip


def test_a_refused_placement_carries_its_reasons_as_data(table: Table) -> None:
    # Ada holds 1 2 8 12 16 17 42: 13 is not hers, 16 left of the centre makes nothing.
    response = move(table.client, table.ada, table.id, table.version, type="place",
                    square="F8", tile=16)  # fmt: skip
    assert response.status_code == 422
    error = response.json["error"]
    assert error["code"] == "no_equation"
    details = error["details"]
    assert details["square"] == "F8" and details["tile"] == 16 and details["operation"] is None
    assert details["pairs"] == [
        {
            "squares": ["G8", "H8"],
            "tiles": [3, 4],
            "makes": [
                {"value": 1, "operations": ["-"]},
                {"value": 7, "operations": ["+"]},
                {"value": 12, "operations": ["x"]},
            ],
        }
    ]


def test_a_refusal_in_a_whole_turn_names_the_placement(table: Table) -> None:
    response = table.send(
        table.ada,
        type="turn",
        placements=[{"square": "I8", "tile": 12}, {"square": "J8", "tile": 17}],
    )
    assert response.status_code == 422
    error = response.json["error"]
    # J8 is a + square: 12 + 4 makes 16, not 17.
    assert error["code"] == "no_equation" and error["details"]["placement"] == 2
    assert error["details"]["square"] == "J8" and error["details"]["operation"] == "+"
    assert error["message"].startswith("placement 2: ")


def test_an_extra_tile_asked_off_an_operation_square_names_the_placement(table: Table) -> None:
    # I8 has no operation: 12 is legal there, but no extra tile can follow it.
    response = table.send(
        table.ada, type="turn", placements=[{"square": "I8", "tile": 12, "draw_extra": True}]
    )
    assert response.status_code == 422
    error = response.json["error"]
    assert error["code"] == "no_extra_tile"
    assert error["details"] == {
        "placement": 1,
        "placed": 1,
        "square": "I8",
        "tile": 12,
        "operation": None,
        "extra_drawn": False,
    }


def test_the_summy_ruleset_is_served_from_the_summy_rules(client: FlaskClient) -> None:
    from mathable.games.summy import HAND_SIZE, check_equation
    from mathable.games.summy import TILE_SET as SUMMY_TILES
    from mathable.games.summy.equation import MAX_DIGITS
    from mathable.games.summy.state import MAX_COORDINATE
    from mathable.games.summy.state import RULES_VERSION as SUMMY_VERSION
    from mathable.games.summy.tiles import NAMES

    response = client.get("/v1/rulesets/summy")  # validated against openapi.yaml
    assert response.status_code == 200
    data = response.json
    assert data is not None
    assert data["name"] == "summy" and data["rules_version"] == SUMMY_VERSION
    assert data["hand_size"] == HAND_SIZE == 8
    counts = {c["tile"]: c["count"] for c in data["tiles"]["counts"]}
    assert counts == {NAMES[t]: n for t, n in Counter(SUMMY_TILES).items()}
    assert data["tiles"]["total"] == 94 and data["tiles"]["supply"] == 93
    assert data["tiles"]["face_up"] == {"x": 0, "y": 0, "tile": "="}
    assert data["table"]["max_coordinate"] == MAX_COORDINATE
    equation = data["equation"]
    assert equation["max_digits"] == MAX_DIGITS
    assert equation["exact_division"] is True and equation["leading_zeros"] is False
    ranks = {o["operator"]: o["rank"] for o in equation["operators"]}
    assert ranks["x"] == ranks[":"] > ranks["+"] == ranks["-"]
    assert {"line": "7:2x2=7", "code": "inexact_division"} in equation["refused"]
    assert {"equation": "8x15=120", "points": 17} in data["scoring"]["examples"]
    assert all(check_equation(e["equation"]) == e["points"] for e in data["scoring"]["examples"])
    names = [c["name"] for c in data["end_conditions"]]
    assert names == ["no_equations", "idle", "resigned", "timeout"]
    earlier = [c["name"] for c in data["earlier_end_conditions"]]
    assert earlier == ["hand_emptied", "no_equations", "idle"]
    assert {"exact_division", "single_tile_direction", "first_player"} <= {
        c["name"] for c in data["choices"]
    }


def test_summys_rule_book_is_written_from_its_data() -> None:
    from mathable.games.summy.rulebook import rules_markdown as summy_book
    from mathable.games.summy.ruleset_data import CHOICES, END_CONDITIONS

    listed = [name for name, _ in END_CONDITIONS + CHOICES]
    assert all(f"`{name}`" in summy_book() for name in listed)
    assert summy_book() in rules_markdown()  # docs/rules.md holds the Summy part too
