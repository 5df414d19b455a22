"""Is a text a game says marked for translation? (issue 48)

A text is marked when it is a :class:`~mathable.core.words.Text` whose template the
rules package's catalog (``shared/mathable/locales/fr/LC_MESSAGES/mathable.po``, which
``scripts/catalogs.py extract`` writes from the marks) holds, and so is every text among
its values; a layout of texts (``concat``: ``{p0}{p1}``..., lines joined) is marked when its
words are.
A constant marked with ``N_`` is a plain string: it is marked when the catalog holds it.
Read with the standard library only (the rules tests import nothing else).
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path
from typing import Any

from mathable.core.words import Text

CATALOG = (
    Path(__file__).resolve().parents[2]
    / "shared" / "mathable" / "locales" / "fr" / "LC_MESSAGES" / "mathable.po"
)  # fmt: skip

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_WORD = re.compile(r"[A-Za-z]{2,}")


@functools.cache
def msgids() -> frozenset[str]:
    """The English texts of the catalog (singular and plural)."""
    found: set[str] = set()
    current: list[str] | None = None
    for line in CATALOG.read_text("utf-8").splitlines():
        if line.startswith(("msgid ", "msgid_plural ")):
            if current is not None:
                found.add("".join(current))
            current = [ast.literal_eval(line.split(" ", 1)[1])]
        elif line.startswith('"') and current is not None:
            current.append(ast.literal_eval(line))
        else:
            if current is not None:
                found.add("".join(current))
            current = None
    if current is not None:
        found.add("".join(current))
    found.discard("")
    return frozenset(found)


def unmarked(text: Any) -> list[str]:
    """The parts of ``text`` that are words and not marked (empty: all of it is)."""
    if isinstance(text, Text):
        missing: list[str] = []
        # a layout: placeholders and signs only (concat, a tutorial's joined lines)
        layout = not _WORD.search(_PLACEHOLDER.sub("", text.template))
        if not layout:
            for template in (text.template, text.plural):
                if template is not None and template not in msgids():
                    missing.append(f"not in the catalog: {template!r}")
        for value in text.params.values():
            if isinstance(value, Text):
                missing += unmarked(value)
        return missing
    if isinstance(text, str):
        if not _WORD.search(text) or text in msgids():
            return []
        return [f"not marked: {text!r}"]
    return [f"not a text: {text!r}"]


def assert_marked(text: Any) -> None:
    found = unmarked(text)
    assert not found, "\n".join(found)
