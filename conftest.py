"""Loaded by pytest before any test: name lookups stay on this machine (tests/netguard)."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

_GUARD = Path(__file__).resolve().parent / "tests" / "netguard"
# Every Python process the tests start finds the guard first (as its sitecustomize).
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(_GUARD), *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]
)
# And this process installs it too.
_spec = importlib.util.spec_from_file_location("mathable_netguard", _GUARD / "sitecustomize.py")
assert _spec is not None and _spec.loader is not None
_spec.loader.exec_module(importlib.util.module_from_spec(_spec))
