"""Settings precedence (flag, environment, config file, defaults) and the private config file."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from mathable_cli import config
from mathable_cli.exits import ExitCode
from tests.cli.conftest import FakeServer, Invoke


def _write_config(directory: Path, data: dict[str, object]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "config.json"
    path.write_text(json.dumps(data))
    path.chmod(0o600)
    return path


def test_flag_beats_environment_beats_config_file(tmp_path: Path) -> None:
    _write_config(
        tmp_path,
        {"current": "a", "profiles": {"a": {"server": "http://file", "token": "file-tok"}}},
    )
    env = {"MATHABLE_CONFIG_DIR": str(tmp_path)}
    from_file = config.resolve(env=env)
    assert (from_file.server, from_file.token) == ("http://file", "file-tok")
    env |= {"MATHABLE_SERVER": "http://env", "MATHABLE_TOKEN": "env-tok"}
    from_env = config.resolve(env=env)
    assert (from_env.server, from_env.token, from_env.token_source) == (
        "http://env",
        "env-tok",
        "MATHABLE_TOKEN",
    )
    from_flag = config.resolve(server="http://flag/", token="flag-tok", env=env)
    assert (from_flag.server, from_flag.token, from_flag.server_source) == (
        "http://flag",
        "flag-tok",
        "flag",
    )


def test_defaults_without_any_setting(tmp_path: Path) -> None:
    settings = config.resolve(env={"MATHABLE_CONFIG_DIR": str(tmp_path)})
    assert settings.server == config.DEFAULT_SERVER
    assert settings.token is None and settings.profile == "default"


def test_a_config_file_others_can_read_is_made_private(
    cli: Invoke, fake: FakeServer, tmp_path: Path
) -> None:
    path = _write_config(tmp_path / "config", {"current": None, "profiles": {}})
    os.chmod(path, 0o644)
    result = cli("games")
    assert "could be read by others" in result.stderr
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_broken_config_file_is_an_error_in_words(cli: Invoke, tmp_path: Path) -> None:
    directory = tmp_path / "config"
    directory.mkdir()
    (directory / "config.json").write_text("{nope")
    result = cli("games")
    assert result.exit_code == ExitCode.ERROR
    assert "is not valid JSON" in result.stderr and "Traceback" not in result.output


def test_config_dir_flag_beats_the_environment(
    cli: Invoke, fake: FakeServer, tmp_path: Path
) -> None:
    other = tmp_path / "elsewhere"
    result = cli("--config-dir", str(other), "register", "erin")
    assert result.exit_code == 0
    assert (other / "config.json").exists()
