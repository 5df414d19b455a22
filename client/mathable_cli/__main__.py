"""``python -m mathable_cli``: the same as the ``mathable-cli`` console script."""

from mathable_cli.main import main

main()
