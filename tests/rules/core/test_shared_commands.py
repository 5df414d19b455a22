"""The commands every game shares are the kernel's from end to end
(``mathable.core.lifecycle``): each game lists, reads and words only its own, and a new
shared command is one module of ``mathable.core.lifecycle.offers`` that every game plays
with no line of its own."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mathable.core import events as core_events
from mathable.core import replies
from mathable.core.errors import RuleError
from mathable.core.lifecycle import GiveTime, Pass, Resign, offers, shared
from mathable.core.lifecycle.part import Part
from mathable.core.ruleset import ruleset
from tests.rules.lifecycle_helpers import started

GAMES = ("mathable", "summy")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_reads_the_shared_commands_through_the_kernel(game: str) -> None:
    rules = ruleset(game)
    assert rules.command(1, {"type": "pass"}) == Pass(1)
    assert rules.command(1, {"type": "resign"}) == Resign(1)
    assert rules.command(1, {"type": "give_time", "seat": 0, "seconds": 5}) == GiveTime(1, 0, 5)
    # The server reads claim_timeout (it knows the clock): no game takes it as JSON.
    with pytest.raises(RuleError) as refused:
        rules.command(1, {"type": "claim_timeout"})
    assert refused.value.code == "wrong_game"
    assert [kind for kind in rules.command_types if kind in shared.command_schemas()] == [
        "pass",
        "resign",
        "give_time",
    ]
    # A game's own schemas are its own: the kernel gives the shared commands' bodies.
    assert not set(rules.command_schemas()) & set(shared.command_schemas())
    for line, body in (("Passer.", {"type": "pass"}), ("gi opp", {"type": "resign"})):
        assert rules.read_reply(line, {}) == body


def test_the_shared_commands_come_in_the_order_they_always_had() -> None:
    assert list(shared.command_schemas()) == ["pass", "resign", "claim_timeout", "give_time"]
    assert shared.command_schemas()["give_time"]["required"] == ["seat", "seconds"]
    assert shared.command_types(("claim",)) == ("claim", "pass", "resign", "give_time")
    kinds = shared.command_types(("a", "b"), ("c",))
    assert kinds == ("a", "b", "pass", "c", "resign", "give_time")


# A draw offer, as a module of ``mathable.core.lifecycle.offers`` would hold it: the command,
# its event, its check and fold, the JSON type, body, mail words and view key of it.
DRAW_OFFER = '''
"""A draw offer: a seat in play offers the others a draw (answering it is another module)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from mathable.core import codec
from mathable.core.errors import RuleError
from mathable.core.events import Event
from mathable.core.lifecycle.fold import Fold, S, is_seat
from mathable.core.lifecycle.part import Part, SharedCommand
from mathable.core.state import Lifecycle, Offer
from mathable.core.words import says


@dataclass(frozen=True, slots=True)
class OfferDraw:
    seat: int


@dataclass(frozen=True, slots=True)
class DrawOffered(Event):
    type: ClassVar[str] = "draw_offered_in_a_test"
    seat: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT}


def _check(fold: Fold[S], command: OfferDraw) -> None:
    state = fold.state
    if state.status != "playing" or not is_seat(state, command.seat):
        raise RuleError("no_offer", says("only a seat of a game in play offers a draw"), {})
    if any(offer.kind == "offer_draw" for offer in state.offers):
        raise RuleError("offered_already", says("a draw is offered already"), {})
    fold.emit(DrawOffered(command.seat))


def _fold(state: S, event: DrawOffered) -> S:
    return replace(state, offers=(*state.offers, Offer("offer_draw", event.seat, state.version)))


def _read(seat: int, body: Mapping[str, Any]) -> OfferDraw:
    return OfferDraw(seat)


def _view(state: Lifecycle, viewer: int | None) -> dict[str, Any]:
    return {"draw_offered_by": [o.seat for o in state.offers if o.kind == "offer_draw"]}


PART = Part(
    checks={OfferDraw: _check},
    folds={DrawOffered: _fold},
    commands=(
        SharedCommand("offer_draw", read=_read, reply_words={"en": ("draw",), "fr": ("nulle",)}),
    ),
    view_fields=_view,
)
'''


@pytest.fixture
def draw_offer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Part]:
    """The draw offer written into a folder of the offers package, found as every offer is."""
    (tmp_path / "draw_in_a_test.py").write_text(DRAW_OFFER, encoding="utf-8")
    monkeypatch.setattr(offers, "__path__", [*offers.__path__, str(tmp_path)])
    try:
        [part] = offers.found()
        monkeypatch.setattr(shared, "PARTS", (*shared.PARTS, part))
        yield part
    finally:
        sys.modules.pop(f"{offers.__name__}.draw_in_a_test", None)
        core_events.EVENT_TYPES.pop("draw_offered_in_a_test", None)


@pytest.mark.own_refusals  # the draw offer of this test refuses with codes of its own
@pytest.mark.parametrize("game", GAMES)
def test_a_shared_command_is_one_module_every_game_plays(game: str, draw_offer: Part) -> None:
    rules = ruleset(game)
    state = started(game)
    seat = state.turn.seat
    assert rules.command_types[-1] == "offer_draw"
    assert "offer_draw" in shared.command_schemas()
    command = rules.command(seat, {"type": "offer_draw"})
    assert type(command).__name__ == "OfferDraw" and rules.read_reply("Nulle", {}) == {
        "type": "offer_draw"
    }
    assert replies.reply_word("draw") == ("offer_draw", [])
    [event] = rules.check(state, command)
    assert rules.redact(event, None) == {"type": "draw_offered_in_a_test", "v": 1, "seat": seat}
    assert core_events.Event.from_dict(event.to_dict()) == event
    after = rules.apply(state, event)
    assert rules.view(after, None)["draw_offered_by"] == [seat]
    with pytest.raises(RuleError) as refused:
        rules.check(after, command)
    assert refused.value.code == "offered_already"
    # The game goes on as before the offer: its turn is untouched.
    assert after.turn == state.turn and after.version == state.version + 1


def test_without_an_offer_the_views_are_as_they_were() -> None:
    for game in GAMES:
        view: dict[str, Any] = ruleset(game).view(started(game), 0)
        assert "draw_offered_by" not in view
        assert list(view["seats"][0])[-2:] == ["resigned", "timed_out"]


def test_each_part_s_view_keys_are_made_for_the_viewer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A part's keys of the view may differ by viewer (a seat's own offer): each is asked
    with the viewer the view is for."""
    seen = Part(view_fields=lambda state, viewer: {"viewer_in_a_test": viewer})
    monkeypatch.setattr(shared, "PARTS", (*shared.PARTS, seen))
    state = started("mathable")
    assert shared.view_fields(state, 1)["viewer_in_a_test"] == 1
    assert ruleset("summy").view(started("summy"), 0)["viewer_in_a_test"] == 0
