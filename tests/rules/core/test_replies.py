"""The words that open a mail reply's move line (``mathable.core.replies``): read in every
language, in any case, with or without accents, curly apostrophes and a full stop; the
longest words first; a shared command's word alone is its JSON body (issue 48: only the
doctests and the server's tests held them)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from mathable.core.lifecycle import shared
from mathable.core.lifecycle.part import Part, SharedCommand
from mathable.core.replies import plain, reply_word, shared_reply


def test_a_word_is_read_whatever_its_case_accents_and_apostrophe() -> None:
    assert plain("J’ÉCHANGE") == "j'echange"
    assert reply_word("J’échange 3 7") == ("exchange", ["3", "7"])
    assert reply_word("j'echange 3") == ("exchange", ["3"])
    assert reply_word("Stå over!") == ("pass", [])
    assert reply_word("JEG GIR OPP.") == ("resign", [])
    assert reply_word("Scarta 4 5") == ("discard", ["4", "5"])
    assert reply_word("I8=12") is None
    assert reply_word("   ") is None


def test_a_word_of_two_needs_both_and_the_words_after_it_are_kept_as_written() -> None:
    assert reply_word("gi") is None
    assert reply_word("Gi Opp nå") == ("resign", ["nå"])
    assert reply_word("je passe.") == ("pass", [])


def test_a_shared_command_s_word_alone_is_its_body() -> None:
    assert shared_reply("pass,") == {"type": "pass"}
    assert shared_reply("Gi,opp.") == {"type": "resign"}
    assert shared_reply("Abandonner") == {"type": "resign"}
    # more after it, a game's own command, or no word: the game reads the line
    assert shared_reply("pass 3") is None
    assert shared_reply("pass,3") is None
    assert shared_reply("bytt") is None
    assert shared_reply("échanger 3") is None
    assert shared_reply("H1=12") is None


#: A part whose two commands' words begin alike: ``draw``, and ``draw accepted``.
DRAWS = Part(
    commands=(
        SharedCommand("offer_draw", reply_words={"en": ("draw",)}),
        SharedCommand("accept_draw", reply_words={"en": ("draw accepted", "accept")}),
    )
)


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(shared, "PARTS", (*shared.PARTS, DRAWS))
    yield


def test_the_longest_words_are_read_first(draws: None) -> None:
    assert reply_word("Draw accepted.") == ("accept_draw", [])
    assert reply_word("draw accepted 2") == ("accept_draw", ["2"])
    assert reply_word("draw now") == ("offer_draw", ["now"])
    assert shared_reply("draw, accepted") == {"type": "accept_draw"}


def test_the_words_follow_the_kernel_s_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    assert reply_word("accept") is None
    monkeypatch.setattr(shared, "PARTS", (*shared.PARTS, DRAWS))
    assert reply_word("accept") == ("accept_draw", [])
    monkeypatch.undo()
    assert reply_word("accept") is None


def test_a_reply_is_read_in_a_process_that_has_read_none_before() -> None:
    program = (
        "from mathable.core.replies import reply_word, shared_reply\n"
        "print(reply_word('Passer.'), shared_reply('gi opp'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "('pass', []) {'type': 'resign'}"
