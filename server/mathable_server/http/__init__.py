"""The web layer: the app factory, blueprints (``api/``), schemas, auth, limits, proxies,
pages and templates, the JSON error handler, the settings, ``openapi.yaml``.

The only layer that imports Flask. It may import ``mailin``, ``notify``,
``games`` and ``store``; never ``run``.
"""
