"""Request validation built from each installed game's ``command_schemas``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from marshmallow import ValidationError

from mathable.core.ruleset import RULESETS, RulesetBase
from mathable_server.http.schemas import COMMAND_SCHEMAS, load_command


class _Clash(RulesetBase):
    """A game with a ``place`` of its own form (Mathable's ``place`` takes a square)."""

    name = "clash_in_a_test"
    command_types = ("place",)

    def command_schemas(self) -> dict[str, dict[str, Any]]:
        return {
            "place": {
                "type": "object",
                "properties": {"cell": {"type": "integer", "minimum": 0, "maximum": 8}},
                "required": ["cell"],
                "additionalProperties": False,
            }
        }


@pytest.fixture
def clash() -> Iterator[None]:
    RULESETS[_Clash.name] = _Clash()  # type: ignore[assignment]
    try:
        yield
    finally:
        del RULESETS[_Clash.name]


def test_a_type_two_games_share_accepts_the_body_of_either_game(clash: None) -> None:
    assert load_command({"type": "place", "cell": 4})["cell"] == 4
    mathable_place = load_command({"type": "place", "square": "I8", "tile": 12})
    assert mathable_place["square"] == "I8" and mathable_place["tile"] == 12
    with pytest.raises(ValidationError) as refused:
        load_command({"type": "place", "cell": 40, "square": "I8"})
    # Neither form: refused with the first game's (the default game's) reasons.
    with pytest.raises(ValidationError) as mathable_alone:
        del RULESETS[_Clash.name]
        try:
            load_command({"type": "place", "cell": 40, "square": "I8"})
        finally:
            RULESETS[_Clash.name] = _Clash()  # type: ignore[assignment]
    assert refused.value.messages == mathable_alone.value.messages


def test_a_game_installed_adds_its_types_and_gone_takes_them_away(clash: None) -> None:
    assert "place" in COMMAND_SCHEMAS.types
    del RULESETS[_Clash.name]
    try:
        with pytest.raises(ValidationError):
            load_command({"type": "place", "cell": 4})  # Mathable's place needs a square
    finally:
        RULESETS[_Clash.name] = _Clash()  # type: ignore[assignment]
