"""``python -m mathable_server``: the same as the ``mathable-server`` command."""

from mathable_server.run.cli import main

main()
