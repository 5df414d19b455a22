"""The game service: load a game, run a command, clocks, draws, vacations, what a change
notifies, turn lists and board pictures.

No Flask, no SQLAlchemy: it may import only ``store`` (and the rules package).
"""
