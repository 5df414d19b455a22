"""What the commands share, declared once: the ``--json`` flag and the game argument.

Like gh's ``cmdutil``: a command module takes its shared flags from here and
declares only its own. Typer reads each alias where a command uses it, so a
flag means and reads the same in every command.
"""

from __future__ import annotations

from typing import Annotated

import typer

#: ``--json``: the data (the API's answer, or the command's result) as JSON on stdout.
JsonFlag = Annotated[
    bool, typer.Option("--json", help="Print the data as JSON (for scripts), not in words.")
]

_GAME_HELP = "The game id, or a unique start of it."

#: The game a command acts on; without it (``= None``), the only game waiting on you.
GameArg = Annotated[
    str | None,
    typer.Argument(help=f"{_GAME_HELP} None: the only game waiting on you.", show_default=False),
]

#: The game a command acts on, required: for commands that never guess it, and those
#: whose further arguments would be read as the game otherwise (``exchange GAME TILES``).
GameIdArg = Annotated[str, typer.Argument(help=_GAME_HELP, show_default=False)]
