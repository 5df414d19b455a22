"""Play by email through a real SMTP relay (aiosmtpd on a free port): codes, turn mail,
digests, game-over mail, the outbox's retries, unsubscribing. (Replies read and played,
and the bad mail they must survive: mailin/test_replies.py; play addresses closing:
mailin/test_closing.py.)"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from mathable import replay_timed
from mathable.core.ruleset import ruleset
from mathable_server.http.limits import RateLimit
from mathable_server.mailin.inbound import TAKEN
from mathable_server.notify.mail.compose import game_subject
from mathable_server.notify.mail.games import GameMail, game_mail_for
from mathable_server.store.engine import outbox
from tests.server.helpers import Table, example_tiles, move, register, snapshot, started_game
from tests.server.live import server_cli
from tests.server.mailbox import Mailbox, text_of
from tests.server.mailing import (
    ADA_MAIL,
    BOB_MAIL,
    BOB_TURN,
    DOMAIN,
    deliver,
    inbox,
    mailing_app,
    play_ada_turn,
    reply,
    room,
    set_address,
    turn_mail,
    verify,
)
from tests.server.summy_games import summy_game

pytestmark = pytest.mark.both_databases

# --- addresses and codes ---------------------------------------------------------------


def test_email_endpoints_answer_email_disabled_without_smtp(client: FlaskClient) -> None:
    table = Table(client)
    for answer in (
        client.put("/v1/me/email", json={"address": ADA_MAIL}, headers=table.ada.auth),
        client.post("/v1/me/email/verify", json={"code": "123456"}, headers=table.ada.auth),
        client.put("/v1/me/notifications", json={"email": "turn"}, headers=table.ada.auth),
    ):
        assert answer.status_code == 422
        assert answer.json["error"]["code"] == "email_disabled"


def test_a_wrong_code_is_refused_and_leaves_the_address_unverified(
    mail_app: Flask, mailbox: Mailbox
) -> None:
    client = mail_app.test_client()
    table = Table(client)
    assert (
        client.put("/v1/me/email", json={"address": ADA_MAIL}, headers=table.ada.auth).status_code
        == 202
    )
    deliver(mail_app)
    code = re.search(r"code is (\d{6})", text_of(mailbox.to(ADA_MAIL)[-1]))[1]  # type: ignore[index]
    wrong = "000000" if code != "000000" else "111111"
    answer = client.post("/v1/me/email/verify", json={"code": wrong}, headers=table.ada.auth)
    assert answer.status_code == 422 and answer.json["error"]["code"] == "wrong_code"
    shown = client.get("/v1/me/notifications", headers=table.ada.auth).json
    assert shown["verified"] is False
    # The code's row no longer holds the code once the mail went out.
    with room(mail_app).outbox.engine.connect() as conn:
        payloads = [r.payload for r in conn.execute(select(outbox.c.payload))]
    assert all(code not in p for p in payloads)


def test_the_outbox_never_holds_the_code_in_clear(mail_app: Flask, mailbox: Mailbox) -> None:
    client = mail_app.test_client()
    table = Table(client)
    client.put("/v1/me/email", json={"address": ADA_MAIL}, headers=table.ada.auth)
    with room(mail_app).outbox.engine.connect() as conn:
        waiting = [r.payload for r in conn.execute(select(outbox.c.payload))]
    deliver(mail_app)
    code = re.search(r"code is (\d{6})", text_of(mailbox.to(ADA_MAIL)[-1]))[1]  # type: ignore[index]
    assert len(waiting) == 1 and code not in waiting[0] and "nonce" in waiting[0]
    done = client.post("/v1/me/email/verify", json={"code": code}, headers=table.ada.auth)
    assert done.status_code == 200, done.json


def test_code_mails_are_limited_per_player_and_per_address(
    sqlite_url: str, mailbox: Mailbox
) -> None:
    app = mailing_app(sqlite_url, mailbox, code_mail_limit=RateLimit(3 / 3600, 3))
    client = app.test_client()
    table = Table(client)
    for n in range(3):
        assert set_address(client, table.ada, f"ada{n}@example.org").status_code == 202
    refused = set_address(client, table.ada, "ada9@example.org")
    assert refused.status_code == 429 and refused.json["error"]["code"] == "too_many_codes"
    assert int(refused.headers["Retry-After"]) > 0
    # Another player cannot flood one address either.
    for _ in range(3):
        set_address(client, table.bob, BOB_MAIL)
    other = set_address(client, table.eve, BOB_MAIL)
    assert other.status_code == 429 and other.json["error"]["code"] == "too_many_codes"
    deliver(app)
    assert len(mailbox.to(BOB_MAIL)) == 3
    app.extensions["mathable"].store.engine.dispose()


def test_code_mails_to_one_mailbox_under_many_spellings_are_limited_as_one(
    sqlite_url: str, mailbox: Mailbox
) -> None:
    """Second security review (issue 27), code mails: ten spellings of one mailbox got ten
    code mails."""
    app = mailing_app(sqlite_url, mailbox)  # the default limits: 3 an hour per address
    client = app.test_client()
    spellings = [
        "target+1@gmail.com", "t.a.r.g.e.t@gmail.com", "Target@Gmail.com", "target+x@gmail.com",
        "ta.rget+2@googlemail.com", "tar.get@gmail.com", "TARGET+y@GMAIL.COM",
    ]  # fmt: skip
    answers = []
    for n, address in enumerate(spellings):
        who = register(client, f"p{n}")
        answers.append(set_address(client, who, address).status_code)
    assert answers == [202, 202, 202, 429, 429, 429, 429], answers
    routed = set_address(client, register(client, "routed"), "target%gmail.com@example.org")
    assert routed.status_code == 400 and routed.json["error"]["code"] == "bad_address"
    assert "routes through" in routed.json["error"]["message"]
    # Dots elsewhere are left alone: they may be other mailboxes (the per-domain limit holds).
    for n, address in enumerate(["a.b@example.org", "ab@example.org"]):
        assert set_address(client, register(client, f"q{n}"), address).status_code == 202
    app.extensions["mathable"].store.engine.dispose()


def test_code_mails_to_one_domain_are_limited_together(sqlite_url: str, mailbox: Mailbox) -> None:
    """Second security review (issue 27), code mails: a catch-all domain is one mailbox of
    many names."""
    app = mailing_app(sqlite_url, mailbox, code_mail_domain_limit=RateLimit(5 / 3600, 5))
    client = app.test_client()
    answers = [
        set_address(client, register(client, f"p{n}"), f"user{n}@catch-all.example").status_code
        for n in range(7)
    ]
    assert answers == [202] * 5 + [429] * 2, answers
    # Another domain is counted apart.
    assert set_address(client, register(client, "other"), "user@example.org").status_code == 202
    app.extensions["mathable"].store.engine.dispose()


def test_setting_the_same_address_again_keeps_the_wrong_tries(
    mail_app: Flask, mailbox: Mailbox
) -> None:
    client = mail_app.test_client()
    table = Table(client)
    assert set_address(client, table.ada, ADA_MAIL).status_code == 202
    for _ in range(5):
        wrong = client.post("/v1/me/email/verify", json={"code": "000000"}, headers=table.ada.auth)
        assert wrong.json["error"]["code"] in ("wrong_code", "code_expired")
    again = set_address(client, table.ada, ADA_MAIL)
    assert again.status_code == 429 and again.json["error"]["code"] == "too_many_codes"
    # Another address starts afresh.
    assert set_address(client, table.ada, "ada2@example.org").status_code == 202


def test_an_unverified_address_gets_no_game_mail(mail_app: Flask, mailbox: Mailbox) -> None:
    client = mail_app.test_client()
    table = Table(client)
    client.put("/v1/me/email", json={"address": BOB_MAIL}, headers=table.bob.auth)
    play_ada_turn(table)
    deliver(mail_app)
    assert [m["Subject"] for m in mailbox.to(BOB_MAIL)] == [
        "[mathable] Your code to confirm this address"
    ]


# --- turn mail ------------------------------------------------------------------------------


def test_turn_mail_reads_well_and_shows_only_the_recipients_rack(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    play_ada_turn(mail_table)
    deliver(mail_app)
    mail = turn_mail(mailbox, BOB_MAIL)
    assert mail["Subject"] == f"[mathable] Your turn in Mathable {mail_table.id} vs ada"
    assert mail["List-Id"].startswith(f"Mathable game {mail_table.id} <")
    text = text_of(mail)
    bob_view = snapshot(mail_table.client, mail_table.id, mail_table.bob)[0]
    ada_view = snapshot(mail_table.client, mail_table.id, mail_table.ada)[0]
    assert f"Your rack: {' '.join(map(str, bob_view['rack']))}\n" in text
    assert " ".join(map(str, ada_view["rack"])) not in text
    assert "Last turn: ada played I8=12 H6=8 G9=2 F7=1 J8=16 for 39 points." in text
    assert "Scores: ada 39, bob 0" in text
    assert f"mathable-cli move {mail_table.id}" in text
    assert re.fullmatch(rf"play\+{mail_table.id}\.1\.[0-9a-f]{{32}}@{DOMAIN}", mail["Reply-To"])
    assert mail["In-Reply-To"] == f"<mathable.game.{mail_table.id}@{DOMAIN}>"
    assert mail["Message-ID"].startswith(f"<mathable.turn.{mail_table.id}.v")
    assert "mailto:unsubscribe+" in mail["List-Unsubscribe"]
    # ada, who moved, was not told of her own move (preference "turn").
    assert [m["Subject"] for m in mailbox.to(ADA_MAIL)][1:] == []


def test_a_refused_command_writes_no_notification(mail_app: Flask, mail_table: Table) -> None:
    with room(mail_app).outbox.engine.connect() as conn:
        before = conn.execute(select(func.count()).select_from(outbox)).scalar()
    refused = mail_table.send(mail_table.bob, type="pass")
    assert refused.status_code == 403
    with room(mail_app).outbox.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(outbox)).scalar() == before


def test_every_move_and_off_preferences(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    client = mail_table.client
    assert (
        client.put(
            "/v1/me/notifications", json={"email": "every_move"}, headers=mail_table.ada.auth
        ).json["email"]
        == "every_move"
    )
    client.put("/v1/me/notifications", json={"email": "off"}, headers=mail_table.bob.auth)
    play_ada_turn(mail_table)
    deliver(mail_app)
    assert [m["Subject"] for m in mailbox.to(BOB_MAIL)][1:] == []
    assert mailbox.to(ADA_MAIL)[-1]["Subject"] == (
        f"[mathable] A move in Mathable {mail_table.id} vs bob"
    )


def test_relay_down_rows_wait_and_go_out_when_it_is_back(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    mailbox.stop()
    play_ada_turn(mail_table)
    deliver(mail_app)
    waiting = room(mail_app).outbox.rows("pending")
    assert len(waiting) == 1 and waiting[0].attempts >= 1 and waiting[0].last_error
    mailbox.start()
    time.sleep(0.1)  # the backoff of the test settings
    deliver(mail_app)
    assert turn_mail(mailbox, BOB_MAIL)
    assert room(mail_app).outbox.counts()["pending"] == 0


def test_a_row_is_dead_after_its_tries_and_listed(sqlite_url: str, mailbox: Mailbox) -> None:
    app = mailing_app(sqlite_url, mailbox, outbox_max_attempts=2, outbox_base_delay=0.0)
    client = app.test_client()
    table = Table(client)
    verify(client, app, mailbox, table.bob, BOB_MAIL)
    mailbox.stop()
    play_ada_turn(table)
    deliver(app)
    assert [r.kind for r in room(app).outbox.rows("dead")] == ["turn"]
    listed = server_cli("outbox", "--database-url", sqlite_url)
    assert listed.returncode == 0, listed.stderr
    assert "dead 1" in listed.stderr
    assert "\tdead\temail\tturn\t" in listed.stdout and "ConnectionRefusedError" in listed.stdout


def test_a_crash_between_sending_and_marking_sends_once_more_with_the_same_id(
    sqlite_url: str, mailbox: Mailbox
) -> None:
    app = mailing_app(sqlite_url, mailbox, outbox_lease=0.05)
    client = app.test_client()
    table = Table(client)
    verify(client, app, mailbox, table.bob, BOB_MAIL)
    play_ada_turn(table)
    worker = room(app).deliverer(app.extensions["mathable"].games.now)
    (entry,) = worker.box.claim(worker.now())
    worker.senders["email"](entry)  # sent, then the worker "dies" before marking it
    time.sleep(0.1)  # the lease runs out
    assert worker.drain() == 1
    turns = [m for m in mailbox.to(BOB_MAIL) if "Your turn" in str(m["Subject"])]
    assert len(turns) == 2 and turns[0]["Message-ID"] == turns[1]["Message-ID"]


def test_a_digest_goes_out_once_a_day_at_seven_and_lists_the_games_waiting(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    client = mail_table.client
    chosen = client.put("/v1/me/notifications", json={"email": "digest"},
                        headers=mail_table.bob.auth)  # fmt: skip
    assert chosen.status_code == 200 and chosen.json["email"] == "digest"
    second = started_game(client, mail_table.ada, mail_table.bob, tiles=example_tiles(1))["id"]
    play_ada_turn(mail_table)  # bob to move in the first game...
    version = snapshot(client, second)[0]["version"]
    passed = client.post(f"/v1/games/{second}/moves",  # ...and in the second
                         json={"type": "pass", "expected_version": version},
                         headers=mail_table.ada.auth)  # fmt: skip
    assert passed.status_code == 200, passed.json
    deliver(mail_app)  # now (the server's clock): no digest is due yet
    assert not [m for m in mailbox.to(BOB_MAIL) if "digest" in str(m["Subject"])]
    (row,) = room(mail_app).outbox.rows("pending")  # one digest for both games
    assert row.kind == "digest"
    due = datetime.fromtimestamp(row.next_try / 1000, UTC)
    created = datetime.fromtimestamp(row.created_at / 1000, UTC)
    assert (due.hour, due.minute, due.second) == (7, 0, 0)
    assert timedelta(0) < due - created <= timedelta(days=1)
    # The worker's clock reaches 07:00 UTC: the digest goes out, naming both games.
    room(mail_app).deliverer(lambda: row.next_try).drain()
    digest = mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "digest" in str(m["Subject"]))
    text = text_of(digest)
    assert mail_table.id in text and second in text and digest["List-Unsubscribe"]
    assert not [m for m in mailbox.to(BOB_MAIL) if "Your turn" in str(m["Subject"])]


def test_mail_shows_the_rack_sorted_and_the_points_of_a_move_played(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    play_ada_turn(mail_table)
    deliver(mail_app)
    assert inbox(mail_app).receive(reply(turn_mail(mailbox, BOB_MAIL), BOB_TURN)).code == TAKEN
    deliver(mail_app)
    answer = mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "Played:" in text_of(m))
    assert f"Played: {BOB_TURN} for 71 points (with a 50 bonus)\n" in text_of(answer)
    adas = turn_mail(mailbox, ADA_MAIL)
    assert "Your rack: 0 1 1 1 11 17 42\n" in text_of(adas)


def test_the_answer_to_a_resignation_claims_no_points(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    play_ada_turn(mail_table)  # ada's turn scored: the game's last turn stays hers
    deliver(mail_app)
    assert inbox(mail_app).receive(reply(turn_mail(mailbox, BOB_MAIL), "resign")).code == TAKEN
    deliver(mail_app)
    answer = mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "Played:" in text_of(m))
    assert "Played: resign\n" in text_of(answer)
    assert "points" not in text_of(answer).split("Played:")[1].splitlines()[0]


def test_the_game_over_mail_comes_after_the_answer_to_the_move_that_ended_it(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    play_ada_turn(mail_table)
    deliver(mail_app)
    assert inbox(mail_app).receive(reply(turn_mail(mailbox, BOB_MAIL), "resign")).code == TAKEN
    now = mail_app.extensions["mathable"].games.now
    room(mail_app).deliverer(now).drain()
    room(mail_app).deliverer(lambda: now() + 60_000).drain()  # a minute later: all is due
    subjects = [str(m["Subject"]) for m in mailbox.to(BOB_MAIL)]
    answer = next(i for i, s in enumerate(subjects) if s.startswith("Re:"))
    over = next(i for i, s in enumerate(subjects) if "Game over" in s)
    assert answer < over, subjects


def test_the_one_click_unsubscribe_link_turns_game_mail_off(
    sqlite_url: str, mailbox: Mailbox
) -> None:
    app = mailing_app(sqlite_url, mailbox, public_url="http://mathable.test")
    client = app.test_client()
    table = Table(client)
    verify(client, app, mailbox, table.bob, BOB_MAIL)
    play_ada_turn(table)
    deliver(app)
    header = str(turn_mail(mailbox, BOB_MAIL)["List-Unsubscribe"])
    link = re.search(r"<http://mathable\.test(/v1/unsubscribe/[^>]+)>", header)
    assert link is not None and mailbox.to(BOB_MAIL)[-1]["List-Unsubscribe-Post"]
    forged = link[1][:-4] + "0000"
    assert client.post(forged).status_code == 404
    assert client.get(forged).status_code == 404
    # RFC 8058: one-click is a POST. A GET (a link preview, a mail scanner, a click)
    # shows a page asking to confirm, with a form that POSTs; it changes nothing.
    page = client.get(link[1])
    assert page.status_code == 200 and page.content_type.startswith("text/html")
    assert '<form method="post"' in page.get_data(True) and "bob" in page.get_data(True)
    assert client.get("/v1/me/notifications", headers=table.bob.auth).json["email"] == "turn"
    one_click = client.post(link[1], data={"List-Unsubscribe": "One-Click"})
    assert one_click.json == {"email": "off"}
    assert client.get("/v1/me/notifications", headers=table.bob.auth).json["email"] == "off"


def test_the_unsubscribe_page_form_turns_game_mail_off(sqlite_url: str, mailbox: Mailbox) -> None:
    app = mailing_app(sqlite_url, mailbox, public_url="http://mathable.test")
    client = app.test_client()
    table = Table(client)
    verify(client, app, mailbox, table.bob, BOB_MAIL)
    ctx = room(app).context()
    bob = client.get("/v1/me", headers=table.bob.auth).json["id"]
    link = f"/v1/unsubscribe/{bob}.{ctx.unsubscribe_token(bob)}"
    done = client.post(link, data={"confirm": "1"})
    assert done.status_code == 200 and "Game mail is off" in done.get_data(True)
    assert client.get("/v1/me/notifications", headers=table.bob.auth).json["email"] == "off"


# --- Summy ----------------------------------------------------------------------------------


def test_summy_games_get_turn_mail_and_take_moves_in_summy_notation(
    mail_app: Flask, mailbox: Mailbox
) -> None:
    client = mail_app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    verify(client, mail_app, mailbox, ada, ADA_MAIL)
    game = summy_game(client, ada, bob)  # ada (seat 0) holds 1 2 + 3 4 5 x =
    deliver(mail_app)
    mail = turn_mail(mailbox, ADA_MAIL)
    assert mail["Subject"] == f"[mathable] Your turn in Summy {game['id']} vs bob"
    assert mail["List-Id"].startswith(f"Summy game {game['id']} <")
    text = text_of(mail)
    assert "     -1  0  1\n" in text and "\n  0   .  =  .\n" in text  # the table, x and y
    assert "Your hand: + 1 2 3 4 5 = x\n" in text  # hers only: bob holds 6 7 8 9 - : = 0
    assert "-3,0 across 1+2=3" in text and "discard x 9" in text
    # A discard is told as tiles that leave the game (issue 26), never as giving them back.
    assert "out of the game" in text and "give" not in text.lower()
    assert f"mathable-cli move {game['id']} X,Y DIRECTION EQUATION" in text
    assert "I8=12" not in text  # nothing of Mathable's notation
    # A move in Mathable's notation is no Summy move: refused, with the reason.
    assert inbox(mail_app).receive(reply(mail, "I8=12")).code == TAKEN
    assert inbox(mail_app).receive(reply(mail, "-3,0 across 1+2=3")).code == TAKEN
    deliver(mail_app)
    refused = mailbox.wait_for(lambda m: "Nothing was played" in text_of(m))
    assert "-3,0 across 1+2=3" in text_of(refused)  # how to reply, in Summy's words
    played = mailbox.wait_for(lambda m: "Played:" in text_of(m))
    assert "Played: -3,0 across 1+2=3 for 6 points\n" in text_of(played)
    view = client.get(f"/v1/games/{game['id']}", headers=ada.auth).json
    assert view["seats"][0]["score"] == 6 and view["last_play"]["equation"] == "1+2=3"
    # bob discards; ada discards by mail.
    discarded = move(client, bob, game["id"], view["version"], type="discard", tiles=["6"])
    assert discarded.status_code == 200, discarded.json
    deliver(mail_app)
    second = [m for m in mailbox.to(ADA_MAIL) if m["Subject"].startswith("[mathable] Your turn")]
    assert len(second) == 2 and "Last turn: bob discarded 1 tile." in text_of(second[-1])
    assert "Last turn:" not in text_of(second[0])  # the game's first turn
    assert inbox(mail_app).receive(reply(second[-1], "discard x")).code == TAKEN
    deliver(mail_app)
    # The answer to the discard: no points (it was "Played: discard x for 6 points", the
    # points of ada's equation before it).
    answered = mailbox.wait_for(lambda m: "Played: discard x" in text_of(m))
    assert "Played: discard x\n" in text_of(answered) and "points" not in text_of(answered)
    after = client.get(f"/v1/games/{game['id']}", headers=ada.auth).json
    assert "x" not in after["hand"] and after["turn"]["seat"] == 1
    # The last turn in words, as the next turn mail tells it.
    discarded = _state_of(mail_app, game["id"])
    words = game_mail_for(discarded)
    assert words.last_turn(discarded, ["ada", "bob"]) == "ada discarded 1 tile."
    played = _state_of(mail_app, game["id"], version=view["version"])
    assert words.last_turn(played, ["ada", "bob"]) == "ada played 1+2=3 for 6 points."


def _state_of(app: Flask, game_id: str, version: int | None = None) -> Any:
    store = app.extensions["mathable"].store
    stored = store.events_after(game_id, 0, limit=version or 10_000)
    return replay_timed((s.at, s.event) for s in stored)[0]


def test_a_summy_mail_says_a_discard_puts_tiles_out_of_the_game() -> None:
    help_text = ruleset("summy").reply_help()
    assert "discard x 9" in help_text and "out of the game" in help_text
    assert "give" not in help_text.lower() and "back and draw" not in help_text


def test_the_subject_of_a_game_mail_names_its_game() -> None:
    names = ["ada", "bob"]
    for name, shown in (("summy", "Summy"), ("mathable", "Mathable")):
        game = GameMail(ruleset(name)).game_name
        assert game == shown
        turn = game_subject("turn", "g7", 0, names, game)
        assert turn == f"[mathable] Your turn in {shown} g7 vs bob"
        over = game_subject("finished", "g7", 1, names, game)
        assert over == f"[mathable] Game over in {shown} g7 vs ada"
        moved = game_subject("moved", "g7", 0, names, game)
        assert moved == f"[mathable] A move in {shown} g7 vs bob"


def test_a_summy_turn_mail_shows_the_table_as_a_picture(sqlite_url: str, mailbox: Mailbox) -> None:
    pytest.importorskip("cairosvg", reason="the pictures extra (CairoSVG) is not installed")
    mail_app = mailing_app(sqlite_url, mailbox, mail_pictures=True)
    client = mail_app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    verify(client, mail_app, mailbox, ada, ADA_MAIL)
    summy_game(client, ada, bob)
    deliver(mail_app)
    mail = turn_mail(mailbox, ADA_MAIL)
    assert mail.get_content_type() == "multipart/alternative"
    images = [p for p in mail.walk() if p.get_content_type() == "image/png"]
    assert len(images) == 1 and images[0].get_content().startswith(b"\x89PNG\r\n\x1a\n")
    page = mail.get_body(preferencelist=("html",))
    assert page is not None
    assert "Summy table, 1 tile." in page.get_content()  # the picture in words
    assert "Your hand: + 1 2 3 4 5 = x." in page.get_content()  # hers: no other hand
    mail_app.extensions["mathable"].store.engine.dispose()


# --- the board as a picture -----------------------------------------------------------------


def test_the_turn_mail_shows_the_board_as_a_picture_beside_the_text(
    sqlite_url: str, mailbox: Mailbox
) -> None:
    pytest.importorskip("cairosvg", reason="the pictures extra (CairoSVG) is not installed")
    mail_app = mailing_app(sqlite_url, mailbox, mail_pictures=True)
    client = mail_app.test_client()
    mail_table = Table(client)
    verify(client, mail_app, mailbox, mail_table.bob, BOB_MAIL)
    play_ada_turn(mail_table)
    deliver(mail_app)
    mail = turn_mail(mailbox, BOB_MAIL)
    assert mail.get_content_type() == "multipart/alternative"
    plain = mail.get_body(preferencelist=("plain",))
    page = mail.get_body(preferencelist=("html",))
    assert plain is not None and page is not None
    assert "Your rack: 3 4 6 7 7 8 21" in plain.get_content()
    images = [p for p in mail.walk() if p.get_content_type() == "image/png"]
    assert len(images) == 1 and images[0].get_content().startswith(b"\x89PNG\r\n\x1a\n")
    cid = str(images[0]["Content-ID"]).strip("<>")
    html_text = page.get_content()
    assert f'src="cid:{cid}"' in html_text and "Your rack: 3, 4, 6, 7, 7, 8, 21." in html_text
    # Replies still read: the plain part is what a reply quotes and what the server reads.
    assert inbox(mail_app).receive(reply(mail, BOB_TURN)).code == TAKEN
    assert snapshot(mail_table.client, mail_table.id)[0]["seats"][1]["score"] == 121
    mail_app.extensions["mathable"].store.engine.dispose()


def test_by_default_the_turn_mail_is_plain_text(sqlite_url: str, mailbox: Mailbox) -> None:
    app = mailing_app(sqlite_url, mailbox)
    client = app.test_client()
    table = Table(client)
    verify(client, app, mailbox, table.bob, BOB_MAIL)
    play_ada_turn(table)
    deliver(app)
    assert turn_mail(mailbox, BOB_MAIL).get_content_type() == "text/plain"
    app.extensions["mathable"].store.engine.dispose()


def test_a_game_over_mail_withholds_what_a_shared_order_would_tell(
    mail_app: Flask, mailbox: Mailbox
) -> None:
    """Found (review 27): while a finished game's bag order is withheld (another game of
    its seed is running), its game-over mail named the winner and the final scores; a
    final score and the score before the end give a deduction, the sum of a rack the
    running game may deal. The mail gives the scores before the end and no winner."""
    client = mail_app.test_client()
    ada, cy, dan, bob = (register(client, name) for name in ("ada", "cy", "dan", "bob"))
    verify(client, mail_app, mailbox, bob, BOB_MAIL)
    started_game(client, ada, cy, seed=9)  # the game still running
    probe = started_game(client, dan, bob, seed=9)
    view = client.get(f"/v1/games/{probe['id']}", headers=bob.auth).json
    assert move(client, bob, probe["id"], view["version"], type="resign").status_code == 200  # type: ignore[index]
    now = mail_app.extensions["mathable"].games.now
    room(mail_app).deliverer(lambda: now() + 60_000).drain()  # a minute later: all is due
    over = mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "Game over" in str(m["Subject"]))
    text = text_of(over)
    assert " won." not in text and "Who won" in text
    assert "Scores before the end: dan 0, bob 0" in text


def test_the_digest_names_the_deadlines_within_a_day_in_the_players_time(
    mail_app: Flask, mailbox: Mailbox, mail_table: Table
) -> None:
    client = mail_table.client
    bob = mail_table.bob.auth
    client.put("/v1/me/notifications", json={"email": "digest"}, headers=bob)
    zone = client.patch("/v1/me", json={"time_zone": "America/New_York"}, headers=bob)
    assert zone.status_code == 200
    hurried = started_game(
        client, mail_table.ada, mail_table.bob, tiles=example_tiles(1), clock={"per_move": 3600}
    )["id"]
    play_ada_turn(mail_table)  # bob to move in the unclocked game...
    version = snapshot(client, hurried)[0]["version"]
    client.post(f"/v1/games/{hurried}/moves", json={"type": "pass", "expected_version": version},
                headers=mail_table.ada.auth)  # fmt: skip
    (row,) = [r for r in room(mail_app).outbox.rows("pending") if r.kind == "digest"]
    room(mail_app).deliverer(lambda: row.next_try).drain()
    digest = mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "digest" in str(m["Subject"]))
    lines = {line.split(":")[0].strip(): line for line in text_of(digest).splitlines()}
    assert "(America/New_York)" in lines[hurried] and ", due " in lines[hurried]
    assert "due" not in lines[mail_table.id]  # no clock: no deadline


def test_the_game_over_mail_has_the_result_with_the_deductions_the_link_and_the_rematch(
    database_url: str, mailbox: Mailbox
) -> None:
    app = mailing_app(database_url, mailbox, public_url="http://mathable.test")
    client = app.test_client()
    table = Table(client)
    verify(client, app, mailbox, table.bob, BOB_MAIL)
    play_ada_turn(table)
    for _ in range(12):  # everybody passes until the game ends on its idle turns
        view = client.get(f"/v1/games/{table.id}", headers=table.ada.auth).json
        if view["status"] == "ended":
            break
        mover = table.ada if view["turn"]["seat"] == 0 else table.bob
        table.ok(mover, type="pass")
    assert client.get(f"/v1/games/{table.id}").json["status"] == "ended"
    room(app).deliverer(lambda: app.extensions["mathable"].games.now() + 60_000).drain()
    over = mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "Game over" in str(m["Subject"]))
    text = text_of(over)
    result = client.get(f"/v1/games/{table.id}").json["result"]
    taken = ", ".join(
        f"{name} {-d:+d}" for name, d in zip(("ada", "bob"), result["deductions"], strict=True)
        if d
    )
    assert taken and f"The tiles left at the end counted: {taken}." in text
    assert f"The game: http://mathable.test/games/{table.id}" in text
    assert f"mathable-cli rematch {table.id}" in text
    assert f"the Rematch button of http://mathable.test/play/{table.id}" in text


