"""schemathesis hooks for bench/fuzz_api.py: long-polls are capped at one second.

A generated ``wait`` of up to 60 s holds its worker for that long and starves
the run of cases; the long-poll itself is covered by its own tests.
"""

from __future__ import annotations

from typing import Any

import schemathesis


@schemathesis.hook
def map_query(context: Any, query: dict[str, Any] | None) -> dict[str, Any] | None:
    if query and isinstance(query.get("wait"), int | float) and query["wait"] > 1:
        query["wait"] = 1
    return query
