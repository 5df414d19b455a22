"""Strangers cannot spend a player's sign-in or invitation mails (docs/security.md,
"Third review", finding 2), against a real server and a real SMTP relay, each stranger
a client address of its own (127.0.0.x: every request here goes to loopback).

A sign-in request for an address that is no player's spends nothing of anyone's budget
and answers as for a player's; a player's sign-in mails are counted per player over an
hour (``MATHABLE_SIGNIN_MAIL_LIMIT``), apart from invitation mails; a request over that
budget is the same page as always, with nothing mailed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from requests.adapters import HTTPAdapter

from tests.server.live import live_server
from tests.server.mailbox import Mailbox, text_of

pytestmark = pytest.mark.both_databases

PUBLIC = "http://mathable.test"
VICTIM = "vic@victims.example"


class _From(HTTPAdapter):
    """Connections made from the loopback address ``source``."""

    def __init__(self, source: str) -> None:
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = (self.source, 0)
        super().init_poolmanager(*args, **kwargs)


def _browser(source: str) -> requests.Session:
    session = requests.Session()
    session.mount("http://", _From(source))
    return session


def _ask_signin(base: str, source: str, address: str) -> requests.Response:
    """A browser at ``source`` asks for a sign-in link to ``address`` through the form."""
    browser = _browser(source)
    page = browser.get(f"{base}/signin", timeout=10).text
    found = re.search(r'name="csrf" value="([0-9a-f]{64})"', page)
    assert found is not None
    return browser.post(f"{base}/signin", data={"csrf": found[1], "email": address},
                        timeout=10, allow_redirects=False)  # fmt: skip


@pytest.fixture
def server() -> Iterator[tuple[str, Mailbox]]:
    mailbox = Mailbox()
    mailbox.start()
    env = {
        "MATHABLE_SMTP_URL": mailbox.url,
        "MATHABLE_PUBLIC_URL": PUBLIC,
        "MATHABLE_DELIVER_SECONDS": "0.1",
        "MATHABLE_OUTBOX_BASE_DELAY": "0.1",
        "MATHABLE_SIGNIN_MAIL_LIMIT": "4",
    }
    try:
        with live_server(env=env) as base:
            yield base, mailbox
    finally:
        mailbox.stop()


def _player_with_address(base: str, mailbox: Mailbox, name: str, address: str) -> str:
    token = requests.post(f"{base}/v1/players", json={"name": name}, timeout=10).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    set_ = requests.put(f"{base}/v1/me/email", json={"address": address}, headers=auth,
                        timeout=10)  # fmt: skip
    assert set_.status_code == 202, set_.text
    mail = mailbox.wait_for(lambda m: m["To"] == address and "code" in str(m["Subject"]))
    code = re.search(r"\b(\d{6})\b", text_of(mail))
    assert code is not None
    verified = requests.post(f"{base}/v1/me/email/verify", json={"code": code[1]},
                             headers=auth, timeout=10)  # fmt: skip
    assert verified.status_code == 200, verified.text
    return str(token)


def _signin_mails(mailbox: Mailbox, address: str) -> list[Any]:
    return [m for m in mailbox.to(address) if "sign-in link" in str(m["Subject"])]


def _settled(mailbox: Mailbox) -> None:
    """Wait until the delivery worker has sent what it will (no mail for a second)."""
    count = -1
    while count != len(mailbox.messages):
        count = len(mailbox.messages)
        time.sleep(1.0)


def test_strangers_spend_nothing_of_a_players_signin_or_invitation_mails(
    server: tuple[str, Mailbox],
) -> None:
    base, mailbox = server
    vic = _player_with_address(base, mailbox, "vic", VICTIM)
    ada = requests.post(f"{base}/v1/players", json={"name": "ada"}, timeout=10).json()
    # Thirty requests for made-up addresses at the victim's domain, three from each of ten
    # client addresses: the same page as for a player's address, and no mail at all.
    pages = set()
    for i in range(30):
        answer = _ask_signin(base, f"127.0.0.{10 + i // 3}", f"made.up{i}@victims.example")
        assert answer.status_code == 200
        pages.add(answer.text.replace(f"made.up{i}@victims.example", "ADDRESS"))
    # Three strangers from three more addresses name the victim's own address.
    for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
        answer = _ask_signin(base, source, VICTIM)
        assert answer.status_code == 200
        pages.add(answer.text.replace(VICTIM, "ADDRESS"))
    assert len(pages) == 1  # a player's address or not: one page
    _settled(mailbox)
    assert [m["To"] for m in mailbox.messages if "victims.example" in m["To"]
            and "made.up" in m["To"]] == []  # fmt: skip
    assert len(_signin_mails(mailbox, VICTIM)) == 3
    # The victim's own request, from their own address: mailed.
    own = _ask_signin(base, "127.0.0.5", VICTIM)
    assert own.status_code == 200 and "is on its way" in own.text
    mailbox.wait_for(lambda m: len(_signin_mails(mailbox, VICTIM)) == 4)
    # An invitation to them: mailed too (invitation mails have budgets of their own).
    auth = {"Authorization": f"Bearer {ada['token']}"}
    game = requests.post(f"{base}/v1/games", json={}, headers=auth, timeout=10).json()["id"]
    invited = requests.post(f"{base}/v1/games/{game}/invitations", json={"email": VICTIM},
                            headers=auth, timeout=10)  # fmt: skip
    assert invited.status_code == 202, invited.text
    mailbox.wait_for(lambda m: m["To"] == VICTIM and "invites you" in str(m["Subject"]))
    # Over the player's budget (4 an hour here): the same page, and nothing mailed.
    over = _ask_signin(base, "127.0.0.6", VICTIM)
    assert over.status_code == 200 and over.text.replace(VICTIM, "ADDRESS") in pages
    _settled(mailbox)
    assert len(_signin_mails(mailbox, VICTIM)) == 4
    # Every link mailed works (each was the victim's to use).
    for mail in _signin_mails(mailbox, VICTIM):
        assert re.search(r"/signin/[A-Za-z0-9_-]{20,}", text_of(mail))
    # The victim, alarmed, signs out everywhere: the links mailed are withdrawn, and count
    # no more: their next request is mailed.
    ended = requests.delete(f"{base}/v1/me/sessions", timeout=10,
                            headers={"Authorization": f"Bearer {vic}"})  # fmt: skip
    assert ended.status_code == 204
    assert _ask_signin(base, "127.0.0.7", VICTIM).status_code == 200
    mailbox.wait_for(lambda m: len(_signin_mails(mailbox, VICTIM)) == 5)


def test_an_invitation_counts_against_its_inviter_only(store_url: str) -> None:
    """Accounts made to spend an address's (or a domain's) invitation mails spend only
    their own: another player's invitation to that address is still mailed."""
    from tests.server.apps import make_app
    from tests.server.helpers import new_game, register

    app = make_app(store_url, smtp_url="smtp://127.0.0.1:9", public_url=PUBLIC)
    client = app.test_client()
    spammers = [register(client, f"spam{i}") for i in range(3)]
    for i, spammer in enumerate(spammers):
        for j in range(3):
            game = new_game(client, spammer)["id"]
            address = VICTIM if i == 0 else f"made.up{i}x{j}@victims.example"
            answer = client.post(f"/v1/games/{game}/invitations", json={"email": address},
                                 headers=spammer.auth)  # fmt: skip
            assert answer.status_code == 202, answer.json
        game = new_game(client, spammer)["id"]
        over = client.post(f"/v1/games/{game}/invitations", json={"email": VICTIM},
                           headers=spammer.auth)  # fmt: skip
        assert over.status_code == 429 and over.json["error"]["code"] == "too_many_mails"
    friend = register(client, "friend")
    game = new_game(client, friend)["id"]
    invited = client.post(f"/v1/games/{game}/invitations", json={"email": VICTIM},
                          headers=friend.auth)  # fmt: skip
    assert invited.status_code == 202, invited.json
