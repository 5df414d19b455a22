"""Security, second review (issue 27): shared bag orders, blocks, declined games, look-alike
names. Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import text

from mathable_server import Settings, create_app
from mathable_server.http.web import Services
from mathable_server.store import migrations
from mathable_server.store.dumps import dump, load
from mathable_server.store.engine import make_engine
from mathable_server.store.events import order_key
from mathable_server.store.names import name_key
from tests.server.apps import close_app, make_app
from tests.server.helpers import Account, bag_order, move, register, started_game
from tests.server.upgrade.baseline import make_baseline_database

pytestmark = pytest.mark.both_databases


def _feed(client: FlaskClient, game_id: str, who: Account | None = None) -> list[dict[str, Any]]:
    answer = client.get(f"/v1/games/{game_id}/events", headers=who.auth if who else {})
    assert answer.status_code == 200
    events: list[dict[str, Any]] = answer.json["events"]  # type: ignore[index]
    return events


def _of(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(event for event in events if event["type"] == kind)


def _resign(client: FlaskClient, who: Account, game: dict[str, Any]) -> dict[str, Any]:
    view = client.get(f"/v1/games/{game['id']}", headers=who.auth).json
    answer = move(client, who, game["id"], view["version"], type="resign")  # type: ignore[index]
    assert answer.status_code == 200, answer.json
    body: dict[str, Any] = answer.json
    return body


def _services(client: FlaskClient) -> Services:
    services: Services = client.application.extensions["mathable"]
    return services


def test_r2_a_shared_order_is_not_revealed_while_a_game_of_it_runs(client: FlaskClient) -> None:
    """Found: a second game of a running game's seed, resigned at once, revealed through
    its draws_revealed the running game's racks and every future draw. A finished game
    whose bag order another unfinished game draws (one seed, or one given order) now
    shows neither the order nor another seat's draws, in the answer that ended it and
    in its event feed, until the last of them ends; the stored events are unchanged."""
    ada, bob, cy, dan = (register(client, n) for n in ("ada", "bob", "cy", "dan"))
    running = started_game(client, ada, bob, seed=30)
    other_seed = started_game(client, ada, bob, seed=31)
    probe = started_game(client, cy, dan, seed=30)
    ended = _resign(client, cy, probe)
    reveal = _of(ended["events"], "draws_revealed")
    assert reveal["withheld"] is True and reveal["order"] is None and reveal["salt"] is None
    for who in (cy, dan, None):
        feed = _feed(client, probe["id"], who)
        reveal = _of(feed, "draws_revealed")
        assert (reveal["order"], reveal["salt"], reveal["withheld"]) == (None, None, True)
        racks = _of(feed, "game_started")["racks"]
        assert sum(rack is not None for rack in racks) == (0 if who is None else 1)
    # The stored event is as it always was: the order is there, only the answers hide it.
    stored = _services(client).store.events_after(probe["id"], 0)
    assert [s.event for s in stored if s.event.type == "draws_revealed"][0].order  # type: ignore[attr-defined]
    # Another seed's game ending changes nothing; the last game of seed 30 ending does.
    _resign(client, ada, other_seed)
    assert _of(_feed(client, other_seed["id"]), "draws_revealed")["order"] is not None
    assert _of(_feed(client, probe["id"]), "draws_revealed")["order"] is None
    last = _resign(client, bob, running)
    assert _of(last["events"], "draws_revealed")["order"] is not None
    for game in (probe, running):
        feed = _feed(client, game["id"])
        reveal = _of(feed, "draws_revealed")
        assert len(reveal["order"]) == 106 and reveal["salt"] and "withheld" not in reveal
        assert all(rack is not None for rack in _of(feed, "game_started")["racks"])
    assert _of(_feed(client, probe["id"]), "draws_revealed")["order"] == _of(
        _feed(client, running["id"]), "draws_revealed"
    )["order"]


def test_r2_a_given_order_is_withheld_like_a_seed_and_an_own_order_never(
    client: FlaskClient,
) -> None:
    """Games of one given order share it as games of one seed do; a game drawn from an
    order of its own reveals it at its end whatever else runs."""
    ada, bob, cy, dan = (register(client, n) for n in ("ada", "bob", "cy", "dan"))
    tiles = bag_order(1, 2, 3, 4, 5, 6, 7, 8)
    started_game(client, ada, bob, tiles=tiles)
    started_game(client, ada, bob)  # an order of its own, running
    given = started_game(client, cy, dan, tiles=tiles)
    _resign(client, cy, given)
    assert _of(_feed(client, given["id"]), "draws_revealed")["withheld"] is True
    own = started_game(client, cy, dan)
    _resign(client, dan, own)
    reveal = _of(_feed(client, own["id"]), "draws_revealed")
    assert len(reveal["order"]) == 106 and "withheld" not in reveal


def test_r2_a_name_that_looks_like_a_player_s_name_is_refused(client: FlaskClient) -> None:
    """Found: Olliee50f, 0lliee50f and OIIiee50f could all be registered. A name whose
    TR39 skeleton (case folded) is a player's is now 409 name_confusable, naming that
    player; a different name still goes."""
    register(client, "Olliee50f")
    for alike in ("0lliee50f", "OIIiee50f", "oiiiee5of", "OLLIEE5OF"):
        answer = client.post("/v1/players", json={"name": alike})
        assert answer.status_code == 409, alike
        error = answer.json["error"]  # type: ignore[index]
        assert error["code"] == "name_confusable", alike
        assert "Olliee50f" in error["message"]
    taken = client.post("/v1/players", json={"name": "olliee50f"})
    assert taken.json["error"]["code"] == "name_taken"  # type: ignore[index]
    register(client, "rnike")
    assert client.post("/v1/players", json={"name": "Mike"}).status_code == 409
    register(client, "Olliee51f")
    assert client.get("/v1/me", headers=register(client, "ann").auth).status_code == 200


def test_r2_upgrade_keeps_look_alike_names_and_keys_shared_orders(database_url: str) -> None:
    """The migration gives each player a look-alike key: players whose names already
    look alike keep them (the oldest holds the key, so no new name takes it), and every
    game of a seed or given order gets the key of its order from its game_created."""
    engine = make_baseline_database(database_url)
    migrations.upgrade(engine, "0006_mail_and_outbox")
    with engine.begin() as conn:
        for number, name in enumerate(("Olliee50f", "0lliee50f", "OIIiee50f")):
            conn.execute(
                text(
                    "INSERT INTO players (id, name, name_key, email, token_hash, created_at,"
                    " token_issued_at) VALUES (:id, :name, :key, NULL, '', :at, 0)"
                ),
                {"id": f"pold{number}", "name": name, "key": name.casefold(),
                 "at": f"2026-01-0{number + 1}T00:00:00Z"},
            )  # fmt: skip
    migrations.upgrade(engine)
    with engine.connect() as conn:
        keys = dict(conn.execute(text("SELECT id, name_skeleton FROM players")).all())
        created = conn.execute(
            text("SELECT game_id, data FROM events WHERE version = 1")
        ).all()
        order_keys = dict(conn.execute(text("SELECT id, order_key FROM games")).all())
    assert (keys["pold0"], keys["pold1"], keys["pold2"]) == (name_key("Olliee50f"), None, None)
    assert None not in [k for p, k in keys.items() if not p.startswith("pold")]
    for game_id, data in created:
        given = json.loads(data)
        seeded = given.get("seed") is not None
        order = given.get("tiles") or (given.get("order") if seeded else None)
        assert (order_keys[game_id] is not None) == bool(order), game_id
    engine.dispose()
    app = create_app(Settings(database_url=database_url, rate_limit=None), create_schema=False)
    client = app.test_client()
    refused = client.post("/v1/players", json={"name": "OlIiee50f"})
    assert refused.status_code == 409 and refused.json["error"]["code"] == "name_confusable"
    # Each key is the one a game made now would get (``order_key`` of its state).
    games = app.extensions["mathable"].games
    for game_id in order_keys:
        assert order_keys[game_id] == order_key(games.state(game_id)), game_id
    app.extensions["mathable"].store.engine.dispose()


def _copy_rows(source: str, target: Any, tables: tuple[str, ...]) -> None:
    """The rows of ``tables`` of the database at ``source`` into ``target``, in the
    columns the target's tables have (an older schema)."""
    from sqlalchemy import MetaData, insert

    engine = make_engine(source, 1)
    old, new = MetaData(), MetaData()
    old.reflect(engine)
    new.reflect(target)
    with engine.connect() as read, target.begin() as write:
        for name in tables:
            columns = set(new.tables[name].columns.keys())
            rows = [
                {k: v for k, v in row._mapping.items() if k in columns}
                for row in read.execute(old.tables[name].select())
            ]
            if rows:
                write.execute(insert(new.tables[name]), rows)
    engine.dispose()


def test_r2_upgrade_withholds_a_game_whose_twin_runs_at_the_upgrade(
    database_url: str, tmp_path: Path
) -> None:
    """A seeded game running when migration 0007 keys the orders is counted: its twin
    (the same seed) finished before the upgrade answers with its order and the other
    seats' deductions withheld until the running one ends."""
    made = f"sqlite:///{tmp_path / 'made.db'}"
    app = make_app(made)
    client = app.test_client()
    ada, bob, cy, dan = (register(client, n) for n in ("upa", "upb", "upc", "upd"))
    running = started_game(client, ada, bob, seed=4)
    twin = started_game(client, cy, dan, seed=4)
    _resign(client, dan, twin)
    close_app(app)
    engine = make_baseline_database(database_url)
    migrations.upgrade(engine, "0006_mail_and_outbox")
    _copy_rows(made, engine, ("players", "games", "game_members", "events"))
    migrations.upgrade(engine)
    with engine.connect() as conn:
        keys = dict(conn.execute(text("SELECT id, order_key FROM games")).all())
    engine.dispose()
    assert keys[running["id"]] == keys[twin["id"]] is not None
    app = create_app(Settings(database_url=database_url, rate_limit=None), create_schema=False)
    client = app.test_client()
    assert keys[twin["id"]] == order_key(app.extensions["mathable"].games.state(twin["id"]))
    reveal = _of(_feed(client, twin["id"]), "draws_revealed")
    assert reveal["withheld"] is True and reveal["order"] is None
    result = client.get(f"/v1/games/{twin['id']}").json["result"]  # type: ignore[index]
    assert result["withheld"] is True and result["deductions"] == [None, None]
    _resign(client, ada, running)
    assert len(_of(_feed(client, twin["id"]), "draws_revealed")["order"]) == 106
    assert None not in client.get(f"/v1/games/{twin['id']}").json["result"]["deductions"]  # type: ignore[index]
    app.extensions["mathable"].store.engine.dispose()


def test_r2_the_look_alike_table_covers_every_character_a_name_may_hold(
    client: FlaskClient, monkeypatch: Any
) -> None:
    """Each look-alike the table claims is refused at registration, and without its row
    it would go through: the table is what refuses it. (A name holds only characters the
    table covers: were names to take more, this fails until it is regenerated.)"""
    import re

    from mathable_server.http.schemas import NAME_PATTERN
    from mathable_server.store.names import CONFUSABLES, COVERED

    allowed = {chr(c) for c in range(0x110000) if re.fullmatch(NAME_PATTERN, "a" + chr(c) + "a")}
    assert allowed <= COVERED and set(CONFUSABLES) <= allowed
    # One name per row, spelt with the prototype, then the look-alike spelt with the row's
    # character (between letters no row maps, so the pairs do not meet each other).
    rows = sorted(CONFUSABLES.items())
    pairs = {char: (f"x{prototype}{tag}", f"x{char}{tag}")
             for (char, prototype), tag in zip(rows, "vwyz", strict=True)}  # fmt: skip
    assert set(pairs) == {"0", "1", "I", "m"}
    for original, _ in pairs.values():
        register(client, original)
    for char, (original, alike) in pairs.items():
        refused = client.post("/v1/players", json={"name": alike})
        assert refused.status_code == 409, (char, refused.json)
        error = refused.json["error"]  # type: ignore[index]
        assert error["code"] == "name_confusable" and original in error["message"], char
    for char, (_, alike) in pairs.items():
        with monkeypatch.context() as patched:
            patched.delitem(CONFUSABLES, char)
            answer = client.post("/v1/players", json={"name": alike})
        if char == "I":
            # I -> l is also what the case fold does (I is i, and i counts as l): the
            # row and the fold each refuse it.
            assert answer.status_code == 409, answer.json
        else:
            assert answer.status_code == 201, (char, answer.json)


def test_r2_players_brought_by_a_load_hold_their_look_alike_keys(tmp_path: Path) -> None:
    """``mathable-server load`` gives the players it brings their look-alike keys, so a
    name like theirs is refused on the server they were loaded into."""
    source = f"sqlite:///{tmp_path / 'source.db'}"
    app = create_app(Settings(database_url=source, rate_limit=None))
    register(app.test_client(), "Olliee50f")
    app.extensions["mathable"].store.engine.dispose()
    engine = make_engine(source, 1)
    out = io.StringIO()
    dump(engine, out)
    engine.dispose()
    target = f"sqlite:///{tmp_path / 'target.db'}"
    engine = make_engine(target, 1)
    migrations.upgrade(engine)
    load(engine, io.StringIO(out.getvalue()))
    engine.dispose()
    app = create_app(Settings(database_url=target, rate_limit=None), create_schema=False)
    refused = app.test_client().post("/v1/players", json={"name": "0lliee5Of"})
    assert refused.status_code == 409 and refused.json["error"]["code"] == "name_confusable"
    app.extensions["mathable"].store.engine.dispose()


def test_r2_a_player_can_block_another(client: FlaskClient) -> None:
    """Found: nothing let a player stop one account's invitations. A player now blocks
    another (PUT /v1/me/blocks/<name>): that player's invitations to them are 403
    blocked, and they cannot join a game the blocker sits in; unblocking lifts both."""
    bob, spam, cy = register(client, "bob"), register(client, "spam"), register(client, "cy")
    assert client.put("/v1/me/blocks/SPAM", headers=bob.auth).status_code == 204
    assert client.put("/v1/me/blocks/spam", headers=bob.auth).status_code == 204  # once
    listed = client.get("/v1/me/blocks", headers=bob.auth).json["blocks"]  # type: ignore[index]
    assert [(b["id"], b["name"]) for b in listed] == [(spam.id, "spam")]
    refused = client.post("/v1/games", json={"invite": ["bob"]}, headers=spam.auth)
    assert refused.status_code == 403
    assert refused.json["error"] == {  # type: ignore[index]
        "code": "blocked",
        "message": "bob does not take your invitations",
    }
    assert client.post("/v1/games", json={"invite": ["bob"]}, headers=cy.auth).status_code == 201
    # Nor may spam sit down at bob's table, open or invited to.
    table = client.post("/v1/games", json={}, headers=bob.auth).json
    joined = client.post(f"/v1/games/{table['id']}/join", headers=spam.auth)  # type: ignore[index]
    assert joined.status_code == 403 and joined.json["error"]["code"] == "blocked"  # type: ignore[index]
    invited = client.post("/v1/games", json={"invite": ["spam"]}, headers=bob.auth).json
    joined = client.post(f"/v1/games/{invited['id']}/join", headers=spam.auth)  # type: ignore[index]
    assert joined.status_code == 403
    # The others are not blocked, and spam learns nothing else.
    assert client.get("/v1/me/blocks", headers=spam.auth).json == {"blocks": []}
    for nobody in ("nobody", "a%00b", "x" * 150):
        bad = client.put(f"/v1/me/blocks/{nobody}", headers=bob.auth)
        assert bad.status_code == 422 and bad.json["error"]["code"] == "unknown_player"  # type: ignore[index]
    own = client.put("/v1/me/blocks/bob", headers=bob.auth)
    assert own.status_code == 422 and own.json["error"]["code"] == "self_block"  # type: ignore[index]
    assert client.delete("/v1/me/blocks/spam", headers=bob.auth).status_code == 204
    assert client.get("/v1/me/blocks", headers=bob.auth).json == {"blocks": []}
    again = client.post("/v1/games", json={"invite": ["bob"]}, headers=spam.auth)
    assert again.status_code == 201
    joined = client.post(f"/v1/games/{table['id']}/join", headers=spam.auth)  # type: ignore[index]
    assert joined.status_code == 200


def test_r2_a_declined_private_game_stays_closed_until_its_creator_opens_it(
    client: FlaskClient,
) -> None:
    """Found: a private game whose invitee declined was open to anyone with its id. It now
    stays closed (422 game_closed) until its creator opens it (POST .../open,
    game_opened); an invitee left may still join, and only the creator may open it."""
    ada, bob, cy, eve = (register(client, n) for n in ("ada", "bob", "cy", "eve"))
    game = client.post(
        "/v1/games", json={"invite": ["bob", "cy"], "players": 3}, headers=ada.auth
    ).json
    game_id = game["id"]  # type: ignore[index]
    assert client.post(f"/v1/games/{game_id}/decline", headers=bob.auth).status_code == 200
    closed = client.post(f"/v1/games/{game_id}/join", headers=eve.auth)
    assert closed.status_code == 422
    assert closed.json["error"]["code"] == "game_closed"  # type: ignore[index]
    assert client.post(f"/v1/games/{game_id}/join", headers=cy.auth).status_code == 200
    assert client.post(f"/v1/games/{game_id}/join", headers=bob.auth).status_code == 422
    not_yours = client.post(f"/v1/games/{game_id}/open", headers=cy.auth)
    assert not_yours.json["error"]["code"] == "not_creator"  # type: ignore[index]
    opened = client.post(f"/v1/games/{game_id}/open", headers=ada.auth)
    assert opened.status_code == 200
    assert opened.json["events"][-1]["type"] == "game_opened"  # type: ignore[index]
    twice = client.post(f"/v1/games/{game_id}/open", headers=ada.auth)
    assert twice.json["error"]["code"] == "not_closed"  # type: ignore[index]
    started = client.post(f"/v1/games/{game_id}/join", headers=eve.auth)
    assert started.status_code == 200 and started.json["status"] == "playing"  # type: ignore[index]
    assert client.get(f"/games/{game_id}").status_code == 200  # the page reads game_opened
    # A game no invitee declined is as open as it was.
    plain = client.post("/v1/games", json={}, headers=ada.auth).json
    assert client.post(f"/v1/games/{plain['id']}/join", headers=eve.auth).status_code == 200  # type: ignore[index]


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


def test_r2_only_the_operator_s_players_give_a_seed_on_a_closed_server(
    store_url: str,
) -> None:
    """Only the operator (or an organiser) may give a seed: with MATHABLE_ALLOW_SEEDS and
    MATHABLE_ALLOW_GIVEN_TILES off, the players listed in MATHABLE_SEED_PLAYERS (by id)
    still may, and nobody else."""
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


def test_r2_a_stranger_cannot_take_the_right_to_give_a_seed_by_a_name(store_url: str) -> None:
    """Found (review 27): MATHABLE_SEED_PLAYERS named players by name, and anyone could
    register a listed name the operator had not taken yet (or had given up). It now
    lists player ids, which nobody chooses; a name in it stops the server from starting
    with a message saying so."""
    import pytest

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


def test_r2_a_player_sits_in_one_unfinished_game_of_a_bag_order(store_url: str) -> None:
    """Found (review 27): pat and quin each sat in two running games of one seed (an
    organiser's duplicate games) and read, from one seat, the rack the other held in
    the other game. A seat in a game whose bag order an unfinished game the player sits
    in draws too (one seed, one given order) is now refused, 422 same_order naming that
    game, open or invited, whichever game they took first; once it ends, they may."""
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


def test_r2_two_joins_at_once_of_one_order_seat_the_player_once(store_url: str) -> None:
    """The check is made in the join's transaction, after a lock on the player: of two
    joins of one player to two games of one order at the same moment, one is refused."""
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


def test_r2_a_withheld_game_shows_no_other_seat_s_deductions(store_url: str) -> None:
    """Found (review 27): while a finished game's order was withheld, its result still
    gave each seat's deduction (the tiles left on its rack), which were the running
    game's rack sums. While withheld, game_ended (answer and feed) and the view's
    result show the viewer's own deduction and final score only, no winners, and the
    seats' scores before the end; once the order is revealed, everything."""
    app, (org, org2, ada, bob) = _closed_server(store_url, "org", "org2", "ada", "bob",
                                                operators=2)  # fmt: skip
    client = app.test_client()
    running = started_game(client, org, ada, seed=9)
    probe = started_game(client, org2, bob, seed=9)
    ended = _resign(client, bob, probe)
    racks = [client.get(f"/v1/games/{running['id']}", headers=w.auth).json["rack"]  # type: ignore[index]
             for w in (org, ada)]  # fmt: skip
    sums = [sum(rack) for rack in racks]
    stored = [s.event for s in _services(client).store.events_after(probe["id"], 0)]
    truth = next(e for e in stored if e.type == "game_ended")
    assert list(truth.deductions) == sums  # type: ignore[attr-defined]  # what was leaking

    def shown(who: Account | None) -> list[dict[str, Any]]:
        view = client.get(f"/v1/games/{probe['id']}", headers=who.auth if who else {}).json
        return [view["result"], _of(_feed(client, probe["id"], who), "game_ended")]  # type: ignore[index]

    own = {org2.id: 0, bob.id: 1}
    for result in [_of(ended["events"], "game_ended"), ended["result"], *shown(bob)]:
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
    _resign(client, ada, running)
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


def test_r2_verify_says_a_withheld_order_cannot_be_checked_yet() -> None:
    """``mathable-cli verify`` (``events_from_feed``) reads a withheld draws_revealed as a
    refusal that says so, not as a broken log."""
    import pytest

    from mathable.core.audit import events_from_feed
    from mathable.core.errors import RuleError

    feed = [{"type": "draws_revealed", "order": None, "salt": None, "withheld": True}]
    with pytest.raises(RuleError, match="withholds this game's bag order"):
        events_from_feed(feed)
