"""Tests of ``mathable_server.http.api``, route by route: accounts and registrations,
games, moves, invitations, rematches, Summy, rulesets, messages, trials, records, the
player stream and the game stream."""
