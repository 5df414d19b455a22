"""Live servers for the stream tests (and others that want no caps): what their
environment sets."""

from __future__ import annotations

#: Fast heartbeats, and no caps that a test from one address would reach.
STREAM_ENV = {
    "MATHABLE_STREAM_HEARTBEAT": "0.3",
    "MATHABLE_RATE_LIMIT": "off",
    "MATHABLE_ADDRESS_RATE_LIMIT": "off",
    "MATHABLE_MAX_POLLS_PER_CALLER": "1000",
    "MATHABLE_MAX_CONNECTIONS_PER_ADDRESS": "2000",
}
#: A heartbeat soon after the lines a stream catches up with: a resumed stream has
#: given all it will once its second heartbeat comes.
RESUME_ENV = {
    "MATHABLE_STREAM_HEARTBEAT": "0.25",
    "MATHABLE_RATE_LIMIT": "off",
    "MATHABLE_ADDRESS_RATE_LIMIT": "off",
    "MATHABLE_MAX_POLLS_PER_CALLER": "1000",
    "MATHABLE_MAX_CONNECTIONS_PER_ADDRESS": "2000",
    "MATHABLE_MAX_OPEN_INVITATIONS": "100",
}
