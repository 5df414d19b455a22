"""Which messages ``show`` prints as new: per profile (two on one machine each see their
own), and never the reader's own."""

from __future__ import annotations

from tests.cli.conftest import FakeServer, Invoke

NO_TOKEN = {"MATHABLE_TOKEN": None}


def test_two_profiles_on_one_machine_each_see_the_messages_once_but_not_their_own(
    cli: Invoke, fake: FakeServer
) -> None:
    for name in ("ann", "ben"):
        made = cli("-p", name, "register", name, env=NO_TOKEN)
        assert made.exit_code == 0, made.stderr
    gid = fake.new_game("p-ann", "p-ben")
    assert cli("-p", "ann", "say", gid, "Good luck!", env=NO_TOKEN).exit_code == 0
    own = cli("-p", "ann", "show", gid, env=NO_TOKEN)
    assert own.exit_code == 0, own.stderr
    assert "Good luck!" not in own.stdout  # her own message is not news to her
    other = cli("-p", "ben", "show", gid, env=NO_TOKEN)
    assert "ann writes: Good luck!" in other.stdout  # ann's show did not mark it seen for ben
    again = cli("-p", "ben", "show", gid, env=NO_TOKEN)
    assert "Good luck!" not in again.stdout  # shown once


def test_messages_prints_when_each_was_written_in_local_time(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    assert cli("say", gid, "Hello").exit_code == 0
    shown = cli("messages", gid, env={"MATHABLE_TIME_ZONE": "Europe/Oslo"})
    assert shown.exit_code == 0, shown.stderr
    # written 2026-12-02T06:00:00Z (the fake server's time): 07:00 in Oslo, the zone named
    assert shown.stdout.startswith("Wed 2 Dec 2026 07:00 CET (Europe/Oslo)  alice writes: Hello")
