"""Mail written by machines: auto-replies, bounces and list mail (RFC 3834, RFC 3464).

Such a mail to a play address is neither played nor answered: an answer to an
out-of-office reply would draw another one, and so on for ever. Answers the
server sends say ``Auto-Submitted: auto-replied`` so that well-behaved
responders stay silent in turn.
"""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import parseaddr

#: ``Precedence`` values of mail no one typed for this address.
_BULK = frozenset({"bulk", "junk", "list", "auto_reply"})
#: Headers some responders set instead of (or beside) ``Auto-Submitted``.
_RESPONDER_HEADERS = ("X-Autoreply", "X-Autorespond")
#: How the subjects of common responders begin (lower-cased), for those setting no header,
#: by language: every language players read (``mathable_i18n.LANGUAGES``: a test holds the
#: two to each other, ``tests/i18n/test_languages.py``), and German, which many meet.
RESPONDER_SUBJECTS: dict[str, tuple[str, ...]] = {
    "en": ("out of office", "automatic reply", "auto-reply", "autoreply"),
    "fr": ("réponse automatique", "absence"),
    "nb": ("automatisk svar", "fravær"),
    "it": ("risposta automatica", "fuori sede", "fuori ufficio"),
    "de": ("abwesenheit", "automatische antwort"),
}
_RESPONDER_SUBJECTS = tuple(start for starts in RESPONDER_SUBJECTS.values() for start in starts)


def automatic(message: EmailMessage, sender: str | None = None) -> str | None:
    """Why ``message`` was written by a machine, or None if nothing says so.

    ``sender`` is the envelope sender (SMTP ``MAIL FROM``) when it is known;
    else the ``Return-Path`` header an MTA pipe adds stands for it.

    >>> from email.message import EmailMessage
    >>> m = EmailMessage()
    >>> m["Auto-Submitted"] = "auto-replied; owner-email=ada@example.org"
    >>> automatic(m)
    'Auto-Submitted: auto-replied'
    >>> m.replace_header("Auto-Submitted", "no")
    >>> automatic(m) is None, automatic(m, sender="")
    (True, 'an empty envelope sender (a bounce)')
    """
    submitted = str(message.get("Auto-Submitted", "")).split(";")[0].strip().lower()
    if submitted and submitted != "no":
        return f"Auto-Submitted: {submitted}"
    if message.get_content_type() == "multipart/report":
        return "a delivery or disposition report (multipart/report)"
    precedence = str(message.get("Precedence", "")).strip().lower()
    if precedence in _BULK:
        return f"Precedence: {precedence}"
    for name in _RESPONDER_HEADERS:
        if name in message:
            return f"{name} is set"
    subject = " ".join(str(message.get("Subject", "")).split()).lower()
    for start in _RESPONDER_SUBJECTS:
        if subject.startswith(start):
            return f"an auto-reply's subject ({start!r})"
    if sender is None and "Return-Path" in message:
        sender = str(message["Return-Path"]).strip()
    if sender is not None and parseaddr(sender)[1] == "" and sender.strip() in ("", "<>"):
        return "an empty envelope sender (a bounce)"
    for value in (sender or "", str(message.get("From", ""))):
        local = parseaddr(value)[1].partition("@")[0].lower()
        if local in ("mailer-daemon", "postmaster"):
            return f"sent by {local}"
    return None
