"""Settings: flag > environment > config file, with named profiles for servers and identities.

The config file is ``config.json`` in the user config dir (``MATHABLE_CONFIG_DIR``
overrides it). It holds tokens, so it is written with mode 0600 in a 0700
directory and tightened if someone loosened it.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mathable_cli.exits import CliError, ExitCode
from mathable_i18n import _

APP_NAME = "mathable-cli"
DEFAULT_SERVER = "http://127.0.0.1:8080"
DEFAULT_PROFILE = "default"
CONFIG_FILE = "config.json"

ENV_SERVER = "MATHABLE_SERVER"
ENV_TOKEN = "MATHABLE_TOKEN"
ENV_CONFIG_DIR = "MATHABLE_CONFIG_DIR"
ENV_PROFILE = "MATHABLE_PROFILE"


def config_dir(flag: str | None = None, env: Mapping[str, str] | None = None) -> Path:
    """Where the config file lives: the flag, ``MATHABLE_CONFIG_DIR``, or the user config dir."""
    env = os.environ if env is None else env
    if flag:
        return Path(flag).expanduser()
    if env.get(ENV_CONFIG_DIR):
        return Path(env[ENV_CONFIG_DIR]).expanduser()
    return Path(user_config_dir(APP_NAME))


def user_config_dir(app: str) -> str:
    """The user's config folder for ``app``, as Click's ``get_app_dir`` gives it (roaming
    on Windows): written out, so that a command need not import Click to find its file."""
    if sys.platform.startswith("win"):
        return os.path.join(os.environ.get("APPDATA") or os.path.expanduser("~"), app)
    if sys.platform == "darwin":
        return os.path.join(os.path.expanduser("~/Library/Application Support"), app)
    posix = "-".join(app.split()).lower()
    return os.path.join(os.environ.get("XDG_CONFIG_HOME", os.path.expanduser("~/.config")), posix)


@dataclass
class Profile:
    """One identity on one server."""

    server: str | None = None
    token: str | None = None
    name: str | None = None
    id: str | None = None
    #: The language the CLI speaks for this profile (``mathable-cli language CODE``).
    language: str | None = None

    def to_dict(self) -> dict[str, str]:
        return {k: v for k, v in vars(self).items() if v is not None}

    @classmethod
    def from_dict(cls, data: Any) -> Profile:
        if not isinstance(data, dict):
            return cls()
        fields = ("server", "token", "name", "id", "language")
        known = {k: str(v) for k, v in data.items() if k in fields}
        return cls(**known)


@dataclass
class ConfigFile:
    """The profiles in the config file and which one is current."""

    path: Path
    current: str | None = None
    profiles: dict[str, Profile] = field(default_factory=dict)

    @classmethod
    def load(cls, directory: Path) -> ConfigFile:
        """Read the config file in ``directory``; an absent file is an empty config."""
        path = directory / CONFIG_FILE
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path)
        except OSError as err:
            raise CliError(
                _(
                    "cannot read the config file {path}: {problem}",
                    path=str(path),
                    problem=err.strerror,
                )
            ) from None
        try:
            data = json.loads(text)
        except ValueError:
            raise CliError(
                _("the config file {path} is not valid JSON", path=str(path)),
                hint=_("fix or delete it, then log in again"),
            ) from None
        if not isinstance(data, dict):
            data = {}
        profiles = data.get("profiles")
        current = data.get("current")
        return cls(
            path,
            current=current if isinstance(current, str) else None,
            profiles={
                str(name): Profile.from_dict(p)
                for name, p in (profiles.items() if isinstance(profiles, dict) else [])
            },
        )

    def is_too_open(self) -> bool:
        """True when others than the owner may read the file (it holds tokens)."""
        try:
            mode = self.path.stat().st_mode
        except OSError:
            return False
        return bool(mode & (stat.S_IRWXG | stat.S_IRWXO))

    def save(self) -> None:
        """Write the file atomically, readable by its owner only."""
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        data = {
            "current": self.current,
            "profiles": {name: p.to_dict() for name, p in sorted(self.profiles.items())},
        }
        import tempfile  # deferred: start-up time of the commands that write nothing

        fd, tmp = tempfile.mkstemp(prefix=".config-", dir=self.path.parent)
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=2)
                fh.write("\n")
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        os.chmod(self.path, 0o600)


@dataclass
class Settings:
    """The settings one command runs with, and where each came from."""

    server: str
    token: str | None
    profile: str
    config: ConfigFile
    server_source: str = "default"
    token_source: str = "none"
    #: Where the profile's name came from: "flag", MATHABLE_PROFILE, "current" or "default".
    profile_source: str = "default"

    def require_profile(self) -> None:
        """A usage error when the profile was named (``-p``, ``MATHABLE_PROFILE``) and the
        config file has no such profile; the default one need not exist yet."""
        named = self.profile_source in ("flag", ENV_PROFILE)
        if named and self.profile not in self.config.profiles:
            known = ", ".join(sorted(self.config.profiles)) or _("none yet")
            raise CliError(
                _("there is no profile {profile}", profile=repr(self.profile)),
                ExitCode.USAGE,
                hint=_(
                    "the profiles are: {known}. `mathable-cli -p {profile} register NAME` "
                    "or `login` makes it",
                    known=known,
                    profile=self.profile,
                ),
            )

    def require_token(self) -> str:
        """The token, or an error that says how to get one."""
        if not self.token:
            raise CliError(
                _("you are not logged in"),
                ExitCode.ERROR,
                hint=_(
                    "register with `mathable-cli register NAME`, log in with "
                    "`mathable-cli login`, or set {variable}",
                    variable=ENV_TOKEN,
                ),
            )
        return self.token


def resolve(
    *,
    server: str | None = None,
    token: str | None = None,
    profile: str | None = None,
    config_dir_flag: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Settings:
    """Settings from flags, then the environment, then the config file's profile."""
    env = os.environ if env is None else env
    config = ConfigFile.load(config_dir(config_dir_flag, env))
    if profile:
        name, profile_source = profile, "flag"
    elif env.get(ENV_PROFILE):
        name, profile_source = env[ENV_PROFILE], ENV_PROFILE
    elif config.current:
        name, profile_source = config.current, "current"
    else:
        name, profile_source = DEFAULT_PROFILE, "default"
    stored = config.profiles.get(name, Profile())
    if server:
        chosen_server, server_source = server, "flag"
    elif env.get(ENV_SERVER):
        chosen_server, server_source = env[ENV_SERVER], ENV_SERVER
    elif stored.server:
        chosen_server, server_source = stored.server, f"profile {name}"
    else:
        chosen_server, server_source = DEFAULT_SERVER, "default"
    if token:
        chosen_token, token_source = token, "flag"
    elif env.get(ENV_TOKEN):
        chosen_token, token_source = env[ENV_TOKEN], ENV_TOKEN
    elif stored.token:
        chosen_token, token_source = stored.token, f"profile {name}"
    else:
        chosen_token, token_source = None, "none"
    return Settings(
        server=chosen_server.rstrip("/"),
        token=chosen_token,
        profile=name,
        config=config,
        server_source=server_source,
        token_source=token_source,
        profile_source=profile_source,
    )
