"""Hypothesis profiles for the rules tests.

``mutation`` is the profile ``bench/mutation.py`` runs the tests under: no
shrinking (a mutant is killed by the first failing example, not after minutes
of shrinking that would end as a timeout), no example database (each mutant
starts from the same examples), derandomized (a kill does not depend on luck)
and no deadline. Select it with ``MATHABLE_HYPOTHESIS_PROFILE=mutation``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import Phase, settings

from mathable.core.errors import RuleError
from tests.rules.refusal_docs import undocumented
from tests.rules.words_helpers import unmarked

settings.register_profile(
    "mutation",
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    database=None,
    derandomize=True,
    deadline=None,
    print_blob=False,
)

_profile = os.environ.get("MATHABLE_HYPOTHESIS_PROFILE")
if _profile:
    settings.load_profile(_profile)


# Every refusal the rules package makes while a test runs is held to docs/errors.md (its
# code is listed there and every key of its details is named in the code's row) and its
# message to the catalogs (marked for translation: tests/rules/words_helpers.py) (issue 48).
# A refusal a test provokes thus pins its code and details keys, whatever else the test
# checks; the refusals a test builds itself are not held, nor those of a test marked
# ``own_refusals`` (a game of the test's own, with codes of its own).
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "own_refusals: the test's own game refuses with codes docs/errors.md lacks"
    )


@pytest.fixture(autouse=True)
def _refusals_are_documented(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Iterator[None]:
    if request.node.get_closest_marker("own_refusals"):
        yield
        return
    made: list[RuleError] = []
    init = RuleError.__init__

    def recording(self: RuleError, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        if sys._getframe(1).f_globals.get("__name__", "").startswith("mathable."):
            made.append(self)

    monkeypatch.setattr(RuleError, "__init__", recording)
    yield
    found = [line for err in made for line in undocumented(err.code, err.details)]
    found += [f"{err.code}: {line}" for err in made for line in unmarked(err.message)]
    said = "refusals that docs/errors.md does not document or the catalogs lack:\n"
    assert not found, said + "\n".join(sorted(set(found)))
