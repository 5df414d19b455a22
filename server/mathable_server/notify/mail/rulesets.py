"""Each ruleset's mail, by the name a game's state records."""

from __future__ import annotations

from mathable.core.ruleset import AnyState
from mathable_server.notify.mail import mathable, summy
from mathable_server.notify.mail.games import GameMail

#: The mail of each ruleset, by its name.
MAILS: dict[str, GameMail] = {"mathable": mathable.MAIL, "summy": summy.MAIL}


def game_mail_for(state: AnyState) -> GameMail:
    """The mail of ``state``'s ruleset."""
    return MAILS[state.ruleset]
