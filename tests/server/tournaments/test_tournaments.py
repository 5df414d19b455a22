"""Tournaments over the API, with the clock moved by the test (``MovableTime``): a Swiss
of 7, a round robin of 4 one leaves, a duplicate of 4 tables, a league of 8 over two
seasons, and two processes beginning one round at once. On SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from mathable.core.ruleset import ruleset
from mathable_server.games.timesource import MovableTime
from tests.server.apps import close_app
from tests.server.clocks import MONDAY
from tests.server.helpers import Account, move, register

pytestmark = pytest.mark.both_databases


@pytest.fixture
def time() -> MovableTime:
    return MovableTime(MONDAY)


@pytest.fixture
def world(store_url: str, time: MovableTime) -> Iterator[Flask]:
    from mathable_server import Settings, create_app

    app = create_app(Settings(database_url=store_url, pool_size=4), time=time)
    from tests.server.apps import _OPEN_APPS, ContractClient

    app.test_client_class = ContractClient
    _OPEN_APPS.append(app)
    yield app
    close_app(app)


def players(app: Flask, count: int) -> list[Account]:
    client = app.test_client()
    return [register(client, f"pl{i}") for i in range(count)]


def make(app: Flask, who: Account, **body: Any) -> dict[str, Any]:
    answer = app.test_client().post("/v1/tournaments", json=body, headers=who.auth)
    assert answer.status_code == 201, answer.json
    found: dict[str, Any] = answer.json  # type: ignore[assignment]
    return found


def post(app: Flask, who: Account, tid: str, action: str) -> Any:
    return app.test_client().post(f"/v1/tournaments/{tid}/{action}", headers=who.auth)


def shown(app: Flask, tid: str) -> dict[str, Any]:
    answer = app.test_client().get(f"/v1/tournaments/{tid}")
    assert answer.status_code == 200
    found: dict[str, Any] = answer.json  # type: ignore[assignment]
    return found


def service(app: Flask) -> Any:
    return app.extensions["mathable"].tournaments


def by_name(accounts: list[Account]) -> dict[str, Account]:
    return {a.name: a for a in accounts}


def resign(app: Flask, who: Account, game_id: str) -> None:
    client = app.test_client()
    view = client.get(f"/v1/games/{game_id}", headers=who.auth).json
    answer = move(client, who, game_id, view["version"], type="resign")
    assert answer.status_code == 200, answer.json


def play_one(app: Flask, accounts: dict[str, Account], game_id: str) -> Account:
    """The first seat that can place a tile does (one where it scores) and ends the turn;
    its player. A seat whose rack fits nowhere passes first (the order is dealt from the
    server's secret: a rack of only large numbers happens, and every table of a duplicate
    round holds it)."""
    games = app.extensions["mathable"].games
    client = app.test_client()
    for _ in range(4):
        state = games.state(game_id)
        seat = state.turn.seat
        names = app.extensions["mathable"].names.lookup([state.seats[seat].player])
        who = accounts[names[state.seats[seat].player]]
        commands = ruleset(state.ruleset).legal_commands(state, seat)
        if commands:
            break
        answer = move(client, who, game_id, state.version, type="pass")
        assert answer.status_code == 200, answer.json
    command = dict(commands[0])
    command.pop("points", None)
    answer = move(client, who, game_id, state.version, **command)
    assert answer.status_code == 200, answer.json
    answer = move(client, who, game_id, answer.json["version"], type="end_turn")
    assert answer.status_code == 200, answer.json
    return who


def finish_round(app: Flask, accounts: dict[str, Account], games: list[dict[str, Any]],
                 loser: Any = None) -> None:  # fmt: skip
    """Each unfinished game of the round ends: its last seat (or ``loser(seats)``) resigns."""
    for game in games:
        if game["game_id"] is None or game["result"] is not None:
            continue
        seats = game["seats"]
        who = loser(seats) if loser else seats[-1]
        resign(app, accounts[who], game["game_id"])


def test_swiss_of_seven_over_three_rounds(world: Flask) -> None:
    accounts = players(world, 7)
    names = by_name(accounts)
    made = make(world, accounts[0], name="Tuesday Swiss", format="swiss", rounds=3)
    tid = made["id"]
    for a in accounts:
        assert post(world, a, tid, "join").status_code == 200
    assert post(world, accounts[1], tid, "start").status_code == 403
    started = post(world, accounts[0], tid, "start")
    assert started.status_code == 200, started.json
    met: set[frozenset[str]] = set()
    byes = []
    for number in range(1, 4):
        view = shown(world, tid)
        assert view["status"] == "running" and len(view["rounds"]) == number
        this = view["rounds"][-1]
        byes += [g["seats"][0] for g in this if g["game_id"] is None]
        for game in this:
            if game["game_id"] is not None:
                pair = frozenset(game["seats"])
                assert pair not in met, "a rematch"
                met.add(pair)
        finish_round(world, names, this)
        service(world).sweep()
    view = shown(world, tid)
    assert view["status"] == "finished"
    assert len(byes) == 3 and len(set(byes)) == 3
    assert sum(line["points"] for line in view["standings"]) == 3 * 3 + 3  # 9 games, 3 byes
    top = view["standings"][0]
    assert top["points"] >= view["standings"][1]["points"]


def test_round_robin_of_four_with_one_leaving(world: Flask) -> None:
    accounts = players(world, 4)
    names = by_name(accounts)
    tid = make(world, accounts[0], name="Friends", format="round_robin", clock="7d")["id"]
    for a in accounts:
        post(world, a, tid, "join")
    post(world, accounts[0], tid, "start")
    view = shown(world, tid)
    games = view["rounds"][0]
    assert len(games) == 6
    # Half the games end; then pl3 leaves: their unfinished games are resigned.
    first = [g for g in games if "pl3" not in g["seats"]][:2]
    finish_round(world, names, first, loser=lambda seats: seats[0])
    left = post(world, names["pl3"], tid, "leave")
    assert left.status_code == 200
    view = shown(world, tid)
    assert "pl3" in view["left"] and "pl3" not in view["players"]
    for game in view["rounds"][0]:
        if "pl3" in game["seats"]:
            assert game["result"] is not None
            seat = game["seats"].index("pl3")
            assert game["result"]["places"][seat] == 2
    finish_round(world, names, view["rounds"][0])
    service(world).sweep()
    view = shown(world, tid)
    assert view["status"] == "finished"
    assert [line["played"] for line in view["standings"]] == [3, 3, 3, 3]
    assert view["standings"][-1]["name"] == "pl3"
    assert len(view["crosstable"]) == 4 and all(len(row) == 3 for row in view["crosstable"])
    last = view["crosstable"][-1]  # pl3 lost every game: took nothing from anyone
    assert last == {"1": 0.0, "2": 0.0, "3": 0.0}
    assert post(world, names["pl3"], tid, "leave").status_code == 409


def test_duplicate_of_four_tables(world: Flask, time: MovableTime) -> None:
    accounts = players(world, 8)
    names = by_name(accounts)
    svc = service(world)
    from mathable_server.tournaments.service import Spec

    tid = svc.create(None, Spec(name="Duplicate night", ruleset="mathable",
                                format="duplicate", rounds=1, rated=False))  # fmt: skip
    for a in accounts:
        post(world, a, tid, "join")
    svc.start(tid, None)
    view = shown(world, tid)
    tables = view["rounds"][0]
    assert len(tables) == 4
    games = world.extensions["mathable"].games
    store = world.extensions["mathable"].store
    states = [games.state(t["game_id"]) for t in tables]
    # One order for every table of the round.
    assert len({s.options.order for s in states}) == 1
    # Two tables play a tile each before resigning; two resign at once.
    for index, table in enumerate(tables):
        loser = names[table["seats"][1]]
        if index < 2:
            mover = play_one(world, names, table["game_id"])
            loser = next(names[n] for n in table["seats"] if n != mover.name)
        resign(world, loser, table["game_id"])
        ended = games.state(table["game_id"])
        from mathable_server.games.orders import order_withheld

        withheld = order_withheld(store, table["game_id"], ended)
        assert withheld == (index < 3), "withheld until the last table ends"
    svc.sweep()
    view = shown(world, tid)
    assert view["status"] == "finished"
    points = {line["name"]: line["points"] for line in view["standings"]}
    scores = {}
    for table in view["rounds"][0]:
        for seat, name in enumerate(table["seats"]):
            scores[name] = table["result"]["scores"][seat]
    average = sum(scores.values()) / len(scores)
    for name, score in scores.items():
        assert points[name] == pytest.approx(score - average, abs=0.01)
    assert view["standings"][0]["points"] > 0 > view["standings"][-1]["points"]


def test_a_table_s_result_is_withheld_while_its_bag_order_is(world: Flask) -> None:
    """Fourth review, finding 1: a duplicate round's first table to end shows no final
    scores (they give the racks' tiles, which the other table still draws) on the API
    or the page, and counts in no standings, until the last table has ended."""
    accounts = players(world, 4)
    names = by_name(accounts)
    svc = service(world)
    from mathable_server.tournaments.service import Spec

    tid = svc.create(None, Spec(name="Pairs", ruleset="mathable", format="duplicate",
                                rounds=1, rated=False))  # fmt: skip
    for a in accounts:
        post(world, a, tid, "join")
    svc.start(tid, None)
    first, last = shown(world, tid)["rounds"][0]
    resign(world, names[first["seats"][0]], first["game_id"])
    final = world.extensions["mathable"].games.state(first["game_id"]).result.scores
    view = shown(world, tid)
    table = view["rounds"][0][0]
    assert table["result"] == {"places": None, "scores": None, "reason": None, "withheld": True}
    assert [line["played"] for line in view["standings"]] == [0, 0, 0, 0]
    page = world.test_client().get(f"/tournaments/{tid}").get_data(as_text=True)
    assert " – ".join(str(s) for s in final) not in page
    assert "who won shows once the other games of its bag order have ended" in page
    resign(world, names[last["seats"][0]], last["game_id"])
    view = shown(world, tid)
    assert view["rounds"][0][0]["result"]["scores"] == list(final)
    assert sorted(line["played"] for line in view["standings"]) == [1, 1, 1, 1]
    page = world.test_client().get(f"/tournaments/{tid}").get_data(as_text=True)
    assert " – ".join(str(s) for s in final) in page


def test_a_duplicate_round_counts_in_no_rating_or_total(world: Flask) -> None:
    """Security review (fourth, the ratings of withheld games): a duplicate tournament
    asked rated is made unrated, and its tables, ended by passes (every seat played a
    turn; the winner the smaller rack, which tells of tiles the other table still
    deals), move no rating, leaderboard row or total while the other table plays, nor
    once the round's order is revealed."""
    accounts = players(world, 4)
    names = by_name(accounts)
    svc = service(world)
    from mathable_server.tournaments.service import Spec

    tid = svc.create(None, Spec(name="Rated pairs?", ruleset="mathable", format="duplicate",
                                rounds=1, rated=True))  # fmt: skip
    assert shown(world, tid)["rated"] is False
    for a in accounts:
        assert post(world, a, tid, "join").status_code == 200
    svc.start(tid, None)
    client = world.test_client()

    def counted() -> list[Any]:
        shown: list[Any] = [client.get("/v1/leaderboard?ruleset=mathable").json["players"]]
        for a in accounts:
            shown.append(client.get(f"/v1/players/{a.name}").json["ratings"])
            page = client.get(f"/players/{a.name}").get_data(as_text=True)
            shown.append("0 won, 0 lost, 0 drawn" in page)
            for b in accounts:
                if b is not a:
                    record = client.get(f"/v1/players/{a.name}/record?against={b.name}").json
                    shown.append((record["wins"], record["losses"], record["draws"]))
        return shown

    nothing = counted()
    assert nothing[0] == [] and nothing[1] == {} and nothing[2] is True
    tables = shown(world, tid)["rounds"][0]
    for index, table in enumerate(tables):
        game_id = table["game_id"]
        seat = names[table["seats"][0]]
        assert client.get(f"/v1/games/{game_id}", headers=seat.auth).json["rated"] is False
        view = client.get(f"/v1/games/{game_id}", headers=seat.auth).json
        while view["status"] == "playing":
            mover = names[table["seats"][view["turn"]["seat"]]]
            answer = move(client, mover, game_id, view["version"], type="pass")
            assert answer.status_code == 200, answer.json
            view = client.get(f"/v1/games/{game_id}", headers=seat.auth).json
        assert view["result"]["reason"] == "no_placements"
        assert (view["result"]["winners"] is None) == (index == 0)  # withheld, then shown
        assert counted() == nothing, f"after table {index + 1} ended"


def test_league_of_eight_over_two_seasons(world: Flask, time: MovableTime) -> None:
    accounts = players(world, 8)
    names = by_name(accounts)
    svc = service(world)
    from mathable_server.tournaments.service import Spec

    tid = svc.create(None, Spec(name="Championship", ruleset="mathable", format="league",
                                division_size=4, season_break_hours=168, rated=False))  # fmt: skip
    for a in accounts:
        post(world, a, tid, "join")
    svc.start(tid, None)
    view = shown(world, tid)
    season1 = view["rounds"][0]
    assert len(season1) == 12  # two divisions of 4: 6 games each
    divisions = {line["name"]: line["division"] for line in view["standings"]}
    assert sorted(divisions.values()) == [0] * 4 + [1] * 4
    # The lower seat name always wins: a clear order in each division.
    finish_round(world, names, season1, loser=lambda seats: max(seats))
    svc.sweep()
    view = shown(world, tid)
    assert view["status"] == "running" and view["next_at"] == MONDAY + 168 * 3_600_000
    first_standings = view["standings"]
    top = [s["name"] for s in first_standings if s["division"] == 0]
    bottom = [s["name"] for s in first_standings if s["division"] == 1]
    time.advance(hours=168)
    svc.sweep()
    view = shown(world, tid)
    assert view["round"] == 2 and len(view["rounds"]) == 2
    assert sorted(view["players"]) == sorted(a.name for a in accounts)
    new = {s["name"]: s["division"] for s in view["standings"]}
    assert {new[p] for p in bottom[:2]} == {0}, "the top two went up"
    assert {new[p] for p in top[2:]} == {1}, "the bottom two went down"
    assert {new[p] for p in top[:2]} == {0} and {new[p] for p in bottom[2:]} == {1}


def test_two_processes_begin_one_round_once(store_url: str, time: MovableTime,
                                            world: Flask) -> None:  # fmt: skip
    from mathable_server import Settings, create_app

    other = create_app(Settings(database_url=store_url, pool_size=4), time=time)
    try:
        accounts = players(world, 6)
        tid = make(world, accounts[0], name="Race", format="round_robin",
                   starts_at=MONDAY + 3_600_000)["id"]  # fmt: skip
        for a in accounts:
            post(world, a, tid, "join")
        time.advance(hours=2)
        barrier = threading.Barrier(2)
        errors: list[BaseException] = []

        def run(app: Flask) -> None:
            try:
                barrier.wait()
                service(app).advance(tid)
            except BaseException as err:  # pragma: no cover - shown below
                errors.append(err)

        threads = [threading.Thread(target=run, args=(a,)) for a in (world, other)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        service(other).sweep()
        view = shown(world, tid)
        games = view["rounds"][0]
        assert len(view["rounds"]) == 1 and len(games) == 15
        store = world.extensions["mathable"].store
        for game in games:
            assert store.version(game["game_id"]) is not None
        assert len({g["game_id"] for g in games}) == 15
    finally:
        other.extensions["mathable"].follower.stop()
        other.extensions["mathable"].held_polls.stop()
        other.extensions["mathable"].store.engine.dispose()


def test_refusals(world: Flask) -> None:
    accounts = players(world, 2)
    client = world.test_client()
    league = client.post("/v1/tournaments", json={"name": "L", "format": "league"},
                         headers=accounts[0].auth)  # fmt: skip
    assert league.status_code == 403 and league.json["error"]["code"] == "operator_only"
    bad = client.post("/v1/tournaments", json={"name": "S", "format": "swiss"},
                      headers=accounts[0].auth)  # fmt: skip
    assert bad.status_code == 422 and bad.json["error"]["code"] == "rounds_required"
    for name in ("Cup\r\nBcc: x@example.org", " Cup", "", "x" * 81):
        answer = client.post("/v1/tournaments", json={"name": name, "format": "round_robin"},
                             headers=accounts[0].auth)  # fmt: skip
        assert answer.status_code == 400, name
    odd = client.post("/v1/tournaments", json={"name": "Cup", "format": "round_robin",
                      "clock": "2d", "seats": 5}, headers=accounts[0].auth)  # fmt: skip
    assert odd.status_code == 400
    assert set(odd.json["error"]["details"]["fields"]) == {"clock", "seats"}
    assert client.get("/v1/tournaments").json["tournaments"] == []
    # A retry with the same Idempotency-Key (its answer lost) makes no second tournament.
    keyed = {**accounts[1].auth, "Idempotency-Key": "retry-key-0123456789"}
    body = {"name": "Once", "format": "round_robin"}
    first = client.post("/v1/tournaments", json=body, headers=keyed)
    again = client.post("/v1/tournaments", json=body, headers=keyed)
    assert first.status_code == again.status_code == 201
    assert first.json["id"] == again.json["id"] and again.headers["Idempotent-Replayed"] == "true"
    assert [t["name"] for t in client.get("/v1/tournaments").json["tournaments"]] == ["Once"]
    # Fourth review, (c): the same key asking another tournament is refused, nothing made.
    other = client.post("/v1/tournaments", json={**body, "name": "Twice"}, headers=keyed)
    assert other.status_code == 422, other.json
    assert other.json["error"]["code"] == "idempotency_key_reused"
    assert [t["name"] for t in client.get("/v1/tournaments").json["tournaments"]] == ["Once"]
    assert client.get("/v1/tournaments/tnothere").status_code == 404
    tid = make(world, accounts[0], name="Two", format="round_robin")["id"]
    assert post(world, accounts[0], tid, "start").json["error"]["code"] == "too_few_players"
    assert post(world, accounts[1], tid, "leave").json["error"]["code"] == "not_in_tournament"
    listed = client.get("/v1/tournaments?status=open").json["tournaments"]
    assert sorted(t["name"] for t in listed) == ["Once", "Two"]
