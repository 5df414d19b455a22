"""What a command tells whom: the outbox rows written in the transaction of its events.

``mathable_server.notify.notifier.Notifier`` is called by the store inside each
append and writes what ``notifications`` works out here. From the events and
the game after them it works out who is to move, who wants a mail after
every move, and who should hear that the game ended, and writes one outbox row
per message: the mail is rendered later by the delivery worker from the game at
that version, so the transaction stays short and the row holds no secret.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from mathable import Event
from mathable.core.ruleset import AnyState, ruleset_of
from mathable_server.store import outbox
from mathable_server.store.notification_settings import Contact
from mathable_server.store.outbox import Notification
from mathable_server.store.push import wants

#: The kernel's events after which another seat may be to move; each game adds its own
#: (``Ruleset.turn_changes``: its start, turns, exchanges...).
TURN_CHANGES = frozenset({"passed", "resigned", "timed_out"})
#: Digests go out once a day at this hour (UTC).
DIGEST_HOUR = 7
#: The kernel's events by which a seat ends its own turn; each game adds its own
#: (``Ruleset.own_acts``).
OWN_ACTS = frozenset({"passed", "resigned"})
#: The "game over" mail to the seat whose move ended the game waits this long: a move
#: played by mail is answered ("Played: ...") by a row written just after the move's
#: transaction, and that answer should come first.
MOVER_DELAY_MS = 5000


def mover(events: Sequence[Event], own_acts: frozenset[str] = frozenset()) -> int | None:
    """The seat whose own act (a turn, an exchange, a pass, resigning) the events hold;
    ``own_acts``: the game's own (``Ruleset.own_acts``)."""
    acts = OWN_ACTS | own_acts
    for event in reversed(events):
        seat = getattr(event, "seat", None)
        if event.type in acts and isinstance(seat, int):
            return seat
    return None


def turn_changes(state: AnyState) -> frozenset[str]:
    """The event types after which the seat to move of ``state``'s game may have changed."""
    return TURN_CHANGES | ruleset_of(state).turn_changes


def next_digest(now: int) -> int:
    """The next digest time after ``now`` (ms).

    >>> from datetime import datetime, UTC
    >>> t = int(datetime(2026, 11, 30, 13, 0, tzinfo=UTC).timestamp() * 1000)
    >>> datetime.fromtimestamp(next_digest(t) / 1000, UTC).isoformat()
    '2026-12-01T07:00:00+00:00'
    """
    moment = datetime.fromtimestamp(now / 1000, UTC)
    digest = moment.replace(hour=DIGEST_HOUR, minute=0, second=0, microsecond=0)
    if digest <= moment:
        digest += timedelta(days=1)
    return int(digest.timestamp() * 1000)


def notifications(
    game_id: str,
    events: Sequence[Event],
    state: AnyState,
    contacts: dict[str, Contact],
    now: int,
) -> list[Notification]:
    """The rows ``events`` (which brought the game to ``state``) call for."""
    types = {e.type for e in events}
    finished = "game_ended" in types or "game_cancelled" in types
    turn_changed = bool(types & turn_changes(state)) and state.status == "playing"
    if not (finished or turn_changed):
        return []
    to_move = state.turn.seat if turn_changed and state.turn is not None else None
    acted = mover(events, ruleset_of(state).own_acts)
    rows: list[Notification] = []
    for seat, entry in enumerate(state.seats):
        player = entry.player
        contact = contacts.get(player) if player is not None else None
        if contact is None:
            continue
        kind = "finished" if finished else "turn" if seat == to_move else "moved"
        payload = {"game_id": game_id, "version": state.version, "seat": seat}
        stem = f"{kind}.{game_id}.v{state.version}.s{seat}"
        if contact.address is not None and _wants_mail(contact.email, kind):
            if contact.email == "digest":
                rows.append(
                    Notification("email", "digest", contact.player_id, {}, None, next_digest(now))
                )
            else:
                later = now + MOVER_DELAY_MS if seat == acted and kind == "finished" else None
                rows.append(
                    Notification(
                        "email", kind, contact.player_id, payload, outbox.new_message_id(stem),
                        later,
                    )
                )  # fmt: skip
        if contact.webhook_url is not None:
            rows.append(
                Notification(
                    "webhook", kind, contact.player_id, payload, outbox.new_message_id(stem)
                )
            )
    return rows


def _wants_mail(preference: str, kind: str) -> bool:
    if preference == "off":
        return False
    if preference == "digest":
        return kind == "turn"
    return kind != "moved" or preference == "every_move"


#: The mail kinds of a game's news, by the kind of news whose channels they follow.
MAIL_KINDS = {"turn": "your_turn", "digest": "your_turn", "finished": "game_over",
              "reminder": "time_running_out"}  # fmt: skip


def by_channels(rows: list[Notification], chosen: dict[str, dict[str, str]]) -> list[Notification]:
    """``rows`` without the mail of the kinds each recipient wants by push alone or not at all
    (``chosen``: the channels of each recipient, ``store.push.channels_in``)."""
    kept = []
    for row in rows:
        kind = MAIL_KINDS.get(row.kind)
        if row.channel == "email" and kind is not None and row.recipient in chosen:
            if not wants(chosen[row.recipient], kind, "mail"):
                continue
        kept.append(row)
    return kept
