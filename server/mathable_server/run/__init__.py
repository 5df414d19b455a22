"""The composition root: the ``mathable-server`` command, gunicorn, the dev server, dump/load.

Builds the processes from the layers below: it may import every other layer
(``http``, ``mailin``, ``notify``, ``games``, ``store``); nothing imports it.
"""
