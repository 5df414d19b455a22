"""The rules of Summy as data (``GET /v1/rulesets/summy``), pinned whole
(``mathable.games.summy.ruleset_data``), as ``games/mathable/test_ruleset_data.py`` pins Mathable's.

Folded from ``test_pinned_summy_ruleset_data.py``: tests written to kill the survivors of the
mutation runs (docs/mutation.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mathable.games.summy import ruleset_data as summy_data
from mathable.games.summy.ruleset_data import refused_examples, ruleset_data, scored_examples

# What the server serves, word for word: a change to it is a change of the public contract
# (regenerate with json.dumps(ruleset_data(), indent=1) only on purpose).
PINNED = Path(__file__).resolve().parents[2] / "fixtures" / "ruleset_data_summy.json"


def test_the_summy_data_is_word_for_word_what_players_and_bots_were_given() -> None:
    assert ruleset_data() == json.loads(PINNED.read_text())


def test_the_examples_carry_the_points_and_codes_the_rules_give_them() -> None:
    assert scored_examples() == [
        {"equation": "1+2=3", "points": 6},
        {"equation": "1+2+3=6", "points": 12},
        {"equation": "3-5+4=2", "points": 14},
        {"equation": "8x15=120", "points": 17},
    ]
    assert [r["line"] for r in refused_examples()] == list(summy_data.REFUSED_EXAMPLES)
    assert refused_examples() == ruleset_data()["equation"]["refused"]


def test_an_equation_listed_as_a_refusal_is_no_example_of_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(summy_data, "REFUSED_EXAMPLES", ("1+2=3",))
    with pytest.raises(ValueError) as raised:
        refused_examples()
    assert str(raised.value) == "1+2=3 is an equation: it is no example of a refusal"
