"""``MATHABLE_CACHE_GAMES`` sets how many replayed games a process keeps: read from the
environment (a whole number, at least 1), and the app's game cache holds no more."""

from __future__ import annotations

from pathlib import Path

import pytest

from mathable_server import Settings
from mathable_server.http.settings import DEFAULT_CACHE_GAMES
from tests.server.apps import make_app
from tests.server.helpers import new_game, register


def test_the_cache_size_comes_from_the_environment() -> None:
    assert Settings.from_env({}).cache_games == DEFAULT_CACHE_GAMES == 2000
    assert Settings.from_env({"MATHABLE_CACHE_GAMES": " 50 "}).cache_games == 50


@pytest.mark.parametrize("text", ["0", "-3", "many", "2.5"])
def test_an_unreadable_cache_size_stops_the_server(text: str) -> None:
    with pytest.raises(ValueError, match="MATHABLE_CACHE_GAMES"):
        Settings.from_env({"MATHABLE_CACHE_GAMES": text})


def test_the_game_cache_keeps_no_more_games_than_set(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {"MATHABLE_DATABASE_URL": f"sqlite:///{tmp_path / 'g.db'}", "MATHABLE_CACHE_GAMES": "2"}
    )
    app = make_app(settings.database_url, cache_games=settings.cache_games)
    client = app.test_client()
    ada = register(client, "ada")
    ids = [new_game(client, ada)["id"] for _ in range(4)]
    for game_id in ids:
        assert client.get(f"/v1/games/{game_id}").status_code == 200
    cache = app.extensions["mathable"].games.cache
    assert [game_id for game_id in ids if cache.get(game_id) is not None] == ids[-2:]
