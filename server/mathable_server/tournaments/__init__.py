"""Tournaments: round robins, Swiss, duplicate events and leagues of correspondence games.

``pairing`` and ``standings`` are pure (no I/O: tested apart from the database);
``rules`` holds the formats' words and settings; ``service`` runs events over the store
and the game service (create, join, leave, start, the sweep that starts rounds and
closes seasons); ``hook`` records a tournament game's result in the transaction that
ends it.
"""
