"""Bag orders that games share: a finished game's order stays withheld while another
game still draws it (one seed, one given order: ``store.events.order_key``).

The HTTP answers (``http.render``) and the game-over mail (``notify.mail.outgoing``)
ask the same two questions here.
"""

from __future__ import annotations

from mathable.core.ruleset import AnyState
from mathable_server.store import Store


def may_share_order(state: AnyState) -> bool:
    """The game was made with a seed or a given order: other games may draw its order
    (``store.events.order_key``). A game of an order of its own shares it with none."""
    return state.options.seed is not None or state.options.tiles is not None


def order_withheld(store: Store, game_id: str, state: AnyState) -> bool:
    """``game_id`` (in ``state``) has ended and revealed a bag order that another game
    not finished yet draws: what it shows withholds the order and what the end took off
    the seats (the tiles left on the racks, tiles that other game may deal)."""
    return bool(
        state.status == "ended"
        and state.draws_revealed
        and may_share_order(state)
        and store.order_shared_with_running(game_id)
    )
