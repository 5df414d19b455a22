"""Mail headers go out as mail clients read them: links stay links."""

from __future__ import annotations

import re

from mathable_server.notify.mail.compose import MailContext, digest_mail


def test_list_unsubscribe_goes_out_as_plain_links_however_long() -> None:
    ctx = MailContext(
        sender="mathable@play.mathable.example.org",
        domain="play.mathable.example.org",
        server_secret="s" * 64,
        public_url="https://mathable.example.org:18080",
    )
    mail = digest_mail(ctx, "bob@example.net", "p0123456789abcdef", {}, "digest.p01.x")
    raw = mail.as_bytes().decode("ascii")
    header = re.search(r"^List-Unsubscribe: (.*)$", raw, re.M)
    assert header is not None, raw
    assert "=?" not in header[1]  # no RFC 2047 encoded words
    links = re.findall(r"<([^>]+)>", header[1])
    token = ctx.unsubscribe_token("p0123456789abcdef")
    assert links == [
        f"https://mathable.example.org:18080/v1/unsubscribe/p0123456789abcdef.{token}",
        f"mailto:unsubscribe+p0123456789abcdef.{token}@play.mathable.example.org",
    ]
    assert re.search(r"^List-Unsubscribe-Post: List-Unsubscribe=One-Click$", raw, re.M)
