"""Telling players: the one worker loop (outbox delivery and the clock sweep), the mail
and webhook channels, mail composition (``mail/``), the store's append hook that writes
the outbox rows of a change.

It may import ``games`` and ``store``; never ``mailin``, ``http`` or ``run``.
"""
