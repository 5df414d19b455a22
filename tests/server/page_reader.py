"""Reading a web page of the server in tests: its words, links and inline SVG."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from flask.testing import FlaskClient


class PageReader(HTMLParser):
    """The page's text (scripts and styles left out), its links and its inline SVG."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.links: list[str] = []
        self._skip = 0
        self.feed(html)
        found = re.search(r"<svg.*?</svg>", html, re.S)
        self.svg = found.group(0) if found else None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        if tag == "a":
            self.links.extend(v for k, v in attrs if k == "href" and v)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.text.append(" ".join(data.split()))

    @property
    def words(self) -> str:
        return " ".join(self.text)


def page(client: FlaskClient, game_id: str, **headers: str) -> PageReader:
    response = client.get(f"/games/{game_id}", headers=headers)
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    return PageReader(response.get_data(as_text=True))
