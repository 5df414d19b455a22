"""``rematch`` tells the asker where they stand: the creator that the others are invited;
a player who asked second (the answer is the first asker's game) that they are invited
and how to join."""

from __future__ import annotations

from typing import Any

import responses

from mathable.core.lifecycle import Create
from mathable.core.ruleset import ruleset
from tests.cli.conftest import SERVER, Invoke

OLD, NEW = "gbzxgg784vx", "gk7aqq2m9tx"


def _rematch_view(viewer: int | None) -> dict[str, Any]:
    """Bob's rematch of OLD (bob in seat 0, ann invited), as seat ``viewer`` sees it."""
    rules = ruleset("mathable")
    state = rules.new_state()
    create = Create("p-bob", invited=("p-ann",), seating=("p-bob", "p-ann"))
    for event in rules.check(state, create):
        state = rules.apply(state, event)
    view = rules.view(state, viewer)
    view["id"] = NEW
    return view


def test_asking_second_says_you_are_invited_and_how_to_join(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    http.post(f"{SERVER}/v1/games/{OLD}/rematch", json={"id": NEW, "rematch_of": OLD})
    http.get(f"{SERVER}/v1/games/{NEW}", json=_rematch_view(None))  # ann: invited, not seated
    result = cli("rematch", OLD)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{NEW}\n"
    assert f"you are invited to game {NEW}" in result.stderr
    assert f"mathable-cli join {NEW}" in result.stderr
    assert "the others are invited" not in result.stderr


def test_the_creator_is_told_the_others_are_invited(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    http.post(f"{SERVER}/v1/games/{OLD}/rematch", json={"id": NEW, "rematch_of": OLD}, status=201)
    http.get(f"{SERVER}/v1/games/{NEW}", json=_rematch_view(0))
    result = cli("rematch", OLD)
    assert result.exit_code == 0, result.stderr
    assert "the others are invited" in result.stderr
