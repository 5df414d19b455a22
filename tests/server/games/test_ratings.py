"""Ratings and records on SQLite and PostgreSQL: rated by default when the server deals,
ratings moved in the transaction that ends a rated game (never by an unrated one),
records between two players, the board, and ``mathable-server rebuild-ratings`` (a real
process) giving back the same values from the finished games' logs."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.server.helpers import EXAMPLE_TILES, Account, register
from tests.server.live import server_cli

pytestmark = pytest.mark.both_databases


def play_out(
    client: FlaskClient, a: Account, b: Account, loser: Account, passes: int = 2, **options: Any
) -> str:
    """A game of ``a`` and ``b`` in which the first ``passes`` turns pass (by default each
    seat one: both played a turn), then ``loser`` resigns; its id."""
    made = client.post("/v1/games", json={"invite": [b.name], **options}, headers=a.auth)
    assert made.status_code == 201, made.json
    game = made.json["id"]
    assert client.post(f"/v1/games/{game}/join", headers=b.auth).status_code == 200
    for _ in range(passes):
        view = client.get(f"/v1/games/{game}", headers=a.auth).json
        mover = a if view["turn"]["seat"] == 0 else b
        move = {"type": "pass", "expected_version": view["version"]}
        passed = client.post(f"/v1/games/{game}/moves", headers=mover.auth, json=move)
        assert passed.status_code == 200, passed.json
    version = client.get(f"/v1/games/{game}", headers=a.auth).json["version"]
    resigned = client.post(f"/v1/games/{game}/moves", headers=loser.auth,
                           json={"type": "resign", "expected_version": version})  # fmt: skip
    assert resigned.status_code == 200, resigned.json
    return str(game)


def ratings_of(client: FlaskClient, name: str) -> dict[str, Any]:
    response = client.get(f"/v1/players/{name}")
    assert response.status_code == 200, response.json
    found: dict[str, Any] = response.json["ratings"]
    return found


def test_a_game_the_server_deals_is_rated_and_one_of_given_tiles_is_not(
    client: FlaskClient,
) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    dealt = client.post("/v1/games", json={"invite": ["bob"]}, headers=ada.auth).json
    given = client.post("/v1/games", json={"tiles": EXAMPLE_TILES}, headers=ada.auth).json
    unrated = client.post("/v1/games", json={"rated": False}, headers=ada.auth).json
    assert dealt["rated"] is True and given["rated"] is False and unrated["rated"] is False
    assert client.get(f"/v1/games/{dealt['id']}", headers=bob.auth).json["rated"] is True


def test_a_rated_game_gives_no_hint_and_an_unrated_one_does(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    for rated in (True, False):
        game = client.post("/v1/games", json={"invite": ["bob"], "rated": rated},
                           headers=ada.auth).json["id"]  # fmt: skip
        assert client.post(f"/v1/games/{game}/join", headers=bob.auth).status_code == 200
        mover = ada if client.get(f"/v1/games/{game}").json["turn"]["seat"] == 0 else bob
        asked = client.post(f"/v1/games/{game}/trial", json={"hint": True}, headers=mover.auth)
        if rated:
            assert asked.status_code == 422, asked.json
            assert asked.json["error"]["code"] == "rated_no_hints"
        else:
            assert asked.status_code == 200 and "hint" in asked.json, asked.json
        # Trying a move stays allowed (the page's running score): it is no hint.
        tried = client.post(f"/v1/games/{game}/trial", json={}, headers=mover.auth)
        assert tried.status_code == 200 and tried.json["ok"] is True


def test_a_rated_game_of_given_tiles_is_refused_and_nothing_is_made(client: FlaskClient) -> None:
    ada = register(client, "ada")
    for asked in ({"tiles": EXAMPLE_TILES, "rated": True}, {"seed": 7, "rated": True}):
        refused = client.post("/v1/games", json=asked, headers=ada.auth)
        assert refused.status_code == 422 and refused.json["error"]["code"] == "rated_order_given"
    assert client.get("/v1/me", headers=ada.auth).json["games"] == []
    bad = client.post("/v1/games", json={"rated": "yes"}, headers=ada.auth)
    assert bad.status_code == 400 and bad.json["error"]["code"] == "validation_error"


def test_ratings_move_after_rated_games_only(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    assert ratings_of(client, "ada") == {}
    play_out(client, ada, bob, loser=bob)
    after_one = ratings_of(client, "ada")["mathable"]
    assert after_one["games"] == 1
    assert after_one["mu"] > 25 > ratings_of(client, "bob")["mathable"]["mu"]
    play_out(client, ada, bob, loser=ada, rated=False)  # unrated: no rating moves
    assert ratings_of(client, "ada")["mathable"] == after_one
    play_out(client, ada, bob, loser=ada)
    assert ratings_of(client, "ada")["mathable"]["games"] == 2
    assert ratings_of(client, "ada")["mathable"]["mu"] < after_one["mu"]


def test_a_game_ended_before_every_seat_played_a_turn_moves_no_rating(
    app: Flask, client: FlaskClient, store_url: str
) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    play_out(client, ada, bob, loser=bob, passes=0)  # resigned at once: no farming
    play_out(client, ada, bob, loser=bob, passes=1)  # bob never played a turn of his own
    assert ratings_of(client, "ada") == {} and ratings_of(client, "bob") == {}
    record = client.get("/v1/players/ada/record?against=bob").json
    assert record["wins"] == 2  # who won is still recorded
    play_out(client, ada, bob, loser=bob)  # both passed once: rated
    assert ratings_of(client, "ada")["mathable"]["games"] == 1
    before = app.extensions["mathable"].store.all_ratings()
    done = server_cli("rebuild-ratings", "--database-url", store_url)
    assert done.returncode == 0, done.stderr
    assert app.extensions["mathable"].store.all_ratings() == before  # the same rule


def test_the_record_between_two_players_counts_rated_and_unrated_games(
    client: FlaskClient,
) -> None:
    ada, bob, cat = (register(client, n) for n in ("ada", "bob", "cat"))
    play_out(client, ada, bob, loser=bob)
    play_out(client, ada, bob, loser=bob, rated=False)
    play_out(client, bob, ada, loser=ada)
    play_out(client, ada, cat, loser=cat)
    play_out(client, ada, bob, loser=bob, tiles=EXAMPLE_TILES)  # a given order: not counted
    record = client.get("/v1/players/ada/record?against=BOB").json
    assert record == {"player": "ada", "against": "bob", "wins": 2, "losses": 1, "draws": 0}
    assert client.get("/v1/players/bob/record?against=ada").json["wins"] == 1
    unknown = client.get("/v1/players/ada/record?against=zed")
    assert unknown.status_code == 404 and unknown.json["error"]["code"] == "unknown_player"
    assert client.get("/v1/players/ada/record").status_code == 400
    itself = client.get("/v1/players/ada/record?against=ADA")
    assert itself.status_code == 422 and itself.json["error"]["code"] == "same_player"


def test_the_leaderboard_puts_the_best_first(client: FlaskClient) -> None:
    ada, bob, cat = (register(client, n) for n in ("ada", "bob", "cat"))
    play_out(client, ada, bob, loser=bob)
    play_out(client, cat, bob, loser=bob)
    play_out(client, ada, cat, loser=cat)
    board = client.get("/v1/leaderboard?ruleset=mathable").json
    names = [p["name"] for p in board["players"]]
    assert names[0] == "ada" and names[-1] == "bob"
    ratings = [p["rating"] for p in board["players"]]
    assert ratings == sorted(ratings, reverse=True)
    assert client.get("/v1/leaderboard?ruleset=summy").json["players"] == []
    unknown = client.get("/v1/leaderboard?ruleset=chess")
    assert unknown.status_code == 404 and unknown.json["error"]["code"] == "unknown_ruleset"
    assert client.get("/v1/leaderboard").status_code == 400


def test_rebuilding_from_the_logs_gives_the_same_ratings(
    app: Flask, client: FlaskClient, store_url: str
) -> None:
    ada, bob, cat = (register(client, n) for n in ("ada", "bob", "cat"))
    for a, b, loser in ((ada, bob, bob), (bob, cat, bob), (cat, ada, ada), (ada, bob, ada)):
        play_out(client, a, b, loser=loser)
    play_out(client, ada, cat, loser=ada, rated=False)
    store = app.extensions["mathable"].store
    before = store.all_ratings()
    records = client.get("/v1/players/ada/record?against=cat").json
    assert len(before) == 3 and all(r.games for r in before)
    # Ratings written wrong (a formula changed, say) are rebuilt from the logs.
    with store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE ratings SET mu = 0, games = 99")
        conn.exec_driver_sql("DELETE FROM game_results")
    done = server_cli("rebuild-ratings", "--database-url", store_url)
    assert done.returncode == 0, done.stderr
    assert "5 finished games replayed" in done.stderr
    assert store.all_ratings() == before  # exactly: the same floats
    assert client.get("/v1/players/ada/record?against=cat").json == records


@pytest.mark.parametrize("name", ["zed", "a" * 40, "ad.a"])
def test_an_unknown_player_is_404(client: FlaskClient, name: str) -> None:
    register(client, "ada")
    response = client.get(f"/v1/players/{name}")
    assert response.status_code == 404 and response.json["error"]["code"] == "unknown_player"


def test_an_imported_game_moves_no_rating_and_no_record(client: FlaskClient) -> None:
    """A game made from a record (``POST /v1/games/import``) was not played here: the
    importer could have written any result, so it counts in no rating and no record."""
    from mathable.core.record import write_record
    from tests.rules.record_helpers import mathable_selfplay

    register(client, "ada")
    bob = register(client, "bob")
    text = write_record(mathable_selfplay(1)).text()
    imported = client.post("/v1/games/import", json={"record": text}, headers=bob.auth)
    assert imported.status_code == 201, imported.json
    assert ratings_of(client, "ada") == {} and ratings_of(client, "bob") == {}
    record = client.get("/v1/players/ada/record?against=bob").json
    assert (record["wins"], record["losses"], record["draws"]) == (0, 0, 0)


#: Rated games of one pair ended at the same moment.
GAMES_AT_ONCE = 6


def test_rated_games_of_one_pair_ending_at_once_all_count(client: FlaskClient) -> None:
    """Games of ada and bob resigned at the same moment (threads; on PostgreSQL two
    transactions): both settle, one after the other under the ratings' lock: no 500 (a
    first rating inserted twice, a deadlock), and each player's rating counts every game."""
    import threading

    ada, bob = register(client, "ada"), register(client, "bob")
    games = []
    for _ in range(GAMES_AT_ONCE):
        made = client.post("/v1/games", json={"invite": ["bob"]}, headers=ada.auth).json
        assert client.post(f"/v1/games/{made['id']}/join", headers=bob.auth).status_code == 200
        for _turn in range(2):  # each seat plays a turn: a game ended before moves no rating
            view = client.get(f"/v1/games/{made['id']}", headers=ada.auth).json
            mover = ada if view["turn"]["seat"] == 0 else bob
            passed = client.post(
                f"/v1/games/{made['id']}/moves",
                headers=mover.auth,
                json={"type": "pass", "expected_version": view["version"]},
            )
            assert passed.status_code == 200, passed.json
        games.append((made["id"], client.get(f"/v1/games/{made['id']}", headers=ada.auth).json))
    start = threading.Barrier(len(games))
    answers: list[int] = []

    def resign(game_id: str, version: int) -> None:
        own = client.application.test_client()
        start.wait()
        answer = own.post(f"/v1/games/{game_id}/moves", headers=bob.auth,
                          json={"type": "resign", "expected_version": version})  # fmt: skip
        answers.append(answer.status_code)

    threads = [threading.Thread(target=resign, args=(g, v["version"])) for g, v in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert answers == [200] * GAMES_AT_ONCE
    assert ratings_of(client, "ada")["mathable"]["games"] == GAMES_AT_ONCE
    assert ratings_of(client, "bob")["mathable"]["games"] == GAMES_AT_ONCE


def pass_until_over(client: FlaskClient, game_id: str, a: Account, b: Account) -> dict[str, Any]:
    """Each seat of ``a`` and ``b``'s game passes in turn until it ends (four passes:
    ``no_placements``, the winner the seat with the smaller rack); its view for ``a``."""
    view = client.get(f"/v1/games/{game_id}", headers=a.auth).json
    while view["status"] == "playing":
        mover = a if view["turn"]["seat"] == view["you"] else b
        command = {"type": "pass", "expected_version": view["version"]}
        passed = client.post(f"/v1/games/{game_id}/moves", headers=mover.auth, json=command)
        assert passed.status_code == 200, passed.json
        view = client.get(f"/v1/games/{game_id}", headers=a.auth).json
    assert view["result"]["reason"] == "no_placements", view["result"]
    found: dict[str, Any] = view
    return found


def signed_in_browser(client: FlaskClient, who: Account) -> FlaskClient:
    """A browser signed in as ``who`` (a sign-in link asked with the token, then used)."""
    browser = client.application.test_client()
    link = browser.post("/v1/me/signin-link", json={}, headers=who.auth).json
    page = browser.get(link["path"]).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([0-9a-f]{64})"', page)
    assert csrf is not None, page[:400]
    assert browser.post(link["path"], data={"csrf": csrf[1]}).status_code == 303
    return browser


def counted(client: FlaskClient, who: list[Account]) -> dict[str, Any]:
    """Every rating and total the server shows of ``who``: the API's ratings, records and
    leaderboard, the player pages' ratings and record, the leaderboard page, and each
    player's data download (its ratings and results)."""
    shown: dict[str, Any] = {
        "leaderboard": client.get("/v1/leaderboard?ruleset=mathable").json,
        "leaderboard page": re.findall(
            r"<tbody>.*?</tbody>", client.get("/leaderboard").get_data(as_text=True), re.S
        ),
    }
    for account in who:
        name = account.name
        shown[f"api {name}"] = client.get(f"/v1/players/{name}").json
        page = client.get(f"/players/{name}").get_data(as_text=True)
        shown[f"page {name}"] = page[page.index("<h2>") : page.index('<ul id="recent">')]
        data = client.get("/v1/me/data", headers=account.auth).json
        shown[f"data {name}"] = (data["ratings"], data["game_results"])
        for other in who:
            if other is not account:
                asked = f"/v1/players/{name}/record?against={other.name}"
                shown[f"record {name} {other.name}"] = client.get(asked).json
    return shown


def test_a_game_of_a_shared_bag_order_counts_in_no_rating_or_total(
    app: Flask, client: FlaskClient, store_url: str
) -> None:
    """Security review (fourth, the ratings of withheld games): two games of seed 42 end
    by passes (``no_placements``: the winner is the seat whose rack was worth less, so
    who won tells of the racks' tiles, tiles the other game still deals). While the
    second plays, the first moves no rating, total, leaderboard row or page, and no
    answer says who won it; once the second ends too, neither counts either (a seed's
    order, once seen, can be played again: such games are never counted), nor does a
    rebuild from the logs count them."""
    annaa, bertt, carla, danny = (register(client, n) for n in ("annaa", "bertt", "carla", "danny"))
    play_out(client, annaa, bertt, loser=bertt)  # rated: each has a rating to move
    play_out(client, carla, danny, loser=carla)
    everyone = [annaa, bertt, carla, danny]
    before = counted(client, everyone)
    assert before["api annaa"]["ratings"]["mathable"]["games"] == 1
    first = client.post("/v1/games", json={"seed": 42, "invite": ["bertt"]}, headers=annaa.auth)
    other = client.post("/v1/games", json={"seed": 42, "invite": ["danny"]}, headers=carla.auth)
    assert first.status_code == other.status_code == 201
    first_id, other_id = first.json["id"], other.json["id"]
    assert first.json["rated"] is False and other.json["rated"] is False
    assert client.post(f"/v1/games/{first_id}/join", headers=bertt.auth).status_code == 200
    assert client.post(f"/v1/games/{other_id}/join", headers=danny.auth).status_code == 200

    ended = pass_until_over(client, first_id, annaa, bertt)
    assert ended["result"]["winners"] is None and ended["result"]["withheld"] is True
    assert counted(client, everyone) == before
    listed = client.get("/v1/me?details=true", headers=annaa.auth).json["games"]
    mine = next(g for g in listed if g["id"] == first_id)
    assert mine["result"]["winners"] is None and mine["result"]["withheld"] is True
    home = signed_in_browser(client, annaa).get("/").get_data(as_text=True)
    card = re.search(rf'data-game="{first_id}">.*?</li>', home, re.S)
    assert card is not None, home
    assert "who won shows once the other games of its bag order have ended" in card[0]
    assert "You won" not in card[0] and "bertt won" not in card[0]
    for name in ("annaa", "bertt"):
        page = client.get(f"/players/{name}").get_data(as_text=True)
        assert "who won shows once the other games of its bag order have ended" in page

    pass_until_over(client, other_id, carla, danny)
    revealed = client.get(f"/v1/games/{first_id}").json["result"]
    assert revealed["winners"] is not None and "withheld" not in revealed
    assert counted(client, everyone) == before  # revealed, and still counted nowhere
    store = app.extensions["mathable"].store
    ratings = store.all_ratings()
    done = server_cli("rebuild-ratings", "--database-url", store_url)
    assert done.returncode == 0, done.stderr
    assert store.all_ratings() == ratings and counted(client, everyone) == before
