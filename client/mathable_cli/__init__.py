"""mathable-cli: play Mathable correspondence games and run bots from the terminal."""

__version__ = "0.1.0"
