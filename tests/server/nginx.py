"""Debian's nginx in front of a live server, with the configuration docs/server.md shows
(``docs/nginx/mathable.conf``), and requests sent from a chosen loopback address."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.server.live import REPO, free_port

CONF = REPO / "docs" / "nginx" / "mathable.conf"


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None
    )


@contextmanager
def nginx_in_front(upstream: str, folder: Path) -> Iterator[str]:
    """nginx with the documented configuration in front of ``upstream`` (a base URL); its
    address (``127.0.0.1:PORT``). Skips, saying why, where nginx is not installed."""
    binary = nginx_binary()
    if binary is None:
        pytest.skip("nginx is not installed (apt-get install nginx-light): proxy test skipped")
    port = free_port()
    site = (
        CONF.read_text()
        .replace("127.0.0.1:8080", upstream.removeprefix("http://"))
        .replace("listen 80;", f"listen 127.0.0.1:{port};")
    )
    (folder / "site.conf").write_text(site)
    user = "user root;\n" if os.geteuid() == 0 else ""
    (folder / "nginx.conf").write_text(
        f"{user}worker_processes 1;\npid {folder}/nginx.pid;\n"
        f"error_log {folder}/error.log;\nevents {{ worker_connections 64; }}\n"
        f"http {{\n access_log off;\n client_body_temp_path {folder}/body;\n"
        f" proxy_temp_path {folder}/proxy;\n fastcgi_temp_path {folder}/fcgi;\n"
        f" uwsgi_temp_path {folder}/uwsgi;\n scgi_temp_path {folder}/scgi;\n"
        f" include {folder}/site.conf;\n}}\n"
    )
    process = subprocess.Popen(
        [binary, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g",
         "daemon off;"],
        stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while status_from(port, "127.0.0.9") is None:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.1)
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stderr is not None:
            process.stderr.close()


def call_from(
    port: int, source: str, method: str, path: str, body: object = None, **headers: str
) -> tuple[int | None, Any]:
    """One request from the loopback address ``source``: (status, JSON body or None)."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=15, source_address=(source, 0)
    )
    payload = None if body is None else json.dumps(body)
    if payload is not None:
        headers["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data.startswith(b"{") else None
    except OSError:
        return None, None
    finally:
        connection.close()


def status_from(port: int, source: str, path: str = "/v1/health", **headers: str) -> int | None:
    return call_from(port, source, "GET", path, **headers)[0]
