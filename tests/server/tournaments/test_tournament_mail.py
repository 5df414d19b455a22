"""A tournament's mail: each player with a verified address is told when a round begins
(with their games) and when the tournament is over; and the streams' news."""

from __future__ import annotations

import json

from flask import Flask

from tests.server.apps import make_app
from tests.server.helpers import move, register
from tests.server.mailbox import Mailbox, text_of
from tests.server.mailing import deliver, verify


def test_round_and_end_mail(mail_app: Flask, mailbox: Mailbox) -> None:
    client = mail_app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    verify(client, mail_app, mailbox, ada, "ada@example.org")
    verify(client, mail_app, mailbox, bob, "bob@example.org")
    made = client.post("/v1/tournaments", json={"name": "Club night", "format": "round_robin"},
                       headers=ada.auth)  # fmt: skip
    tid = made.json["id"]
    for who in (ada, bob):
        assert client.post(f"/v1/tournaments/{tid}/join", headers=who.auth).status_code == 200
    started = client.post(f"/v1/tournaments/{tid}/start", headers=ada.auth)
    game_id = started.json["rounds"][0][0]["game_id"]
    deliver(mail_app)
    mail = [text_of(m) for m in mailbox.to("bob@example.org") if "round 1" in m["Subject"]]
    assert len(mail) == 1 and game_id in mail[0] and "Club night" in mail[0]
    # bob resigns: the tournament is over.
    view = client.get(f"/v1/games/{game_id}", headers=bob.auth).json
    assert move(client, bob, game_id, view["version"], type="resign").status_code == 200
    mail_app.extensions["mathable"].tournaments.sweep()
    deliver(mail_app)
    over = [m for m in mailbox.to("ada@example.org") if m["Subject"].endswith("Club night is over")]
    assert len(over) == 1
    shown = client.get(f"/v1/tournaments/{tid}").json
    assert shown["status"] == "finished"
    listed = client.get("/v1/me", headers=bob.auth).json["games"]
    assert listed[0]["tournament"] == {"id": tid, "name": "Club night"}
    assert [s["name"] for s in shown["standings"]] == ["ada", "bob"]


def test_standings_in_the_stream(sqlite_url: str) -> None:
    app = make_app(sqlite_url, stream_seconds=1)
    client = app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    tid = client.post("/v1/tournaments", json={"name": "Pair", "format": "round_robin"},
                      headers=ada.auth).json["id"]  # fmt: skip
    for who in (ada, bob):
        client.post(f"/v1/tournaments/{tid}/join", headers=who.auth)
    started = client.post(f"/v1/tournaments/{tid}/start", headers=ada.auth)
    game_id = started.json["rounds"][0][0]["game_id"]
    view = client.get(f"/v1/games/{game_id}", headers=bob.auth).json
    move(client, bob, game_id, view["version"], type="resign")
    answer = client.get("/v1/me/stream?since=0", headers=ada.auth)
    lines = [json.loads(raw) for raw in answer.get_data().split(b"\n") if raw.strip()]
    news = [line for line in lines if line.get("type") == "standings"]
    assert news[0]["tournament_id"] == tid and news[0]["url"] == f"/v1/tournaments/{tid}"
    assert news[-1]["version"] > news[0]["version"]
