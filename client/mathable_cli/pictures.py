"""The board as a picture and the game's web page, for ``show --svg FILE`` and ``show --open``.

The server draws the picture (``GET /v1/games/{id}/board.svg``): with a token
it is the caller's own view (their rack below the board); the web page
(``/games/{id}``) is the spectator's view that anyone with the link may follow.
"""

from __future__ import annotations

import sys
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Annotated
from urllib.parse import quote

import typer

from mathable_cli.api import ApiClient, ApiError
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.output import Output
from mathable_i18n import N_, _

if TYPE_CHECKING:
    import requests

SvgOption = Annotated[
    Path | None,
    typer.Option(
        "--svg",
        metavar="FILE",
        help="Save the board as an SVG picture (your view: your rack too); - for stdout.",
    ),
]
OpenOption = Annotated[
    bool,
    typer.Option(
        "--open", help="Print the game's web page link (anyone with it can follow) and open it."
    ),
]


def page_url(api: ApiClient, game_id: str) -> str:
    """The read-only web page of a game."""
    return f"{api.base_url}/games/{quote(game_id, safe='')}"


def board_svg(api: ApiClient, game_id: str) -> str:
    """The server's picture of the game's board as the caller may see it."""
    import requests  # deferred: start-up time of the commands that show no picture

    url = f"{api.base_url}/v1/games/{quote(game_id, safe='')}/board.svg"
    headers = {"Accept": "image/svg+xml"}
    if api.token:
        headers["Authorization"] = f"Bearer {api.token}"
    try:
        response = api.session.get(url, headers=headers, timeout=api.timeout)
    except requests.RequestException:
        raise CliError(
            _("cannot get the board picture from {server}", server=api.base_url),
            ExitCode.NETWORK,
            hint=N_("check the server address (--server or MATHABLE_SERVER) and try again"),
        ) from None
    if response.status_code >= 400:
        raise _error(response)
    if not response.headers.get("Content-Type", "").startswith("image/svg+xml"):
        raise CliError(
            _("the server did not answer with an SVG picture"),
            ExitCode.NETWORK,
            hint=_("is --server pointing at a Mathable server that draws boards?"),
        )
    return response.text


def _error(response: requests.Response) -> ApiError:
    try:
        error = response.json().get("error") or {}
    except (ValueError, AttributeError):
        error = {}
    code = str(error.get("code") or f"http_{response.status_code}")
    message = str(error.get("message") or f"the server answered {response.status_code}")
    return ApiError(response.status_code, code, message)


def save_svg(output: Output, api: ApiClient, game_id: str, target: Path) -> None:
    """Write the board picture to ``target`` (``-``: stdout)."""
    svg = board_svg(api, game_id)
    if str(target) == "-":
        sys.stdout.write(svg)
        sys.stdout.flush()
        return
    try:
        target.write_text(svg, encoding="utf-8")
    except OSError as err:
        raise CliError(
            _("cannot write {file}: {problem}", file=str(target), problem=err.strerror),
            ExitCode.ERROR,
        ) from None
    output.info(_("Saved the board of {game} to {file}.", game=game_id, file=str(target)))


def open_page(output: Output, api: ApiClient, game_id: str) -> None:
    """Print the page's link on stdout and open it in a web browser, if there is one."""
    api.game(game_id)  # an error now rather than a link to no game
    url = page_url(api, game_id)
    output.data(url)
    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if not opened:
        output.info(_("No web browser to open here: the link above is the game's page."))


def pictures(output: Output, api: ApiClient, game_id: str, svg: Path | None, open_it: bool) -> None:
    """What ``show --svg FILE`` and ``show --open`` do, in that order."""
    if svg is not None:
        save_svg(output, api, game_id, svg)
    if open_it:
        open_page(output, api, game_id)
