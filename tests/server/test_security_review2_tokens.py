"""The second security review (issue 27): play addresses that outlived their owner, and
streams and held long-polls that outlived their token (docs/security.md, "Second review
(issue 27)").

A play address closes when its player's token is rotated or revoked, mail is turned off
or sent elsewhere, or the player asks; mail to it plays nothing and is refused as a
finished game's is. A stream ends, and a held long-poll answers 401, as soon as their
token is replaced or revoked, in every server process: the revocation travels in the
player feed.
"""

from __future__ import annotations

import dataclasses
import json
import os
import smtplib
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
import requests
from flask import Flask

from mathable_server.mailin.inbound import CLOSED, TAKEN, UNKNOWN_ADDRESS
from mathable_server.mailin.smtpd import controller
from tests.server.apps import make_app
from tests.server.cli_runs import cli_output
from tests.server.helpers import Account, Table, snapshot
from tests.server.live import REPO, free_port, live_server
from tests.server.mailbox import Mailbox, text_of
from tests.server.mailing import (
    BOB_MAIL,
    deliver,
    inbox,
    mailing_app,
    play_ada_turn,
    reply,
    turn_mail,
    verify,
)
from tests.server.test_stream import ENV, FIRST_TURN, play, register, start_game

# --- play addresses --------------------------------------------------------------------


def _smtpd_refuses(app: Flask, address: str) -> tuple[int, bytes]:
    """What ``smtpd`` answers at ``RCPT TO`` for ``address`` (a 550 is raised)."""
    port = free_port()
    listener = controller(inbox(app), "127.0.0.1", port)
    listener.start()
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
            with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
                smtp.sendmail("x@elsewhere.example", [address], b"Subject: x\r\n\r\npass\r\n")
    finally:
        listener.stop()
    found: tuple[int, bytes] = next(iter(refused.value.recipients.values()))
    return found


@pytest.mark.parametrize("trigger", ["rotated", "revoked", "mail_off", "moved", "asked"])
def test_r2_a_play_address_closes_when_its_player_leaves_it(
    trigger: str, sqlite_url: str, mailbox: Mailbox
) -> None:
    """The reviewer's case: bob's turn mail went to a mailbox he then left behind; a
    stranger's ``pass`` and ``resign`` to its play address played. Now they play nothing,
    nothing is answered, and the seat's next mail brings a new address that plays."""
    app = mailing_app(sqlite_url, mailbox)
    table = Table(app.test_client())
    client = table.client
    verify(client, app, mailbox, table.bob, BOB_MAIL)
    play_ada_turn(table)
    deliver(app)
    mail = turn_mail(mailbox, BOB_MAIL)
    bob: Account | None = table.bob
    where = BOB_MAIL
    if trigger == "rotated":
        done = client.post("/v1/me/token", headers=table.bob.auth)
        assert done.status_code == 201, done.json
        bob = dataclasses.replace(table.bob, token=done.json["token"])
    elif trigger == "revoked":
        assert client.delete("/v1/me/token", headers=table.bob.auth).status_code == 204
        bob = None
    elif trigger == "mail_off":
        done = client.put("/v1/me/notifications", json={"email": "off"}, headers=table.bob.auth)
        assert done.status_code == 200, done.json
    elif trigger == "moved":
        where = "bob.new@example.org"
        verify(client, app, mailbox, table.bob, where)
    else:
        done = client.delete("/v1/me/play-addresses", headers=table.bob.auth)
        assert (done.status_code, done.json) == (200, {"closed": 1})
        assert done.headers["Cache-Control"] == "no-store"
    deliver(app)
    before = snapshot(client, table.id)
    sent = len(mailbox.messages)
    for body in ("pass", "resign"):
        stranger = reply(mail, body, From="stranger@elsewhere.example")
        outcome = inbox(app).receive(stranger)
        assert (outcome.code, outcome.note) == (UNKNOWN_ADDRESS, CLOSED)
    code, text = _smtpd_refuses(app, str(mail["Reply-To"]))
    assert code == 550 and b"closed" in text
    deliver(app)
    assert len(mailbox.messages) == sent  # nothing answered
    assert snapshot(client, table.id) == before  # nothing played
    if bob is None or trigger == "mail_off":
        return
    # The seat's next turn mail carries a new address; it plays, the old one still not.
    table.ok(bob, type="pass")
    table.ok(table.ada, type="pass")
    deliver(app)
    again = mailbox.wait_for(
        lambda m: m["To"] == where
        and str(m["Subject"]).startswith("[mathable] Your turn")
        and m["Reply-To"] != mail["Reply-To"]
    )
    assert str(again["Reply-To"]).split(".")[:2] == str(mail["Reply-To"]).split(".")[:2]
    version = table.version
    assert inbox(app).receive(reply(again, "pass")).code == TAKEN
    assert snapshot(client, table.id)[0]["version"] > version
    late = inbox(app).receive(reply(mail, "resign", From="stranger@elsewhere.example"))
    assert (late.code, late.note) == (UNKNOWN_ADDRESS, CLOSED)
    assert snapshot(client, table.id)[0]["status"] == "playing"


def test_r2_closing_addresses_needs_the_player_s_token(sqlite_url: str, mailbox: Mailbox) -> None:
    app = mailing_app(sqlite_url, mailbox)
    client = app.test_client()
    assert client.delete("/v1/me/play-addresses").status_code == 401
    bad = {"Authorization": "Bearer p1.nothing"}
    assert client.delete("/v1/me/play-addresses", headers=bad).status_code == 401


def test_r2_the_cli_closes_a_player_s_play_addresses(tmp_path: Any) -> None:
    with live_server(env=ENV) as url:
        env = {k: v for k, v in os.environ.items() if not k.startswith("MATHABLE_")}
        paths = os.pathsep.join(str(REPO / p) for p in ("shared", "client"))
        env |= {"MATHABLE_SERVER": url, "MATHABLE_CONFIG_DIR": str(tmp_path / "ada"),
                "NO_COLOR": "1", "PYTHONPATH": paths}  # fmt: skip
        cli_output(env, "register", "ada")
        said = cli_output(env, "email", "close-addresses")
        assert "0 play address(es) closed" in said
        assert json.loads(cli_output(env, "email", "close-addresses", "--json")) == {"closed": 0}


def _fresh_mail(to: str, body: str, message_id: str | None) -> bytes:
    """A new mail to ``to`` (no In-Reply-To), with a Message-ID or none."""
    head = f"From: bob@example.org\nTo: {to}\nSubject: my move\n"
    if message_id is not None:
        head += f"Message-ID: {message_id}\n"
    return f"{head}\n{body}\n".encode()


def test_r2_a_mail_without_in_reply_to_plays_now_only_if_it_has_a_message_id(
    sqlite_url: str, mailbox: Mailbox
) -> None:
    """Without In-Reply-To a move plays at the game's version now (docs/mail.md: why
    that is safe); without a Message-ID as well, a copy delivered twice would play twice
    (the reviewer's ``pass`` then, redelivered after the opponent's move, ``pass``
    again): such a mail plays nothing and is answered why."""
    app = mailing_app(sqlite_url, mailbox)
    table = Table(app.test_client())
    verify(table.client, app, mailbox, table.bob, BOB_MAIL)
    play_ada_turn(table)
    deliver(app)
    address = str(turn_mail(mailbox, BOB_MAIL)["Reply-To"])
    before = snapshot(table.client, table.id)
    sent = len(mailbox.messages)
    bare = _fresh_mail(address, "pass", None)
    assert inbox(app).receive(bare).code == TAKEN
    assert snapshot(table.client, table.id) == before  # nothing played
    deliver(app)
    answer = mailbox.wait_for(lambda m: m["To"] == BOB_MAIL and "my move" in str(m["Subject"]))
    assert len(mailbox.messages) == sent + 1
    assert "Nothing was played" in text_of(answer) and "Message-ID" in text_of(answer)
    # With a Message-ID it plays at the version the game is at, once.
    version = before[0]["version"]
    named = _fresh_mail(address, "pass", "<once@elsewhere.example>")
    assert inbox(app).receive(named).code == TAKEN
    assert snapshot(table.client, table.id)[0]["version"] > version
    table.version = snapshot(table.client, table.id)[0]["version"]
    table.ok(table.ada, type="pass")
    now = snapshot(table.client, table.id)
    assert inbox(app).receive(named).code == TAKEN  # delivered again: not played again
    assert snapshot(table.client, table.id) == now


# --- streams and held long-polls -------------------------------------------------------


class _Stream:
    """A stream read in a thread: its event lines, and when it ended."""

    def __init__(self, url: str, who: dict[str, str]) -> None:
        self.response = requests.get(
            f"{url}/v1/me/stream", headers=who, stream=True, timeout=(5, 60)
        )
        assert self.response.status_code == 200, self.response.text
        self.events: list[bytes] = []
        self.ended = threading.Event()
        self.ended_at = 0.0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.response.iter_lines(chunk_size=1):
                if raw.strip():
                    self.events.append(raw)
        except Exception:  # noqa: S110 - closed by the test
            pass
        self.ended_at = time.monotonic()
        self.ended.set()


@contextmanager
def _servers(url: str, count: int, env: dict[str, str]) -> Iterator[tuple[str, str]]:
    """One server (``run``: both names are it), or two ``serve`` processes on ``url``."""
    with ExitStack() as stack:
        if count == 1:
            one = stack.enter_context(live_server(url, env=env))
            yield one, one
        else:
            a = stack.enter_context(live_server(url, workers=1, worker_class="gevent", env=env))
            b = stack.enter_context(live_server(url, workers=1, threads=4, env=env))
            yield a, b


@pytest.mark.parametrize(
    ("backend", "servers", "how"),
    [
        ("sqlite", 1, "rotate"),
        ("sqlite", 2, "revoke"),
        pytest.param("postgresql", 2, "revoke", marks=pytest.mark.postgres),
        pytest.param("postgresql", 2, "rotate", marks=pytest.mark.postgres),
    ],
)
def test_r2_a_replaced_token_s_streams_and_held_polls_end_in_every_process_at_once(
    backend: str, servers: int, how: str, request: pytest.FixtureRequest, tmp_path: Any
) -> None:
    """bob holds a stream and a long-poll on server B; his token is replaced or revoked
    through server A. B refuses the token at once (it trusted it for up to 5 s), the
    stream ends, and the long-poll answers 401, never bob's view with his rack, even when
    ada's move comes after."""
    url = (
        f"sqlite:///{tmp_path / 'shared.db'}"
        if backend == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    with _servers(url, servers, ENV) as (a, b):
        ada, bob = register(a, "ada"), register(a, "bob")
        game_id = start_game(a, ada, "bob", bob)
        seen = requests.get(f"{b}/v1/games/{game_id}", headers=bob, timeout=10)
        assert seen.status_code == 200 and seen.json()["rack"], seen.text
        stream = _Stream(b, bob)
        with ThreadPoolExecutor(1) as pool:
            held = pool.submit(
                requests.get,
                f"{b}/v1/games/{game_id}?wait=30&since={seen.json()['version']}",
                headers=bob,
                timeout=60,
            )
            time.sleep(1.0)  # held by then
            assert not held.done()
            # B trusts bob's token now (it has just read it).
            assert requests.get(f"{b}/v1/me", headers=bob, timeout=10).status_code == 200
            if how == "revoke":
                done = requests.delete(f"{a}/v1/me/token", headers=bob, timeout=10)
                assert done.status_code == 204, done.text
            else:
                done = requests.post(f"{a}/v1/me/token", headers=bob, timeout=10)
                assert done.status_code == 201, done.text
            at = time.monotonic()
            while (status := requests.get(f"{b}/v1/me", headers=bob, timeout=10).status_code) \
                    == 200 and time.monotonic() - at < 10:  # fmt: skip
                time.sleep(0.02)
            refused_after = time.monotonic() - at
            assert status == 401
            assert refused_after < 1.5, f"B took {refused_after:.2f} s to refuse the token"
            version = play(a, game_id, ada, FIRST_TURN)  # would wake the poll with bob's rack
            answer = held.result(timeout=30)
        assert answer.status_code == 401, answer.text[:300]
        assert answer.json()["error"]["code"] == "bad_token"
        assert "rack" not in answer.json()
        assert stream.ended.wait(10), "the stream went on"
        assert stream.ended_at - at < 1.5, f"the stream ended {stream.ended_at - at:.2f} s after"
        assert not [e for e in stream.events if f'"version":{version}'.encode() in e]
        stream.response.close()
        # Resuming with the old token is refused.
        again = requests.get(f"{b}/v1/me/stream", headers=bob, timeout=10)
        assert again.status_code == 401


def test_r2_a_woken_request_asks_the_database_again_only_after_its_player_s_token_changed(
    sqlite_url: str,
) -> None:
    """Thousands of long-polls woken by one move must not each read their player: the
    token is asked for again only if it was forgotten (replaced or revoked) since."""
    app = make_app(sqlite_url)
    auth = app.extensions["mathable"].auth
    mark = auth.mark()
    auth.forget("pother")
    assert not auth.forgotten_since("pada", mark)
    assert auth.forgotten_since("pother", mark)
    auth.forget("pada")
    assert auth.forgotten_since("pada", mark)
    assert not auth.forgotten_since("pada", auth.mark())
