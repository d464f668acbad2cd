"""The variant rules as the step solver reads them: houses, extra peers and enumerable rules.

:func:`compile_rules` turns a variant :class:`~sudokit.Grid`'s constraints into three things the
logical steps of :mod:`sudokit.features.logic` use:

- *houses*: groups of n cells holding every digit once (a diagonal, an extra region of n cells,
  a disjoint group), where the classic techniques (hidden singles, subsets, chains) work as in a row;
- *peer pairs*: two cells that never hold the same digit (anti-knight, anti-king, the cells of a
  killer cage, a renban or nabner line, an extra region of fewer than n cells);
- :class:`Rule` values, one for each clue (a cage, a thermometer, a dot, a pair of neighbours under
  a negative rule...): its cells and a test of a complete filling of them. :func:`enumerate_rule`
  tries every filling of a rule's cells from their candidates (within a bound on the work), and the
  step solver removes each candidate that no filling allows.

Each rule's test is the rule itself, read from :mod:`sudokit.model.variants` (its ``holds``, its
``violation`` on the rule's own cells, or the sum, order or count it states), so the eliminations
are sound by construction: a candidate is removed only when no filling of that rule's cells keeps it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from sudokit.model import variants as v
from sudokit.model.grid import Grid

__all__ = ["MAX_NODES", "Rule", "RuleKit", "compile_rules", "enumerate_rule"]

#: The most partial fillings :func:`enumerate_rule` tries for one rule before it gives up (no conclusion).
MAX_NODES = 30_000

#: The step name of each kind's eliminations; kinds not named here are "rule propagation" steps.
TECHNIQUE_OF_KIND = {
    "odd-even": "parity clue",
    "pencil-marks": "given pencil marks",
    "kropki": "kropki dot",
    "xv": "XV clue",
    "killer": "killer cage",
    "thermometer": "thermometer",
    "slow-thermometer": "slow thermometer",
    "arrow": "arrow",
    "little-killer": "little killer",
    "sandwich": "sandwich",
    "renban": "renban line",
    "whisper": "whisper line",
    "palindrome": "palindrome line",
    "kropki-negative": "kropki negative constraint",
    "xv-negative": "XV negative constraint",
    "non-consecutive": "non-consecutive",
    "quadruple": "quadruple",
    "min-max": "minimum/maximum cell",
    "clone": "clone",
    "x-sum": "X-sum",
    "skyscraper": "skyscraper clue",
}
#: The name of the steps of every other kind: a candidate no filling of that one rule's cells allows.
RULE_PROPAGATION = "rule propagation"
#: The step names of rule eliminations, easiest first (the order the step solver tries the rules in).
RULE_TECHNIQUES = (*dict.fromkeys(TECHNIQUE_OF_KIND.values()), RULE_PROPAGATION)


@dataclass(frozen=True, eq=False)
class Rule:
    """One clue as a test of its cells' digits.

    ``check`` takes the digits of ``cells`` in order and says whether they keep the rule; ``prune``
    (if any) takes a prefix of them and says whether some completion may still keep it.
    """

    technique: str
    label: str
    cells: tuple[int, ...]
    check: Callable[[Sequence[int]], bool]
    prune: Callable[[Sequence[int]], bool] | None = None
    #: A search of its own in place of :func:`enumerate_rule`'s (same arguments and answer).
    search: Search | None = None
    #: The test of a rule on two cells, as a function of their two digits (None: not a two-cell rule).
    pair: Callable[[int, int], bool] | None = None


@dataclass(frozen=True)
class RuleKit:
    """What a variant grid adds to rows, columns and regions (see the module)."""

    houses: tuple[tuple[str, tuple[int, ...]], ...]
    peer_pairs: frozenset[tuple[int, int]]
    rules: tuple[Rule, ...]


def _span(cells: Sequence[int], n: int) -> str:
    names = [f"r{i // n + 1}c{i % n + 1}" for i in cells]
    return names[0] if len(names) == 1 else f"{names[0]}-{names[-1]}"


def _idx(cells: Sequence[v.Cell], n: int) -> tuple[int, ...]:
    return tuple(r * n + c for r, c in cells)


def _sum_prune(total: int, length: int, n: int) -> Callable[[Sequence[int]], bool]:
    def prune(prefix: Sequence[int]) -> bool:
        left = length - len(prefix)
        s = sum(prefix)
        return s + left <= total <= s + left * n

    return prune


def _sum_rule(technique: str, label: str, cells: tuple[int, ...], total: int, n: int) -> Rule:
    return Rule(technique, label, cells, lambda ds: sum(ds) == total, _sum_prune(total, len(cells), n))


def _pair_rule(technique: str, label: str, a: int, b: int, holds: Callable[[int, int], bool]) -> Rule:
    return Rule(technique, label, (a, b), lambda ds: holds(ds[0], ds[1]), pair=holds)


def pair_table(holds: Callable[[int, int], bool], n: int, apart: bool) -> tuple[int, ...]:
    """For each digit x (index x - 1), the mask of the digits y with ``holds(x, y)`` (and y != x when ``apart``)."""
    return tuple(
        sum(1 << (y - 1) for y in range(1, n + 1) if holds(x, y) and not (apart and x == y)) for x in range(1, n + 1)
    )


#: The most answers of one constraint's ``violation`` a rule keeps (:func:`_violation_rule`).
_CHECKS_KEPT = 50_000


def _violation_rule(rule: v.Constraint, grid: Grid, technique: str, label: str, cells: tuple[int, ...]) -> Rule:
    """A rule whose test is the constraint's own ``violation`` on a board holding only its cells' digits."""
    size = grid.n * grid.n
    # Its answers, by the cells' digits: the forcing trials enumerate the same fillings again and again, and a
    # constraint's ``violation`` (a whole board's check) costs tens of microseconds a call.
    known: dict[tuple[int, ...], bool] = {}

    def check(ds: Sequence[int]) -> bool:
        key = tuple(ds)
        got = known.get(key)
        if got is None:
            values = [0] * size
            for i, d in zip(cells, ds, strict=True):
                values[i] = d
            got = rule.violation(values, grid) is None
            if len(known) >= _CHECKS_KEPT:
                known.clear()
            known[key] = got
        return got

    return Rule(technique, label, cells, check)


def _apart(gap: int) -> Callable[[int, int], bool]:
    return lambda x, y: abs(x - y) >= gap


def _sandwich_prune(n: int, total: int) -> Callable[[Sequence[int]], bool]:
    def prune(prefix: Sequence[int]) -> bool:
        ends = [k for k, d in enumerate(prefix) if d == 1 or d == n]
        if len(ends) >= 2:
            return sum(prefix[ends[0] + 1 : ends[1]]) == total
        if ends:
            return sum(prefix[ends[0] + 1 :]) <= total
        return True

    return prune


def _sandwich_check(n: int, total: int) -> Callable[[Sequence[int]], bool]:
    def check(ds: Sequence[int]) -> bool:
        if 1 not in ds or n not in ds:
            return False
        a, b = sorted((ds.index(1), ds.index(n)))
        return sum(ds[a + 1 : b]) == total

    return check


def _x_sum_prune(total: int) -> Callable[[Sequence[int]], bool]:
    def prune(prefix: Sequence[int]) -> bool:
        if not prefix:
            return True
        x = prefix[0]
        if len(prefix) >= x:
            return sum(prefix[:x]) == total
        return sum(prefix) + (x - len(prefix)) <= total

    return prune


#: A rule's own search: (candidates of its cells, budget, a one-item list the partial fillings tried are added to).
Search = Callable[[Sequence[int], int, list[int]], tuple[list[int], int] | None]


def _distinct_sums(domains: Sequence[int], total: int, budget: int, first: int = 0) -> tuple[list[int], int] | None:
    """The digits each of ``domains``' cells takes in some filling with different digits summing to ``total``
    (``first``: a digit the cells may not use); None past ``budget`` partial fillings."""
    size = len(domains)
    supported = [0] * size
    prefix: list[int] = []
    nodes = 0
    big = max((m.bit_length() for m in domains), default=0)

    def walk(k: int, used: int, left: int) -> bool:
        nonlocal nodes
        if k == size:
            if left == 0:
                for j, d in enumerate(prefix):
                    supported[j] |= 1 << (d - 1)
            return True
        rest = size - k - 1
        m = domains[k] & ~used & ~first
        while m:
            low = m & -m
            m ^= low
            d = low.bit_length()
            if d > left or left - d > rest * big or left - d < rest:
                continue
            nodes += 1
            if nodes > budget:
                return False
            prefix.append(d)
            ok = walk(k + 1, used | low, left - d)
            prefix.pop()
            if not ok:
                return False
        return True

    if not walk(0, 0, total):
        return None
    return supported, nodes


def _sandwich_search(n: int, total: int) -> Search:
    """Every place of the 1 and the n and every filling of the cells between them with different digits summing to
    ``total``; the cells outside keep any digit but 1 and n (a relaxation: what it removes, nothing allows)."""
    ends = 1 | 1 << (n - 1)

    def search(domains: Sequence[int], budget: int, tried: list[int]) -> tuple[list[int], int] | None:
        size = len(domains)
        supported = [0] * size
        spent = 0
        for a in range(size):
            for b in range(size):
                lo, hi = min(a, b), max(a, b)
                if a == b or not domains[a] & 1 or not domains[b] >> (n - 1) & 1:
                    continue
                outside = [j for j in range(size) if not lo <= j <= hi]
                if any(not domains[j] & ~ends for j in outside):
                    continue
                inner = [domains[j] & ~ends for j in range(lo + 1, hi)]
                if not inner and total:
                    continue
                got = _distinct_sums(inner, total, budget - spent)
                if got is None:
                    tried[0] += budget + 1
                    return None
                inside, nodes = got
                spent += nodes
                if inner and not any(inside):
                    continue
                supported[a] |= 1
                supported[b] |= 1 << (n - 1)
                for j, m in zip(range(lo + 1, hi), inside, strict=True):
                    supported[j] |= m
                for j in outside:
                    supported[j] |= domains[j] & ~ends
        tried[0] += spent
        return supported, 0

    return search


def _x_sum_search(total: int) -> Search:
    """For each first digit X: every filling of the first X cells with different digits summing to ``total``; the
    other cells keep their candidates (a relaxation)."""

    def search(domains: Sequence[int], budget: int, tried: list[int]) -> tuple[list[int], int] | None:
        size = len(domains)
        supported = [0] * size
        for x in range(1, size + 1):
            if not domains[0] >> (x - 1) & 1:
                continue
            got = _distinct_sums(list(domains[1:x]), total - x, budget, 1 << (x - 1))
            if got is None:
                tried[0] += budget + 1
                return None
            inside = got[0]
            tried[0] += got[1]
            if x > 1 and not any(inside):
                continue
            if x == 1 and total != 1:
                continue
            supported[0] |= 1 << (x - 1)
            for j in range(1, x):
                supported[j] |= inside[j - 1]
            for j in range(x, size):
                supported[j] |= domains[j] & ~(1 << (x - 1))
        return supported, 0

    return search


def _seen(ds: Sequence[int]) -> tuple[int, int]:
    seen = tallest = 0
    for d in ds:
        if d > tallest:
            seen, tallest = seen + 1, d
    return seen, tallest


def _skyscraper_prune(n: int, count: int) -> Callable[[Sequence[int]], bool]:
    def prune(prefix: Sequence[int]) -> bool:
        seen, tallest = _seen(prefix)
        if tallest == n:
            return seen == count
        return seen <= count and seen + (n - tallest) >= count

    return prune


def _skyscraper_search(n: int, count: int) -> Search:
    """Every filling of a skyscraper clue's whole row or column (its n cells hold every digit once) that shows
    ``count`` buildings, found cell by cell over the states a prefix leaves (the digits used, the tallest, the
    buildings seen), forwards and then back from the fillings: exact, in work bounded by the states (no budget).
    A state is dropped as soon as it sees too many, cannot see enough, or leaves a digit no place after it."""
    every = ((1 << n) - 1) << 1  # bit d for digit d

    def search(domains: Sequence[int], budget: int, tried: list[int]) -> tuple[list[int], int] | None:
        size = len(domains)
        rest = [0] * (size + 1)  # the digits the cells from k on may hold (bit d for digit d)
        for k in range(size - 1, -1, -1):
            rest[k] = rest[k + 1] | domains[k] << 1
        steps = 0
        # A state is one int, used << 4 | seen: the digits used (bit d for digit d) and the buildings seen; the
        # tallest is the highest digit used. Ints, not tuples: this is the step solver's innermost loop.
        layer: set[int] = {0}
        edges: list[list[tuple[int, int, int]]] = []  # each cell's (state, digit, state after)
        for k in range(size):
            domain, later = domains[k] << 1, rest[k + 1]
            out: list[tuple[int, int, int]] = []
            for state in layer:
                used, seen = state >> 4, state & 15
                tallest = used.bit_length() - 1
                m = domain & ~used
                while m:
                    low = m & -m
                    m ^= low
                    steps += 1
                    d = low.bit_length() - 1
                    if d > tallest:
                        high, sees = d, seen + 1
                    else:
                        high, sees = tallest, seen
                    # Still open: the n, seen when it comes, and at most every digit above the tallest so far.
                    if sees != count if high == n else sees >= count or sees + n - high < count:
                        continue
                    now = used | low
                    if not every & ~now & ~later:
                        out.append((state, d, now << 4 | sees))
            edges.append(out)
            layer = {after for _, _, after in out}
        good = {state for state in layer if state & 15 == count}
        supported = [0] * size
        for k in range(size - 1, -1, -1):
            keep = set()
            bits = 0
            for state, d, after in edges[k]:
                if after in good:
                    bits |= 1 << (d - 1)
                    keep.add(state)
            supported[k] = bits
            good = keep
        tried[0] += steps
        return supported, every >> 1 if good else 0

    return search


def _compile(rule: v.Constraint, grid: Grid, out: list[Rule]) -> None:
    """The rules of one constraint (global and region rules are handled by :func:`compile_rules`)."""
    n = grid.n
    tech = TECHNIQUE_OF_KIND.get(rule.kind, RULE_PROPAGATION)
    if isinstance(rule, v.OddEven):
        odd = rule.parity == "odd"
        i = rule.cell[0] * n + rule.cell[1]
        out.append(Rule(tech, f"{rule.parity} cell {_span((i,), n)}", (i,), lambda ds: (ds[0] % 2 == 1) == odd))
    elif isinstance(rule, v.PencilMarks):
        i = rule.cell[0] * n + rule.cell[1]
        allowed = frozenset(rule.digits)
        out.append(Rule(tech, f"the given pencil marks of {_span((i,), n)}", (i,), lambda ds: ds[0] in allowed))
    elif isinstance(rule, v.Kropki):
        a, b = _idx(rule.cells, n)
        label = f"{rule.color} {tech} {_span((a, b), n)}" + (f" ({rule.value})" if rule.value else "")
        out.append(_pair_rule(tech, label, a, b, rule.holds))
    elif isinstance(rule, v.XV):
        a, b = _idx(rule.cells, n)
        total = rule.total
        out.append(_pair_rule(tech, f"{rule.letter} {_span((a, b), n)}", a, b, lambda x, y: x + y == total))
    elif isinstance(rule, v.Killer):
        cells = _idx(rule.cells, n)
        if rule.total is None:
            return  # different digits only: its cells are peers
        out.append(_sum_rule(tech, f"killer cage {_span(cells, n)} ({rule.total})", cells, rule.total, n))
    elif isinstance(rule, v.LittleKiller):
        cells = _idx(rule.cells, n)
        out.append(_sum_rule(tech, f"little killer {_span(cells, n)} ({rule.total})", cells, rule.total, n))
    elif isinstance(rule, v.Thermometer | v.SlowThermometer):
        cells = _idx(rule.cells, n)
        slow = isinstance(rule, v.SlowThermometer)

        def rising(ds: Sequence[int], slow: bool = slow) -> bool:
            return all(a <= b if slow else a < b for a, b in pairwise(ds))

        def rose(ds: Sequence[int], slow: bool = slow) -> bool:
            # A prefix is tested only once the one before it passed: its last two digits are enough.
            return len(ds) < 2 or (ds[-2] <= ds[-1] if slow else ds[-2] < ds[-1])

        out.append(Rule(tech, f"{tech} {_span(cells, n)}", cells, rising, rose))
    elif isinstance(rule, v.Arrow):
        circle, cells = _idx(rule.circle, n), _idx(rule.cells, n)
        k = len(circle)
        length = len(cells)

        def value(ds: Sequence[int], k: int = k) -> int:
            out = 0
            for d in ds[:k]:
                out = out * 10 + d
            return out

        def arrow_check(ds: Sequence[int], k: int = k) -> bool:
            return value(ds) == sum(ds[k:])

        def arrow_prune(ds: Sequence[int], k: int = k, length: int = length) -> bool:
            if len(ds) < k:
                return True
            left = length - (len(ds) - k)
            s, want = sum(ds[k:]), value(ds)
            return s + left <= want <= s + left * n

        names = " ".join(_span((i,), n) for i in cells)
        out.append(Rule(tech, f"arrow {_span(circle, n)} <- {names}", circle + cells, arrow_check, arrow_prune))
    elif isinstance(rule, v.Renban):
        cells = _idx(rule.cells, n)
        length = len(cells)

        def run(ds: Sequence[int], length: int = length) -> bool:
            return max(ds) - min(ds) <= length - 1

        out.append(Rule(tech, f"renban line {_span(cells, n)}", cells, run, lambda ds: not ds or run(ds)))
    elif isinstance(rule, v.Whisper):
        cells = _idx(rule.cells, n)
        gap = rule.difference
        for a, b in pairwise(cells):
            label = f"whisper line {_span(cells, n)} (at {_span((a,), n)} and {_span((b,), n)})"
            out.append(_pair_rule(tech, label, a, b, _apart(gap)))
        if len(cells) > 2:  # the whole line too: its cells that see each other differ

            def apart(ds: Sequence[int], gap: int = gap) -> bool:
                return all(abs(a - b) >= gap for a, b in pairwise(ds))

            out.append(Rule(tech, f"whisper line {_span(cells, n)}", cells, apart, apart))
    elif isinstance(rule, v.Palindrome):
        cells = _idx(rule.cells, n)
        for k in range(len(cells) // 2):
            a, b = cells[k], cells[-1 - k]
            label = f"palindrome line {_span(cells, n)} ({_span((a,), n)} = {_span((b,), n)})"
            out.append(_pair_rule(tech, label, a, b, lambda x, y: x == y))
        if len(cells) > 3:  # the whole line too, each cell beside its mirror: its cells that see each other differ
            order = tuple(c for k in range((len(cells) + 1) // 2) for c in dict.fromkeys((cells[k], cells[-1 - k])))
            middle = len(cells) % 2

            def mirror(ds: Sequence[int], size: int = len(order), middle: int = middle) -> bool:
                pairs = len(ds) if len(ds) < size or not middle else size - 1
                return all(ds[j] == ds[j + 1] for j in range(0, pairs - 1, 2))

            out.append(Rule(tech, f"palindrome line {_span(cells, n)}", order, mirror, mirror))
    elif isinstance(rule, v.Clone):
        for a, b in rule.pairs(n):
            out.append(_pair_rule(tech, f"clone {_span((a,), n)} = {_span((b,), n)}", a, b, lambda x, y: x == y))
    elif isinstance(rule, v.MinMax):
        i = rule.cell[0] * n + rule.cell[1]
        for j in _idx(rule.compared(grid), n):
            label = f"{rule.extreme} cell {_span((i,), n)} beside {_span((j,), n)}"
            out.append(_pair_rule(tech, label, i, j, rule.holds))
    elif isinstance(rule, v.Sandwich):
        cells = _idx(rule.line_cells(n), n)
        label = f"sandwich {rule.axis} {rule.index + 1} ({rule.total})"
        search = _sandwich_search(n, rule.total)
        out.append(Rule(tech, label, cells, _sandwich_check(n, rule.total), _sandwich_prune(n, rule.total), search))
    elif isinstance(rule, v.XSum):
        cells = _idx(rule.line_cells(n), n)
        total = rule.total

        def x_sum(ds: Sequence[int], total: int = total) -> bool:
            return sum(ds[: ds[0]]) == total

        out.append(Rule(tech, f"{rule._place()} ({total})", cells, x_sum, _x_sum_prune(total), _x_sum_search(total)))
    elif isinstance(rule, v.Skyscraper):
        cells = _idx(rule.line_cells(n), n)
        count = rule.count
        label = f"{rule._place().replace('skyscraper', 'skyscraper clue')} ({count})"
        out.append(
            Rule(
                tech,
                label,
                cells,
                lambda ds: _seen(ds)[0] == count,
                _skyscraper_prune(n, count),
                _skyscraper_search(n, count) if len(cells) == n else None,
            )
        )
    elif isinstance(rule, v.EntropicLine | v.ModularLine):
        cells = _idx(rule.cells, n)
        third = n // 3
        entropic = isinstance(rule, v.EntropicLine)

        def spread(ds: Sequence[int], entropic: bool = entropic, third: int = third) -> bool:
            groups = [(d - 1) // third if entropic else d % 3 for d in ds]
            return len(set(groups)) == len(groups)

        # The rule holds of every three cells in a row: one rule for each (a line of two: its two cells differ so).
        for k in range(max(1, len(cells) - 2)):
            window = cells[k : k + 3]
            out.append(Rule(tech, f"{rule.label} {_span(cells, n)} (at {_span(window, n)})", window, spread, spread))
    elif isinstance(rule, v.Indexer):
        for i, d, target, want in rule.links(grid):
            label = f"{rule.axis} indexer {_span((i,), n)} (at {d}, {_span((target,), n)} is {want})"

            def sends(x: int, y: int, d: int = d, want: int = want) -> bool:
                return x != d or y == want

            out.append(_pair_rule(tech, label, i, target, sends))
    else:
        cells = tuple(rule.indexes(n))
        if cells:
            out.append(_violation_rule(rule, grid, tech, f"{rule.label} {_span(cells, n)}", cells))


def compile_rules(grid: Grid) -> RuleKit:
    """The houses, extra peer pairs and rules of ``grid``'s constraints (see the module)."""
    n = grid.n
    houses: list[tuple[str, tuple[int, ...]]] = []
    pairs: set[tuple[int, int]] = set()
    rules: list[Rule] = []

    def clique(cells: Sequence[int]) -> None:
        for a in cells:
            for b in cells:
                if a < b:
                    pairs.add((a, b))

    for rule in grid.constraints:
        if isinstance(rule, v.Diagonal):
            houses.append((f"the {rule.direction} diagonal", _idx(rule.diagonal_cells(n), n)))
        elif isinstance(rule, v.DisjointGroups):
            for k, group in enumerate(rule.groups(grid.shape)):
                houses.append((f"disjoint group {k + 1}", tuple(group)))
        elif isinstance(rule, v.ExtraRegion):
            cells = _idx(rule.cells, n)
            if len(cells) == n:
                houses.append((f"the extra region {_span(cells, n)}", cells))
            else:
                clique(cells)
        elif isinstance(rule, v.AntiKnight):
            pairs.update(v.knight_pairs(n))
        elif isinstance(rule, v.AntiKing):
            pairs.update(v.king_pairs(n))
        elif isinstance(rule, v.NonConsecutive | v.KropkiNegative | v.XVNegative):
            if isinstance(rule, v.NonConsecutive):
                ok: Callable[[int, int], bool] = lambda a, b: abs(a - b) != 1  # noqa: E731
                links = v.orthogonal_pairs(n)
            elif isinstance(rule, v.KropkiNegative):
                ok, links = rule.holds, rule.pairs(grid)
            else:
                ok, links = (lambda a, b: a + b not in (5, 10)), v.undotted_pairs(grid, "xv")
            tech = TECHNIQUE_OF_KIND[rule.kind]
            for a, b in links:
                rules.append(_pair_rule(tech, f"{rule.label} on {_span((a, b), n)}", a, b, ok))
        else:
            if isinstance(rule, v.Killer | v.Renban | v.NabnerLine):
                clique(_idx(rule.cells, n))
            _compile(rule, grid, rules)
    order = {name: k for k, name in enumerate(RULE_TECHNIQUES)}
    rules.sort(key=lambda r: (order[r.technique], len(r.cells)))
    return RuleKit(tuple(houses), frozenset(pairs), tuple(rules))


def _more_fillings(domains: Sequence[int], clash: Sequence[Sequence[int]], budget: int) -> bool:
    """True when there are more than ``budget`` partial fillings from ``domains`` (a cell's digit not that of an
    earlier one listed in ``clash``): the nodes :func:`enumerate_rule`'s walk counts when nothing prunes."""
    total = width = 1
    for m in domains:
        width *= m.bit_count()
        total += width
    if total - 1 <= budget:  # not even without the clashes
        return False
    digits = [[d + 1 for d in range(m.bit_length()) if m >> d & 1] for m in domains]
    size = len(domains)
    prefix = [0] * size
    nodes = 0

    def walk(k: int) -> bool:
        nonlocal nodes
        banned = 0
        for j in clash[k]:
            banned |= 1 << prefix[j]
        if k + 1 == size:  # the last cell: its digits, counted at once
            nodes += (domains[k] << 1 & ~banned).bit_count()
            return nodes <= budget
        for d in digits[k]:
            if banned >> d & 1:
                continue
            nodes += 1
            if nodes > budget:
                return False
            prefix[k] = d
            if not walk(k + 1):
                return False
        return True

    return not walk(0)


def enumerate_rule(
    rule: Rule,
    domains: Sequence[int],
    peers: Sequence[frozenset[int]],
    budget: int = MAX_NODES,
    tried: list[int] | None = None,
) -> tuple[list[int], int] | None:
    """Every filling of ``rule``'s cells from ``domains`` (a candidate mask per cell, in order) that keeps it.

    Two of its cells that are peers (``peers``: each cell's peer set, by board index) hold different
    digits. Returns, for each cell, the mask of the digits some filling gives it (all zero: no filling
    keeps the rule), and the mask of the digits every filling places somewhere; None when more than
    ``budget`` partial fillings were tried (no conclusion). The partial fillings tried are added to ``tried[0]``.
    """
    if tried is None:
        tried = [0]
    if rule.search is not None:
        return rule.search(domains, budget, tried)
    cells = rule.cells
    size = len(cells)
    clash = [[j for j in range(k) if cells[j] in peers[cells[k]]] for k in range(size)]
    if rule.prune is None and _more_fillings(domains, clash, budget):
        # No prune: the walk would visit every partial filling, so it would run out of budget, or first find every
        # candidate allowed and nothing needed, which says as little. Counting them is much cheaper than checking.
        tried[0] += budget + 1
        return None
    supported = [0] * size
    needed = -1
    digits = [[d + 1 for d in range(m.bit_length()) if m >> d & 1] for m in domains]
    prefix: list[int] = []
    nodes = 0
    check, prune = rule.check, rule.prune

    def walk(k: int) -> bool:
        """False when the budget ran out, or when every candidate is supported and nothing more can be learned."""
        nonlocal nodes, needed
        if k == size:
            if check(prefix):
                seen = 0
                for j, d in enumerate(prefix):
                    supported[j] |= 1 << (d - 1)
                    seen |= 1 << (d - 1)
                needed &= seen
                if needed == 0 and supported == list(domains):
                    return False
            return True
        banned = 0
        for j in clash[k]:
            banned |= 1 << prefix[j]
        for d in digits[k]:
            if banned >> d & 1:
                continue
            nodes += 1
            if nodes > budget:
                return False
            prefix.append(d)
            if (prune is None or prune(prefix)) and not walk(k + 1):
                prefix.pop()
                return False
            prefix.pop()
        return True

    finished = walk(0)
    tried[0] += nodes
    if not finished and nodes > budget:
        return None
    return supported, max(needed, 0)
