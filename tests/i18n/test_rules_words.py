"""The rules package's own words in every language (issue 30).

Every refusal of the rules (``RuleError``) carries its message as a marked text
(``mathable.core.words.says``): the edge says it in the reader's language with
``mathable_i18n.say``, and English stays the code's own. Here: a sample of refusals of
both games said in French, Norwegian and Italian with their values in them, English
unchanged, and a fuzz of random commands over self-played games of both rulesets whose
every refusal is a text the catalogs translate (no untranslated refusal reaches a player).
"""

from __future__ import annotations

import random
import string
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mathable.core.errors import RuleError
from mathable.core.events import Event
from mathable.core.lifecycle import (
    Create,
    Decline,
    EndVacation,
    GiveTime,
    Join,
    Open,
    Pass,
    Resign,
    StartVacation,
    TimeOut,
)
from mathable.core.record import read_record, replay_record, write_record
from mathable.core.review import review
from mathable.core.ruleset import Ruleset, ruleset
from mathable.core.words import Text
from mathable.games.mathable.commands import explain_refusal
from mathable.games.mathable.position import Position
from mathable.games.summy import selfplay as summy_selfplay
from mathable.games.summy.commands import not_in_hand
from mathable.games.summy.equation import check_equation
from mathable_i18n import say

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import catalogs  # noqa: E402

LANGS = catalogs.TRANSLATED


def _catalog(lang: str) -> Any:
    domain = next(d for d in catalogs.DOMAINS if d.name == "mathable")
    return catalogs.read(domain.po(lang), lang, domain.name)


CATALOGS = {lang: _catalog(lang) for lang in LANGS}


# --- a sample of refusals, said in each language ---------------------------------------


def _started(name: str, seed: int = 5) -> tuple[Ruleset, Any]:
    rules = ruleset(name)
    state = rules.new_state()
    for command in (Create("ada", seed=seed, ruleset=name), Join("bob")):
        for event in rules.check(state, command):
            state = rules.apply(state, event)
    return rules, state


def _refusal(rules: Ruleset, state: Any, command: Any) -> RuleError:
    with pytest.raises(RuleError) as caught:
        rules.check(state, command)
    return caught.value


def _square_taken() -> RuleError:
    rules, state = _started("mathable")
    seat = state.turn.seat
    tile = state.seats[seat].rack[0]
    return _refusal(
        rules, state, rules.command(seat, {"type": "place", "square": "G7", "tile": tile})
    )


def _not_your_turn() -> RuleError:
    rules, state = _started("mathable")
    other = 1 - state.turn.seat
    return _refusal(rules, state, rules.command(other, {"type": "pass"}))


def _summy_pass_early() -> RuleError:
    rules, state = _started("summy")
    return _refusal(rules, state, rules.command(state.turn.seat, {"type": "pass"}))


def _summy_wrong_result() -> RuleError:
    with pytest.raises(RuleError) as caught:
        check_equation("2+7=6")
    return caught.value


SAMPLES: dict[str, tuple[Callable[[], RuleError], str, dict[str, str]]] = {
    "square_taken": (
        _square_taken,
        "G7 already holds 1",
        {"fr": "G7 porte déjà 1", "nb": "G7 har allerede 1", "it": "G7 contiene già 1"},
    ),
    "no_equation": (
        lambda: explain_refusal(Position.initial(), 106, 13),
        "13 at I8: 4 and 3 make 1 by -, 7 by +, 12 by x (H8, G8); none makes 13",
        {
            "fr": "13 en I8 : 4 et 3 donnent 1 par -, 7 par +, 12 par x (H8, G8) ; "
            "aucune ne donne 13",
            "nb": "13 på I8: 4 og 3 gir 1 med -, 7 med +, 12 med x (H8, G8); ingen gir 13",
            "it": "13 in I8: 4 e 3 danno 1 con -, 7 con +, 12 con x (H8, G8); nessuna dà 13",
        },
    ),
    "summy_not_in_hand": (
        lambda: not_in_hand((1, 2, 9), (9, 9, 12)),
        "you have only one 9 and no x in your hand",
        {
            "fr": "vous avez un seul 9 et aucun x en main",
            "nb": "du har bare én 9 og ingen x på hånden",
            "it": "hai un solo 9 e nessun x in mano",
        },
    ),
    "summy_wrong_result": (
        _summy_wrong_result,
        "2+7=6: the left side makes 9, not 6",
        {
            "fr": "2+7=6 : le côté gauche fait 9, pas 6",
            "nb": "2+7=6: venstre side blir 9, ikke 6",
            "it": "2+7=6: il lato sinistro fa 9, non 6",
        },
    ),
}


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_a_refusal_is_said_in_each_language_with_its_values(sample: str) -> None:
    make, english, said = SAMPLES[sample]
    err = make()
    assert isinstance(err.message, Text)
    assert err.message == english  # the code's English, unchanged
    assert say(err.message, "en") == english
    assert str(err) == f"{err.code}: {english}"
    for lang in LANGS:
        assert say(err.message, lang) == said[lang]


def test_not_your_turn_names_the_seat_in_each_language() -> None:
    err = _not_your_turn()
    assert err.code == "not_your_turn"
    seat = err.details["seat"]
    assert err.message == f"it is seat {seat}'s turn, not yours"
    assert say(err.message, "fr") == f"c'est au tour de la place {seat}, pas au vôtre"
    assert say(err.message, "nb") == f"det er plass {seat} sin tur, ikke din"
    assert say(err.message, "it") == f"è il turno del posto {seat}, non il tuo"


def test_a_summy_pass_with_tiles_left_is_refused_in_each_language() -> None:
    err = _summy_pass_early()
    count = err.details["supply"]
    assert err.code == "supply_not_empty"
    assert err.message.startswith(f"the supply still holds {count} tiles: form an equation")
    assert say(err.message, "fr").startswith(f"la réserve contient encore {count} jetons")
    assert say(err.message, "nb").startswith(f"forrådet har fortsatt {count} brikker")
    assert say(err.message, "it").startswith(f"la riserva contiene ancora {count} tessere")


def test_a_record_s_line_keeps_the_refusal_inside_it() -> None:
    with pytest.raises(RuleError) as caught:
        read_record('[Game "mathable"]\n\n1. ada pass')
    message = caught.value.message
    assert message == 'line 3: a turn is written "N. PLAYER: TURN" (1. ada pass)'
    assert say(message, "fr") == 'ligne 3 : un tour s\'écrit "N. PLAYER: TURN" (1. ada pass)'
    assert say(message, "nb") == 'linje 3: en tur skrives "N. PLAYER: TURN" (1. ada pass)'
    assert say(message, "it") == 'riga 3: un turno si scrive "N. PLAYER: TURN" (1. ada pass)'


def test_the_words_of_a_game_are_said_in_each_language() -> None:
    """End words, told turns and a move list are texts too, English unchanged."""
    rules = ruleset("mathable")
    assert rules.end_words("blocked") == "no tile still in play can be placed anywhere"
    assert say(rules.end_words("blocked"), "fr") == (
        "aucun jeton encore en jeu ne peut être posé nulle part"
    )
    told = rules.turn_told({"type": "tiles_exchanged", "seat": 0, "count": 3})
    assert told is not None and told.words == "exchanged 3 tiles"
    assert say(told.words, "nb") == "byttet 3 brikker"
    assert say(told.words, "it") == "ha scambiato 3 tessere"
    one = rules.turn_told({"type": "tiles_exchanged", "seat": 0, "count": 1})
    assert one is not None and one.words == "exchanged 1 tile"
    assert say(one.words, "fr") == "a échangé 1 jeton"
    summy = ruleset("summy")
    assert say(summy.end_words("idle"), "it") == "due giri completi senza un'equazione"


@pytest.mark.parametrize(
    ("direction", "laid", "english", "french"),
    [
        ("across", 3, "1+2=3 (3 tiles laid across)", "1+2=3 (3 jetons posés à l'horizontale)"),
        ("across", 1, "1+2=3 (1 tile laid across)", "1+2=3 (1 jeton posé à l'horizontale)"),
        ("down", 2, "1+2=3 (2 tiles laid down)", "1+2=3 (2 jetons posés à la verticale)"),
        ("down", 1, "1+2=3 (1 tile laid down)", "1+2=3 (1 jeton posé à la verticale)"),
        # a direction this version does not know (a later one's) is named as it comes
        ("aslant", 2, "1+2=3 (2 tiles laid aslant)", "1+2=3 (2 jetons posés aslant)"),
        ("aslant", 1, "1+2=3 (1 tile laid aslant)", "1+2=3 (1 jeton posé aslant)"),
    ],
)
def test_a_summy_play_is_told_with_its_direction_in_each_language(
    direction: str, laid: int, english: str, french: str
) -> None:
    event = {"type": "equation_played", "seat": 1, "points": 6, "equation": "1+2=3",
             "direction": direction, "placements": [{}] * laid}  # fmt: skip
    told = ruleset("summy").turn_told(event)
    assert told is not None and (told.seat, told.kind, told.points) == (1, "play", 6)
    assert told.words == english
    assert say(told.words, "fr") == french


# --- the fuzz: every refusal is a translated text ---------------------------------------


def _templates(text: Text) -> Iterator[Text]:
    """``text`` and every text among its values, depth first."""
    yield text
    for value in text.params.values():
        if isinstance(value, Text):
            yield from _templates(value)


def _has_words(template: str) -> bool:
    """A template with letters outside its ``{placeholders}`` (a layout has none)."""
    outside = "".join(
        literal for literal, *_ in string.Formatter().parse(template) if literal is not None
    )
    return any(c.isalpha() for c in outside)


def _untranslated(message: Any) -> list[str]:
    if not isinstance(message, Text):
        return [f"not a Text: {message!r}"]
    missing = []
    for part in _templates(message):
        if part is not message and not _has_words(part.template):
            continue
        for lang, found in CATALOGS.items():
            entry = found.get(part.template)
            strings = entry.string if entry is not None else None
            if isinstance(strings, str):
                strings = (strings,)
            if entry is None or entry.fuzzy or not strings or not all(strings):
                missing.append(f"{lang}: {part.template!r}")
    return missing


def _states(name: str, seed: int) -> tuple[Ruleset, list[Any], list[Event]]:
    """Every state of a self-played game of ``name``, from before its creation on: Summy by
    its self-play helper (seeded), Mathable by the ruleset's suggestions from a given bag
    order (so its record holds the order and replays)."""
    rules = ruleset(name)
    if name == "summy":
        events = summy_selfplay.play_game(players=2, seed=seed, choose=summy_selfplay.first_move)
    else:
        events = _mathable_game(rules, seed)
    states = [rules.new_state()]
    for event in events:
        states.append(rules.apply(states[-1], event))
    return rules, states, events


def _mathable_game(rules: Ruleset, seed: int) -> list[Event]:
    """A Mathable game played by the ruleset's own suggestion (pass when there is none)."""
    state = rules.new_state()
    events: list[Event] = []

    def run(command: Any) -> None:
        nonlocal state
        for event in rules.check(state, command):
            events.append(event)
            state = rules.apply(state, event)

    order = list(rules.tile_set)
    random.Random(seed).shuffle(order)
    run(Create("ada", tiles=tuple(order)))
    run(Join("bob"))
    for _ in range(400):
        if state.status != "playing":
            break
        seat = state.turn.seat
        found = rules.suggest(rules.view(state, seat))
        body = found[0] if found is not None else {"type": "pass"}
        run(rules.command(seat, body))
    return events


_COLUMNS = "ABCDEFGHIJKLMN"
_SQUARES = ["I8", "G7", "A1", "N14", "Z9", "H0", "", "i8", "J8", 106, -1, 999, None, "x"]
_TILES: list[Any] = [0, 1, 3, 7, 12, 13, 49, 90, 91, -2, "7", "x", "+", "=", ":", "q", None, 1.5]
_KINDS = [
    "place", "turn", "exchange", "draw_extra", "end_turn", "pass", "correct", "resign",
    "give_time", "equation", "discard", "castle", "",
]  # fmt: skip


def _square(rng: random.Random) -> Any:
    if rng.random() < 0.3:
        return rng.choice(_SQUARES)
    return f"{rng.choice(_COLUMNS)}{rng.randint(1, 14)}"


def _random_body(rng: random.Random, state: Any, seat: int) -> dict[str, Any]:
    rack = list(state.seats[seat].rack) if 0 <= seat < len(state.seats) else []
    tiles = _TILES + rack * 3
    kind = rng.choice(_KINDS)
    body: dict[str, Any] = {"type": kind}
    if kind == "place":
        body |= {"square": _square(rng), "tile": rng.choice(tiles)}
        if rng.random() < 0.3:
            body["equations"] = [
                {
                    "near": rng.choice(_SQUARES),
                    "far": rng.choice(_SQUARES),
                    "op": rng.choice("+-x/?"),
                }
            ]
    elif kind == "turn":
        body["placements"] = [
            {
                "square": rng.choice(_SQUARES),
                "tile": rng.choice(tiles),
                "draw_extra": rng.random() < 0.2,
            }
            for _ in range(rng.choice([0, 1, 2, 9]))
        ]
    elif kind == "exchange":
        body["tiles"] = [rng.choice(tiles) for _ in range(rng.choice([0, 1, 3, 8]))]
    elif kind == "give_time":
        body |= {"seat": rng.choice([0, 1, 2, -1, "a"]), "seconds": rng.choice([0, 5, 10**9, "x"])}
    elif kind == "equation":
        body["placements"] = [
            {"x": rng.choice([0, 1, -1, 2, 99, "a"]), "y": rng.choice([0, 1, -1, 3, 99]),
             "tile": rng.choice(["1", "2", "3", "+", "=", "x", ":", "-", "9", "q", 7])}
            for _ in range(rng.choice([0, 1, 3, 5, 9]))
        ]  # fmt: skip
        body["direction"] = rng.choice([None, "across", "down", "sideways"])
    elif kind == "discard":
        body["tiles"] = [
            rng.choice(["1", "9", "=", "x", "q", 3]) for _ in range(rng.choice([0, 1, 2]))
        ]
    return body


def _kernel_command(rng: random.Random, seat: int) -> Any:
    return rng.choice(
        [
            Pass(seat),
            Resign(seat),
            Resign(7),
            TimeOut(seat, 1 - seat),
            GiveTime(seat, rng.choice([0, 1, 5]), rng.choice([0, 60, 10**12])),
            Join("ada"),
            Join("cy"),
            Decline("cy"),
            Open("bob"),
            StartVacation(seat, rng.choice([0, 3, 400])),
            EndVacation(seat),
            Create("ada", players=rng.choice([1, 2, 5])),
            Create("ada", referee="nobody"),
            Create("ada", seed=1, tiles=(1, 2)),
            Create("ada", salt="XYZ"),
            Create("ada", invited=("ada",)),
        ]
    )


def _random_text(rng: random.Random) -> str:
    words = ["I8=12", "12@I8", "pass", "0,0", "across", "down", "1+2=3", "x", "=", "9",
             "discard", "exchange", "-3,0", "a", "Z99=1", "I8=q", "99,99"]  # fmt: skip
    return " ".join(rng.choice(words) for _ in range(rng.choice([0, 1, 2, 3, 4])))


def _random_event(rng: random.Random) -> Any:
    return rng.choice(
        [
            [],
            {"type": "castled"},
            {"type": "passed"},
            {"type": "passed", "seat": "x"},
            {"type": "passed", "seat": 0, "v": 99},
            {"type": "tile_placed", "seat": 0, "square": "Z1", "tile": 3, "equations": [],
             "points": 0},
            {"type": "tile_placed", "seat": 0, "square": 106, "tile": 3,
             "equations": [["I8", "H8", "?"]], "points": 0},
            {"type": "game_created", "ruleset": "mathable", "players": 2},
            {"type": "equation_played", "seat": 0, "placements": [{"x": 0}], "equation": "1"},
            {"type": "tiles_discarded", "seat": 0, "discarded": ["q"], "drawn": []},
        ]
    )  # fmt: skip


def _refusals(name: str, seed: int, rng: random.Random) -> Iterator[RuleError]:
    rules, states, events = _states(name, seed)
    picked = {0, 1, 2, len(states) - 1, *rng.sample(range(len(states)), min(12, len(states)))}
    for index in sorted(picked):
        state = states[index]
        seat = state.turn.seat if getattr(state, "turn", None) is not None else 0
        view = rules.view(state, seat if state.seats else None)
        for _ in range(60):
            try:
                roll = rng.random()
                if roll < 0.55:
                    command = rules.command(
                        rng.choice([seat, 1 - seat, 3]), _random_body(rng, state, seat)
                    )
                    rules.check(state, command)
                elif roll < 0.75:
                    rules.check(state, _kernel_command(rng, rng.choice([seat, 1 - seat])))
                elif roll < 0.9:
                    rules.read_move(_random_text(rng), view)
                elif roll < 0.95:
                    rules.parse_tile(rng.choice(_TILES))
                else:
                    Event.from_dict(_random_event(rng))
            except RuleError as err:
                yield err
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                pass  # a body the server's schema refuses before the rules see it
    # A record of the game, its lines broken one at a time, read and replayed again.
    text = write_record(events, revealed=True).text()
    lines = text.split("\n")
    for _ in range(30):
        broken = list(lines)
        at = rng.randrange(len(broken))
        broken[at] = rng.choice(
            ["", "1. nobody: pass", "[Rules \"99\"]", "[Order \"1 2\"]",
             "7. ada: " + _random_text(rng),
             broken[at][: len(broken[at]) // 2], broken[at] + " (999)", "[Result \"1 2\"]",
             "[Clock \"initial=x\"]", "[Game \"chess\"]", "12. ada pass"]
        )  # fmt: skip
        try:
            replay_record("\n".join(broken))
        except RuleError as err:
            yield err


@pytest.mark.parametrize("name", ["mathable", "summy"])
def test_every_refusal_of_a_fuzz_over_self_played_games_is_translated(name: str) -> None:
    rng = random.Random(30)
    seen: dict[str, int] = {}
    problems: list[str] = []
    for seed in (1, 2, 3, 4):
        for err in _refusals(name, seed, rng):
            seen[err.code] = seen.get(err.code, 0) + 1
            for problem in _untranslated(err.message):
                problems.append(f"{err.code}: {err.message!r}: {problem}")
            assert say(err.message, "en") == err.message
            for lang in LANGS:
                assert say(err.message, lang)  # said, never an error
    assert not problems, "\n".join(sorted(set(problems))[:40])
    # The fuzz reaches many kinds of refusal, of the game's own and of the kernel.
    assert len(seen) >= 25, sorted(seen)
    assert {"not_your_turn", "bad_event", "bad_record"} <= set(seen)


def test_a_review_and_a_replay_s_words_are_said_line_by_line() -> None:
    rules, _states_, events = _states("mathable", 3)
    replayed = replay_record(write_record(events, revealed=True).text())
    text = review(replayed).text()
    assert isinstance(text, Text)
    english = str(text)
    assert "points on the table" in english
    french = say(text, "fr")
    assert "points sur la table" in french
    assert french.count("\n") == english.count("\n")
    assert rules.name == "mathable"


def test_the_record_reader_refuses_in_each_language() -> None:
    with pytest.raises(RuleError) as caught:
        replay_record('[Game "chess"]\n[Seat1 "a"]\n[Seat2 "b"]\n1. a: pass')
    message = caught.value.message
    assert message == "line 1: there is no game called 'chess' (mathable, summy)"
    assert (
        say(message, "nb")
        == "linje 1: det finnes ikke noe spill som heter 'chess' (mathable, summy)"
    )
