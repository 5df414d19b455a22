"""What of a mail reply becomes a message: the text under the move, cut where any common
mail client starts its quote or signature; never the quoted turn mail itself."""

from __future__ import annotations

import pytest

from mathable_server.mailin.inbound import free_text, move_lines

CUT = {
    "iphone": "pass\nNice one!\n\nSent from my iPhone\n",
    "french": "pass\nNice one!\n\nLe lun. 1 déc. 2026 à 10:00, Bob <b@x.org> a écrit :\nold\n",
    "norwegian": "pass\nNice one!\n\nDen man. 1. des. 2026 kl. 10:00 skrev Bob <b@x.org>:\nold\n",
    "italian": "pass\nNice one!\n\nIl giorno lun 1 dic 2026, Bob <b@x.org> ha scritto:\nold\n",
    "gmail_wrapped": "pass\nNice one!\n\nOn Mon, 1 Dec 2026 at 10:00, Mathable <play+g1@x.org>\n"
    "wrote:\nold text\n",
    "outlook_original": "pass\nNice one!\n\n-----Original Message-----\nFrom: Mathable\nold\n",
    "outlook_headers": "pass\nNice one!\n\nFrom: Mathable <play+g1@x.org>\n"
    "Sent: Monday, December 1, 2026 10:00\nTo: Ann\nSubject: Your turn\n\nold text\n",
    "underscores": "pass\nNice one!\n\n________________________________\nFrom: Mathable\nold\n",
}


@pytest.mark.parametrize("body", CUT.values(), ids=list(CUT))
def test_the_message_ends_where_the_quote_or_signature_begins(body: str) -> None:
    assert free_text(body, "ann") == "Nice one!"
    assert move_lines(body) == ["pass", "Nice one!"]


def test_a_reply_quoting_the_turn_mail_without_marks_posts_nothing() -> None:
    quoted = (
        "pass\nGood game\n\nIt is your turn in game g1 against bob.\n\n"
        "     A  B  C  D  E  F\nYour rack: 1 2 3\n"
    )
    assert free_text(quoted) == ""
    assert free_text("pass\nhere is my rack\nYour rack: 1 2 3\n") == ""


def test_ordinary_text_is_kept() -> None:
    body = "pass\nOn Monday I am away.\nFrom: the heart, good luck\nTo be continued\n"
    assert free_text(body) == "On Monday I am away.\nFrom: the heart, good luck\nTo be continued"
