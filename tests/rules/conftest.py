"""Hypothesis profiles for the rules tests.

``mutation`` is the profile ``bench/mutation.py`` runs the tests under: no
shrinking (a mutant is killed by the first failing example, not after minutes
of shrinking that would end as a timeout), no example database (each mutant
starts from the same examples), derandomized (a kill does not depend on luck)
and no deadline. Select it with ``MATHABLE_HYPOTHESIS_PROFILE=mutation``.
"""

from __future__ import annotations

import os

from hypothesis import Phase, settings

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
