"""Tests of ``mathable_server.mailin``: replies read and played (``smtpd``, ``mail-in``,
Postfix in front), the free text of a reply, play addresses closing."""
