"""Web Push, end to end through a push service of our own on loopback
(``tests.server.push_service``: it checks each push's VAPID signature against the
server's published key and decrypts it with the subscription's keys, as a browser's push
service and the browser would).

A move pushes "your turn" to the seat to move, not to a seat whose play page is open and
visible; 410 removes a subscription; a push service that hangs trips its breaker while
mail and another push service go on at once; nudges wait for a day's turn and come once a
day; a player may keep a kind of news off the mail and have it pushed.
"""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from mathable_server.games.timesource import MovableTime
from mathable_server.notify.worker import Worker, lane_workers
from mathable_server.store.dumps import dump, load
from mathable_server.store.outbox import push_written
from mathable_server.store.push import service_origin
from mathable_server.store.schema import outbox
from tests.server.apps import make_app
from tests.server.clocks import DAY, MONDAY, World
from tests.server.helpers import Table, example_tiles, move
from tests.server.mailbox import Mailbox
from tests.server.mailing import BOB_MAIL, mailing_app, verify
from tests.server.push_service import PushService


@pytest.fixture
def service() -> Iterator[PushService]:
    found = PushService()
    found.start()
    yield found
    found.stop()


def drain(app: Flask) -> int:
    return int(app.extensions["mathable_mail"].deliverer(app.extensions["mathable"].games.now)
               .drain())  # fmt: skip


def subscribe(app: Flask, table: Table, service: PushService, who: str) -> str:
    client = table.client
    service.server_key = client.get("/v1/push/key").json["public_key"]
    account = getattr(table, who)
    answer = client.post("/v1/me/push", json=service.subscribe(f"/{who}"), headers=account.auth)
    assert answer.status_code == 201, answer.json
    return str(answer.json["id"])


@pytest.mark.both_databases
def test_a_move_pushes_your_turn_to_the_seat_to_move_but_not_to_one_watching(
    store_url: str, service: PushService
) -> None:
    app = make_app(store_url, push_allow_private=True, public_url="https://play.example")
    table = Table(app.test_client())
    subscribe(app, table, service, "ada")
    subscribe(app, table, service, "bob")
    table.ok(table.ada, type="pass")
    drain(app)
    (push,) = service.wait(1)
    assert push.path == "/bob"
    assert push.document == {
        "type": "your_turn",
        "game_id": table.id,
        "title": "Your turn against ada",
        "body": f"Mathable {table.id}: it is your turn.",
        "url": f"https://play.example/play/{table.id}",
    }
    assert push.headers["TTL"] == "43200" and push.headers["Urgency"] == "normal"
    assert push.headers["Topic"].startswith("game-") and len(push.headers["Topic"]) <= 32
    assert push.claims["sub"].startswith("mailto:") and push.claims["exp"] > time.time()
    # ada's page is open and visible: her turn is not pushed to her.
    seen = table.client.post("/v1/me/watching", json={"game_id": table.id},
                             headers=table.ada.auth)  # fmt: skip
    assert seen.status_code == 204
    table.ok(table.bob, type="pass")
    drain(app)
    assert len(service.pushes) == 1
    with app.extensions["mathable"].store.engine.connect() as conn:
        states = [r.state for r in conn.execute(
            select(outbox.c.state).where(outbox.c.channel == "push").order_by(outbox.c.id))]
    assert states == ["sent", "skipped"]
    # Hidden again: bob's message is pushed to her, in her language.
    table.client.post("/v1/me/watching", json={"game_id": table.id, "visible": False},
                      headers=table.ada.auth)  # fmt: skip
    assert table.client.patch("/v1/me", json={"language": "fr"},
                              headers=table.ada.auth).status_code == 200  # fmt: skip
    said = table.client.post(f"/v1/games/{table.id}/messages", json={"text": "Bien joué"},
                             headers=table.bob.auth)  # fmt: skip
    assert said.status_code == 201
    drain(app)
    pushes = service.wait(2)
    assert [p.path for p in pushes] == ["/bob", "/ada"]
    assert pushes[-1].document["type"] == "message" and pushes[-1].document["body"] == "Bien joué"
    assert pushes[-1].document["title"] == f"bob a écrit dans Mathable {table.id}"


@pytest.mark.both_databases
def test_only_a_seat_says_it_watches_a_game(store_url: str) -> None:
    """Fourth review, (b): a heartbeat for a game the caller has no seat in (or none at
    all) is refused 403 ``not_seated`` and silences nothing."""
    from mathable_server.store.schema import page_views

    app = make_app(store_url, push_allow_private=True)
    table = Table(app.test_client())
    for who, game in ((table.eve, table.id), (table.ada, "gnosuchgame")):
        said = table.client.post("/v1/me/watching", json={"game_id": game}, headers=who.auth)
        assert said.status_code == 403 and said.json["error"]["code"] == "not_seated"
    with app.extensions["mathable"].store.engine.connect() as conn:
        assert conn.execute(select(page_views)).all() == []
    seen = table.client.post("/v1/me/watching", json={"game_id": table.id},
                             headers=table.bob.auth)  # fmt: skip
    assert seen.status_code == 204


@pytest.mark.both_databases
def test_a_410_removes_the_subscription(store_url: str, service: PushService) -> None:
    app = make_app(store_url, push_allow_private=True)
    table = Table(app.test_client())
    subscribe(app, table, service, "bob")
    service.answers["/bob"] = 410
    table.ok(table.ada, type="pass")
    drain(app)
    service.wait(1)
    listed = table.client.get("/v1/me/push", headers=table.bob.auth)
    assert listed.status_code == 200 and listed.json == {"subscriptions": []}
    with app.extensions["mathable"].store.engine.connect() as conn:
        (state,) = conn.execute(select(outbox.c.state).where(outbox.c.channel == "push")).all()
    assert state.state == "dead"


def test_a_hanging_push_service_trips_its_breaker_and_holds_neither_mail_nor_another(
    sqlite_url: str, mailbox: Mailbox, service: PushService
) -> None:
    hanging = PushService()
    hanging.start()
    try:
        app = mailing_app(sqlite_url, mailbox, push_allow_private=True, webhook_deadline=2.0,
                          webhook_breaker_failures=2, outbox_base_delay=0.0)  # fmt: skip
        client = app.test_client()
        table = Table(client)
        verify(client, app, mailbox, table.bob, BOB_MAIL)
        subscribe(app, table, service, "bob")
        hanging.server_key = service.server_key
        body = hanging.subscribe("/bob-phone")
        assert client.post("/v1/me/push", json=body, headers=table.bob.auth).status_code == 201
        hanging.answers["/bob-phone"] = "hang"
        room = app.extensions["mathable_mail"]
        workers = lane_workers(room.lanes(app.extensions["mathable"].games.now), 0.02)
        for worker in workers:
            worker.start()
        try:
            moved = time.time()
            table.ok(table.ada, type="pass")
            mail = mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "turn" in m["Subject"])
            (push,) = service.wait(1)
            mailed = mailbox.times[mailbox.messages.index(mail)]
            # Both long before the hanging service's deadline (2 s) is up (a loaded
            # machine took 0.98 s to mail against a deadline of 1 s).
            assert mailed - moved < 1.8 and push.at - moved < 1.8
            table.ok(table.bob, type="pass")
            table.ok(table.ada, type="pass")
            store = app.extensions["mathable"].store
            origin = service_origin(hanging.endpoint("/"))
            end = time.monotonic() + 15
            while store.service(origin).paused_until is None and time.monotonic() < end:
                time.sleep(0.05)
            state = store.service(origin)
            assert state.failures >= 2 and state.paused_until is not None
            assert "no answer within 2 s" in (state.last_error or "")
            assert len(service.wait(2)) == 2  # the other service had bob's second turn
        finally:
            for worker in workers:
                worker.stop()
    finally:
        hanging.stop()


def test_turns_pushed_and_not_mailed_when_the_player_says_so(
    sqlite_url: str, mailbox: Mailbox, service: PushService
) -> None:
    app = mailing_app(sqlite_url, mailbox, push_allow_private=True)
    client = app.test_client()
    table = Table(client)
    verify(client, app, mailbox, table.bob, BOB_MAIL)
    subscribe(app, table, service, "bob")
    chosen = client.put("/v1/me/notifications", json={"channels": {"your_turn": "push"}},
                        headers=table.bob.auth)  # fmt: skip
    assert chosen.status_code == 200 and chosen.json["channels"]["your_turn"] == "push"
    assert chosen.json["channels"]["game_over"] == "both" and chosen.json["email"] == "turn"
    mails = len(mailbox.to(BOB_MAIL))
    table.ok(table.ada, type="pass")
    drain(app)
    assert service.wait(1)[0].document["type"] == "your_turn"
    assert len(mailbox.to(BOB_MAIL)) == mails
    bad = client.put("/v1/me/notifications", json={"channels": {"your_turn": "pigeon"}},
                     headers=table.bob.auth)  # fmt: skip
    assert bad.status_code == 400


@pytest.mark.both_databases
def test_subscriptions_at_most_five_checked_and_removed_by_their_owner(
    store_url: str, sqlite_url: str, service: PushService
) -> None:
    app = make_app(store_url, push_allow_private=True)
    table = Table(app.test_client())
    client = table.client
    ids = [client.post("/v1/me/push", json=service.subscribe(f"/d{n}"),
                       headers=table.bob.auth).json["id"] for n in range(6)]  # fmt: skip
    listed = client.get("/v1/me/push", headers=table.bob.auth).json["subscriptions"]
    assert [s["id"] for s in listed] == ids[1:]  # the oldest dropped
    assert listed[0]["service"] == service.origin
    assert client.delete(f"/v1/me/push/{ids[2]}", headers=table.ada.auth).status_code == 404
    assert client.delete(f"/v1/me/push/{ids[2]}", headers=table.bob.auth).status_code == 204
    bad_keys = service.subscribe("/x")
    bad_keys["keys"]["p256dh"] = bad_keys["keys"]["p256dh"][:-8] + "AAAAAAAA"[:8]
    bad_keys["keys"]["auth"] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    refused = client.post("/v1/me/push", json=bad_keys, headers=table.bob.auth)
    assert refused.status_code == 422 and refused.json["error"]["code"] == "push_refused"
    public = make_app(sqlite_url.replace(".db", "-public.db"))
    public_client = public.test_client()
    eve = public_client.post("/v1/players", json={"name": "eve"}).json
    for endpoint in (service.endpoint("/e"), "https://127.0.0.1:9/e", "ftp://x.example/e"):
        body = {**service.subscribe("/e"), "endpoint": endpoint}
        answer = public_client.post("/v1/me/push", json=body,
                                    headers={"Authorization": f"Bearer {eve['token']}"})
        code = answer.json["error"]["code"]
        assert answer.status_code == 422 and code == "push_refused", endpoint


@pytest.mark.both_databases
def test_a_nudge_waits_a_days_turn_and_comes_once_a_day(
    store_url: str, service: PushService
) -> None:
    app = make_app(store_url, push_allow_private=True)
    time_now = MovableTime()
    app.extensions["mathable"].games.time = time_now
    table = Table(app.test_client())
    client = table.client
    subscribe(app, table, service, "ada")
    url = f"/v1/games/{table.id}/nudge"
    early = client.post(url, headers=table.bob.auth)
    assert early.status_code == 422 and early.json["error"]["code"] == "too_early"
    time_now.advance(hours=23)
    assert client.post(url, headers=table.bob.auth).json["error"]["code"] == "too_early"
    mine = client.post(url, headers=table.ada.auth)
    assert mine.status_code == 422 and mine.json["error"]["code"] == "nudge_own_turn"
    assert client.post(url, headers=table.eve.auth).status_code == 403
    time_now.advance(hours=1, seconds=1)
    done = client.post(url, headers=table.bob.auth)
    # Fourth review, (a): the answer names whom, never how they are reached.
    assert done.status_code == 202 and done.json == {"to": "ada"}
    again = client.post(url, headers=table.bob.auth)
    assert again.status_code == 422 and again.json["error"]["code"] == "too_early"
    drain(app)
    (push,) = service.wait(1)
    assert push.document["type"] == "nudge" and push.document["title"] == "bob is waiting for you"
    time_now.advance(hours=24)
    assert client.post(url, headers=table.bob.auth).status_code == 202


def test_time_running_out_is_pushed_with_high_urgency_and_an_invitation_named(
    sqlite_url: str, service: PushService
) -> None:
    app = make_app(sqlite_url, push_allow_private=True)
    moving = MovableTime(MONDAY)
    app.extensions["mathable"].games.time = moving
    world = World(app, moving)
    client = world.client
    service.server_key = client.get("/v1/push/key").json["public_key"]
    for who in (world.ada, world.bob):
        name = "/ada" if who is world.ada else "/bob"
        assert client.post("/v1/me/push", json=service.subscribe(name),
                           headers=who.auth).status_code == 201  # fmt: skip
    assert client.put("/v1/me/notifications", json={"remind_before": 3600},
                      headers=world.ada.auth).status_code == 200  # fmt: skip
    game = world.start({"per_move": DAY, "auto_vacation": False})
    moving.advance(hours=23, seconds=60)
    assert app.extensions["mathable"].store.send_reminders(moving.now_ms()) == 1
    drain(app)
    (push,) = service.wait(1)
    assert push.path == "/ada" and push.headers["Urgency"] == "high"
    assert push.document["type"] == "time_running_out"
    assert push.document["title"] == "Time is running out against bob"
    invited = client.post("/v1/games", json={"invite": ["bob"], "tiles": example_tiles(3)},
                          headers=world.ada.auth)  # fmt: skip
    assert invited.status_code == 201, invited.json
    drain(app)
    pushes = service.wait(2)
    assert pushes[-1].path == "/bob" and pushes[-1].document["type"] == "invitation"
    assert pushes[-1].document["title"] == "ada invites you to Mathable"
    assert pushes[-1].document["game_id"] == invited.json["id"] != game


def test_the_vapid_key_and_the_subscriptions_move_with_a_dump(
    sqlite_url: str, tmp_path: Path, service: PushService
) -> None:
    app = make_app(sqlite_url, push_allow_private=True)
    table = Table(app.test_client())
    subscribe(app, table, service, "bob")
    key = service.server_key
    out = io.StringIO()
    dump(app.extensions["mathable"].store.engine, out)
    moved = make_app(f"sqlite:///{tmp_path / 'moved.db'}", push_allow_private=True)
    load(moved.extensions["mathable"].store.engine, out.getvalue().splitlines())
    client = moved.test_client()
    assert client.get("/v1/push/key").json["public_key"] == key
    assert [s["service"] for s in client.get("/v1/me/push", headers=table.bob.auth)
            .json["subscriptions"]] == [service.origin]  # fmt: skip
    assert move(client, table.ada, table.id, 3, type="pass").status_code == 200
    drain(moved)
    assert service.wait(1)[0].document["type"] == "your_turn"  # signed with the same key


def test_the_games_end_is_pushed_to_the_others_not_to_whoever_ended_it(
    sqlite_url: str, service: PushService
) -> None:
    app = make_app(sqlite_url, push_allow_private=True)
    table = Table(app.test_client())
    subscribe(app, table, service, "ada")
    subscribe(app, table, service, "bob")
    table.ok(table.ada, type="resign")
    drain(app)
    (push,) = service.wait(1)
    assert push.path == "/bob" and push.document["type"] == "game_over"
    assert push.document["title"] == f"Mathable {table.id} is over"
    assert push.document["body"] == "Your game against ada has ended: see the result."


def test_only_a_commit_that_queued_a_push_wakes_a_push_thread(
    store_url: str, service: PushService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A push goes at once: the commit that queued it wakes a push thread. A move that
    pushes nothing (a tile placed) wakes none: no thread, no read of the outbox."""
    woken: list[list[str]] = []
    wake = Worker.wake

    def counted(worker: Worker) -> None:
        woken.append([job.name for job in worker.jobs])
        wake(worker)

    monkeypatch.setattr(Worker, "wake", counted)
    # The threads poll once an hour: only a wake-up sends a push within the test.
    app = make_app(store_url, push_allow_private=True, deliver_seconds=3600)
    push_written()  # what earlier tests' apps queued in this thread, told to none of them
    table = Table(app.test_client())
    subscribe(app, table, service, "bob")
    table.ok(table.ada, type="place", square="I8", tile=12)
    assert woken == []
    table.ok(table.ada, type="end_turn")
    (push,) = service.wait(1)
    assert push.path == "/bob" and push.document["type"] == "your_turn"
    assert len(woken) == 1 and all(name.startswith("push") for name in woken[0])
