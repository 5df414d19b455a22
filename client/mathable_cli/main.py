"""The ``mathable-cli`` console script: ``--version`` at once, everything else through the app.

Nothing heavy is imported here, so ``mathable-cli --version`` costs little more
than starting Python; the commands are in ``mathable_cli.app``.
"""

from __future__ import annotations

import sys

from mathable_cli import __version__


def main() -> None:
    """Console-script entry point."""
    if sys.argv[1:] == ["--version"]:
        sys.stdout.write(f"mathable-cli {__version__}\n")
        return
    # deferred: start-up time of mathable-cli --version (typer, rich and the commands)
    from mathable_cli.app import app

    app(prog_name="mathable-cli")
