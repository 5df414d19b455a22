"""The equations a hand can form in one line of the table (``movegen`` searches them all).

A line is a list of cells: a tile code, or ``EMPTY``. An equation in it is an unbroken
run of tiles between two empty cells that stay empty, with one ``=``: before it numbers
joined by signs, after it one number, the hand's tiles in the run's holes, none on a
shut cell, at least one of the table's tiles in it.

The search starts from the ``=``: the table's, or a hole the hand's ``=`` fills. To its
right lie digits only, up to an empty cell; to its left, a start just after an empty
cell, within the hand's reach. The left side's shape comes next: which of its holes
take the hand's signs (two signs never meet; none starts or ends a side). Only then are
digits laid, left to right. At each hole the left side's value lies between bounds
(its numbers' lengths are known, their holes take digits the hand still holds) that a
right side of as many digits as it may have must meet, or the branch is cut. A product
that can still take a 0 is 0 or far from it (``abcd x e`` is 0 or a thousand and
more, never 6), so such bounds come in pieces, and the 0 a left side takes is not the
right side's. When the bounds leave few values, each is tried on the right side's
cells and the hand, and the left side's last number is worked out from each instead of
searched. At the ``=`` the value fixes the right side digit by digit, so that side is
checked, never searched.

The same cells around an ``=`` (a lone table tile in many lines, say) make the same
search, whatever the line: a search's finds are kept by those cells for the rest of a
call (``known``), and a second search of them is a look-up.

>>> from mathable.games.summy.equation import text_of
>>> from mathable.games.summy.tiles import parse_tiles
>>> cells = [EMPTY] * 5 + [14] + [EMPTY] * 5
>>> counts = [parse_tiles("12+3").count(t) for t in range(15)]
>>> [(start, text_of(tiles)) for start, tiles, _, _ in line_finds(cells, [False] * 11, counts, 4)]
[(2, '1+2=3'), (2, '2+1=3')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mathable.games.summy.tiles import DIVIDE, EQUALS, MINUS, PLUS, TIMES

#: An empty cell of a line.
EMPTY: Final = -1
#: A hole of the left side's shape that takes a digit.
_DIGIT: Final = -2
#: Fewer values than this between a left side's bounds: try each on the right side.
_FEW: Final = 8

#: An equation found: its first cell, its tiles, the hand's (cell, tile) laid, its points.
Find = tuple[int, tuple[int, ...], tuple[tuple[int, int], ...], int]
#: The cells of a search (how far the ``=`` lies from the start, the cells from the start
#: to the furthest end, the lengths the right side may have): what it finds there, each
#: find's cells counted from the start.
Known = dict[tuple[object, ...], list[Find]]


class _Found(Exception):
    """Raised by a search asked for one equation only, at the first it finds."""


def line_finds(
    cells: list[int],
    shut: list[bool],
    counts: Sequence[int],
    size: int,
    floor: list[int] | None = None,
    first: bool = False,
    known: Known | None = None,
) -> list[Find]:
    """Every equation the hand (``counts`` of each tile code, ``size`` tiles) can form in
    the line ``cells``, no tile on a ``shut`` cell; ordered by first cell, then by tiles
    as codes (digits, then ``+ - x : =``): the order of a search laying tiles left to
    right. The line must have ``size`` empty cells or more beyond its tiles at both ends.

    With ``floor`` ([points]), only those scoring at least the best found so far (which
    it keeps up to date); with ``first``, the first found only; ``known``: the finds of
    earlier searches of the same call (filled as it goes)."""
    n = len(cells)
    counts = list(counts)
    if not counts[EQUALS] and EQUALS not in cells:
        return []  # an equation needs an = and the hand has none
    if not (counts[PLUS] or counts[MINUS] or counts[TIMES] or counts[DIVIDE]):
        if not any(PLUS <= c <= DIVIDE for c in cells):
            return []  # nor a sign before it
    if known is None:
        known = {}
    digit_tiles = sum(counts[:10])
    table_points = [0] * (n + 1)  # the sum of the table's digits before index i
    for i, cell in enumerate(cells):
        table_points[i + 1] = table_points[i] + (cell if 0 <= cell <= 9 else 0)
    # The left side's shape: the table's tiles, and what each hole takes (_DIGIT or one
    # of the hand's signs); the right side's holes take digits.
    shape = [_DIGIT if cell == EMPTY else cell for cell in cells]
    next_sign = [n] * (n + 1)  # in the shape, the first sign at i or after, up to the =
    next_times = [n] * (n + 1)  # in the shape, the first x or : at i or after, up to the =
    signs_left = [0] * len(counts)  # the hand's signs the shape has not used
    for sign in (PLUS, MINUS, TIMES, DIVIDE):
        signs_left[sign] = counts[sign]
    hand_digits = tuple(d for d in range(10) if counts[d])
    hand_sum = [sum(t * counts[t] for t in range(10))]  # the digits left in the hand
    found: list[Find] = []
    finds: list[Find] = []  # those of the search under way, counted from its start
    placed: list[tuple[int, int]] = []
    line = list(cells)
    spans: dict[tuple[int, ...], tuple[int, int]] = {}
    # The search under way: [s, q) its left side, q its =, ``ends`` the lengths its
    # right side may have (the digits of the value) with its end and holes.
    s = q = 0
    ends: dict[int, tuple[int, int]] = {}
    right_holes = 0  # the fewest holes the right side can have
    last = 0  # the furthest end

    def span(a: int, b: int, leading: bool, low: int, high: int, low_lead: int) -> tuple[int, int]:
        """The least and greatest numbers cells a..b-1 (a number: no sign among them) can
        show, their holes taking digits from ``low`` to ``high`` (a leading one from
        ``low_lead``)."""
        key = (a, b, leading, low, high, low_lead)
        bounds = spans.get(key)
        if bounds is not None:
            return bounds
        least = most = 0
        for i in range(a, b):
            cell = shape[i]
            if cell == _DIGIT:
                least = least * 10 + (low_lead if leading and i == a else low)
                most = most * 10 + high
            else:
                least = least * 10 + cell
                most = most * 10 + cell
        spans[key] = least, most
        return least, most

    def fits(p: int, total: int, sign: int, term: int, pend: int, cur: int, curlen: int) -> bool:
        """Can the left side from p on make a value that the right side can show, the
        holes of both taking the digits still in the hand? (False too when it has laid
        what there was to lay.)"""
        low = high = low_lead = -1
        for d in hand_digits:
            if counts[d]:
                if low < 0:
                    low = d
                if d and low_lead < 0:
                    low_lead = d
                high = d
        if low < 0:
            return True  # no digit left: laying one fails at once
        if low_lead < 0:
            low_lead = 10  # only zeros: no number of two digits or more can start
        if low == 0 and (pend or next_times[p] < q):
            pieces = zero_pieces(p, total, sign, term, pend, cur, curlen, low, high, low_lead)
            if not pieces:
                return False
        else:
            stop = next_sign[p]
            if curlen == 0:
                if stop - p >= 2 and shape[p] == 0:
                    return False  # a leading zero
                least, most = span(p, stop, stop - p >= 2, low, high, low_lead)
            else:
                if stop > p and curlen == 1 and cur == 0:
                    return False
                scale = 10 ** (stop - p)
                least, most = span(p, stop, False, low, high, low_lead)
                least += cur * scale
                most += cur * scale
            if pend == TIMES:
                term_low, term_high = term * least, term * most
            elif pend == DIVIDE:
                if most == 0:
                    return False
                term_low, term_high = term // most, term // (least or 1)
            else:
                term_low, term_high = least, most
            total_low = total_high = total
            term_sign = sign
            i = stop
            while i < q:
                sign_at = shape[i]
                a = i + 1
                b = next_sign[a]
                if b - a >= 2 and shape[a] == 0:
                    return False
                least, most = span(a, b, b - a >= 2, low, high, low_lead)
                if sign_at == TIMES:
                    term_low, term_high = term_low * least, term_high * most
                elif sign_at == DIVIDE:
                    if most == 0:
                        return False
                    term_low, term_high = term_low // most, term_high // (least or 1)
                else:
                    if term_sign > 0:
                        total_low, total_high = total_low + term_low, total_high + term_high
                    else:
                        total_low, total_high = total_low - term_high, total_high - term_low
                    term_sign = 1 if sign_at == PLUS else -1
                    term_low, term_high = least, most
                i = b
            if term_sign > 0:
                pieces = [(total_low + term_low, total_high + term_high, 0)]
            else:
                pieces = [(total_low - term_high, total_high - term_low, 0)]
        last_number = next_sign[p] == q and (pend == 0 or term)
        found: list[int] = []
        for length, (e, _) in ends.items():
            right_least, right_most = span(q + 1, e, length >= 2, low, high, low_lead)
            for value_low, value_high, zeros in pieces:
                least = right_least if right_least > value_low else value_low
                most = right_most if right_most < value_high else value_high
                if least > most:
                    continue
                if most - least >= _FEW:
                    return True
                # Few values: those the right side can show, without the left side's zeros.
                counts[0] -= zeros
                shown = [value for value in range(least, most + 1) if shows(value)]
                counts[0] += zeros
                if shown and not last_number:
                    return True
                found.extend(shown)
        if found:
            # The last number of the left side: worked out from each value, not searched.
            lay_last(p, found, total, sign, term, pend, cur, curlen)
        return False

    def zero_pieces(
        p: int,
        total: int,
        sign: int,
        term: int,
        pend: int,
        cur: int,
        curlen: int,
        low: int,
        high: int,
        low_lead: int,
    ) -> list[tuple[int, int, int]]:
        """The values the left side can make from p on, in a few pieces, when a 0 can still
        be laid and a product or a quotient lies ahead: such a term is 0, or lies between
        bounds that do not reach down to it (``abcd x e`` is 0 or a thousand and more,
        never 6). Each piece says how many of the hand's 0 it takes (the right side cannot
        have them too). Empty when it can make none."""
        stop = next_sign[p]
        # The term under way: can it be 0 (and how), the least and most it can be if not.
        if curlen == 0:
            zero, least, most = number(p, stop, low, high, low_lead)
            if least < 0:
                return []
        else:
            if curlen == 1 and cur == 0:
                return []  # a leading zero
            scale = 10 ** (stop - p)
            least, most = span(p, stop, False, low, high, low_lead)
            zero, least, most = 0, least + cur * scale, most + cur * scale
        if pend == TIMES:
            if term == 0:
                zero, least, most = 2, 1, 0
            else:
                least, most = term * least, term * most
        elif pend == DIVIDE:
            if least > most:
                return []  # nobody divides by zero
            if term == 0:
                zero, least, most = 2, 1, 0
            else:
                zero, least, most = 0, max(1, term // most), term // least
        pieces = [(total, total, 0)]
        i = stop
        while True:
            if i < q and shape[i] in (TIMES, DIVIDE):
                a = i + 1
                b = next_sign[a]
                nzero, nleast, nmost = number(a, b, low, high, low_lead)
                if nleast < 0:
                    return []
                if shape[i] == TIMES:
                    zero = max(zero, nzero)  # the table's 0 makes it 0 for nothing
                    if least <= most and nleast <= nmost:
                        least, most = least * nleast, most * nmost
                    else:
                        least, most = 1, 0
                else:
                    if nleast > nmost:
                        return []  # nobody divides by zero
                    if least <= most:
                        least, most = max(1, least // nmost), most // nleast
                i = b
                continue
            # The term is over: add it (or take it away), in pieces.
            values = [(0, 0, int(zero == 1))] if zero else []
            if least <= most:
                values.append((least, most, 0))
            if not values:
                return []  # no whole quotient
            added = sorted(
                (x + y, x2 + y2, z + w) if sign > 0 else (x - y2, x2 - y, z + w)
                for x, x2, z in pieces
                for y, y2, w in values
                if z + w <= counts[0]
            )
            if not added:
                return []
            pieces = [added[0]]
            for x, x2, z in added[1:]:
                for k, (y, y2, w) in enumerate(pieces):
                    if w == z and x <= y2 + 1 and y <= x2 + 1:
                        pieces[k] = (min(x, y), max(x2, y2), z)
                        break
                else:
                    pieces.append((x, x2, z))
            while len(pieces) > 4:  # join two pieces, the most zeros taken kept the fewest
                pieces.sort(key=lambda piece: piece[0])
                k = min(range(len(pieces) - 1), key=lambda j: pieces[j + 1][0] - pieces[j][1])
                (x, _, z), (_, y2, w) = pieces[k], pieces[k + 1]
                pieces[k : k + 2] = [(x, y2, min(z, w))]
            if i >= q:
                return pieces
            sign = 1 if shape[i] == PLUS else -1
            a = i + 1
            b = next_sign[a]
            zero, least, most = number(a, b, low, high, low_lead)
            if least < 0:
                return []
            i = b

    def number(a: int, b: int, low: int, high: int, low_lead: int) -> tuple[int, int, int]:
        """Cells a..b-1 as a number whose digits are to come: can it be 0 (0: no; 1: with a 0
        from the hand; 2: it is the table's 0), and the least and most it can be if not
        (least > most: it cannot; least -1: no such number)."""
        if b - a == 1:
            cell = shape[a]
            if cell == _DIGIT:
                return low == 0, low_lead, high  # low_lead 10: no digit but 0 left
            return 2 * (cell == 0), cell if cell else 1, cell
        if shape[a] == 0 or (shape[a] == _DIGIT and low_lead > 9):
            return 0, -1, -1  # a leading zero
        least, most = span(a, b, True, low, high, low_lead)
        return 0, least, most

    def lay_last(
        p: int,
        values: list[int],
        total: int,
        sign: int,
        term: int,
        pend: int,
        cur: int,
        curlen: int,
    ) -> None:
        """From p on lies the left side's last number N, its only unknown: for each of
        ``values`` the left side may make, work N out and lay it."""
        width = curlen + q - p
        for value in values:
            t = sign * (value - total)  # value = total + sign * (term pend N)
            if pend == TIMES:
                if t % term:
                    continue
                number = t // term
            elif pend == DIVIDE:
                if t <= 0 or term % t:
                    continue
                number = term // t
            else:
                number = t
            if number < 0:
                continue
            digits = str(number)
            if len(digits) != width or (curlen and int(digits[:curlen]) != cur):
                continue
            taken: list[int] = []
            for k in range(curlen, width):
                at = p + k - curlen
                d = ord(digits[k]) - 48
                cell = cells[at]
                if cell == EMPTY:
                    if not counts[d]:
                        break
                    counts[d] -= 1
                    taken.append(at)
                    placed.append((at, d))
                    line[at] = d
                elif cell != d:
                    break
            else:
                finish(value)
            for at in taken:
                counts[line[at]] += 1
                placed.pop()
                line[at] = cells[at]

    def shows(value: int) -> bool:
        """Can the right side show ``value``, its holes taking digits still in the hand?"""
        at = q + 1
        taken: list[int] = []
        ok = True
        for ch in str(value):
            cell = cells[at]
            d = ord(ch) - 48
            if cell == EMPTY:
                if not counts[d]:
                    ok = False
                    break
                counts[d] -= 1
                taken.append(d)
            elif cell != d:
                ok = False
                break
            at += 1
        for d in taken:
            counts[d] += 1
        return ok

    def finish(value: int) -> None:
        """The left side made ``value``: the right side must show it and end the line."""
        digits = str(value)
        end = ends.get(len(digits))
        if end is None:
            return
        e = end[0]
        taken: list[int] = []
        for k, ch in enumerate(digits):
            at = q + 1 + k
            d = ord(ch) - 48
            cell = cells[at]
            if cell == EMPTY:
                if not counts[d]:
                    break
                counts[d] -= 1
                taken.append(at)
                placed.append((at, d))
                line[at] = d
            elif cell != d:
                break
        else:
            points = sum(t for t in line[s:e] if t <= 9)
            if floor is None or points >= floor[0]:
                tiles = tuple(line[s:e])
                laid = tuple(sorted((at - s, t) for at, t in placed))
                if first:
                    raise _Found((s, tiles, tuple((at + s, t) for at, t in laid), points))
                finds.append((0, tiles, laid, points))
                if floor is not None:
                    floor[0] = points
        for at in taken:
            counts[line[at]] += 1
            placed.pop()
            line[at] = cells[at]

    def step(
        p: int, total: int, sign: int, term: int, pend: int, cur: int, curlen: int, points: int
    ) -> None:
        """Read the left side from index p on, laying a digit in each hole the shape gives
        one (``points``: its digits so far)."""
        while p < q:  # the cells that leave no choice: the table's tiles, the shape's signs
            tile = shape[p]
            if tile == _DIGIT:
                break
            if tile <= 9:
                if curlen == 1 and cur == 0:
                    return  # leading zero
                cur = cur * 10 + tile
                curlen += 1
                points += tile
            else:
                if pend == 0:
                    t = cur
                elif pend == TIMES:
                    t = term * cur
                else:
                    if cur == 0 or term % cur:
                        return
                    t = term // cur
                if tile == TIMES or tile == DIVIDE:
                    term, pend = t, tile
                else:
                    total += sign * t
                    sign = 1 if tile == PLUS else -1
                    term = pend = 0
                cur = curlen = 0
            p += 1
        if p == q:
            if pend == 0:
                t = cur
            elif pend == TIMES:
                t = term * cur
            else:
                if cur == 0 or term % cur:
                    return
                t = term // cur
            value = total + sign * t
            if value >= 0:
                finish(value)
            return
        if curlen == 1 and cur == 0:
            return  # leading zero
        if floor is not None:
            if points + hand_sum[0] + table_points[last] - table_points[p] < floor[0]:
                return  # cannot beat the best equation found so far
        if not fits(p, total, sign, term, pend, cur, curlen):
            return
        for d in hand_digits:
            if counts[d]:
                counts[d] -= 1
                hand_sum[0] -= d
                placed.append((p, d))
                line[p] = d
                step(p + 1, total, sign, term, pend, cur * 10 + d, curlen + 1, points + d)
                placed.pop()
                line[p] = EMPTY
                hand_sum[0] += d
                counts[d] += 1

    def shapes(p: int, after_sign: bool, signs: int, digits: int) -> None:
        """Give each hole of the left side from p on a digit or one of the hand's signs,
        and lay digits in each shape made (``signs`` in it so far, ``digits`` holes)."""
        while p < q and cells[p] != EMPTY:
            is_sign = cells[p] >= PLUS
            if is_sign and after_sign:
                return  # two signs in a row
            after_sign = is_sign
            signs += is_sign
            p += 1
        if p == q:
            if after_sign or not signs or digits + right_holes > digit_tiles:
                return
            next_sign[q] = next_times[q] = q
            laid: list[int] = []
            for i in range(q - 1, s - 1, -1):
                next_sign[i] = i if shape[i] >= PLUS else next_sign[i + 1]
                next_times[i] = i if shape[i] in (TIMES, DIVIDE) else next_times[i + 1]
                if cells[i] == EMPTY and shape[i] >= PLUS:
                    laid.append(i)
            for i in laid:  # the hand's signs, where the shape puts them
                counts[shape[i]] -= 1
                placed.append((i, shape[i]))
                line[i] = shape[i]
            step(s, 0, 1, 0, 0, 0, 0, 0)
            for i in laid:
                placed.pop()
                line[i] = EMPTY
                counts[shape[i]] += 1
            return
        shapes(p + 1, False, signs, digits + 1)
        if after_sign or p == s or p == q - 1:
            return
        for sign in (PLUS, MINUS, TIMES, DIVIDE):
            if signs_left[sign]:
                signs_left[sign] -= 1
                shape[p] = sign
                shapes(p + 1, True, signs + 1, digits)
                shape[p] = _DIGIT
                signs_left[sign] += 1

    for q in range(2, n - 1):
        if cells[q] == EQUALS:
            own = 0  # the table's =
        elif cells[q] == EMPTY and counts[EQUALS] and not shut[q]:
            own = 1  # the hand's = on an empty cell
        else:
            continue
        if cells[q - 1] >= PLUS or cells[q + 1] >= PLUS:
            continue  # a sign beside the =
        # The right side: digits up to an empty cell (which stays empty).
        every_end: dict[int, tuple[int, int]] = {}
        holes = 0
        for e in range(q + 1, n):
            cell = cells[e]
            if cell == EMPTY:
                if e > q + 1:
                    every_end[e - q - 1] = (e, holes)
                if shut[e] or own + holes + 1 > size or holes + 1 > digit_tiles:
                    break
                holes += 1
            elif cell >= PLUS:
                break
        if cells[q + 1] == 0:  # a number of two digits or more never starts with 0
            every_end = {length: end for length, end in every_end.items() if length == 1}
        if not every_end:
            continue
        fewest = min(h for _, h in every_end.values())
        holes = 0
        for s in range(q - 1, 0, -1):
            cell = cells[s]
            if cell == EQUALS:
                break  # a second =
            if cell == EMPTY:
                if shut[s]:
                    break
                holes += 1
                if own + holes + fewest > size:
                    break
            elif cell >= PLUS and cells[s + 1] >= PLUS:
                break  # two signs in a row
            if cells[s - 1] != EMPTY or cell >= PLUS or q - s < 3:
                continue  # not just after an empty cell, a sign first, or no room
            ends = {
                length: (e, h)
                for length, (e, h) in every_end.items()
                if 0 < own + holes + h <= size and e - s > own + holes + h
            }
            if not ends:
                continue  # no hand tile, too many, or no table tile
            right_holes = min(h for _, h in ends.values())
            last = max(e for e, _ in ends.values())
            if floor is not None:
                if hand_sum[0] + table_points[last] - table_points[s] < floor[0]:
                    continue
            pattern = (q - s, tuple(cells[s:last]), tuple(ends))
            finds = known.get(pattern)  # type: ignore[assignment]
            if finds is None:
                finds = known[pattern] = []
                if own:
                    counts[EQUALS] -= 1
                    placed.append((q, EQUALS))
                    line[q] = EQUALS
                try:
                    shapes(s, False, 0, 0)
                except _Found as stop:
                    del known[pattern]  # what it holds would be short of the rest
                    return [stop.args[0]]
                if own:
                    placed.pop()
                    line[q] = EMPTY
                    counts[EQUALS] += 1
            if finds:
                if first:
                    _, tiles, laid, points = finds[0]
                    return [(s, tiles, tuple((at + s, t) for at, t in laid), points)]
                found.extend((s, tiles, laid, points) for _, tiles, laid, points in finds)
                if floor is not None:
                    floor[0] = max(floor[0], max(points for *_, points in finds))
    found.sort(key=lambda find: find[:2])
    return [
        (start, tiles, tuple((at + start, t) for at, t in laid), points)
        for start, tiles, laid, points in found
    ]


__all__ = ["EMPTY", "Find", "Known", "line_finds"]
