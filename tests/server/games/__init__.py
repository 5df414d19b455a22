"""Tests of ``mathable_server.games``, the service: bag orders, clocks and timeouts,
ratings, the board as a picture, what a view and a move cost the database."""
