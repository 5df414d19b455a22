"""``GET /v1/me/stream`` and wake-ups across processes, against real servers.

The stream tells each player what happens in their games, with heartbeats,
and resumes with ``since`` without losing or repeating anything; a move made
through one server process wakes the waiters of another (SQLite: the version
poll; PostgreSQL: LISTEN/NOTIFY, also after its connection was dropped); a
few hundred long-polls held by ``serve`` are all woken by one move; with the
database gone, waiters get answers or 503 and the stream resumes after.
"""

from __future__ import annotations

import json
import queue
import re
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import requests
from sqlalchemy import create_engine, text

from mathable_server.store.engine import normalize_url
from tests.server.helpers import EXAMPLE_TILES
from tests.server.live import free_port, live_server
from tests.server.streams import STREAM_ENV

pytestmark = pytest.mark.e2e

#: The first turn of the example game (seat 0), as one command.
FIRST_TURN = {
    "type": "turn",
    "placements": [{"square": "I8", "tile": 12}, {"square": "H6", "tile": 8}],
}


def register(url: str, name: str) -> dict[str, str]:
    response = requests.post(f"{url}/v1/players", json={"name": name}, timeout=10)
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def start_game(url: str, one: dict[str, str], two_name: str, two: dict[str, str]) -> str:
    created = requests.post(
        f"{url}/v1/games",
        json={"tiles": EXAMPLE_TILES, "invite": [two_name]},
        headers=one,
        timeout=10,
    )
    assert created.status_code == 201, created.text
    game_id: str = created.json()["id"]
    joined = requests.post(f"{url}/v1/games/{game_id}/join", headers=two, timeout=10)
    assert joined.status_code == 200, joined.text
    return game_id


def play(url: str, game_id: str, who: dict[str, str], command: dict[str, Any]) -> int:
    version = requests.get(f"{url}/v1/games/{game_id}", headers=who, timeout=10).json()["version"]
    done = requests.post(
        f"{url}/v1/games/{game_id}/moves",
        json={**command, "expected_version": version},
        headers=who,
        timeout=10,
    )
    assert done.status_code == 200, done.text
    new: int = done.json()["version"]
    return new


class Reader:
    """Reads one stream in a thread: its lines (events as dicts, heartbeats as None)."""

    def __init__(self, url: str, who: dict[str, str], since: str | None = None) -> None:
        params = {"since": since} if since is not None else None
        self.response = requests.get(
            f"{url}/v1/me/stream", headers=who, params=params, stream=True, timeout=(5, 30)
        )
        assert self.response.status_code == 200, self.response.text
        assert self.response.headers["Content-Type"].startswith("application/x-ndjson")
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.raw: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.response.iter_lines(chunk_size=1):
                self.raw.append(raw)
                self.lines.put(json.loads(raw) if raw.strip() else None)
        except Exception:  # closed by the test
            pass

    def events(self, count: int, timeout: float = 20) -> list[dict[str, Any]]:
        """The next ``count`` events (heartbeats skipped); fails if they do not come."""
        found: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        while len(found) < count:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"only {found} of {count} events came") from None
            if line is not None:
                found.append(line)
        return found

    def close(self) -> None:
        self.response.close()


def kinds(events: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(e["type"], e["version"]) for e in events]


def test_stream_tells_each_player_what_happens_and_nothing_hidden() -> None:
    with live_server(env=STREAM_ENV) as url:
        one, two = register(url, "sara"), register(url, "tom")
        reader_two = Reader(url, two)
        game_id = start_game(url, one, "tom", two)
        reader_one = Reader(url, one)
        first = reader_one.events(1)  # the game waits on sara: said at once
        assert kinds(first) == [("your_turn", 3)]
        assert kinds(reader_two.events(2)) == [("invited", 1), ("game_started", 3)]
        version = play(url, game_id, one, FIRST_TURN)
        assert kinds(reader_two.events(2)) == [("moved", version), ("your_turn", version)]
        assert kinds(reader_one.events(1)) == [("moved", version)]
        requests.post(
            f"{url}/v1/games/{game_id}/moves",
            json={"type": "resign", "expected_version": version},
            headers=two,
            timeout=10,
        ).raise_for_status()
        assert [e["type"] for e in reader_one.events(2)] == ["moved", "game_finished"]
        # Heartbeats are empty lines; every event line holds ids, versions and kinds only.
        deadline = time.monotonic() + 10
        while b"" not in reader_one.raw and time.monotonic() < deadline:
            time.sleep(0.05)
        assert b"" in reader_one.raw
        for raw in reader_one.raw + reader_two.raw:
            if raw.strip():
                assert set(json.loads(raw)) == {"type", "game_id", "version", "cursor"}
        reader_one.close()
        reader_two.close()


def test_stream_resumes_with_since_without_losing_or_repeating() -> None:
    with live_server(env=STREAM_ENV) as url:
        one, two = register(url, "uma"), register(url, "vic")
        game_id = start_game(url, one, "vic", two)
        reader = Reader(url, two, since="0")
        seen = reader.events(2)
        assert kinds(seen) == [("invited", 1), ("game_started", 3)]
        reader.close()
        v1 = play(url, game_id, one, FIRST_TURN)  # while tom is away
        again = Reader(url, two, since=seen[-1]["cursor"])
        assert kinds(again.events(2)) == [("moved", v1), ("your_turn", v1)]
        assert again.lines.empty() or again.lines.get(timeout=1) is None  # nothing repeated
        again.close()
        bad = requests.get(f"{url}/v1/me/stream?since=abc", headers=two, timeout=10)
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "validation_error"
        anonymous = requests.get(f"{url}/v1/me/stream", timeout=10)
        assert anonymous.status_code == 401


def _two_servers(database_url: str) -> Any:
    @contextmanager
    def both() -> Iterator[tuple[str, str]]:
        with live_server(database_url, workers=2, env=STREAM_ENV) as a:
            with live_server(database_url, workers=1, threads=4, env=STREAM_ENV) as b:
                yield a, b

    return both()


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
def test_a_move_through_one_server_wakes_waiters_on_another(
    backend: str, request: pytest.FixtureRequest, tmp_path: Any
) -> None:
    url = (
        f"sqlite:///{tmp_path / 'shared.db'}"
        if backend == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    with _two_servers(url) as (a, b):
        one, two = register(a, "wes"), register(a, "xia")
        game_id = start_game(a, one, "xia", two)
        reader = Reader(a, two, since="0")
        reader.events(2)
        with ThreadPoolExecutor(8) as pool:
            polls = [
                pool.submit(
                    requests.get,
                    f"{a}/v1/games/{game_id}?wait=30&since=3",
                    headers=two,
                    timeout=60,
                )
                for _ in range(8)
            ]
            time.sleep(1.0)  # held by then
            version = play(b, game_id, one, FIRST_TURN)  # through the other server
            answers = [p.result() for p in polls]
        assert all(r.status_code == 200 and r.json()["version"] == version for r in answers)
        assert not any("X-Long-Poll" in r.headers for r in answers)
        assert kinds(reader.events(2)) == [("moved", version), ("your_turn", version)]
        reader.close()


@pytest.mark.postgres
def test_a_dropped_listen_connection_is_reopened_and_catches_up(postgres_url: str) -> None:
    with _two_servers(postgres_url) as (a, b):
        one, two = register(a, "yan"), register(a, "zoe")
        game_id = start_game(a, one, "zoe", two)
        reader = Reader(a, two, since="0")
        reader.events(2)
        admin = create_engine(normalize_url(postgres_url), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            dropped = conn.execute(
                text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE application_name = 'mathable-listen' AND query LIKE 'LISTEN%'"
                )
            ).scalar()
        admin.dispose()
        assert dropped and dropped >= 1  # each process listens from its first waiter on
        version = play(b, game_id, one, FIRST_TURN)
        assert kinds(reader.events(2, timeout=30)) == [("moved", version), ("your_turn", version)]
        reader.close()


def test_hundreds_of_waiters_on_serve_are_all_woken_by_one_move(tmp_path: Any) -> None:
    waiters = 300
    with live_server(f"sqlite:///{tmp_path / 'many.db'}", workers=2, env=STREAM_ENV) as url:
        one, two = register(url, "ada"), register(url, "bea")
        game_id = start_game(url, one, "bea", two)
        with ThreadPoolExecutor(waiters) as pool:
            polls = [
                pool.submit(
                    requests.get, f"{url}/v1/games/{game_id}?wait=50&since=3", headers=two,
                    timeout=90,
                )  # fmt: skip
                for _ in range(waiters)
            ]
            time.sleep(3.0)  # all held by then (they would be answered at once if refused)
            assert not any(p.done() for p in polls)
            version = play(url, game_id, one, FIRST_TURN)
            answers = [p.result() for p in polls]
        assert [r.status_code for r in answers] == [200] * waiters
        assert {r.json()["version"] for r in answers} == {version}


def test_hundreds_of_woken_long_polls_each_get_their_viewers_answer(tmp_path: Any) -> None:
    """Woken long-polls are answered below Flask, with heads shared per version and seat:
    each answer is still exactly the view its viewer gets (the players' own racks, a
    spectator's and an anonymous caller's redacted view; 304 for one that has it)."""
    with live_server(f"sqlite:///{tmp_path / 'views.db'}", workers=2, env=STREAM_ENV) as url:
        one, two = register(url, "flo"), register(url, "gus")
        watcher = register(url, "hal")
        game_id = start_game(url, one, "gus", two)
        viewers: dict[str, dict[str, str]] = {
            "first": one, "second": two, "spectator": watcher, "anonymous": {},
            "has it": {**two, "If-None-Match": '"4"'},
        }  # fmt: skip
        with ThreadPoolExecutor(250) as pool:
            polls = [
                (name, pool.submit(
                    requests.get, f"{url}/v1/games/{game_id}?wait=50&since=3",
                    headers=headers, timeout=90,
                ))  # fmt: skip
                for _ in range(50)
                for name, headers in viewers.items()
            ]
            time.sleep(3.0)  # all held by then
            assert not any(p.done() for _, p in polls)
            version = play(url, game_id, one, {"type": "place", "square": "I8", "tile": 12})
            answers = [(name, p.result()) for name, p in polls]
        expected = {
            name: requests.get(f"{url}/v1/games/{game_id}", headers=headers, timeout=10)
            for name, headers in viewers.items()
        }
        assert version == 4 and expected["has it"].status_code == 304
        racks = {name: expected[name].json().get("rack") for name in viewers if name != "has it"}
        assert racks["first"] and racks["second"] and racks["first"] != racks["second"]
        assert racks["spectator"] is None and racks["anonymous"] is None  # each its own
        for name, answer in answers:
            want = expected[name]
            assert answer.status_code == want.status_code, name
            assert answer.content == want.content, name
            mine = {k: v for k, v in answer.headers.items() if k != "Date"}
            assert mine == {k: v for k, v in want.headers.items() if k != "Date"}, name


class Proxy:
    """A TCP relay to the database that a test can cut: "the database is gone"."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._sockets: list[socket.socket] = []
        self._listener: socket.socket | None = None

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self._sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def cut(self) -> None:
        if self._listener is not None:
            self._listener.close()
        for s in self._sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
        self._sockets = []


@pytest.mark.postgres
def test_waiters_get_answers_or_503_while_the_database_is_gone_and_the_stream_resumes(
    postgres_url: str,
) -> None:
    parts = urlsplit(postgres_url)
    proxy = Proxy((parts.hostname or "127.0.0.1", parts.port or 5432))
    proxy.start()
    relayed = urlunsplit(parts._replace(netloc=f"{parts.username}@127.0.0.1:{proxy.port}"))
    with live_server(relayed, workers=1, threads=8, env=STREAM_ENV) as url, live_server(
        postgres_url, env=STREAM_ENV
    ) as direct:
        one, two = register(url, "cy"), register(url, "di")
        game_id = start_game(url, one, "di", two)
        reader = Reader(url, two, since="0")
        seen = reader.events(2)
        with ThreadPoolExecutor(20) as pool:
            polls = [
                pool.submit(
                    requests.get, f"{url}/v1/games/{game_id}?wait=3&since=3", headers=two,
                    timeout=60,
                )  # fmt: skip
                for _ in range(20)
            ]
            time.sleep(0.5)
            proxy.cut()
            version = play(direct, game_id, one, FIRST_TURN)  # written while a cannot see it
            answers = [p.result() for p in polls]  # none hangs: the timeout would raise
        for answer in answers:
            assert answer.status_code in (200, 503), answer.text
            if answer.status_code == 503:
                assert int(answer.headers["Retry-After"]) >= 1
                assert answer.json()["error"]["code"]
        down = requests.get(f"{url}/v1/games/{game_id}", headers=two, timeout=30)
        assert down.status_code == 503 and "Retry-After" in down.headers
        proxy.start()  # back
        # The open stream (or its resumption from the last cursor) brings the move.
        try:
            got = reader.events(2, timeout=30)
        except AssertionError:
            reader.close()
            reader = Reader(url, two, since=seen[-1]["cursor"])
            got = reader.events(2, timeout=30)
        assert kinds(got) == [("moved", version), ("your_turn", version)]
        reader.close()
        proxy.cut()


def test_serve_drops_a_trickling_client_and_caps_connections_per_address() -> None:
    env = {**STREAM_ENV, "MATHABLE_MAX_CONNECTIONS_PER_ADDRESS": "3"}
    with live_server(workers=1, worker_class="gevent", env=env) as url:
        port = int(url.rsplit(":", 1)[1])
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n")  # the head never ends
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
        time.sleep(0.5)
        over = socket.create_connection(("127.0.0.1", port))
        over.settimeout(10)
        answer = over.recv(4096)
        assert answer.startswith(b"HTTP/1.1 503") and b"Retry-After" in answer
        # gunicorn reads a request head under a deadline (keepalive, 5 s): then it hangs up.
        slow.settimeout(20)
        started = time.monotonic()
        while slow.recv(4096):
            pass
        assert time.monotonic() - started < 15
        for s in [slow, over, *idle]:
            s.close()
        # Those connections gone, the address is served again.
        assert requests.get(f"{url}/v1/health", timeout=10).status_code == 200


# --- a token replaced or revoked --------------------------------------------------------


class _Stream:
    """A stream read in a thread: its event lines, and when it ended."""

    def __init__(
        self, url: str, who: dict[str, str], browser: requests.Session | None = None
    ) -> None:
        self.response = (browser or requests.Session()).get(
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
def test_a_replaced_token_s_streams_and_held_polls_end_in_every_process_at_once(
    backend: str, servers: int, how: str, request: pytest.FixtureRequest, tmp_path: Any
) -> None:
    """bob holds a stream and a long-poll on server B; his token is replaced or revoked
    through server A. B refuses the token at once (it trusted it for up to 5 s), the
    stream ends, and the long-poll answers 401, never bob's view with his rack, even when
    ada's move comes after.

    Second security review (issue 27): an open stream or held long-poll outlived its token
    (another process accepted the token for up to 5 s)."""
    url = (
        f"sqlite:///{tmp_path / 'shared.db'}"
        if backend == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    with _servers(url, servers, STREAM_ENV) as (a, b):
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


# --- a browser's session ------------------------------------------------------------------


def _browser(url: str, who: dict[str, str]) -> tuple[requests.Session, dict[str, str]]:
    """A browser signed in by a link the player's token minted: its session and the CSRF
    header its pages carry."""
    browser = requests.Session()
    link = requests.post(f"{url}/v1/me/signin-link", json={}, headers=who, timeout=10)
    assert link.status_code == 201, link.text
    page = browser.get(url + link.json()["path"], timeout=10)
    csrf = re.search(r'name="csrf" value="([0-9a-f]{64})"', page.text)
    assert csrf is not None, page.text[:400]
    signed = browser.post(url + link.json()["path"], data={"csrf": csrf[1]}, timeout=10)
    assert signed.status_code == 200 and browser.cookies.get("mathable_session"), signed.text
    home = browser.get(f"{url}/", timeout=10).text
    meta = re.search(r'<meta name="csrf-token" content="([0-9a-f]{64})"', home)
    assert meta is not None, home[:400]
    return browser, {"X-CSRF-Token": meta[1]}


def test_a_browser_s_stream_and_held_poll_outlive_a_change_of_language_not_a_sign_out(
    tmp_path: Any,
) -> None:
    """A change of language makes every process forget the player's cached record, and a
    browser's stream or held long-poll woken after it asked for a bearer token it never
    had: the stream ended without its line, the poll answered 401 (the play page's title
    count went stale). Now the browser's session is asked again: a change of settings
    keeps them, "sign out everywhere" still ends them at once."""
    with live_server(f"sqlite:///{tmp_path / 'live.db'}", env=STREAM_ENV) as url:
        ada, bob = register(url, "ada"), register(url, "bob")
        game_id = start_game(url, ada, "bob", bob)
        browser, csrf = _browser(url, bob)
        seen = browser.get(f"{url}/v1/games/{game_id}", timeout=10).json()
        stream = _Stream(url, {}, browser)
        with ThreadPoolExecutor(2) as pool:
            held = pool.submit(browser.get, f"{url}/v1/games/{game_id}?wait=30&since="
                               f"{seen['version']}", timeout=60)  # fmt: skip
            time.sleep(1.0)  # held by then
            assert not held.done()
            changed = browser.patch(f"{url}/v1/me", json={"language": "nb"}, headers=csrf,
                                    timeout=10)  # fmt: skip
            assert changed.status_code == 200, changed.text
            version = play(url, game_id, ada, FIRST_TURN)
            answer = held.result(timeout=30)
            assert answer.status_code == 200, answer.text[:300]
            assert answer.json()["version"] == version and answer.json()["rack"]
            deadline = time.monotonic() + 10
            while not [e for e in stream.events if f'"version":{version}'.encode() in e]:
                assert not stream.ended.is_set(), "the stream ended at the move"
                assert time.monotonic() < deadline, "the move's line never came"
                time.sleep(0.02)

            # Signed out everywhere (by another of bob's browsers): both end at once.
            other, other_csrf = _browser(url, bob)
            held = pool.submit(browser.get, f"{url}/v1/games/{game_id}?wait=30&since="
                               f"{version}", timeout=60)  # fmt: skip
            time.sleep(1.0)
            out = other.delete(f"{url}/v1/me/sessions", headers=other_csrf, timeout=10)
            assert out.status_code == 204, out.text
            at = time.monotonic()
            assert stream.ended.wait(10), "the stream went on"
            assert stream.ended_at - at < 1.5, f"ended {stream.ended_at - at:.2f} s after"
            answer = held.result(timeout=30)
            assert answer.status_code == 401, answer.text[:300]
            assert answer.json()["error"]["code"] == "unauthorized"
            assert "rack" not in answer.json()
        stream.response.close()


def test_a_deleted_account_s_held_poll_and_stream_end_in_every_process(tmp_path: Any) -> None:
    """Review of 2b33fcf (wreview): bob holds a stream and a long-poll on server B and
    deletes his account through server A. ``forget_player`` writes no ``revocation`` row,
    so B never forgets bob: his resignation wakes the held poll, which answers his view
    of the game (200, his rack) to a token that opens nothing any more, and the stream
    goes on until ``stream_seconds``. Fails on main at 94761c4."""
    with _servers(f"sqlite:///{tmp_path / 'shared.db'}", 2, STREAM_ENV) as (a, b):
        ada, bob = register(a, "ada"), register(a, "bob")
        game_id = start_game(a, ada, "bob", bob)
        seen = requests.get(f"{b}/v1/games/{game_id}", headers=bob, timeout=10)
        assert seen.status_code == 200 and seen.json()["rack"], seen.text
        stream = _Stream(b, bob)
        with ThreadPoolExecutor(1) as pool:
            held = pool.submit(requests.get, f"{b}/v1/games/{game_id}?wait=30&since="
                               f"{seen.json()['version']}", headers=bob, timeout=60)  # fmt: skip
            time.sleep(1.0)  # held by then
            assert not held.done()
            gone = requests.delete(f"{a}/v1/me", json={"confirm": "bob"}, headers=bob,
                                   timeout=10)  # fmt: skip
            assert gone.status_code == 200, gone.text
            answer = held.result(timeout=40)
            assert answer.status_code == 401, answer.text[:300]
            assert stream.ended.wait(10), "the stream went on"
        stream.response.close()
