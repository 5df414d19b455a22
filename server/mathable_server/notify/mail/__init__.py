"""Play by email: sending mail through an SMTP relay and reading the replies.

``smtp``: the relay, from ``MATHABLE_SMTP_URL``. ``compose``: the mails
themselves. ``play_addresses``: per-seat play addresses. ``outgoing``: the outbox's
email channel. ``inbound``: a reply read and played. ``smtpd``: the SMTP
listener for replies (aiosmtpd).
"""
