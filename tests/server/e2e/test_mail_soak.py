"""The short version of ``bench/soak_mail.py``: a few games, each with one seat played by
mail only, while the relay goes down and up and the delivery worker is killed."""

from __future__ import annotations

import pytest
from bench.soak_mail import soak

pytestmark = pytest.mark.e2e


# The relay is taken down with connections open, on purpose: aiosmtpd leaves their
# transports, and a reply's client socket cut in its greeting, to the garbage collector.
@pytest.mark.filterwarnings(
    "ignore:Exception ignored in. <function _SelectorTransport.__del__"
    ":pytest.PytestUnraisableExceptionWarning",
    "ignore:Exception ignored in. <socket.socket:pytest.PytestUnraisableExceptionWarning",
)
def test_every_game_finishes_and_no_notification_is_lost_through_outages() -> None:
    report = soak(games=5, mail_players=2, flap_every=0.8, down_for=0.5, kill_every=0.5,
                  timeout=120)  # fmt: skip
    assert report.finished == report.games, report
    assert (report.pending, report.dead) == (0, 0), report
    # Each SIGKILL may leave one row sent but not marked: sent once more, same Message-ID.
    assert report.duplicates <= report.worker_kills, report
    assert report.relay_outages >= 1 and report.worker_kills >= 1, report
