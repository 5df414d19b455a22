"""Tests of ``mathable_server.notify``: the mail sent (codes, turn mail, digests, game
over, headers, languages, messages, reminders), the outbox and its worker, webhooks."""
