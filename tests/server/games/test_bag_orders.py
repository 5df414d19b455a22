"""Bag orders (``games/draws.py``, ``games/orders.py``): a seed is shuffled under the
server's secret, so knowing it tells nobody the draws, and only the operator's players
give one (or a given order); a finished game's order, and the other seats' deductions,
stay withheld while another game still draws that order; a player sits in one
unfinished game of an order at a time. On SQLite and PostgreSQL.

Findings of the security reviews (issue 10, finding 1; issue 27) are pinned here; each
such test says which.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from mathable import Create, GameState, Join, SeededBag, apply, check
from mathable.games.mathable.events import GameStarted
from mathable_server.http.settings import Settings
from mathable_server.http.web import Services
from tests.server.apps import close_app, make_app
from tests.server.helpers import (
    EXAMPLE_TILES,
    Account,
    bag_order,
    event_feed,
    first_event,
    register,
    resign_game,
    started_game,
)

pytestmark = pytest.mark.both_databases


# --- seeds and given orders -------------------------------------------------------------


def _client(tmp_path: Path, **settings: Any) -> FlaskClient:
    return make_app(f"sqlite:///{tmp_path / 'findings.db'}", **settings).test_client()


def _racks_from_seed(seed: int, creator: str, joiner: str) -> tuple[tuple[int, ...], ...]:
    """What the reviewer computed: the start of a seeded game from the public rules package."""
    state = GameState()
    for command in (Create(creator, seed=seed), Join(joiner)):
        for event in check(state, command):
            state = apply(state, event)
            if isinstance(event, GameStarted):
                return event.racks
    raise AssertionError("the game did not start")


def test_knowing_the_seed_does_not_tell_the_racks(tmp_path: Path) -> None:
    """First security review (issue 10), finding 1: seeded games revealed every rack (the
    reviewer computed them from the seed with the public rules package)."""
    client = _client(tmp_path, secret_key="k" * 32)
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, seed=5)
    assert game["seeded"] is True
    computed = _racks_from_seed(5, ada.id, bob.id)
    assert tuple(game["rack"]) != computed[1]
    # every seed the reviewer tried gives other racks than the real ones
    tried = {_racks_from_seed(seed, ada.id, bob.id)[1] for seed in range(50)}
    assert tuple(game["rack"]) not in tried


def test_a_seed_still_replays_on_the_same_server_and_differs_on_another(
    tmp_path: Path,
) -> None:
    """First security review (issue 10), finding 1."""
    racks = []
    for secret in ("a" * 32, "a" * 32, "b" * 32):
        client = make_app(f"sqlite:///{tmp_path / secret[0]}{len(racks)}.db", secret_key=secret)
        client = client.test_client()
        ada, bob = register(client, "ada"), register(client, "bob")
        racks.append(started_game(client, ada, bob, seed=77, players=2)["rack"])
    # the join order of seats decides only who starts; the bag order is the seed's
    assert sorted(racks[0]) == sorted(racks[1])
    assert sorted(racks[0]) != sorted(racks[2])


def test_the_secret_is_made_once_and_kept_in_the_database(tmp_path: Path) -> None:
    """First security review (issue 10), finding 1."""
    url = f"sqlite:///{tmp_path / 'kept.db'}"
    first = make_app(url).extensions["mathable"].secret()
    again = make_app(url).extensions["mathable"].secret()
    assert first == again and len(first) == 64


def test_old_seeded_games_draw_as_before() -> None:
    # A game created before this change has no bag order: its seed draws as it always did.
    """First security review (issue 10), finding 1."""
    state = GameState()
    for event in check(state, Create("ada", seed=9)):
        state = apply(state, event)
    started = check(state, Join("bob"))[-1]
    again = check(state, Join("bob"), SeededBag(9, salt=state.version))[-1]
    assert started == again


def test_given_tiles_only_where_the_server_allows_and_every_player_is_told(
    tmp_path: Path,
) -> None:
    """First security review (issue 10), finding 1."""
    closed = _client(tmp_path, allow_given_tiles=False)
    ada = register(closed, "ada")
    refused = closed.post("/v1/games", json={"tiles": EXAMPLE_TILES}, headers=ada.auth)
    assert refused.status_code == 422
    assert refused.json["error"]["code"] == "given_tiles_disabled"  # type: ignore[index]
    opened = make_app(f"sqlite:///{tmp_path / 'open.db'}", allow_given_tiles=True).test_client()
    ada, bob = register(opened, "ada"), register(opened, "bob")
    game = started_game(opened, ada, bob, tiles=EXAMPLE_TILES)
    assert game["ordered"] is True
    assert opened.get(f"/v1/games/{game['id']}").json["ordered"] is True  # type: ignore[index]


def test_a_player_cannot_give_a_seed_unless_the_operator_allows_it(sqlite_url: str) -> None:
    """Found: a game's order is HMAC(secret, seed), so a second game of a running game's
    seed, resigned at once, revealed that game's racks and every future draw. A server
    now takes a seed only with MATHABLE_ALLOW_SEEDS (its default is off).

    From the second security review (issue 27)."""
    assert Settings.from_env({}).allow_seeds is False
    assert Settings.from_env({"MATHABLE_ALLOW_SEEDS": "1"}).allow_seeds is True
    app = make_app(sqlite_url, allow_seeds=False)
    client = app.test_client()
    ada = register(client, "ada")
    refused = client.post("/v1/games", json={"seed": 30}, headers=ada.auth)
    assert refused.status_code == 422
    assert refused.json["error"]["code"] == "seeds_disabled"  # type: ignore[index]
    plain = client.post("/v1/games", json={}, headers=ada.auth)
    assert plain.status_code == 201 and plain.json["seeded"] is False  # type: ignore[index]
    close_app(app)


# --- orders that games share ------------------------------------------------------------


def _services(client: FlaskClient) -> Services:
    services: Services = client.application.extensions["mathable"]
    return services


def test_a_shared_order_is_not_revealed_while_a_game_of_it_runs(client: FlaskClient) -> None:
    """Found: a second game of a running game's seed, resigned at once, revealed through
    its draws_revealed the running game's racks and every future draw. A finished game
    whose bag order another unfinished game draws (one seed, or one given order) now
    shows neither the order nor another seat's draws, in the answer that ended it and
    in its event feed, until the last of them ends; the stored events are unchanged.

    From the second security review (issue 27)."""
    ada, bob, cy, dan = (register(client, n) for n in ("ada", "bob", "cy", "dan"))
    running = started_game(client, ada, bob, seed=30)
    other_seed = started_game(client, ada, bob, seed=31)
    probe = started_game(client, cy, dan, seed=30)
    ended = resign_game(client, cy, probe)
    reveal = first_event(ended["events"], "draws_revealed")
    assert reveal["withheld"] is True and reveal["order"] is None and reveal["salt"] is None
    for who in (cy, dan, None):
        feed = event_feed(client, probe["id"], who)
        reveal = first_event(feed, "draws_revealed")
        assert (reveal["order"], reveal["salt"], reveal["withheld"]) == (None, None, True)
        racks = first_event(feed, "game_started")["racks"]
        assert sum(rack is not None for rack in racks) == (0 if who is None else 1)
    # The stored event is as it always was: the order is there, only the answers hide it.
    stored = _services(client).store.events_after(probe["id"], 0)
    assert [s.event for s in stored if s.event.type == "draws_revealed"][0].order  # type: ignore[attr-defined]
    # Another seed's game ending changes nothing; the last game of seed 30 ending does.
    resign_game(client, ada, other_seed)
    assert first_event(event_feed(client, other_seed["id"]), "draws_revealed")["order"] is not None
    assert first_event(event_feed(client, probe["id"]), "draws_revealed")["order"] is None
    last = resign_game(client, bob, running)
    assert first_event(last["events"], "draws_revealed")["order"] is not None
    for game in (probe, running):
        feed = event_feed(client, game["id"])
        reveal = first_event(feed, "draws_revealed")
        assert len(reveal["order"]) == 106 and reveal["salt"] and "withheld" not in reveal
        assert all(rack is not None for rack in first_event(feed, "game_started")["racks"])
    assert first_event(event_feed(client, probe["id"]), "draws_revealed")["order"] == first_event(
        event_feed(client, running["id"]), "draws_revealed"
    )["order"]


def test_a_given_order_is_withheld_like_a_seed_and_an_own_order_never(
    client: FlaskClient,
) -> None:
    """Games of one given order share it as games of one seed do; a game drawn from an
    order of its own reveals it at its end whatever else runs.

    From the second security review (issue 27)."""
    ada, bob, cy, dan = (register(client, n) for n in ("ada", "bob", "cy", "dan"))
    tiles = bag_order(1, 2, 3, 4, 5, 6, 7, 8)
    started_game(client, ada, bob, tiles=tiles)
    started_game(client, ada, bob)  # an order of its own, running
    given = started_game(client, cy, dan, tiles=tiles)
    resign_game(client, cy, given)
    assert first_event(event_feed(client, given["id"]), "draws_revealed")["withheld"] is True
    own = started_game(client, cy, dan)
    resign_game(client, dan, own)
    reveal = first_event(event_feed(client, own["id"]), "draws_revealed")
    assert len(reveal["order"]) == 106 and "withheld" not in reveal


def _closed_server(store_url: str, *names: str, operators: int = 1) -> tuple[Any, list[Account]]:
    """A server without MATHABLE_ALLOW_SEEDS and MATHABLE_ALLOW_GIVEN_TILES whose
    MATHABLE_SEED_PLAYERS are the ids of the first ``operators`` of ``names``, registered
    first (as an operator does: register, then list the id and restart)."""
    first = make_app(store_url)
    accounts = [register(first.test_client(), name) for name in names]
    close_app(first)
    app = make_app(
        store_url,
        allow_seeds=False,
        allow_given_tiles=False,
        seed_players=tuple(a.id for a in accounts[:operators]),
    )
    return app, accounts


def test_only_the_operator_s_players_give_a_seed_on_a_closed_server(
    store_url: str,
) -> None:
    """Only the operator (or an organiser) may give a seed: with MATHABLE_ALLOW_SEEDS and
    MATHABLE_ALLOW_GIVEN_TILES off, the players listed in MATHABLE_SEED_PLAYERS (by id)
    still may, and nobody else.

    From the second security review (issue 27)."""
    settings = Settings.from_env({"MATHABLE_SEED_PLAYERS": " pk3mdnq8hwz2t , pa2b3c4d5e6f7"})
    assert settings.seed_players == ("pk3mdnq8hwz2t", "pa2b3c4d5e6f7")
    assert settings.allow_seeds is False
    app, (org, ann) = _closed_server(store_url, "ORG", "ann")
    client = app.test_client()
    seeded = client.post("/v1/games", json={"seed": 30}, headers=org.auth)
    assert seeded.status_code == 201 and seeded.json["seeded"] is True  # type: ignore[index]
    given = client.post("/v1/games", json={"tiles": bag_order(1)}, headers=org.auth)
    assert given.status_code == 201
    refused = client.post("/v1/games", json={"seed": 30}, headers=ann.auth)
    assert refused.json["error"]["code"] == "seeds_disabled"  # type: ignore[index]
    refused = client.post("/v1/games", json={"tiles": bag_order(1)}, headers=ann.auth)
    assert refused.json["error"]["code"] == "given_tiles_disabled"  # type: ignore[index]
    close_app(app)


def test_a_stranger_cannot_take_the_right_to_give_a_seed_by_a_name(store_url: str) -> None:
    """Found (review 27): MATHABLE_SEED_PLAYERS named players by name, and anyone could
    register a listed name the operator had not taken yet (or had given up). It now
    lists player ids, which nobody chooses; a name in it stops the server from starting
    with a message saying so.

    Second security review (issue 27)."""
    with pytest.raises(ValueError, match="takes player ids"):
        Settings.from_env({"MATHABLE_SEED_PLAYERS": "org"})
    app, (org,) = _closed_server(store_url, "org")
    client = app.test_client()
    # Whatever a stranger names themselves (the id itself, a name like the operator's),
    # they give no seed and no order.
    for name in (org.id, "org2", "0rg"):
        stranger = client.post("/v1/players", json={"name": name}).json
        if "token" not in stranger:  # type: ignore[operator]
            continue  # a name too like the operator's: refused outright
        auth = {"Authorization": f"Bearer {stranger['token']}"}  # type: ignore[index]
        refused = client.post("/v1/games", json={"seed": 5}, headers=auth)
        assert refused.json["error"]["code"] == "seeds_disabled", name  # type: ignore[index]
        refused = client.post("/v1/games", json={"tiles": bag_order(1)}, headers=auth)
        assert refused.json["error"]["code"] == "given_tiles_disabled", name  # type: ignore[index]
    assert client.post("/v1/games", json={"seed": 5}, headers=org.auth).status_code == 201
    close_app(app)


def _join(client: FlaskClient, who: Account, game: dict[str, Any]) -> Any:
    return client.post(f"/v1/games/{game['id']}/join", headers=who.auth)


def test_a_player_sits_in_one_unfinished_game_of_a_bag_order(store_url: str) -> None:
    """Found (review 27): pat and quin each sat in two running games of one seed (an
    organiser's duplicate games) and read, from one seat, the rack the other held in
    the other game. A seat in a game whose bag order an unfinished game the player sits
    in draws too (one seed, one given order) is now refused, 422 same_order naming that
    game, open or invited, whichever game they took first; once it ends, they may.

    Second security review (issue 27)."""
    app, (org, pat, quin, ann) = _closed_server(store_url, "org", "pat", "quin", "ann")
    client = app.test_client()

    def game(**options: Any) -> dict[str, Any]:
        answer = client.post("/v1/games", json={"players": 3, **options}, headers=org.auth)
        assert answer.status_code == 201, answer.json
        body: dict[str, Any] = answer.json  # type: ignore[assignment]
        return body

    a, b = game(seed=77), game(seed=77)
    assert _join(client, pat, a).status_code == 200
    assert _join(client, quin, b).status_code == 200
    for who, second, first in ((pat, b, a), (quin, a, b)):  # both orders of the two joins
        refused = _join(client, who, second)
        assert refused.status_code == 422, refused.json
        error = refused.json["error"]  # type: ignore[index]
        assert error["code"] == "same_order" and error["details"] == {"game": first["id"]}
        assert first["id"] in error["message"]
    # An invitation is no way round it, nor is a given order (the same for one order).
    invited = game(seed=77, invite=["pat"])
    assert _join(client, pat, invited).json["error"]["code"] == "same_order"  # type: ignore[index]
    given = [game(tiles=bag_order(5, 6)) for _ in range(2)]
    assert _join(client, ann, given[0]).status_code == 200
    assert _join(client, ann, given[1]).json["error"]["code"] == "same_order"  # type: ignore[index]
    # Another seed is another order; the game refused is as it was.
    assert _join(client, pat, game(seed=78)).status_code == 200
    view = client.get(f"/v1/games/{b['id']}").json
    assert [s["player"] for s in view["seats"]] == [org.id, quin.id, None]  # type: ignore[index]
    # Once the game pat sits in is over (here called off), the other is open to him.
    assert client.post(f"/v1/games/{a['id']}/decline", headers=org.auth).status_code == 200
    assert _join(client, pat, b).json["status"] == "playing"  # type: ignore[index]
    assert _join(client, pat, invited).json["error"]["code"] == "same_order"  # type: ignore[index]
    close_app(app)


def test_two_joins_at_once_of_one_order_seat_the_player_once(store_url: str) -> None:
    """The check is made in the join's transaction, after a lock on the player: of two
    joins of one player to two games of one order at the same moment, one is refused.

    From the second security review (issue 27)."""
    import threading

    app, (org, pat) = _closed_server(store_url, "org", "pat")
    client = app.test_client()
    for seed in range(100, 106):
        games = [
            client.post("/v1/games", json={"seed": seed}, headers=org.auth).json
            for _ in range(2)
        ]
        barrier = threading.Barrier(2)
        answers: list[int] = []

        def join(game: dict[str, Any], barrier: Any, answers: list[int]) -> None:
            own = app.test_client()
            barrier.wait()
            answers.append(_join(own, pat, game).status_code)

        threads = [threading.Thread(target=join, args=(g, barrier, answers)) for g in games]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [200, 422], seed
    close_app(app)


def test_a_withheld_game_shows_no_other_seat_s_deductions(store_url: str) -> None:
    """Found (review 27): while a finished game's order was withheld, its result still
    gave each seat's deduction (the tiles left on its rack), which were the running
    game's rack sums. While withheld, game_ended (answer and feed) and the view's
    result show the viewer's own deduction and final score only, no winners, and the
    seats' scores before the end; once the order is revealed, everything.

    Second security review (issue 27)."""
    app, (org, org2, ada, bob) = _closed_server(store_url, "org", "org2", "ada", "bob",
                                                operators=2)  # fmt: skip
    client = app.test_client()
    running = started_game(client, org, ada, seed=9)
    probe = started_game(client, org2, bob, seed=9)
    ended = resign_game(client, bob, probe)
    racks = [client.get(f"/v1/games/{running['id']}", headers=w.auth).json["rack"]  # type: ignore[index]
             for w in (org, ada)]  # fmt: skip
    sums = [sum(rack) for rack in racks]
    stored = [s.event for s in _services(client).store.events_after(probe["id"], 0)]
    truth = next(e for e in stored if e.type == "game_ended")
    assert list(truth.deductions) == sums  # type: ignore[attr-defined]  # what was leaking

    def shown(who: Account | None) -> list[dict[str, Any]]:
        view = client.get(f"/v1/games/{probe['id']}", headers=who.auth if who else {}).json
        return [view["result"], first_event(event_feed(client, probe["id"], who), "game_ended")]  # type: ignore[index]

    own = {org2.id: 0, bob.id: 1}
    for result in [first_event(ended["events"], "game_ended"), ended["result"], *shown(bob)]:
        assert result["deductions"] == [None, sums[1]] and result["withheld"] is True
        assert result["scores"][0] is None and result["winners"] is None
    for who in (org2, None):
        seat = own.get(who.id) if who else None
        for result in shown(who):
            assert result["deductions"] == [sums[0] if seat == 0 else None, None]
            assert result["winners"] is None and result["scores"][1] is None
    view = client.get(f"/v1/games/{probe['id']}").json
    assert [s["score"] for s in view["seats"]] == [0, 0]  # type: ignore[index]  # before the end
    listed = client.get("/v1/me?details=true", headers=org2.auth).json
    mine = next(g for g in listed["games"] if g["id"] == probe["id"])  # type: ignore[index]
    assert mine["result"]["deductions"] == [sums[0], None]
    assert client.get(f"/games/{probe['id']}").status_code == 200
    # The last game of the order ends: everything is shown, to everyone, at the same
    # version, so a caller who has that version is not answered 304 (nor is the page).
    version = view["version"]  # type: ignore[index]
    resign_game(client, ada, running)
    again = client.get(f"/v1/games/{probe['id']}", headers={"If-None-Match": f'"{version}"'})
    assert again.status_code == 200 and "withheld" not in again.json["result"]  # type: ignore[index]
    page = client.get(f"/games/{probe['id']}", headers={"If-None-Match": f'"{version}"'})
    assert page.status_code == 200
    for who in (org2, bob, None):
        for result in shown(who):
            assert result["deductions"] == list(truth.deductions)  # type: ignore[attr-defined]
            assert result["scores"] == list(truth.scores)  # type: ignore[attr-defined]
            assert result["winners"] == [0] and "withheld" not in result
    close_app(app)


def test_verify_says_a_withheld_order_cannot_be_checked_yet() -> None:
    """``mathable-cli verify`` (``events_from_feed``) reads a withheld draws_revealed as a
    refusal that says so, not as a broken log.

    From the second security review (issue 27)."""
    from mathable.core.audit import events_from_feed
    from mathable.core.errors import RuleError

    feed = [{"type": "draws_revealed", "order": None, "salt": None, "withheld": True}]
    with pytest.raises(RuleError, match="withholds this game's bag order"):
        events_from_feed(feed)
