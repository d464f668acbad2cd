"""The rules of variant puzzles as ``backtrack`` propagates them: pair tables and the rules over many cells.

A rule between two cells becomes a pair table (:func:`pair_table`): the digits the partner may hold for
each mask of the cell's candidates. A rule over many cells is a small propagator with a ``propagate``
method: :class:`SetRule` (killer totals, renban runs), :class:`LinearRule` (little killer, arrows, the
45 rule's sums), :class:`GroupSumRule` (short sums of the 45 rule whose cells see each other),
:class:`SandwichRule`, :class:`QuadrupleRule`. :mod:`.variants` lowers each constraint into these.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from itertools import combinations, permutations

__all__ = [
    "GROUP_CELLS",
    "ArrowRule",
    "BetweenRule",
    "GroupSumRule",
    "HighBytes",
    "LinearRule",
    "Narrowing",
    "PairTable",
    "QuadrupleRule",
    "Rule",
    "SandwichRule",
    "SetRule",
    "SkyscraperRule",
    "TableRule",
    "XSumRule",
    "digit_sets",
    "group_sums",
    "kept_digits",
    "pair_table",
    "skyscraper_bounds",
    "skyscraper_readings",
]

#: What a rule over many cells answers: the narrowed candidates ``(cell, mask)``, or None for a contradiction.
Narrowing = list[tuple[int, int]] | None
#: A pair table as two byte tables: the digits allowed at the partner of a cell whose candidates are ``m``
#: are ``low[m & 255] | high[m >> 8]`` (``high`` a :class:`HighBytes` above 16 digits).
PairTable = tuple[tuple[int, ...], "tuple[int, ...] | HighBytes"]


class HighBytes:
    """The ``high`` table of a pair on a board of over 16 digits: a byte table per byte of the mask above the first.

    A flat table of the masks above the first byte has ``1 << (n - 8)`` entries: at 36x36, 268 million
    (gigabytes, and minutes to build, before the search even looks at its deadline).
    """

    __slots__ = ("tables",)

    def __init__(self, tables: tuple[tuple[int, ...], ...]) -> None:
        self.tables = tables

    def __getitem__(self, m: int) -> int:
        out = 0
        for table in self.tables:
            if not m:
                break
            out |= table[m & 255]
            m >>= 8
        return out


@cache
def digit_sets(n: int, k: int, total: int) -> tuple[int, ...]:
    """Every set of ``k`` different digits 1..n summing to ``total``, as masks."""
    return tuple(sum(1 << (d - 1) for d in combo) for combo in combinations(range(1, n + 1), k) if sum(combo) == total)


def _completed(adds: int, others: int, target: int) -> int:
    """The addends of bit set ``adds`` that a sum of bit set ``others`` completes to ``target`` (bit s: number s)."""
    kept = 0
    rest = adds
    while rest:
        bit = rest & -rest
        rest ^= bit
        add = bit.bit_length() - 1
        if add <= target and others >> (target - add) & 1:
            kept |= bit
    return kept


def _plus(a: int, b: int) -> int:
    """The sums of one element of bit set ``a`` and one of ``b`` (bit s: the number s), as a bit set."""
    if a.bit_count() > b.bit_count():
        a, b = b, a
    out = 0
    while a:
        bit = a & -a
        a ^= bit
        out |= b << (bit.bit_length() - 1)
    return out


class SetRule:
    """Different digits on ``cells`` that together form one of the sets ``sets`` (a killer total, a renban run)."""

    __slots__ = ("cells", "sets", "watchers")

    def __init__(self, cells: Sequence[int], sets: Sequence[int]) -> None:
        self.cells = tuple(cells)
        self.sets = tuple(sets)
        #: The cells that see every cell of the rule (set by the model once it knows the peers).
        self.watchers: tuple[int, ...] = ()

    def propagate(self, cand: list[int], values: list[int]) -> Narrowing:
        """Keep the sets the placed digits and the candidates still allow; narrow the free cells to them.

        A digit that every set still allowed leaves for the free cells is theirs: the cells that see all
        of the rule's cells lose it.
        """
        placed = 0
        free = []
        for c in self.cells:
            v = values[c]
            if v:
                placed |= v
            else:
                free.append(c)
        allowed = 0
        required = -1
        for digits in self.sets:
            if digits & placed != placed:
                continue
            rest = digits ^ placed
            union = 0
            for c in free:
                m = cand[c] & rest
                if not m:
                    break
                union |= m
            else:
                if union == rest:  # every digit left has a cell to go to
                    allowed |= rest
                    required &= rest
        if required < 0:
            return None  # no set fits
        out = [(c, cand[c] & allowed) for c in free if cand[c] & ~allowed]
        if required:
            for w in self.watchers:
                m = cand[w]
                if m & required:
                    m &= ~required
                    if not m:
                        return None
                    out.append((w, m))
        return out


class LinearRule:
    """``sum(coefficient * digit) == total`` over cells (little killer, arrow): each digit kept has a completion."""

    __slots__ = ("cells", "n", "plain", "terms", "total")

    def __init__(self, terms: Sequence[tuple[int, int]], total: int, n: int) -> None:
        self.terms = tuple(terms)
        self.cells = tuple(c for c, _ in terms)
        self.total = total
        self.n = n
        self.plain = all(k == 1 for _, k in terms)  # a plain sum (a little killer)

    def propagate(self, cand: list[int], values: list[int]) -> Narrowing:
        """Keep the digits of each free cell that the others' candidates can complete to the total.

        Each free cell adds ``coefficient * digit`` (shifted up by ``-coefficient * n`` when negative, so
        every addend is at least 0); the sums reachable by the cells before it and after it are bit sets,
        and a digit stays when the total less its addend is a sum of one from each. With more than three
        free cells it keeps what the least and the most of the others leave (see :meth:`_bounds`).
        """
        if self.plain or len(self.terms) > 3:  # first, cheaply: a sum whose bounds narrow nothing
            target = self.total
            low = high = spread = free_cells = 0
            for c, k in self.terms:
                v = values[c]
                if v:
                    target -= k * v.bit_length()
                else:
                    m = cand[c]
                    least, most = (m & -m).bit_length(), m.bit_length()
                    if k != 1:  # each term adds between its least and its most
                        least, most = (k * least, k * most) if k > 0 else (k * most, k * least)
                    low += least
                    high += most
                    free_cells += 1
                    if most - least > spread:
                        spread = most - least
            if low > target or high < target:
                return None
            if free_cells > 3 and target - low >= spread and high - target >= spread:
                return []
        target = self.total
        n = self.n
        free = []
        for c, k in self.terms:
            v = values[c]
            if v:
                target -= k * v.bit_length()
                continue
            m = cand[c]
            if k == 1:
                adds = m << 1
            else:
                shift = -k * n if k < 0 else 0
                target += shift
                adds = 0
                while m:
                    bit = m & -m
                    m ^= bit
                    adds |= 1 << (k * bit.bit_length() + shift)
            free.append((c, k, adds))
        if target < 0:
            return None
        if not free:
            return None if target else []
        if len(free) > 3:
            low = high = spread = 0
            for _, _, adds in free:
                least, most = (adds & -adds).bit_length(), adds.bit_length()
                low += least
                high += most
                if most - least > spread:
                    spread = most - least
            low -= len(free)
            high -= len(free)
            if low > target or high < target:
                return None
            if target - low >= spread and high - target >= spread:
                return []  # every addend of every cell fits between the others' least and most
            return self._bounds(free, target)
        window = (2 << target) - 1
        before = [1]  # before[i]: the sums the first i free cells reach
        reach = 1
        for _, _, adds in free:
            reach = _plus(reach, adds) & window
            before.append(reach)
        if not reach >> target & 1:
            return None
        out = []
        after = 1  # the sums the free cells after the current one reach
        for i in range(len(free) - 1, -1, -1):
            c, k, adds = free[i]
            kept = _completed(adds, _plus(before[i], after), target)
            after = _plus(after, kept) & window
            if kept != adds:
                out.append((c, self._digits(kept, k)))
        return out

    def _bounds(self, free: list[tuple[int, int, int]], target: int) -> Narrowing:
        """Keep each free cell's addends between what the others add at least and at most, to a fixed point."""
        adds = [a for _, _, a in free]
        changed = True
        while changed:
            changed = False
            low = high = 0
            for a in adds:
                low += (a & -a).bit_length() - 1
                high += a.bit_length() - 1
            if low > target or high < target:
                return None
            for i, a in enumerate(adds):
                least, most = (a & -a).bit_length() - 1, a.bit_length() - 1
                top, bottom = target - (low - least), target - (high - most)
                if bottom > least or most > top:
                    kept = a & ((2 << top) - 1) & -(1 << max(bottom, 0)) if top >= 0 else 0
                    if not kept:
                        return None
                    adds[i] = kept
                    changed = True
                    low += ((kept & -kept).bit_length() - 1) - least
                    high += (kept.bit_length() - 1) - most
        return [(c, self._digits(a, k)) for (c, k, old), a in zip(free, adds, strict=True) if a != old]

    def _digits(self, adds: int, k: int) -> int:
        """The digits whose addends (``k * digit``, shifted up when ``k`` is negative) are the bits of ``adds``."""
        if k == 1:
            return adds >> 1
        shift = -k * self.n if k < 0 else 0
        m = 0
        while adds:
            bit = adds & -adds
            adds ^= bit
            m |= 1 << ((bit.bit_length() - 1 - shift) // k - 1)
        return m


class SandwichRule:
    """The digits between the 1 and the n of a line sum to ``total``: every (1 place, n place, set between) kept."""

    __slots__ = ("cells", "n", "sets")

    def __init__(self, cells: Sequence[int], total: int, n: int) -> None:
        self.cells = tuple(cells)
        self.n = n
        ends = 1 | 1 << (n - 1)
        self.sets = [tuple(s for s in digit_sets(n, k, total) if not s & ends) for k in range(n - 1)]

    def propagate(self, cand: list[int], values: list[int]) -> Narrowing:
        """Narrow each cell to what some placement of the 1, the n and the digits between still allows."""
        n = self.n
        top = 1 << (n - 1)
        middle = ((1 << n) - 1) ^ (1 | top)
        dom = [values[c] or cand[c] for c in self.cells]
        ones = [j for j, m in enumerate(dom) if m & 1]
        tops = [j for j, m in enumerate(dom) if m & top]
        allowed = [0] * n
        found = False
        for p in ones:
            for q in tops:
                if p == q:
                    continue
                a, b = (p, q) if p < q else (q, p)
                inside = dom[a + 1 : b]
                outside = dom[:a] + dom[b + 1 :]
                for digits in self.sets[b - a - 1]:
                    rest = middle ^ digits
                    union = 0
                    for m in inside:
                        if not m & digits:
                            break
                        union |= m
                    else:
                        if union & digits != digits:
                            continue
                        union = 0
                        for m in outside:
                            if not m & rest:
                                break
                            union |= m
                        else:
                            if union & rest != rest:
                                continue
                            found = True
                            allowed[p] |= 1
                            allowed[q] |= top
                            for j in range(n):
                                if j < a or j > b:
                                    allowed[j] |= rest
                                elif a < j < b:
                                    allowed[j] |= digits
        if not found:
            return None
        return kept_digits(self.cells, dom, allowed, values)


class QuadrupleRule:
    """The four cells of a quadruple hold its digits (a digit listed twice, in two of them): every placing kept."""

    __slots__ = ("cells", "digits", "peers", "placings")

    def __init__(self, cells: Sequence[int], digits: Sequence[int]) -> None:
        self.cells = tuple(cells)
        bits = [1 << (d - 1) for d in digits]
        self.digits = tuple(sorted(set(bits)))
        #: The cells each of the four sees, outside the square (set by the model once it knows the peers).
        self.peers: tuple[frozenset[int], ...] = tuple(frozenset() for _ in self.cells)
        #: Each way to put the listed digits in the cells: a digit bit per cell, 0 where the cell is free.
        self.placings = tuple(
            dict.fromkeys(
                tuple(bits[at.index(k)] if k in at else 0 for k in range(len(self.cells)))
                for at in permutations(range(len(self.cells)), len(bits))
            )
        )

    def propagate(self, cand: list[int], values: list[int]) -> Narrowing:
        """Keep each cell's digits that some placing still fitting every cell allows (a free cell keeps all).

        A listed digit is in one of the cells that may still hold it: the cells that see all of those lose it.
        """
        dom = [values[c] or cand[c] for c in self.cells]
        allowed = [0] * len(dom)
        for placing in self.placings:
            for m, bit in zip(dom, placing, strict=True):
                if bit and not m & bit:
                    break
            else:
                for k, bit in enumerate(placing):
                    allowed[k] |= bit or dom[k]
        if not allowed[0]:
            return None  # no placing fits
        out = kept_digits(self.cells, dom, allowed, values)
        if out is None:
            return None
        lost: dict[int, int] = {}  # the cells outside the square that see every place of a listed digit
        for bit in self.digits:
            seen: frozenset[int] | None = None
            for k, m in enumerate(allowed):
                if m & bit:
                    seen = self.peers[k] if seen is None else seen & self.peers[k]
            for w in seen or ():
                if cand[w] & bit:
                    lost[w] = lost.get(w, 0) | bit
        for w, bits in lost.items():
            m = cand[w] & ~bits
            if not m:
                return None
            out.append((w, m))
        return out


class BetweenRule:
    """A between line: the digits of ``cells`` (the ends excepted) lie strictly between the two ends' digits.

    With ``lockout``, a lockout line: the ends at least ``lockout`` apart, the digits between outside them.
    """

    __slots__ = ("cells", "full", "lockout")

    def __init__(self, cells: Sequence[int], lockout: int = 0, n: int = 0) -> None:
        self.cells = tuple(cells)
        self.lockout = lockout
        self.full = (1 << n) - 1

    def propagate(self, cand: list[int], values: list[int]) -> Narrowing:
        """Keep each end digit that some digit of the other end brackets every cell between with; narrow the cells
        between to the digits some such pair brackets."""
        cells = self.cells
        a, b = cells[0], cells[-1]
        ends_a, ends_b = values[a] or cand[a], values[b] or cand[b]
        middle = [values[c] or cand[c] for c in cells[1:-1]]
        keep_a = keep_b = inside = 0
        x_bits = ends_a
        while x_bits:
            x = x_bits & -x_bits
            x_bits ^= x
            y_bits = ends_b
            while y_bits:
                y = y_bits & -y_bits
                y_bits ^= y
                low, high = (x, y) if x < y else (y, x)
                between = (high - 1) & ~(2 * low - 1)  # the digits above low and below high
                fits = bool(between)
                if self.lockout:  # the digits below low and above high, the ends far enough apart
                    fits = high.bit_length() - low.bit_length() >= self.lockout
                    between = self.full & ~(between | low | high)
                if fits and all(m & between for m in middle):
                    keep_a |= x
                    keep_b |= y
                    inside |= between
        if not keep_a:
            return None
        out = [(c, cand[c] & keep) for c, keep in ((a, keep_a), (b, keep_b)) if not values[c] and cand[c] & ~keep]
        out += [(c, cand[c] & inside) for c in cells[1:-1] if not values[c] and cand[c] & ~inside]
        return out


class XSumRule:
    """The first X cells of a line sum to ``total``, X the first cell's digit: every (X, set of the first X) kept.

    The line is a row or a column, so its digits differ: the first X cells hold a set of X digits with X
    in the first cell, and the other cells the rest of the digits.
    """

    __slots__ = ("cells", "n", "sets")

    def __init__(self, cells: Sequence[int], total: int, n: int) -> None:
        self.cells = tuple(cells)
        self.n = n
        #: (X, the sets of X digits with X among them summing to total), for each X that has one.
        self.sets = [(x, s) for x in range(1, n + 1) for s in digit_sets(n, x, total) if s >> (x - 1) & 1]

    def propagate(self, cand: list[int], values: list[int]) -> Narrowing:
        """Narrow each cell to what some first digit X and set of the first X cells still allows."""
        n = self.n
        full = (1 << n) - 1
        dom = [values[c] or cand[c] for c in self.cells]
        allowed = [0] * n
        found = False
        for x, digits in self.sets:
            bit = 1 << (x - 1)
            if not dom[0] & bit:
                continue
            inside, rest = digits ^ bit, full ^ digits
            union = 0
            for m in dom[1:x]:
                if not m & inside:
                    break
                union |= m
            else:
                if union & inside != inside:
                    continue
                union = 0
                for m in dom[x:]:
                    if not m & rest:
                        break
                    union |= m
                else:
                    if union & rest != rest:
                        continue
                    found = True
                    allowed[0] |= bit
                    for j in range(1, n):
                        allowed[j] |= inside if j < x else rest
        if not found:
            return None
        return kept_digits(self.cells, dom, allowed, values)


#: The most undecided cells a line may have for :func:`skyscraper_readings` to run on it: its states grow with
#: the subsets of digits, and on wider lines the bounds alone cost less than what the readings save (Crawfish).
READINGS_FREE = 7


class SkyscraperRule:
    """``count`` digits of a line are seen from its start, each above every digit before it.

    The propagator walks the line's candidates twice, forwards to the states that can be reached and
    backwards to those that still end at ``count``, keeping a digit where some such state takes it on:
    first with states (the tallest digit so far, how many seen) (:func:`skyscraper_bounds`, the classic
    bounds), then, on what that leaves, with states (the digits used so far, how many seen)
    (:func:`skyscraper_readings`: only the readings of different digits, so a digit that only a repeat
    would allow goes too) once at most :data:`READINGS_FREE` cells are undecided.
    """

    __slots__ = ("cells", "count", "n")

    def __init__(self, cells: Sequence[int], count: int, n: int) -> None:
        self.cells = tuple(cells)
        self.count = count
        self.n = n

    def propagate(self, cand: list[int], values: list[int]) -> Narrowing:
        """Narrow each cell to the digits some reading of different digits with ``count`` seen still allows."""
        dom = tuple([values[c] or cand[c] for c in self.cells])
        allowed = skyscraper_bounds(dom, self.count, self.n)
        if allowed:
            narrowed = tuple([m & a for m, a in zip(dom, allowed, strict=True)])
            if sum(m & (m - 1) != 0 for m in narrowed) <= READINGS_FREE:
                allowed = skyscraper_readings(narrowed, self.count)
        return kept_digits(self.cells, dom, allowed, values) if allowed else None


@lru_cache(maxsize=1 << 14)
def skyscraper_bounds(dom: tuple[int, ...], count: int, n: int) -> tuple[int, ...]:
    """The digits of each cell of a line (candidates ``dom``) that a reading with ``count`` seen allows; () if none.

    States are (the tallest digit so far, how many seen). The line's digits differ, so a state is only kept
    where it can still be completed: after ``j`` cells the tallest is at least ``j``, a digit equal to the
    tallest cannot follow it, the ``count - seen`` digits still to be seen are taller than the tallest (so
    at most ``n - tallest`` of them) and have cells left to stand in; a line of ``n`` cells ends with ``n``
    the tallest.
    """
    size = len(dom)
    # A layer is, for each number seen (0..count), the bits t of the tallest digits a state can have
    # (bit 0: none yet); a cell's digits d are bits d (its mask shifted once).
    layers = [[1] + [0] * count]
    for j, m in enumerate(dom, 1):
        m <<= 1
        low = (m & -m).bit_length() - 1
        left = size - j
        prev = layers[-1]
        nxt = [0] * (count + 1)
        for seen, tallest in enumerate(prev):
            if not tallest:
                continue
            if count - seen <= left:  # stay: a digit below the tallest
                nxt[seen] |= tallest & -(2 << low) & -(1 << j)
            need = count - seen - 1
            if 0 <= need <= left:  # rise: a digit above the lowest tallest, leaving room for the rest
                first = (tallest & -tallest).bit_length()
                nxt[seen + 1] |= m & -(1 << max(first, j)) & ((2 << (n - need)) - 1)
        layers.append(nxt)
    good = [0] * (count + 1)
    good[count] = layers[-1][count] & (1 << n if size == n else -1)
    if not good[count]:
        return ()
    out = [0] * size
    for j in range(size - 1, -1, -1):
        m = dom[j] << 1
        low = (m & -m).bit_length() - 1
        here = layers[j]
        before = [0] * (count + 1)
        allowed = 0
        for seen, tallest in enumerate(here):
            if not tallest:
                continue
            stay = tallest & good[seen] & -(2 << low)
            if stay:
                before[seen] |= stay
                allowed |= m & ((1 << (stay.bit_length() - 1)) - 1)
            if seen < count:
                rise = m & good[seen + 1] & -(2 << ((tallest & -tallest).bit_length() - 1))
                if rise:
                    before[seen] |= tallest & ((1 << (rise.bit_length() - 1)) - 1)
                    allowed |= rise
        good = before
        out[j] = allowed >> 1
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def skyscraper_readings(dom: tuple[int, ...], count: int) -> tuple[int, ...]:
    """The digits of each cell that some reading of different digits, ``count`` seen, allows; () if none.

    A state is (the digits used so far, how many seen): the tallest is the highest digit used.
    """
    limit = (2 << count) - 1
    layers: list[dict[int, int]] = [{0: 1}]  # digits used -> the bits of the numbers seen
    for m in dom:
        nxt: dict[int, int] = {}
        for used, seen in layers[-1].items():
            tallest = used.bit_length()
            free = m & ~used
            while free:
                bit = free & -free
                free ^= bit
                s = (seen << 1) & limit if bit.bit_length() > tallest else seen
                if s:
                    nxt[used | bit] = nxt.get(used | bit, 0) | s
        if not nxt:
            return ()
        layers.append(nxt)
    good = {used: 1 << count for used, seen in layers[-1].items() if seen >> count & 1}
    if not good:
        return ()
    out = [0] * len(dom)
    for j in range(len(dom) - 1, -1, -1):
        m = dom[j]
        before: dict[int, int] = {}
        for used, seen in layers[j].items():
            tallest = used.bit_length()
            free = m & ~used
            while free:
                bit = free & -free
                free ^= bit
                after = good.get(used | bit)
                if after:
                    match = seen & (after >> 1) if bit.bit_length() > tallest else seen & after
                    if match:
                        out[j] |= bit
                        before[used] = before.get(used, 0) | match
        good = before
    return tuple(out)


class TableRule:
    """The digits of ``cells`` form one of the rows ``rows`` (each a digit bit per cell): a short arrow, listed.

    Each cell keeps the digits of the rows that every cell's candidates still allow: exact for the rule,
    which a sum's reachable totals are not when two of its cells must differ.
    """

    __slots__ = ("by_first", "cells", "memo", "rows")

    def __init__(self, cells: Sequence[int], rows: Sequence[tuple[int, ...]], like: TableRule | None = None) -> None:
        """``like``: a rule of the same rows, whose tables (and what they kept) this one shares."""
        self.cells = tuple(cells)
        self.rows: tuple[tuple[int, ...], ...] = tuple(rows)
        #: The rows by their first cell's digit (an arrow's circle): only those of its candidates are read.
        self.by_first: dict[int, list[tuple[int, ...]]] = {}
        #: What the rows keep of each candidate tuple seen (a search meets the same ones again and again).
        self.memo: dict[tuple[int, ...], list[int]] = {}
        if like is not None and like.rows == self.rows:
            self.rows, self.by_first, self.memo = like.rows, like.by_first, like.memo
            return
        for row in self.rows:
            self.by_first.setdefault(row[0], []).append(row)

    def propagate(self, cand: list[int], values: list[int]) -> Narrowing:
        """Narrow each cell to its digits in the rows that fit every cell's candidates."""
        dom = tuple([values[c] or cand[c] for c in self.cells])
        kept = self.memo.get(dom)
        if kept is None:
            kept = [0] * len(dom)
            first = dom[0]
            while first:
                bit = first & -first
                first ^= bit
                for row in self.by_first.get(bit, ()):
                    for m, b in zip(dom, row, strict=True):
                        if not m & b:
                            break
                    else:
                        kept = [k | b for k, b in zip(kept, row, strict=True)]
            if len(self.memo) >= 1 << 14:
                self.memo.clear()
            self.memo[dom] = kept
        return kept_digits(self.cells, dom, kept, values) if kept[0] else None


def kept_digits(cells: Sequence[int], dom: Sequence[int], kept: Sequence[int], values: list[int]) -> Narrowing:
    """The narrowing of ``cells`` (candidates ``dom``) to the digits ``kept``; None if a placed digit is not kept."""
    out = []
    for c, m, k in zip(cells, dom, kept, strict=True):
        if m & ~k:
            if values[c]:
                return None
            out.append((c, m & k))
    return out


#: The most cells of a group of different digits in a :class:`GroupSumRule` (its digit sets are listed).
GROUP_CELLS = 3


@lru_cache(maxsize=1 << 16)
def group_sums(dom: tuple[int, ...]) -> tuple[int, tuple[tuple[tuple[int, int], ...], ...], tuple[int, ...]]:
    """The sums different digits on cells of candidates ``dom`` reach: ``(sums, digits, kept)``, ``sums`` a bit set
    (bit s: the sum s), ``digits[j]`` the ``(bit, sums)`` of each digit of cell j that some such reading takes,
    ``kept[j]`` those digits.

    The states are the sets of digits the first cells hold (a forward pass); a backward pass gives each
    state the sums it still reaches. ``(0, (), ())`` when no reading of different digits fits.
    """
    layers: list[set[int]] = [{0}]
    for m in dom:
        nxt = set()
        for used in layers[-1]:
            free = m & ~used
            while free:
                bit = free & -free
                free ^= bit
                nxt.add(used | bit)
        if not nxt:
            return 0, (), ()
        layers.append(nxt)
    back: dict[int, int] = {}
    for used in layers[-1]:
        total, rest = 0, used
        while rest:
            bit = rest & -rest
            rest ^= bit
            total += bit.bit_length()
        back[used] = 1 << total
    digits: list[tuple[tuple[int, int], ...]] = []
    for j in range(len(dom) - 1, -1, -1):
        m = dom[j]
        before: dict[int, int] = {}
        by_digit: dict[int, int] = {}
        for used in layers[j]:
            free = m & ~used
            reach = 0
            while free:
                bit = free & -free
                free ^= bit
                sums = back.get(used | bit)
                if sums:
                    reach |= sums
                    by_digit[bit] = by_digit.get(bit, 0) | sums
            if reach:
                before[used] = reach
        back = before
        digits.append(tuple(by_digit.items()))
    digits.reverse()
    return back[0], tuple(digits), tuple(sum(bit for bit, _ in cell) for cell in digits)


class GroupSumRule:
    """``sum(weight * digit) == total`` over groups of cells whose digits differ (each group cells that see each other).

    Each group reaches the sums of its readings of different digits (:func:`group_sums`), which a sum of
    single cells overestimates (three cells of one row sum to 6 at least, not 3). A group keeps the sums
    that the other groups' sums complete to the total, and each of its cells the digits of those sums.
    """

    __slots__ = ("cells", "groups", "total")

    def __init__(self, groups: Sequence[tuple[int, Sequence[int]]], total: int) -> None:
        self.groups = tuple((w, tuple(cells)) for w, cells in groups)
        self.cells = tuple(c for _, cells in self.groups for c in cells)
        self.total = total

    def propagate(self, cand: list[int], values: list[int]) -> Narrowing:
        """Narrow each cell to the digits of its group's sums that the other groups can complete to the total."""
        target = self.total
        parts = []
        for w, cells in self.groups:
            dom = tuple([values[c] or cand[c] for c in cells])
            sums, digits, kept = group_sums(dom)
            if not sums:
                return None
            # Each group adds w * s, shifted up by -w * (its largest sum) when w < 0 so that every addend is >= 0.
            shift = -w * (sums.bit_length() - 1) if w < 0 else 0
            target += shift
            adds = 0
            rest = sums
            while rest:
                bit = rest & -rest
                rest ^= bit
                adds |= 1 << (w * (bit.bit_length() - 1) + shift)
            parts.append((cells, dom, digits, kept, w, shift, adds))
        if target < 0:
            return None
        window = (2 << target) - 1
        before = [1]  # before[k]: the totals the first k groups reach
        reach = 1
        for part in parts:
            reach = _plus(reach, part[6]) & window
            before.append(reach)
        if not reach >> target & 1:
            return None
        out: list[tuple[int, int]] = []
        after = 1
        for k in range(len(parts) - 1, -1, -1):
            cells, dom, digits, kept, w, shift, adds = parts[k]
            kept_adds = _completed(adds, _plus(before[k], after), target)
            after = _plus(after, kept_adds) & window
            kept_sums = 0
            rest = kept_adds
            while rest:
                bit = rest & -rest
                rest ^= bit
                kept_sums |= 1 << ((bit.bit_length() - 1 - shift) // w)
            if kept_adds != adds:
                kept = tuple(sum(bit for bit, sums in cell if sums & kept_sums) for cell in digits)
            narrowed = kept_digits(cells, dom, kept, values)
            if narrowed is None:
                return None
            out += narrowed
        return out


class _Abandon(Exception):
    """Raised when :class:`ArrowRule`'s search for every digit's completion goes over its budget."""


class ArrowRule(LinearRule):
    """An arrow too long for a table, or a double arrow: a sum whose cells that see each other take different digits.

    The sum is a :class:`LinearRule` (``sum(coefficient * digit) == total``); each digit a cell keeps has a
    completion in which the cells of ``apart`` (pairs of positions in ``cells``, set by the model once it
    knows the peers) differ. A search over the cells finds them all, at most ``budget`` steps; past that
    (long lines on big boards), the sum's bounds alone narrow.
    """

    __slots__ = ("apart", "budget", "clique", "memo", "signs")

    def __init__(self, terms: Sequence[tuple[int, int]], total: int, n: int, budget: int = 4000) -> None:
        merged: dict[int, int] = {}
        for c, k in terms:  # a cell twice on the line adds its digit twice
            merged[c] = merged.get(c, 0) + k
        super().__init__(list(merged.items()), total, n)
        self.budget = budget
        #: For each position, the positions whose cells must differ from its cell.
        self.apart: tuple[tuple[int, ...], ...] = tuple(() for _ in self.cells)
        #: Each position's clique (cells of one sign that all see each other), -1 for none; each clique's sign.
        self.clique: tuple[int, ...] = tuple(-1 for _ in self.cells)
        self.signs: tuple[int, ...] = ()
        #: What the search kept for each candidate tuple seen (a search meets the same ones again and again).
        self.memo: dict[tuple[int, ...], Narrowing] = {}

    def see(self, peers: Sequence[Sequence[int] | set[int]]) -> None:
        """Learn which cells of the rule see each other (so take different digits)."""
        cells = self.cells
        self.apart = tuple(tuple(j for j, b in enumerate(cells) if b in peers[a]) for a in cells)
        groups: list[list[int]] = []  # cliques of cells of one sign, each cell in the first that it fits
        for i, (_, k) in enumerate(self.terms):
            if k in (1, -1):
                for group in groups:
                    if self.terms[group[0]][1] == k and all(j in self.apart[i] for j in group):
                        group.append(i)
                        break
                else:
                    groups.append([i])
        groups = [group for group in groups if len(group) > 1]
        clique = [-1] * len(cells)
        for g, group in enumerate(groups):
            for i in group:
                clique[i] = g
        self.clique = tuple(clique)
        self.signs = tuple(self.terms[group[0]][1] for group in groups)

    def propagate(self, cand: list[int], values: list[int]) -> Narrowing:
        """Narrow each cell to the digits that have a completion of different digits where cells see each other."""
        dom = tuple([values[c] or cand[c] for c in self.cells])
        if dom in self.memo:
            return self.memo[dom]
        try:
            kept = self._supports(dom)
            out = None if kept is None else kept_digits(self.cells, dom, kept, values)
        except _Abandon:
            out = self._by_bounds(dom, values)
        if len(self.memo) >= 1 << 14:
            self.memo.clear()
        self.memo[dom] = out
        return out

    def _options(self, dom: tuple[int, ...], positions: Iterable[int]) -> list[list[tuple[int, int]]]:
        """For each of ``positions``, its candidates as ``(digit bit, coefficient * digit)``."""
        options = []
        for p in positions:
            m, k = dom[p], self.terms[p][1]
            opts = []
            while m:
                bit = m & -m
                m ^= bit
                opts.append((bit, k * bit.bit_length()))
            options.append(opts)
        return options

    def _by_bounds(self, dom: tuple[int, ...], values: list[int]) -> Narrowing:
        """Keep each cell's addends between the total less the others' most and least (cliques counted)."""
        size = len(dom)
        options = self._options(dom, range(size))
        kept = []
        for p in range(size):
            others = [j for j in range(size) if j != p]
            bounds = self._suffix_bounds(dom, others, [options[j] for j in others])
            if bounds is None:
                return None
            least, most = self.total - bounds[1][0], self.total - bounds[0][0]
            kept.append(sum(bit for bit, add in options[p] if least <= add <= most))
        return kept_digits(self.cells, dom, kept, values) if all(kept) else None

    def _suffix_bounds(
        self, dom: tuple[int, ...], order: list[int], options: list[list[tuple[int, int]]]
    ) -> tuple[list[int], list[int]] | None:
        """The least and most the cells from each place of ``order`` on add; None if those cells cannot differ.

        A cell outside the cliques adds its least or most addend; the ``m`` cells of a clique (cells that
        all see each other, all ``+1`` or all ``-1``) in the suffix add at least the ``m`` least digits of
        their candidates together, at most the ``m`` most (a clique with fewer digits than cells: None).
        """
        size = len(order)
        low, high = [0] * (size + 1), [0] * (size + 1)
        clique, signs = self.clique, self.signs
        for q in range(size):
            lo = hi = 0
            unions: dict[int, tuple[int, int]] = {}
            for j in range(q, size):
                g = clique[order[j]]
                if g < 0:
                    adds = [a for _, a in options[j]]
                    lo += min(adds)
                    hi += max(adds)
                else:
                    m, count = unions.get(g, (0, 0))
                    unions[g] = (m | dom[order[j]], count + 1)
            for g, (m, count) in unions.items():
                digits = []
                while m:
                    bit = m & -m
                    m ^= bit
                    digits.append(bit.bit_length())
                if len(digits) < count:
                    return None
                least, most = sum(digits[:count]), sum(digits[-count:])
                if signs[g] > 0:
                    lo, hi = lo + least, hi + most
                else:
                    lo, hi = lo - most, hi - least
            low[q], high[q] = lo, hi
        return low, high

    def _supports(self, dom: tuple[int, ...]) -> list[int] | None:
        """The digits of each cell that some completion uses, or None if there is none."""
        size = len(dom)
        # A two-digit circle's tens first, then the cells with fewest candidates: the sum left narrows soonest.
        order = sorted(range(size), key=lambda i: (abs(self.terms[i][1]) <= 1, dom[i].bit_count()))
        where = {p: q for q, p in enumerate(order)}
        options = self._options(dom, order)
        bounds = self._suffix_bounds(dom, order, options)
        if bounds is None:
            return None
        low, high = bounds
        if not low[0] <= self.total <= high[0]:
            return None
        apart = [tuple(where[j] for j in self.apart[p] if where[j] < q) for q, p in enumerate(order)]
        kept = [0] * size
        whole = [dom[p] for p in order]
        chosen = [0] * size
        steps = self.budget

        def search(q: int, rest: int) -> bool:
            """Whether the digits chosen before ``q`` have a completion; every completion's digits kept on the way."""
            nonlocal steps
            if q == size:
                return rest == 0
            steps -= 1
            if steps < 0:
                raise _Abandon
            banned = 0
            for j in apart[q]:
                banned |= chosen[j]
            lo, hi = low[q + 1], high[q + 1]
            found = False
            for bit, add in options[q]:
                if bit & banned or not lo <= rest - add <= hi:
                    continue
                if found and kept[q] & bit and kept[q + 1 :] == whole[q + 1 :]:
                    continue  # nothing left to learn below
                chosen[q] = bit
                if search(q + 1, rest - add):
                    kept[q] |= bit
                    found = True
            return found

        if not search(0, self.total):
            return None
        return [kept[where[p]] for p in range(size)]


Rule = (
    SetRule
    | LinearRule
    | GroupSumRule
    | SandwichRule
    | QuadrupleRule
    | BetweenRule
    | XSumRule
    | SkyscraperRule
    | TableRule
    | ArrowRule
)


@cache
def pair_table(allowed: tuple[int, ...]) -> PairTable:
    """The byte tables of a pair whose partner may hold ``allowed[d - 1]`` when the cell holds ``d``."""
    n = len(allowed)

    def table(first: int, size: int) -> tuple[int, ...]:
        """The digits allowed for each mask of the ``size`` digits from ``first`` up."""
        out = [0] * size
        for m in range(1, size):
            d = first + (m & -m).bit_length() - 1
            out[m] = out[m & (m - 1)] | (allowed[d] if d < n else 0)
        return tuple(out)

    low = table(0, 256)
    if n <= 16:
        return low, table(8, 1 << max(n - 8, 0))
    return low, HighBytes(tuple(table(first, 256) for first in range(8, n, 8)))
