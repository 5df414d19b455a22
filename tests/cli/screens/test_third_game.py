"""A third game, installed as a package of its own, is played through the generic screen.

``take`` is a ruleset the CLI has never heard of: a pile of stones, each turn takes
1 to 3. It is registered with the rules package as an installed game would be; no
screen is registered for it, so ``show``, ``move`` (one-shot and interactive) and
``hint`` go through ``GenericScreen``: its ``draw``, ``read_move``, ``suggest`` and
the lifecycle keys of its view. A screen registered by entry point is found too.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import responses

from mathable import RuleError
from mathable.core import plugins
from mathable.core.ruleset import RULESETS, Told
from mathable_cli import screens
from mathable_cli.screens.generic import GenericScreen
from tests.cli.conftest import SERVER, Invoke, body_of, requests_to
from tests.cli.screens.take_screen import TakeScreen


class Take:
    """The client side of a tiny ruleset: what the CLI asks of a game."""

    name = "take"
    command_types = ("take", "pass", "resign")

    def draw(self, view: dict[str, Any]) -> str:
        return f"Pile: {'o' * int(view['pile'])} ({view['pile']} stones)"

    def read_move(self, text: str, view: dict[str, Any]) -> dict[str, Any]:
        if text.strip() not in ("1", "2", "3"):
            raise RuleError("bad_take", f"take 1, 2 or 3 stones, not {text!r}")
        return {"type": "take", "count": int(text)}

    def suggest(self, view: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        count = int(view["pile"]) % 4 or 1
        return {"type": "take", "count": count}, str(count)

    def turn_told(self, event: Mapping[str, Any]) -> Told | None:
        return None

    def event_words(self, event: Mapping[str, Any], names: Sequence[str]) -> str | None:
        return None

    def last_told(self, view: Mapping[str, Any]) -> Told | None:
        return None

    def end_words(self, reason: str) -> str:
        return {"emptied": "the pile is empty"}.get(reason, reason)

    def parse_tile(self, text: Any) -> int:
        raise RuleError("bad_tile", "take has no tiles")


def take_view(pile: int, *, version: int = 3, turn: int = 0) -> dict[str, Any]:
    return {
        "id": "g1",
        "ruleset": "take",
        "version": version,
        "status": "playing",
        "you": 0,
        "turn": {"seat": turn},
        "seats": [
            {"seat": 0, "player": "p-alice", "name": "alice", "score": 0},
            {"seat": 1, "player": "p-bob", "name": "bob", "score": 0},
        ],
        "pile": pile,
    }


@pytest.fixture
def take(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(RULESETS, "take", Take())  # type: ignore[arg-type]
    yield


@pytest.fixture
def game(http: responses.RequestsMock, take: None) -> responses.RequestsMock:
    http.add("GET", f"{SERVER}/v1/games/g1", json=take_view(10))
    http.add("POST", f"{SERVER}/v1/games/g1/moves", json=take_view(8, version=4, turn=1))
    return http


def test_the_generic_screen_serves_a_game_without_one(take: None) -> None:
    screen = screens.screen_for(take_view(10))
    assert type(screen) is GenericScreen


def test_show_draws_the_game_by_its_ruleset(cli: Invoke, game: responses.RequestsMock) -> None:
    result = cli("show", "g1")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Pile: oooooooooo (10 stones)",
        "g1 (take): your turn",
        "  alice: 0 points (you)",
        "  bob: 0 points",
    ]


def test_move_reads_the_move_in_the_games_notation(
    cli: Invoke, game: responses.RequestsMock
) -> None:
    result = cli("move", "g1", "2")
    assert result.exit_code == 0, result.stderr
    (sent,) = requests_to(game, "POST", "/moves")
    assert body_of(sent) == {"type": "take", "count": 2, "expected_version": 3}
    assert "Played 2 (+0). Now bob's turn." in result.stderr
    bad = cli("move", "g1", "5")
    assert bad.exit_code == 3 and "take 1, 2 or 3 stones, not '5'" in bad.stderr


def test_hint_is_the_rulesets_suggestion(cli: Invoke, game: responses.RequestsMock) -> None:
    assert cli("hint", "g1").stdout == "Best: 2\n"
    data = json.loads(cli("hint", "g1", "--json").stdout)
    assert data == {"command": {"type": "take", "count": 2}, "words": "2"}


def test_the_interactive_move_retries_a_bad_move_then_sends(
    cli: Invoke, game: responses.RequestsMock
) -> None:
    result = cli("move", "g1", input="?\n7\nhint\n2\n")
    assert result.exit_code == 0, result.stderr
    assert "Pile: oooooooooo (10 stones)" in result.stdout
    assert "`mathable-cli rules take` tells how" in result.stderr
    assert "take 1, 2 or 3 stones, not '7'" in result.stderr
    assert "Best: 2" in result.stdout
    (sent,) = requests_to(game, "POST", "/moves")
    assert body_of(sent)["count"] == 2
    assert "Played 2 (+0). Now bob's turn." in result.stderr


def test_the_interactive_move_leaves_at_the_end_of_input(
    cli: Invoke, game: responses.RequestsMock
) -> None:
    result = cli("move", "g1", input="")
    assert result.exit_code == 0 and "Leaving without playing." in result.stderr
    assert not requests_to(game, "POST", "/moves")


class Swap(Take):
    """Take with an exchange: stones 1 to 9 go back to the pile for as many."""

    name = "swap"
    command_types = ("take", "exchange", "pass", "resign")

    def parse_tile(self, text: Any) -> int:
        if isinstance(text, int) and 1 <= text <= 9:
            return text
        raise RuleError("bad_tile", f"a stone is 1 to 9, not {text!r}")


def test_exchange_in_a_game_without_a_screen_reads_the_tiles_with_its_ruleset(
    cli: Invoke, http: responses.RequestsMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``exchange`` asks the game's screen for the command; the generic one reads each tile
    # with the ruleset and leaves what the viewer holds to the server.
    monkeypatch.setitem(RULESETS, "swap", Swap())  # type: ignore[arg-type]
    view = {**take_view(10), "ruleset": "swap"}
    http.add("GET", f"{SERVER}/v1/games/g1", json=view)
    after = {**view, "version": 4, "turn": {"seat": 1}}
    http.add("POST", f"{SERVER}/v1/games/g1/moves", json=after)
    bad = cli("exchange", "g1", "3", "x")
    assert bad.exit_code == 2 and "a stone is 1 to 9, not 'x'" in bad.stderr
    assert not requests_to(http, "POST", "/moves")
    result = cli("exchange", "g1", "3", "7")
    assert result.exit_code == 0, result.stderr
    (sent,) = requests_to(http, "POST", "/moves")
    assert body_of(sent) == {"type": "exchange", "tiles": [3, 7], "expected_version": 3}
    assert "Exchanged 2 tiles." in result.stderr


def test_a_screen_registered_by_entry_point_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, take: None
) -> None:
    (tmp_path / "take_screens.py").write_text(
        "from tests.cli.screens.take_screen import TakeScreen\n", encoding="utf-8"
    )
    info = tmp_path / "take_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: take-game\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[mathable_cli.screens]\ntake = take_screens:TakeScreen\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(screens, "_registry", None)
    monkeypatch.setattr(plugins, "_every", None)  # the entry points read again
    try:
        assert set(screens.registered()) >= {"mathable", "summy", "take"}
        screen = screens.screen_for(take_view(10))
        assert type(screen) is TakeScreen and screen.rules is RULESETS["take"]
    finally:
        screens._registry = None
        plugins._every = None
        sys.modules.pop("take_screens", None)


def test_the_built_in_games_screens_come_from_the_entry_points() -> None:
    from mathable_cli.screens.mathable import MathableScreen
    from mathable_cli.screens.summy import SummyScreen

    assert type(screens.screen_for({"ruleset": "mathable"})) is MathableScreen
    assert type(screens.screen_for({})) is MathableScreen  # a view of before rulesets
    assert type(screens.screen_for({"ruleset": "summy"})) is SummyScreen
