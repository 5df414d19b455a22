"""The kernel every game shares: the lifecycle of a game (create, join, start, pass,
resign, clocks, decline, cancel, end, and any offer: ``mathable.core.lifecycle``) with the
commands every game shares as players write them (JSON, mail), the events every game
has, the clock, the draw commitment and its audit, the event codec, errors, and the
``Ruleset`` interface with its registry.

Standard library only. The kernel never imports a game: each game is a package of its
own (``mathable.games.*``, or any installed distribution) found through the entry-point
group ``mathable.rulesets`` (``mathable.core.plugins``).
"""
