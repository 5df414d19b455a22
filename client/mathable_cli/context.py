"""What every command of one run shares: the global flags, settings, API client and output."""

from __future__ import annotations

from dataclasses import dataclass, field

import typer

from mathable_cli import config
from mathable_cli.api import ApiClient
from mathable_cli.output import Output


@dataclass
class AppContext:
    """The global options of one run and what is built from them, lazily."""

    server: str | None = None
    token: str | None = None
    profile: str | None = None
    config_dir: str | None = None
    output: Output = field(default_factory=Output)
    _settings: config.Settings | None = None
    _api: ApiClient | None = None

    @property
    def settings(self) -> config.Settings:
        if self._settings is None:
            self._settings = config.resolve(
                server=self.server,
                token=self.token,
                profile=self.profile,
                config_dir_flag=self.config_dir,
            )
            cfg = self._settings.config
            if cfg.is_too_open():
                self.output.warn(f"{cfg.path} could be read by others; making it private (0600)")
                cfg.path.chmod(0o600)
        return self._settings

    def api(self, *, auth: bool = True) -> ApiClient:
        """The API client; with ``auth`` it needs a token (and says how to get one)."""
        settings = self.settings
        token = settings.require_token() if auth else settings.token
        if self._api is None or self._api.token != token:
            self._api = ApiClient(settings.server, token)
        return self._api


def app_context(ctx: typer.Context) -> AppContext:
    """The AppContext of this run (made by the main callback)."""
    obj = ctx.find_object(AppContext)
    if obj is None:
        obj = AppContext()
        ctx.obj = obj
    return obj
