"""Mail in: the SMTP listener for replies, reading a reply and playing its move, the
append hook that closes a game's play addresses.

It may import ``notify`` (an answer to a reply is mail out), ``games`` and
``store``; never ``http`` or ``run``.
"""
