"""The invitation commands (``commands/invitations.py``): ``blocks`` with nobody blocked.

``open GAME`` in the browser: test_browser_links.py; ``block``, ``blocks``, ``unblock`` and
``open`` against a real server: tests/cli/e2e/test_blocks.py (``decline``:
tests/cli/e2e/test_account_security.py).

Found in a new user's trial of issue 27's features (the former test_trial_findings.py).
"""

from __future__ import annotations

import responses

from tests.cli.conftest import SERVER, Invoke


def test_blocks_says_so_when_nobody_is_blocked(cli: Invoke, http: responses.RequestsMock) -> None:
    http.get(f"{SERVER}/v1/me/blocks", json={"blocks": []})
    result = cli("blocks")
    assert result.exit_code == 0 and "You block nobody." in result.stderr
