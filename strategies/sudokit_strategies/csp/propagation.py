"""The variant model's rules in the search: one constraint on every open cell that propagates them all.

python-constraint2's solvers call, after each assignment, the constraints of the variable just assigned,
each once, with the domains of the open variables pushed so that a constraint may hide values (undone on
backtracking). A constraint per rule prunes only around the digit just placed: what one rule rules out
never reaches the others before the next assignment, and on a puzzle whose rules work together (renban
lines and skyscraper clues, entropic lines, region-sum lines) the search wanders for minutes.

Here every group and rule of the model is a filter on bit masks of digits, and :class:`Propagate`, a
constraint on every open cell, runs the filters from the cell just assigned to a fixed point: a filter
that narrows a cell queues the filters of that cell. The filters:

* a group (digits that differ): naked singles; for a whole row, column or region also hidden singles and
  a digit with no place left; for any group, fewer digits left than cells;
* a pair (a table of the digits two cells may hold together): arc consistency;
* layouts (the cells hold one of a list of layouts, a mask of digits per cell: a killer cage's sets of
  digits, a sandwich's or an X-sum's placings, a between or lockout line's triples, a small sum's ways):
  each cell keeps the digits of the layouts that every cell's digits still fit;
* a sum (the sum of multiplier * digit is a total): bounds, to a fixed point;
* a skyscraper clue: the digits some reading with the clue's count still takes (:func:`seen_counts`).

The same filters run once at the root, before the search (:meth:`Propagate.preProcess`), removing what
they rule out for good.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import constraint

#: The filter of one rule: given the masks of the cells (by cell), the cells it narrows with their new
#: masks, or None when the rule cannot hold.
_Filter = Callable[[list[int]], "list[tuple[int, int]] | None"]

_DIGITS: dict[int, tuple[int, ...]] = {}


def digits_of(mask: int) -> tuple[int, ...]:
    """The digits of a bit mask (digit d is bit d), remembered."""
    found = _DIGITS.get(mask)
    if found is None:
        found = _DIGITS[mask] = tuple(d for d in range(mask.bit_length()) if mask >> d & 1)
    return found


def skyline_masks(line: Sequence[int], left: int, right: int) -> list[int] | None:
    """The digits of each place of a whole row or column (a mask of digits 1..n each) that some ordering of
    the digits 1..n, each in its place's digits, takes with ``left`` digits seen from the start and
    ``right`` from the end (0: no clue there); None: no ordering.

    A depth-first search, place by place, on the states (the digits placed so far, how many seen from
    each end), each state's outcome remembered: the tallest digit placed is the tallest seen from the
    start, and a digit is seen from the end when it is the tallest of the digits not yet placed.
    """
    n = len(line)
    rest_of = ((1 << n) - 1) << 1  # the digits 1..n
    kept = [0] * n
    known: dict[int, bool] = {}  # by used << 16 | seen << 8 | back

    def leads(k: int, used: int, seen: int, back: int) -> bool:
        """Whether places k.. can be filled, the digits of ``used`` placed (seen, back: from each end so far)."""
        if k == n:
            return (not left or seen == left) and (not right or back == right)
        key = used << 16 | seen << 8 | back
        found = known.get(key)
        if found is not None:
            return found
        rest = rest_of & ~used
        tallest, last = used.bit_length() - 1, rest.bit_length() - 1
        found = False
        ahead = n - k - 1  # the places after this one
        digits = line[k] & rest
        while digits:
            bit = digits & -digits
            digits ^= bit
            d = bit.bit_length() - 1
            after = rest ^ bit
            if d > tallest:
                s = seen + 1
                if left and not s <= left <= s + (after >> d).bit_count():
                    continue  # too many seen, or too few taller digits left to see
            else:
                s = seen
                if left and not s <= left <= s + (after >> tallest).bit_count():
                    continue
            b = back + 1 if d == last else back
            if right and not b + (ahead > 0) <= right <= b + ahead:
                continue
            if leads(k + 1, used | bit, s, b):
                kept[k] |= bit
                found = True
        known[key] = found
        return found

    return kept if leads(0, 0, 0, 0) else None


def _group(cells: tuple[int, ...], whole: int) -> _Filter:
    """Different digits on ``cells``; ``whole``: the mask of the digits they must hold (0: any)."""

    def narrow(mask: list[int]) -> list[tuple[int, int]] | None:
        masks = [mask[i] for i in cells]
        changed: set[int] = set()
        again = True
        while again:
            again = False
            fixed = 0
            for m in masks:
                if not m & (m - 1):  # one digit
                    if fixed & m:
                        return None
                    fixed |= m
            if fixed:
                for k, m in enumerate(masks):
                    if m & fixed and m & (m - 1):
                        m &= ~fixed
                        if not m:
                            return None
                        masks[k] = m
                        changed.add(k)
                        again |= not m & (m - 1)
            once = twice = 0
            for m in masks:
                twice |= once & m
                once |= m
            if whole:
                if once & whole != whole:
                    return None  # a digit with no place left
                alone = once & ~twice & ~fixed  # a digit with one place: a hidden single
                if alone:
                    for k, m in enumerate(masks):
                        hidden = m & alone
                        if hidden and hidden != m:
                            if hidden & (hidden - 1):
                                return None  # two digits with only this place
                            masks[k] = hidden
                            changed.add(k)
                            again = True
            elif once.bit_count() < len(cells):
                return None
        return [(cells[k], masks[k]) for k in changed]

    return narrow


def _pair(a: int, b: int, supports: tuple[dict[int, int], dict[int, int]]) -> _Filter:
    """The digits of ``a`` and ``b`` make a pair of a table: arc consistency (``supports``: see _supports)."""
    of_b, of_a = supports

    def narrow(mask: list[int]) -> list[tuple[int, int]] | None:
        ma, mb = mask[a], mask[b]
        na = ma & of_b[mb]
        nb = mb & of_a[na]
        if not nb:  # na is 0, or has no partner left
            return None
        if na == ma:
            return [] if nb == mb else [(b, nb)]
        return [(a, na)] if nb == mb else [(a, na), (b, nb)]

    return narrow


class _Supports(dict[int, int]):
    """For a mask of one cell's digits, the mask of the other's digits that some of them allow (computed once)."""

    def __init__(self, allows: list[int]) -> None:
        super().__init__()
        self.allows = allows

    def __missing__(self, mask: int) -> int:
        allows, top = self.allows, len(self.allows)
        found = self[mask] = _or(allows[x] for x in digits_of(mask) if x < top)
        return found


def _or(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _supports(table: Iterable[tuple[int, int]]) -> tuple[dict[int, int], dict[int, int]]:
    """Of a table of pairs (x, y): for a mask of y's, the x's they allow; for a mask of x's, the y's."""
    pairs = list(table)
    top = max(max(x, y) for x, y in pairs) + 1
    forward, backward = [0] * top, [0] * top  # the y's each x allows, and the x's each y allows
    for x, y in pairs:
        forward[x] |= 1 << y
        backward[y] |= 1 << x
    return _Supports(backward), _Supports(forward)


def _layouts(cells: tuple[int, ...], layouts: Sequence[Sequence[int]]) -> _Filter:
    """The cells hold the digits of one of ``layouts`` (a digit mask per cell): generalised arc consistency."""
    top = max(max(layout) for layout in layouts).bit_length()
    #: For each cell and digit, the layouts (as bits of an int) in which the cell may hold it.
    fits = [[0] * top for _ in cells]
    for k, layout in enumerate(layouts):
        for fit, m in zip(fits, layout, strict=True):
            for x in digits_of(m):
                fit[x] |= 1 << k
    every = (1 << len(layouts)) - 1

    def narrow(mask: list[int]) -> list[tuple[int, int]] | None:
        masks = [mask[i] for i in cells]
        left = every
        for fit, m in zip(fits, masks, strict=True):
            some = 0
            for x in digits_of(m):
                if x < top:
                    some |= fit[x]
            left &= some
            if not left:
                return None
        out = []
        for i, fit, m in zip(cells, fits, masks, strict=True):
            kept = 0
            for x in digits_of(m):
                if x < top and fit[x] & left:
                    kept |= 1 << x
            if kept != m:
                out.append((i, kept))
        return out

    return narrow


def _sum(cells: tuple[int, ...], multipliers: Sequence[int] | None, total: int) -> _Filter:
    """The sum of multiplier * digit over ``cells`` is ``total``: bounds, to a fixed point."""
    factors = tuple(multipliers) if multipliers is not None else (1,) * len(cells)

    def narrow(mask: list[int]) -> list[tuple[int, int]] | None:
        masks = [mask[i] for i in cells]
        changed: set[int] = set()
        while True:
            lows, highs = [], []
            for f, m in zip(factors, masks, strict=True):
                ds = digits_of(m)
                a, b = f * ds[0], f * ds[-1]
                lows.append(min(a, b))
                highs.append(max(a, b))
            low, high = sum(lows), sum(highs)
            if not low <= total <= high:
                return None
            narrowed = False
            for k, (f, m) in enumerate(zip(factors, masks, strict=True)):
                top, bottom = total - (low - lows[k]), total - (high - highs[k])  # what f * digit may be
                if bottom <= lows[k] and highs[k] <= top:
                    continue
                kept = 0
                for x in digits_of(m):
                    if bottom <= f * x <= top:
                        kept |= 1 << x
                if not kept:
                    return None
                masks[k] = kept
                changed.add(k)
                narrowed = True
            if not narrowed:
                return [(cells[k], masks[k]) for k in changed]

    return narrow


#: The outcomes of skyline_masks by (line, left, right), for the lines a search meets again (bounded).
_SKYLINES: dict[tuple[tuple[int, ...], int, int], list[int] | None] = {}
_SKYLINES_KEPT = 50_000


def _skyline(cells: tuple[int, ...], line: tuple[int, ...], left: int, right: int) -> _Filter:
    """A whole row or column, its givens ``line`` (0: the next of ``cells``), ``left`` and ``right`` digits
    seen from its ends (0: no clue): the digits of its orderings (:func:`skyline_masks`)."""
    places = [k for k, d in enumerate(line) if not d]
    givens = [1 << d if d else 0 for d in line]

    def narrow(mask: list[int]) -> list[tuple[int, int]] | None:
        masks = givens[:]
        for k, i in zip(places, cells, strict=True):
            masks[k] = mask[i]
        key = (tuple(masks), left, right)
        if key in _SKYLINES:
            kept = _SKYLINES[key]
        else:
            if len(_SKYLINES) >= _SKYLINES_KEPT:
                _SKYLINES.clear()
            kept = _SKYLINES[key] = skyline_masks(masks, left, right)
        if kept is None:
            return None
        return [(i, kept[k]) for i, k in zip(cells, places, strict=True) if kept[k] != masks[k]]

    return narrow


class Propagate(constraint.Constraint):
    """Every group and rule of a variant model, as one constraint on every open cell (see the module).

    ``groups`` are (cells, digits) of cells that hold different digits (digits: those they must all hold,
    or None); ``rules`` are the model's rules: ("pair", a, b, table), ("sum", cells, multipliers, total),
    ("layouts", cells, masks), ("skyline", cells, line, left, right). ``size``: the number of cells.
    """

    def __init__(
        self,
        size: int,
        groups: Sequence[tuple[tuple[int, ...], frozenset[int] | None]],
        rules: Sequence[tuple[Any, ...]],
    ) -> None:
        self.size = size
        filters: list[tuple[tuple[int, ...], _Filter]] = []
        for cells, digits in groups:
            filters.append((cells, _group(cells, sum(1 << d for d in digits) if digits else 0)))
        supports: dict[frozenset[tuple[int, int]], tuple[dict[int, int], dict[int, int]]] = {}
        for rule in rules:
            if rule[0] == "pair":
                _, a, b, table = rule
                if table not in supports:
                    supports[table] = _supports(table)
                filters.append(((a, b), _pair(a, b, supports[table])))
            elif rule[0] == "sum":
                filters.append((rule[1], _sum(rule[1], rule[2], rule[3])))
            elif rule[0] == "skyline":
                filters.append((rule[1], _skyline(rule[1], rule[2], rule[3], rule[4])))
            else:
                filters.append((rule[1], _layouts(rule[1], rule[2])))
        self.filters = [narrow for _, narrow in filters]
        #: The filters that run after the others have reached a fixed point: the skylines, whose search costs
        #: a hundred times a group's (run once a cell's digits settle, not at each narrowing on the way).
        self.slow = frozenset(k for k, rule in enumerate(rules, len(groups)) if rule[0] == "skyline")
        #: The filters of each cell, by number.
        self.of: dict[int, list[int]] = {}
        for k, (cells, _) in enumerate(filters):
            for i in cells:
                self.of.setdefault(i, []).append(k)

    def propagate(self, masks: list[int], start: Iterable[int]) -> set[int] | None:
        """Run the filters ``start`` and those they queue to a fixed point on ``masks`` (a digit mask per cell).

        The cells narrowed, or None when a rule cannot hold.
        """
        filters, of, slow = self.filters, self.of, self.slow
        pending = list(dict.fromkeys(start))
        queued = set(pending)
        later = [k for k in pending if k in slow]
        if later:
            pending = [k for k in pending if k not in slow]
        changed: set[int] = set()
        while pending or later:
            k = pending.pop() if pending else later.pop()
            queued.discard(k)
            narrowed = filters[k](masks)
            if narrowed is None:
                return None
            for i, m in narrowed:
                if not m:
                    return None
                masks[i] = m
                changed.add(i)
                for j in of[i]:
                    if j not in queued and j != k:
                        queued.add(j)
                        (later if j in slow else pending).append(j)
        return changed

    def preProcess(
        self,
        variables: Sequence[int],
        domains: dict[int, constraint.Domain],
        constraints: list[tuple[constraint.Constraint, Sequence[int]]],
        vconstraints: dict[int, list[tuple[constraint.Constraint, Sequence[int]]]],
    ) -> None:
        """Before the search: every filter to a fixed point, removing for good the digits they rule out."""
        masks = [0] * self.size
        for i in variables:
            masks[i] = _or(1 << x for x in domains[i])
        changed = self.propagate(masks, range(len(self.filters)))
        if changed is None:  # no solution: an empty domain tells the library so
            del domains[variables[0]][:]
            return
        for i in changed:
            domain = domains[i]
            for x in [x for x in domain if not masks[i] >> x & 1]:
                domain.remove(x)

    def __call__(
        self,
        variables: Sequence[int],
        domains: dict[int, constraint.Domain],
        assignments: dict[int, int],
        forwardcheck: object = False,
    ) -> bool:
        var = next(reversed(assignments))  # the variable just assigned (the last key, in the library's solvers)
        if forwardcheck and len(domains[var]) == 1:
            return True  # forced: the propagation that left it one digit has run with it, to a fixed point
        get = assignments.get
        masks = [0] * self.size
        for i in variables:
            x = get(i)
            if x is None:
                m = 0
                for x in domains[i]:
                    m |= 1 << x
                masks[i] = m
            else:
                masks[i] = 1 << x
        changed = self.propagate(masks, self.of.get(var, ()))
        if changed is None:
            return False
        if forwardcheck:
            for i in changed:
                if i not in assignments:
                    m, domain = masks[i], domains[i]
                    for x in [x for x in domain if not m >> x & 1]:
                        domain.hideValue(x)
        return True
