"""``rules``: the rule book, both games' or one game's part alone.

From what a first-time user tripped over (the former test_newcomer.py: "rules").
"""

from __future__ import annotations

from mathable.core.rulebook import rules_markdown
from tests.cli.conftest import Invoke


def test_rules_prints_the_rules_with_the_worked_example(cli: Invoke) -> None:
    result = cli("rules")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == rules_markdown()
    assert "## A worked example" in result.stdout and "## Placing a tile" in result.stdout
    assert "# The rules of Summy" in result.stdout  # both games, as docs/rules.md


def test_rules_of_one_game_print_that_games_part_alone(cli: Invoke) -> None:
    from mathable.games.summy.rulebook import rules_markdown as summy_rules

    summy = cli("rules", "summy")
    assert summy.exit_code == 0, summy.stderr
    assert summy.stdout == summy_rules()
    assert "`8x15=120` | 17" in summy.stdout and "`no_equations`" in summy.stdout
    mathable = cli("rules", "mathable")
    assert mathable.exit_code == 0 and "Summy" not in mathable.stdout
    assert mathable.stdout.startswith("# The rules of Mathable")
    unknown = cli("rules", "chess")
    assert unknown.exit_code != 0 and "no game called 'chess'" in unknown.stderr
