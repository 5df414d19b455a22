"""The example game for the tests: its sources importable here, and the package installed
with pip for the real processes (server, CLI, mail) the end-to-end tests start.

pip installs ``examples/fifteen`` once (``--target`` a folder of the test venv,
``sys.prefix/mathable-examples``, the same one ``scripts/test.sh`` installs into), so the
server and the CLI find the game only through its real distribution metadata: the entry
point ``fifteen = fifteen.ruleset:RULES`` in the group ``mathable.rulesets``. The folder
is on the subprocesses' path, not on this process's: the rest of the suite pins the
games this distribution ships (mathable, summy) and keeps seeing just those.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "fifteen"
#: Where the example is installed (``scripts/test.sh`` installs it there too).
TARGET = Path(sys.prefix) / "mathable-examples"



def _import_sources() -> None:
    """``import fifteen`` from ``examples/fifteen/fifteen`` without putting a folder on the
    path: a build leaves ``mathable_fifteen.egg-info`` beside the package, and its entry
    point would add the game to this process's registry."""
    if "fifteen" in sys.modules:
        return
    package = EXAMPLE / "fifteen"
    spec = importlib.util.spec_from_file_location(
        "fifteen", package / "__init__.py", submodule_search_locations=[str(package)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fifteen"] = module
    spec.loader.exec_module(module)


_import_sources()


def _installed() -> bool:
    """The example is in ``TARGET`` with its entry point, and no source is newer."""
    sources = [
        EXAMPLE / "pyproject.toml",
        *(EXAMPLE / "fifteen").glob("*.py"),
        *(EXAMPLE / "fifteen").glob("locales/*/LC_MESSAGES/*.po"),
    ]
    newest = max(path.stat().st_mtime for path in sources)
    for info in TARGET.glob("mathable_fifteen-*.dist-info"):
        points = info / "entry_points.txt"
        if (
            points.is_file()
            and "fifteen.ruleset:RULES" in points.read_text(encoding="utf-8")
            and "mathable.translations" in points.read_text(encoding="utf-8")
            and (info / "RECORD").stat().st_mtime >= newest
        ):
            return True
    return False


def install_example() -> None:
    """``pip install`` the example into ``TARGET`` unless it is there (idempotent)."""
    if _installed():
        return
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--upgrade",
         "--target", str(TARGET), str(EXAMPLE)],
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert _installed(), "pip installed the example without its entry point"


def python_path(*parts: str) -> str:
    """PYTHONPATH for a subprocess: the checkout's ``parts`` and the installed example
    (reinstalled by ``install_example`` whenever a source is newer)."""
    return os.pathsep.join([str(REPO / p) for p in parts] + [str(TARGET)])


@pytest.fixture(scope="session")
def fifteen_installed() -> str:
    """The example installed; the PYTHONPATH a server process needs to find it."""
    install_example()
    return python_path("shared", "server")
