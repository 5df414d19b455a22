"""What docs/errors.md says of each refusal: its codes and, for each, the ``details`` keys.

Read from the tables of docs/errors.md (one row a code: ``| `code` | status | when |
details |``): a key is documented for a code when its row names it in backticks (a code in
several tables, as ``bad_notation`` in Mathable's and Summy's, has every row's keys; a row
whose details are ``as `other``` has ``other``'s too). Two keys are documented for every
code by a sentence of their own: ``placement`` (Mathable: a refused placement of a
``turn``) and ``line`` (a record's refusals).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

ERRORS = Path(__file__).resolve().parents[2] / "docs" / "errors.md"

#: Keys the page documents for every refusal in a sentence, not in each row.
EVERY_CODE = frozenset({"placement", "line"})

_ROW = re.compile(r"^\|\s*`([a-z_]+)`\s*\|(.*)\|\s*$")
_NAMED = re.compile(r"`([A-Za-z_][A-Za-z_0-9]*)`")
_AS = re.compile(r"\bas `([a-z_]+)`")


@functools.cache
def documented() -> dict[str, frozenset[str]]:
    """Every code of the page with the keys its rows name (values named in backticks
    too: a superset of the keys, which is what a check of keys needs)."""
    rows: dict[str, list[str]] = {}
    for line in ERRORS.read_text("utf-8").splitlines():
        found = _ROW.match(line)
        if found:
            rows.setdefault(found.group(1), []).append(found.group(2).split("|")[-1])
    keys: dict[str, set[str]] = {}
    for code, texts in rows.items():
        keys[code] = {k for text in texts for k in _NAMED.findall(text)}
    for code, texts in rows.items():
        for text in texts:
            for other in _AS.findall(text):
                keys[code] |= keys.get(other, set())
    return {code: frozenset(found) for code, found in keys.items()}


def undocumented(code: str, details: dict[str, Any]) -> list[str]:
    """What docs/errors.md does not say of a refusal: its code, or keys of its details
    (each a sentence; empty when the page documents it all)."""
    known = documented()
    if code not in known:
        return [f"the code {code!r} is not in docs/errors.md"]
    extra = sorted(set(details) - known[code] - EVERY_CODE)
    return [f"{code}: the key {key!r} is not in its row of docs/errors.md" for key in extra]
