"""The CLI's shape: command modules stand alone; what they share lives outside commands/."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

COMMANDS_DIR = Path(__file__).resolve().parents[2] / "client" / "mathable_cli" / "commands"
PACKAGE = "mathable_cli.commands"


def imported_commands(path: Path) -> list[tuple[int, str]]:
    """Every command module ``path`` imports (at the top or inside a function), by line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from . import x, from .games import y
                base = PACKAGE if node.level == 1 else "mathable_cli"
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            names = [module] if module != PACKAGE else [f"{module}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            if name.startswith(f"{PACKAGE}.") and name != f"{PACKAGE}.{path.stem}":
                found.append((node.lineno, name))
    return found


def test_no_command_module_imports_another() -> None:
    modules = sorted(p for p in COMMANDS_DIR.glob("*.py") if p.name != "__init__.py")
    assert len(modules) >= 10  # the walk sees the real modules
    offenders = {p.name: hits for p in modules if (hits := imported_commands(p))}
    assert offenders == {}


def test_the_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    module = tmp_path / "bots.py"
    module.write_text(
        "import mathable_cli.commands.rules\n"
        "def f():\n"
        "    from mathable_cli.commands.games import show\n"
        "    from mathable_cli.commands import watch\n"
        "    from . import play\n"
        "    from .account import login\n"
        "    from mathable_cli import game\n"
        "    from mathable_cli.commands import bots\n",
        encoding="utf-8",
    )
    assert [name for _, name in imported_commands(module)] == [
        "mathable_cli.commands.rules",
        "mathable_cli.commands.games",
        "mathable_cli.commands.watch",
        "mathable_cli.commands.play",
        "mathable_cli.commands.account",
    ]


@pytest.mark.parametrize("package", ["mathable_cli", "mathable_client"])
def test_no_module_of_the_client_imports_itself_back(package: str) -> None:
    # Imports inside functions and under TYPE_CHECKING count (as the server's layers count
    # them): a cycle hidden in a function, or made of type names only, is a cycle all the same.
    from tests.rules.layout_helpers import find_cycle, graph

    root = Path(__file__).resolve().parents[2] / "client" / package
    edges = graph(root)
    assert len(edges) > 3
    assert find_cycle(edges) is None


# --- games are plugins: the CLI tells them apart only through their screen and ruleset -----

CLI_DIR = COMMANDS_DIR.parent


def mathable_event_types() -> set[str]:
    """The ``type`` of each of Mathable's own events (its events module, not the kernel's)."""
    from mathable.core.events import Event
    from mathable.games.mathable import events

    return {
        cls.type
        for cls in vars(events).values()
        if isinstance(cls, type)
        and issubclass(cls, Event)
        and cls.__module__ == events.__name__
        and isinstance(getattr(cls, "type", None), str)
    }


def ruleset_names() -> set[str]:
    from mathable.core.ruleset import rulesets

    return set(rulesets()) | {"mathable", "summy", "fifteen"}


def _literals(node: ast.AST) -> list[str]:
    """The string literals ``node`` is (one, or a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for element in node.elts for s in _literals(element)]
    return []


def game_knowledge(source: str, event_types: set[str], rulesets: set[str]) -> list[str]:
    """Where a module's source knows a game it should reach through its screen or ruleset:
    each mention of one of Mathable's event types (quoted or in backquotes: as code
    compares it, or as a docstring names it), each import of Mathable's events, and each
    comparison (``==``, ``!=``, ``in``, ``match``) of a ruleset's name with a literal."""
    found = [
        f"event type {name}"
        for name in sorted(event_types)
        if re.search(rf"[\"'`]{re.escape(name)}[\"'`]", source)
    ]
    at: list[tuple[int, str]] = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "mathable.games.mathable.event"
        ):
            at.append((node.lineno, f"imports {node.module}"))
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            literals = {s for operand in operands for s in _literals(operand)}
            about = " ".join(ast.unparse(o) for o in operands if not _literals(o))
            if literals & rulesets or (literals and re.search(r"ruleset\b|\.name\b", about)):
                at.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Match):
            subject = ast.unparse(node.subject)
            for case in node.cases:
                values = [
                    p.value.value
                    for p in ast.walk(case.pattern)
                    if isinstance(p, ast.MatchValue)
                    and isinstance(p.value, ast.Constant)
                    and isinstance(p.value.value, str)
                ]
                if set(values) & rulesets or (values and re.search(r"ruleset\b|\.name\b", subject)):
                    at.append((case.pattern.lineno, f"match {subject}: {values}"))
    return found + [f"line {line}: {what}" for line, what in sorted(at)]


def test_no_module_but_mathables_screen_knows_mathables_events_or_a_rulesets_name() -> None:
    # A game's own events are told by its ruleset (``event_words``, ``turn_told``) and folded
    # into the history by its screen (``GameScreen.turns``): only Mathable's screen package
    # (screens/mathable/) names Mathable's events, and no module asks which game it is.
    event_types = mathable_event_types()
    assert event_types >= {"tile_placed", "extra_tile_drawn", "turn_ended", "corrected"}
    rulesets = ruleset_names()
    modules = sorted(CLI_DIR.rglob("*.py"))
    mathables = {p for p in modules if p.is_relative_to(CLI_DIR / "screens" / "mathable")}
    assert len(modules) > 40 and len(mathables) >= 3  # the walk sees the real modules
    offenders = {
        str(p.relative_to(CLI_DIR)): hits
        for p in modules
        if p not in mathables
        and (hits := game_knowledge(p.read_text(encoding="utf-8"), event_types, rulesets))
    }
    assert offenders == {}


def test_the_game_knowledge_check_sees_each_way_of_telling_games_apart() -> None:
    source = (
        '"""After ``turn_ended`` the turn is over."""\n'
        "from mathable.games.mathable.events import Corrected\n"
        "def f(event, view, rules):\n"
        '    if event.get("type") in ("tile_placed", "passed"):\n'
        "        return 1\n"
        "    match event['type']:\n"
        "        case 'corrected':\n"
        "            return 2\n"
        '    if view.get("ruleset") == "summy":\n'
        "        return 3\n"
        '    if rules.name != "chess":\n'
        "        return 4\n"
        "    match rules.name:\n"
        '        case "fifteen":\n'
        "            return 5\n"
        '    return "bob corrected alice" if view.get("status") == "ended" else None\n'
    )
    found = game_knowledge(source, mathable_event_types(), ruleset_names())
    assert found == [
        "event type corrected",
        "event type tile_placed",
        "event type turn_ended",
        "line 2: imports mathable.games.mathable.events",
        "line 9: view.get('ruleset') == 'summy'",
        "line 11: rules.name != 'chess'",
        "line 14: match rules.name: ['fifteen']",
    ]


# --- the game-neutral modules know no game's board: Mathable's lives in screens/mathable/ --

#: Mathable's board by name: its tables and notation, and its position. The board module's
#: common words (``SIZE``, ``EMPTY``, ``render``, the operation signs) are left out: any
#: module may have names like those of its own.
BOARD_NAMES = frozenset(
    {
        "AFFECTED",
        "CENTRE",
        "COLUMNS",
        "OPERATION",
        "OPERATIONS",
        "PAIRS",
        "PREMIUM",
        "SQUARES",
        "Position",
        "parse_square",
        "square_name",
    }
)


def game_exports() -> set[str]:
    """The names the rules package's top re-exports from a game's modules (``mathable.
    Position``, ``mathable.best_turn_in``...): the kernel's (``RuleError``) are not among them."""
    import mathable

    games = "mathable.games."
    return {name for name, module in mathable._EXPORTS.items() if module.startswith(games)}


def game_imports(source: str, exported: set[str]) -> list[str]:
    """Where a module's source reaches a game's rules or board: each import of a game's
    module (``mathable.games.*``), each name the rules package re-exports from one (``from
    mathable import Placement``, ``mathable.position_from``), each of Mathable's board
    names it imports or uses (``BOARD_NAMES``), from wherever it has them."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [
                (node.lineno, f"imports {alias.name}")
                for alias in node.names
                if alias.name.startswith("mathable.games")
            ]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.startswith("mathable.games"):
                found.append((node.lineno, f"imports {module}"))
                continue
            names = {alias.name for alias in node.names}
            wanted = names & BOARD_NAMES
            if module == "mathable":
                wanted |= names & exported
            found += [(node.lineno, f"imports {name} from {module}") for name in sorted(wanted)]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "mathable"
            and node.attr in exported
        ):
            found.append((node.lineno, f"mathable.{node.attr}"))
        elif isinstance(node, ast.Name) and node.id in BOARD_NAMES:
            found.append((node.lineno, f"names {node.id}"))
    return [f"line {line}: {what}" for line, what in sorted(set(found))]


def test_no_module_outside_the_screens_imports_a_game_or_names_mathables_board() -> None:
    # What a game is, is its ruleset's and its screen's: Mathable's rules and board are
    # reached only from screens/ (its own screen package, screens/mathable/).
    exported = game_exports()
    assert {"Position", "PREMIUM", "parse_square", "Placement"} <= exported
    assert "RuleError" not in exported
    modules = sorted(p for p in CLI_DIR.rglob("*.py") if not p.is_relative_to(CLI_DIR / "screens"))
    assert len(modules) > 30  # the walk sees the real modules
    offenders = {
        str(p.relative_to(CLI_DIR)): hits
        for p in modules
        if (hits := game_imports(p.read_text(encoding="utf-8"), exported))
    }
    assert offenders == {}


def test_the_board_names_are_mathables() -> None:
    from mathable.games.mathable import board, position

    assert all(hasattr(board, name) or hasattr(position, name) for name in BOARD_NAMES)


def test_the_game_import_check_sees_each_way_of_reaching_a_game() -> None:
    source = (
        "import mathable\n"
        "import mathable.games.summy.notation\n"
        "from mathable import RuleError, Position\n"
        "from mathable.games.mathable.board import SIZE\n"
        "from mathable.core.errors import RuleError as Refused\n"
        "from mathable_cli.screens.mathable.board import PREMIUM, board_text\n"
        "def f(view):\n"
        "    square = parse_square(view['square'])\n"
        "    return mathable.position_from(view['board']), mathable.ruleset('summy'), square\n"
    )
    assert game_imports(source, game_exports()) == [
        "line 2: imports mathable.games.summy.notation",
        "line 3: imports Position from mathable",
        "line 4: imports mathable.games.mathable.board",
        "line 6: imports PREMIUM from mathable_cli.screens.mathable.board",
        "line 8: names parse_square",
        "line 9: mathable.position_from",
    ]
