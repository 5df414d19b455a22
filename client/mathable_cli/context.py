"""What every command of one run shares: the global flags, settings, API client and output."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mathable_cli import config
from mathable_cli.output import Output
from mathable_i18n import _

if TYPE_CHECKING:
    import typer

    from mathable_cli.api import ApiClient


#: The commands that run whatever profile is named: those that make one (``register``,
#: ``login``), manage them (``profile``), or use none (``rules``, ``tournament``: no server).
#: Every other command refuses a profile the config file does not have (exit 2), once, when
#: it first reads its settings.
RUN_WITHOUT_PROFILE = frozenset(
    {"register", "login", "profile", "rules", "tournament", "import", "tutorial"}
)


@dataclass
class AppContext:
    """The global options of one run and what is built from them, lazily."""

    server: str | None = None
    token: str | None = None
    profile: str | None = None
    config_dir: str | None = None
    output: Output = field(default_factory=Output)
    #: Whether a profile named on the command line or in the environment must exist
    #: (every command but those that make profiles or use none: ``RUN_WITHOUT_PROFILE``).
    needs_profile: bool = True
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
            if self.needs_profile:
                self._settings.require_profile()
            cfg = self._settings.config
            if cfg.is_too_open():
                self.output.warn(
                    _(
                        "{path} could be read by others; making it private (0600)",
                        path=str(cfg.path),
                    )
                )
                cfg.path.chmod(0o600)
        return self._settings

    def api(self, *, auth: bool = True, patient: bool = False, endless: bool = False) -> ApiClient:
        """The API client; with ``auth`` it needs a token (and says how to get one).

        Without ``auth`` the token is still sent when there is one (a player sees
        their rack). ``patient`` retries an unreachable server for longer: for
        commands that wait anyway. ``endless`` retries it for as long as the command runs
        (a bot, ``wait``): a server restarting only pauses it, and each retry is said on
        stderr.
        """
        settings = self.settings
        token = settings.require_token() if auth else settings.token
        from mathable_cli import api  # requests is slow to import: only when used

        if self._api is None or self._api.token != token:
            self._api = api.ApiClient(settings.server, token, report=self.output.retrying)
        if endless:
            self._api.retries, self._api.backoff = api.ENDLESS
        elif patient and self._api.retries is not None:
            self._api.retries, self._api.backoff = api.PATIENT
        return self._api

    def game_id(self, given: str | None, command: str, *, auth: bool = True) -> str:
        """The game a command means: ``given`` whole, a unique start of one of your
        games' ids, or (``given`` None) the only game waiting on you."""
        # deferred: start-up time of mathable-cli (resolve imports the API client: requests)
        from mathable_cli.resolve import choose_game

        return choose_game(self.api(auth=auth), given, command, self.output.info)


def app_context(ctx: typer.Context) -> AppContext:
    """The AppContext of this run (made by the main callback)."""
    obj = ctx.find_object(AppContext)
    if obj is None:
        obj = AppContext()
        ctx.obj = obj
    return obj
