"""A built wheel, installed as a user would: the CLI alone, then with the server extra.

``pip install .`` must give the CLI and the rules package without Flask or any
database driver; ``pip install '.[server]'`` adds a server that starts, serves
its OpenAPI description and plays. Editable installs hide missing packages and
data files, so this builds a real wheel and installs it into fresh venvs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import venv
from pathlib import Path

import pytest
import requests

from tests.server.live import free_port

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.e2e


#: pip fetches the server extra's dependencies from the package registry, the one name the
#: tests look up beyond this machine: the root conftest's guard (tests/netguard) is left out.
_REGISTRY_ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(
        p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
        if p and Path(p).name != "netguard"
    ),
}


def _run(
    *args: str | Path, timeout: float = 600, check: bool = True
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=timeout, cwd="/",
        env=_REGISTRY_ENV,
    )
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", out, REPO)
    (found,) = out.glob("mathable-*.whl")
    return found


def _venv(folder: Path, requirement: str) -> Path:
    venv.create(folder, with_pip=True)
    _run(folder / "bin" / "python", "-m", "pip", "install", "--quiet", requirement)
    return folder / "bin"


def test_the_plain_wheel_is_the_cli_and_the_rules_and_the_server_extra_serves(
    wheel: Path, tmp_path: Path
) -> None:
    """One venv: first the plain wheel (what a player installs), then its server extra."""
    bin_dir = _venv(tmp_path / "venv", str(wheel))
    version = _run(bin_dir / "mathable-cli", "--version")
    assert version.stdout.strip()
    rules = _run(
        bin_dir / "python",
        "-c",
        "import mathable; print(mathable.best_turn({}, [1, 2, 8, 12, 16, 17, 42]).total)",
    )
    assert rules.stdout.strip() == "56"
    # The rules for people ship inside the package: no docs/ folder in a plain install.
    book = _run(bin_dir / "mathable-cli", "rules")
    assert book.stdout == (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    # ... in each language too: the catalogs ship compiled in the wheel.
    for lang in ("fr", "nb", "it"):
        said = _run(bin_dir / "mathable-cli", "rules", "--lang", lang)
        assert said.stdout == (REPO / "docs" / f"rules.{lang}.md").read_text(encoding="utf-8")
    for absent in ("flask", "sqlalchemy", "gunicorn", "psycopg"):
        missing = _run(bin_dir / "python", "-c", f"import {absent}", check=False)
        assert missing.returncode != 0, f"{absent} came with the plain install"
    server = _run(bin_dir / "mathable-server", "run", check=False)
    assert server.returncode != 0
    assert server.stderr.strip().splitlines() == [
        "mathable-server: the server is not installed (flask is missing): pip install "
        "'mathable[server]' (from a checkout: pip install -e '.[server]')"
    ]

    _run(bin_dir / "pip", "install", "--quiet", f"mathable[server] @ {wheel.as_uri()}")
    # The server without the postgres extra says what to install for a PostgreSQL URL.
    no_driver = _run(
        bin_dir / "mathable-server", "migrate", "--database-url", "postgresql://u@127.0.0.1/x",
        check=False,
    )  # fmt: skip
    assert no_driver.returncode != 0
    assert no_driver.stderr.strip().splitlines() == [
        "mathable-server: PostgreSQL needs its driver: pip install 'mathable[server,postgres]' "
        "(from a checkout: pip install -e '.[server,postgres]')"
    ]
    port = free_port()
    database = f"sqlite:///{tmp_path / 'games.db'}"
    log = (tmp_path / "server.log").open("w")
    process = subprocess.Popen(
        [bin_dir / "mathable-server", "run", "--port", str(port), "--database-url", database],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd="/",
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(f"{base}/v1/health", timeout=2).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, (
                tmp_path / "server.log"
            ).read_text()
            time.sleep(0.2)
        spec = requests.get(f"{base}/v1/openapi.yaml", timeout=5)
        assert spec.status_code == 200 and spec.text.startswith("openapi:")
        packaged = REPO / "server" / "mathable_server" / "http" / "openapi.yaml"
        assert spec.text == packaged.read_text()
        env = {"MATHABLE_SERVER": base, "MATHABLE_CONFIG_DIR": str(tmp_path / "cli")}
        cli = [str(bin_dir / "mathable-cli")]
        for name in ("ann", "bob"):
            done = subprocess.run(
                [*cli, "register", name], env=env, capture_output=True, text=True, timeout=60
            )
            assert done.returncode == 0, done.stderr
        created = subprocess.run(
            [*cli, "-p", "ann", "new", "--invite", "bob", "--json"],
            env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert created.returncode == 0, created.stderr
        # The pages' templates ship in the wheel.
        game = json.loads(created.stdout)["id"]
        for path in ("/", f"/games/{game}"):
            page = requests.get(f"{base}{path}", timeout=5)
            assert page.status_code == 200 and "Mathable" in page.text, path
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
