"""Tests of ``mathable_server.run``: the ``mathable-server`` commands, ``dump``/``load``,
``serve`` and ``run`` (gevent, one write per answer, restarts, slow clients), logs and
the access log, the operator's documentation, and upgrades (``upgrade/``)."""
