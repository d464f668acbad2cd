"""Memory that holds: backtrack's big variant boards need little."""

from __future__ import annotations

import json
import subprocess
import sys

# --- backtrack on 36x36 variant boards ---------------------------------------------------------------------

RULES = {
    "thermometer": {"kind": "thermometer", "cells": ["r1c1", "r1c2"]},
    "xv": {"kind": "xv", "cells": ["r1c1", "r1c2"], "letter": "X"},
    "renban": {"kind": "renban", "cells": ["r1c1", "r1c2", "r1c3"]},
    "kropki": {"kind": "kropki", "cells": ["r1c1", "r1c2"], "color": "white"},
    "non-consecutive": {"kind": "non-consecutive"},
}
_SOLVE_36 = """
import json, resource, sys, time
from sudokit import Grid, is_solution
from sudokit.reader import Record
from sudokit_strategies.backtrack import BacktrackStrategy
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))  # 1 GB
for text in sys.argv[1:]:
    grid = Record(text, "<test>").parse(None)
    before = time.process_time()
    result = BacktrackStrategy().solve(grid, time_limit=20)
    ok = result.solution is not None and is_solution(grid, result.solution)
    print(json.dumps([result.status.value, ok, time.process_time() - before]))
"""


def test_backtrack_solves_a_36x36_with_one_pair_or_line_rule_in_little_memory() -> None:
    """The empty 36x36 with one thermometer, XV, renban, kropki or the non-consecutive rule: each solved in a
    1 GB address space within seconds of CPU (its pair tables once took ~0.4 GB a second, before any deadline)."""
    texts = [json.dumps({"box": "6x6", "givens": "." * 1296, "constraints": [rule]}) for rule in RULES.values()]
    done = subprocess.run(
        [sys.executable, "-c", _SOLVE_36, *texts], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(status, ok) for status, ok, _ in found] == [("solved", True)] * len(RULES)
    assert all(cpu < 15 for _, _, cpu in found), found
