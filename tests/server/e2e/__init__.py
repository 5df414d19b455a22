"""Behaviour across every layer: whole games over live servers (by mail, by CLI, in a
browser, many at once), the rule book's worked example, and what no request may do
whatever its route (hidden information, cross-access, hostile input)."""
