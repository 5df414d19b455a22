"""The ``mathable-cli`` console script: ``--version`` at once, the commands run most
(``show``, ``games``, ``hint``, ``wait``, a one-shot ``move``) without the command-line
framework (``mathable_cli.quick``), a help printed before from the user's cache
(``mathable_cli.helpcache``), everything else through the app.

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
    argv = sys.argv[1:]
    # Only what may be a help imports the help's cache: a command does not pay for it.
    if len(argv) <= 2 and argv[-1:] in ([], ["--help"], ["-h"]):
        from mathable_cli import helpcache

        if helpcache.wanted(argv):
            code = helpcache.replay(argv)
            if code is not None:
                sys.exit(code)
            helpcache.record(argv, _app)
            return
    from mathable_cli import quick

    call = quick.parse(argv)
    if call is not None:
        sys.exit(quick.run(call))
    _app()


def _app() -> None:
    # deferred: start-up time of mathable-cli --version (typer, rich and the commands)
    from mathable_cli.app import app

    app(prog_name="mathable-cli")
