"""The games of this distribution, one package each: ``mathable`` and ``summy``.

Each holds its ruleset class (``<game>.ruleset.RULES``, registered as an entry point of
the group ``mathable.rulesets``), its events, state, view and redaction, notation, its
own JSON commands (those every game shares are the kernel's), ruleset data, rule book,
move generation and engines. A game imports the kernel (``mathable.core``) and itself,
never another game.
"""
