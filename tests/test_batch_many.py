"""The batch path (:mod:`sudokit.runtime.fastpath`): plain puzzles in blocks, one ``solve_many`` call each.

Its output must be the per-puzzle path's, byte for byte but the elapsed times, for every form it
serves; its reader must give the reader's records; every batch guarantee (one record per puzzle in
input order, failed ones included, ``--resume``, Ctrl-C, ``--jobs``, time limits) must hold; a wrong
batch answer must be an ``error`` record naming the engine. The engine is the real ``numba`` one,
loaded once in this process so that the forked workers share its compiled code; the wrong answers
come from test engines (tests/plugins/many.py) whose ``solve`` is right and only ``solve_many`` lies.
"""

from __future__ import annotations

import io
import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit import Grid, ManyResults, get_strategy, is_solution
from sudokit.engines.api import run
from sudokit.engines.workers import WorkerPool
from sudokit.io.reader import Record, read_arguments
from sudokit.runtime.batch import SolveJob, solve_records
from sudokit.runtime.fastpath import Block, answer_block, expand_blocks, read_items, uniform_cells
from sudokit.runtime.output import RecordFormat
from sudokit.runtime.session import Session
from tests.plugins.many import (
    Batched,
    Counted,
    Exits,
    ExitsAlways,
    Liar,
    NumpyLiar,
    Raises,
    SleepsInBatch,
    SlowBatch,
)

from .conftest import PUZZLES, SIZES, assert_complete_records, counted, puzzles, wait_for_records
from .timing import hang_guard, spent

pytest.importorskip("numba")

CLUES = puzzles("17clue.txt")


@pytest.fixture(scope="module", autouse=True)
def numba_loaded() -> None:
    """The numba engine loaded (and its kernel compiled or read from the cache) once, before any fork."""
    get_strategy("numba").solve(Grid.parse(CLUES[0]))


def mixed_lines() -> list[str]:
    """Plain puzzles with every other kind of record between them, all from the shipped files."""
    grid = (PUZZLES / "leetcode37.txt").read_text().strip().splitlines()
    json_board = json.dumps([[ch for ch in row.replace(" ", "")] for row in grid])
    counts = (PUZZLES / "counts.txt").read_text().splitlines()[:8]
    twelve = (SIZES / "box3x4.txt").read_text().splitlines()[:2]
    sixteen = (SIZES / "box4x4.txt").read_text().splitlines()[:2]
    top = puzzles("top95.txt")[:6]
    lines = [*CLUES[:5], "# a comment", "", "55" + CLUES[0][2:], CLUES[1].replace(".", "0"), "bad", f"  {CLUES[5]}  "]
    lines += [*counts, json_board, "[", *CLUES[6:8], *grid, *CLUES[8:10], *grid[:4], *CLUES[10:12], *twelve]
    lines += [*sixteen, CLUES[12] + ":a note", CLUES[13] + ':{"json": 1}', CLUES[14].lower(), *top]
    lines += ["5 3 0 0 7 0 0 0 0 " * 9, *CLUES[15:60]]
    lines += [f"{CLUES[60]} # a name", f"{CLUES[61]}\t9.2", f"{CLUES[62]}\tanything: at all", *CLUES[63:66]]
    return lines


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """mixed_lines() with a byte-order mark and every line ending."""
    lines = mixed_lines()
    path = tmp_path_factory.mktemp("mixed") / "mixed.txt"
    text = "\ufeff" + "\r\n".join(lines[:30]) + "\r" + "\n".join(lines[30:]) + "\n"
    path.write_bytes(text.encode())
    return path


def session(
    inputs: list[Path | str],
    strategy: object = "numba",
    *,
    fmt: str = "line",
    count: bool = False,
    unique: bool = False,
    limit: int | None = None,
    stats: bool = False,
    jobs: int = 1,
    time_limit: float | None = 60.0,
    output: Path | None = None,
    resume: bool = False,
) -> tuple[int, str, str]:
    """``sudoku solve`` in this process, as the command line builds it: (exit status, stdout, stderr)."""
    limit = 2 if unique else limit or (10_000 if count else 1)
    render = RecordFormat(fmt, counting=count, limit=limit, header=True, stats=stats, unique=unique)
    job = SolveJob(strategy, {}, render, keep=1 if count else None, time_limit=time_limit)  # type: ignore[arg-type]
    out, err = io.StringIO(), io.StringIO()
    status = Session([str(p) for p in inputs], job, jobs=jobs, output=output, resume=resume, out=out, err=err).run()
    return status, out.getvalue(), err.getvalue()


def timeless(text: str) -> str:
    """Records and messages without what differs run to run: elapsed times, rates."""
    text = re.sub(r'"elapsed_ms": [0-9.e+-]+', '"elapsed_ms": T', text)
    text = re.sub(r"(?m)^((?:[^,\n]*,){5})[0-9.e+-]+,", r"\1T,", text)  # the csv column
    text = re.sub(r"in [0-9.]+ ms", "in T ms", text)
    return re.sub(r"in [0-9.]+ s \([0-9.,]+ puzzles/s\)", "in T", text)


# --- the reader: blocks expand to the reader's own records --------------------------------------------


def test_blocks_expand_to_the_readers_records(mixed: Path, tmp_path: Path) -> None:
    items = list(read_items([str(mixed)]))
    assert list(expand_blocks(items)) == list(read_arguments([str(mixed)]))
    blocks = [item for item in items if isinstance(item, Block)]
    assert sum(b.lines for b in blocks) > 60  # most of the file goes as blocks
    # No line end at the end of the file, and no byte-order mark.
    bare = tmp_path / "bare.txt"
    bare.write_text("\n".join(mixed_lines()))
    assert list(expand_blocks(read_items([str(bare)]))) == list(read_arguments([str(bare)]))


@pytest.mark.parametrize("size", [1, 7, 80, 81, 82, 163, 1000])
def test_blocks_cut_anywhere_by_the_read_size(mixed: Path, monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """Pieces read end mid-line, between a "\\r" and its "\\n", inside a grid: the records stay the reader's."""
    monkeypatch.setattr("sudokit.runtime.fastpath.READ_SIZE", size)
    assert list(expand_blocks(read_items([str(mixed)]))) == list(read_arguments([str(mixed)]))


def test_a_huge_run_of_other_lines_goes_to_the_reader(mixed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sudokit.runtime.fastpath.READ_SIZE", 50)
    monkeypatch.setattr("sudokit.runtime.fastpath.MAX_CARRY", 120)
    assert list(expand_blocks(read_items([str(mixed)]))) == list(read_arguments([str(mixed)]))


def test_a_line_too_long_to_read_stays_one_invalid_record(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_text("\n".join([CLUES[0], "1" * 70_000, CLUES[1], CLUES[2] + ":" + "x" * 70_000, CLUES[3]]) + "\n")
    records = list(expand_blocks(read_items([str(path)])))
    assert records == list(read_arguments([str(path)]))
    assert [r.line for r in records] == [1, 2, 3, 4, 5]
    assert records[1].problem and records[3].problem


def test_a_box_shape_makes_lines_of_its_size_plain(tmp_path: Path) -> None:
    six = [line.split(":")[0] for line in (SIZES / "box2x3.txt").read_text().splitlines()[:3]]
    path = tmp_path / "six.txt"
    path.write_text("\n".join(six) + "\n")
    from sudokit.model.shape import Shape

    box = Shape.of(3, 2)
    items = list(read_items([str(path)], box=box))
    assert [type(i) for i in items] == [Block]
    assert list(expand_blocks(items)) == list(read_arguments([str(path)], box=box))


# --- the output: byte for byte the per-puzzle path's ----------------------------------------------------


FORMS = [
    ("line", {}),
    ("json", {}),
    ("csv", {}),
    ("line", {"count": True}),
    ("json", {"count": True}),
    ("csv", {"unique": True}),
    ("json", {"unique": True}),
    ("line", {"limit": 3}),
    ("csv", {"limit": 3}),
    ("line", {"stats": True}),
    ("line", {"unique": True}),
    ("csv", {"stats": True, "unique": True}),
]


@pytest.mark.parametrize(("fmt", "options"), FORMS, ids=[f"{f}-{'-'.join(o) or 'solve'}" for f, o in FORMS])
def test_output_is_the_per_puzzle_paths(
    mixed: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, options: dict[str, object]
) -> None:
    fast = session([mixed], fmt=fmt, **options)  # type: ignore[arg-type]
    monkeypatch.setenv("SUDOKIT_FASTPATH", "0")
    slow = session([mixed], fmt=fmt, **options)  # type: ignore[arg-type]
    assert fast[0] == slow[0] == 2  # some records are invalid
    assert timeless(fast[1]) == timeless(slow[1])
    assert timeless(fast[2]) == timeless(slow[2])  # messages in order, stats notes, the summary
    assert len(fast[1].splitlines()) == len(list(read_arguments([str(mixed)]))) + (fmt == "csv")


def test_jobs_two_and_one_write_the_same(mixed: Path) -> None:
    one = session([mixed, PUZZLES / "top95.txt", mixed], fmt="json", jobs=1)
    two = session([mixed, PUZZLES / "top95.txt", mixed], fmt="json", jobs=2)
    assert one[0] == two[0] == 2
    assert timeless(one[1]) == timeless(two[1])
    records = [json.loads(line) for line in two[1].splitlines()]
    k = len(list(read_arguments([str(mixed)])))
    assert len(records) == 2 * k + 95
    assert [r["line"] for r in records[k : k + 95]] == list(range(1, 96))


def test_the_engine_offers_the_batch_method_and_the_session_takes_it() -> None:
    job = SolveJob("numba", {}, RecordFormat("line"), time_limit=60.0)
    assert job.blocks
    with WorkerPool(job.task(), 1) as pool:
        pool.start()
        assert pool.info == {"many": True}
    assert not SolveJob("numba", {}, RecordFormat("pretty"), time_limit=60.0).blocks  # pretty goes one by one
    assert not SolveJob("numba", {}, RecordFormat("json", limit=3), time_limit=60.0).blocks  # every solution


def test_batch_answers_are_each_puzzles_own() -> None:
    """``solve_many`` answers (count, exact, status, first solution) as ``solve`` does, puzzle by puzzle."""
    engine = get_strategy("numba")
    grids = [Grid.parse(p) for p in puzzles("top95.txt")[:30] + [p for p, _ in counted()][:20]]
    for limit in (1, 2, 50):
        outcomes = list(solve_records(_records(grids), engine, limit=limit, keep=1))
        for outcome, grid in zip(outcomes, grids, strict=True):
            alone = run(engine, grid, limit=limit, keep=1)
            result = outcome.result
            assert (result.status, result.count, result.exact) == (alone.status, alone.count, alone.exact)
            assert result.solution == alone.solution
            assert dict(result.stats) == dict(alone.stats)


def _records(grids: list[Grid]) -> list[Record]:
    return [Record(g.to_line(), "<test>", i) for i, g in enumerate(grids, 1)]


def test_library_outcomes_are_the_per_puzzle_ones(mixed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def summary(outcomes: list[object]) -> list[tuple[object, ...]]:
        return [
            (o.index, o.record, o.status, o.error, o.grid, o.result and (o.result.count, o.result.solutions))  # type: ignore[attr-defined]
            for o in outcomes
        ]

    fast = list(solve_records(read_arguments([str(mixed)]), "numba", jobs=2))
    monkeypatch.setenv("SUDOKIT_FASTPATH", "0")
    slow = list(solve_records(read_arguments([str(mixed)]), "numba", jobs=2))
    assert summary(fast) == summary(slow)
    assert [o.status for o in fast].count("invalid") == 5  # a repeated given, bad, and three grids cut short


# --- wrong batch answers, a failing batch method ---------------------------------------------------------


@pytest.mark.parametrize("liar", [Liar, NumpyLiar], ids=["buffers", "numpy"])
def test_a_wrong_batch_answer_is_an_error_record_naming_the_engine(tmp_path: Path, liar: type[Liar]) -> None:
    """Answers in any buffers, or in numpy arrays (sent back packed, as numba's are), are checked one by one."""
    path = tmp_path / "some.txt"
    path.write_text("\n".join(CLUES[:12]) + "\n")
    status, out, err = session([path], liar(), fmt="json", time_limit=None)  # no limit: one call, not slices
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 2
    assert [r["line"] for r in records] == list(range(1, 13))
    bad = {r["line"]: r["error"] for r in records if r["status"] == "error"}
    assert sorted(bad) == [1, 4, 7, 10]  # every third answer of the call was spoiled
    assert all(message.startswith(f"strategy '{liar.name}' failed: returned ") for message in bad.values())
    assert "returned an invalid grid (solution 1 of 1)" in bad[1]
    assert "returned count 99 for a limit of 1" in bad[4]
    assert "returned status solved with count 1 and 0 solutions" in bad[7]
    for r in records:
        if r["status"] == "solved":
            assert is_solution(Grid.parse(r["puzzle"]), Grid.parse(r["solution"]))
    assert err.count("sudoku: error: ") == 4 and f"{path}:4: strategy '{liar.name}' failed" in err


def test_wrong_numpy_answers_in_line_records_are_error_records(tmp_path: Path) -> None:
    """The line form of a block of alike lines is made by numpy only when every answer checks: not here."""
    path = tmp_path / "some.txt"
    path.write_text("\n".join(CLUES[:12]) + "\n")
    status, out, err = session([path], NumpyLiar(), fmt="line", unique=True, time_limit=None)
    assert status == 2
    lines = out.splitlines()
    assert [line.endswith(":error") for line in lines] == [i % 3 == 0 for i in range(12)]
    assert lines[1].endswith(":unique") and err.count("strategy 'numpy-liar' failed: returned ") == 4


def test_alike_lines_read_at_once_are_the_readers_puzzles(tmp_path: Path) -> None:
    """uniform_cells reads a block of alike lines as the reader reads each; any other block is left to it."""
    sixteen = (SIZES / "box4x4.txt").read_text().splitlines()[0].split(":")[0]
    alike = "\n".join([*CLUES[:40], CLUES[40].replace(".", "0")]) + "\n"
    odd = [f"{CLUES[0]}:a note\n", f"{CLUES[1]}\r\n", f"{sixteen}\n", f"{sixteen.lower()}\n{sixteen}\n"]
    for j, text in enumerate([alike, *[CLUES[3] + "\n" + t for t in odd]]):
        path = tmp_path / f"{j}.txt"
        path.write_bytes(text.encode())
        items = list(read_items([str(path)]))
        assert [type(i) for i in items] == [Block]  # every line plain
        read = uniform_cells(items[0], None)  # type: ignore[arg-type]
        if j == 0:
            assert read is not None
            assert read[1] == b"".join(bytes(r.parse(None).cells) for r in read_arguments([str(path)]))
        else:
            assert read is None  # a note, a "\r", two sizes of board: read line by line


def test_alike_lines_with_bad_ones_write_what_one_by_one_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A block of alike lines holding a repeated given and an unsolvable puzzle: the same records as the slow path."""
    unsolvable = "12345678." + "........9" + "." * 63  # row 1 needs its 9 where column 9 has one
    lines = [*CLUES[:20], "55" + CLUES[20][2:], unsolvable, *CLUES[21:30], CLUES[30].replace(".", "0")]
    path = tmp_path / "alike.txt"
    path.write_text("\n".join(lines) + "\n")
    assert [type(i) for i in read_items([str(path)])] == [Block]
    fast = [session([path], fmt="line"), session([path], fmt="line", unique=True)]
    monkeypatch.setenv("SUDOKIT_FASTPATH", "0")
    slow = [session([path], fmt="line"), session([path], fmt="line", unique=True)]
    assert [timeless(text) for run in fast for text in run[1:]] == [timeless(text) for run in slow for text in run[1:]]
    assert fast[0][0] == slow[0][0] == 2  # the repeated given is invalid
    records = fast[1][1].splitlines()
    assert len(records) == len(lines) and records[20].endswith(":invalid") and records[21].endswith(":none")


def test_an_honest_batch_engine_writes_what_one_by_one_writes(mixed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = session([mixed], Batched(), fmt="csv", count=True)
    monkeypatch.setenv("SUDOKIT_FASTPATH", "0")
    slow = session([mixed], Batched(), fmt="csv", count=True)
    assert timeless(fast[1]) == timeless(slow[1]) and fast[0] == slow[0]


def test_a_batch_method_that_raises_leaves_each_puzzle_to_solve(mixed: Path) -> None:
    fast = session([mixed], Raises(), fmt="line")
    slow = session([mixed], Batched(), fmt="line")
    assert fast[1] == slow[1] and fast[0] == slow[0] == 2


def test_a_batch_that_ends_its_worker_is_run_again_one_by_one(tmp_path: Path) -> None:
    """Only ``solve_many`` dies on the poison: the block's puzzles go one by one to ``solve``, and are all solved."""
    path = tmp_path / "poison.txt"
    path.write_text("\n".join([*CLUES[:3], "." * 81, CLUES[3], "bad", *CLUES[4:8]]) + "\n")
    status, out, err = session([path], Exits(), fmt="json", jobs=2)
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 2  # the invalid line
    assert [r["line"] for r in records] == list(range(1, 11))
    assert [r["status"] for r in records] == ["solved"] * 5 + ["invalid"] + ["solved"] * 4
    assert "Traceback" not in err


def test_a_batch_that_ends_its_worker_costs_only_the_puzzle_that_did_it(tmp_path: Path) -> None:
    """The poison ends the worker alone too: it is the one error record; the rest of its block is solved."""
    path = tmp_path / "poison.txt"
    path.write_text("\n".join([*CLUES[:3], "." * 81, CLUES[3], "bad", *CLUES[4:8]]) + "\n")
    status, out, err = session([path], ExitsAlways(), fmt="json", jobs=2)
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 2
    assert [r["line"] for r in records] == list(range(1, 11))
    assert [r["status"] for r in records] == ["solved"] * 3 + ["error", "solved", "invalid"] + ["solved"] * 4
    assert records[3]["error"] == "strategy 'exits-always' failed: its worker process ended (exit status 3)"
    assert all(is_solution(Grid.parse(r["puzzle"]), Grid.parse(r["solution"])) for r in records if r["solution"])
    assert "Traceback" not in err


def test_a_batch_method_past_its_puzzles_time_limits_is_not_believed(tmp_path: Path) -> None:
    """``solve_many`` sleeps 40 s on 20 puzzles at -t 1 and says it took no time: its worker is killed after one
    puzzle's budget, and the puzzles go one by one to the honest ``solve`` (before: all 20 answers taken)."""
    path = tmp_path / "twenty.txt"
    path.write_text("\n".join(CLUES[:20]) + "\n")
    status, out, err = session([path], SleepsInBatch(), fmt="json", stats=True, time_limit=1.0)
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in records] == list(range(1, 21))
    assert [r["status"] for r in records] == ["solved"] * 20, err
    assert [r["stats"]["batched"] for r in records] == [0] * 20  # no answer of the late batch call
    assert status == 0 and "Traceback" not in err


def test_a_slow_batch_method_within_its_puzzles_time_limits_is_believed(tmp_path: Path) -> None:
    """0.25 s a puzzle at -t 1: 5 s for 20, more than one puzzle's budget (4.1 s), yet no call is killed: the
    block goes to ``solve_many`` in slices sized from the time it takes, and every answer comes from it."""
    path = tmp_path / "twenty.txt"
    path.write_text("\n".join(CLUES[:20]) + "\n")
    status, out, err = session([path], SlowBatch(), fmt="json", stats=True, time_limit=1.0)
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["status"] for r in records] == ["solved"] * 20, err
    assert [r["stats"]["batched"] for r in records] == [1] * 20
    assert status == 0 and "Traceback" not in err


# --- time limits ----------------------------------------------------------------------------------------


def test_a_puzzle_past_its_time_limit_times_out_alone(tmp_path: Path) -> None:
    """Counting the solutions of empty boards runs out of time, each alone; the puzzles around them are solved."""
    empty = ["." * 81, "." * 256, "0" * 81]
    lines = [*CLUES[:20], *empty, *CLUES[20:40]]
    path = tmp_path / "timed.txt"
    path.write_text("\n".join(lines) + "\n")
    with spent() as took:
        status, out, _ = session([path], fmt="json", count=True, limit=10**12, time_limit=0.2)
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 1
    assert [r["line"] for r in records] == list(range(1, len(lines) + 1))
    statuses = [r["status"] for r in records]
    assert statuses == ["solved"] * 20 + ["timeout"] * 3 + ["solved"] * 20
    assert all(r["count"] == 1 and r["exact"] for r in records if r["status"] == "solved")
    timed = [r for r in records if r["status"] == "timeout"]
    # Not before the limit; past it only what a busy machine adds (a hang guard), and CPU time bounded.
    assert all(r["count"] > 0 and not r["exact"] and 150 < r["elapsed_ms"] < 1000 * hang_guard(0.2) for r in timed)
    assert took.cpu < 10 and took.wall < hang_guard(10), took


# --- interrupted and resumed ------------------------------------------------------------------------------


def test_resume_continues_inside_a_block(tmp_path: Path) -> None:
    """An output that ends mid-block (a kill between two writes of a run with notes) continues there."""
    path = tmp_path / "clues.txt"
    path.write_text("\n".join(CLUES[:5000]) + "\n")
    out = tmp_path / "out.csv"
    whole = session([path], fmt="csv", output=out)
    assert whole[0] == 0
    full = out.read_text()
    head = "".join(full.splitlines(keepends=True)[:3001])  # the header and 3000 records
    out.write_text(head + full.splitlines(keepends=True)[3001][:40])  # and a torn line
    status, _, err = session([path], fmt="csv", output=out, resume=True)
    assert status == 0, err
    assert "(resumed after 3000 already written)" in err
    assert timeless(out.read_text()) == timeless(full)


def test_sigint_mid_file_then_resume_gives_the_uninterrupted_output(tmp_path: Path) -> None:
    source = tmp_path / "clues.txt"
    source.write_text("\n".join(CLUES) + "\n")
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "sudokit", "solve", str(source), "-s", "numba", "-j", "1", "-f", "json"]
    process = subprocess.Popen([*command, "-O", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_records(out, process, least=1)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, stderr
    assert stderr.startswith("sudoku: interrupted after ") and f"--resume --output {out}" in stderr
    written = assert_complete_records(out)  # whole records only, the last one ended by its newline
    assert 0 < len(written) < len(CLUES), "not interrupted mid-file"
    assert [r["line"] for r in written] == list(range(1, len(written) + 1))

    done = subprocess.run([*command, "-O", str(out), "--resume"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"(resumed after {len(written)} already written)" in done.stderr
    status, uninterrupted, _ = session([source], fmt="json")
    assert status == 0
    assert timeless(out.read_text()) == timeless(uninterrupted)


def test_many_results_is_exported() -> None:
    import sudokit

    assert sudokit.ManyResults is ManyResults
    assert sudokit.offers_many(get_strategy("numba")) and not sudokit.offers_many(get_strategy("backtrack"))
    assert [s.value for s in sudokit.MANY_STATUS] == ["solved", "unsolvable", "timeout"]


def test_with_a_time_limit_the_slices_go_on_from_one_block_to_the_next(tmp_path: Path) -> None:
    """A block's first solve_many call is sized as the next one of the block before: one puzzle only in the first."""
    engine = Counted()
    for j in range(2):
        path = tmp_path / f"{j}.txt"
        path.write_text("\n".join(CLUES[100 * j : 100 * j + 100]) + "\n")
        (block,) = read_items([str(path)])
        one_by_one = lambda record: pytest.fail(f"{record.line} went alone")  # noqa: E731
        answers = answer_block(block, None, engine, str(path), None, 1, None, 60.0, RecordFormat("line"), one_by_one)
        assert [(kind, len(alone)) for kind, _, alone in answers] == [("slices", 0)]  # every puzzle in a call
        assert sum(n for _, n, _ in answers[0][1]) == 100
        if j == 0:
            assert engine.calls[:3] == [1, 8, 64]  # each at most 8 times the one before
            first = len(engine.calls)
    assert engine.calls[first] > 1 and len(engine.calls) - first < first


# --- workers forked warm ------------------------------------------------------------------------------------

WARM_PROBE = """
import sys
from sudokit.engines.workers import WorkerPool
from sudokit.runtime.batch import SolveTask


class Probe(SolveTask):
    def start(self, mark):
        warm = "numba" in sys.modules  # loaded before this worker was forked
        run = super().start(mark)
        run.info = {**run.info, "warm": warm}
        return run


for jobs in (1, 2):
    with WorkerPool(Probe("numba"), jobs, method="fork") as pool:
        pool.start()
        print(jobs, pool.info["warm"], "numba" in sys.modules)
"""


def test_several_forked_workers_inherit_numbas_load() -> None:
    """One worker loads numba itself (the caller stays light); with two, the caller loads it once before forking."""
    found = subprocess.run([sys.executable, "-c", WARM_PROBE], capture_output=True, text=True, timeout=120, check=True)
    assert found.stdout.split("\n")[:2] == ["1 False False", "2 True True"]


def test_only_sudokits_own_engine_that_asks_is_loaded_before_the_fork() -> None:
    """Only numba asks (``warm_before_fork``), read from the engines' sources: deciding imports no engine."""
    code = (
        "import json, sys\n"
        "from sudokit.engines.registry import default_registry\n"
        "registry = default_registry()\n"
        "warm = [name for name in registry.names() if registry.warms_before_fork(name)]\n"
        "print(json.dumps([warm, sorted(m for m in sys.modules if m.startswith('sudokit_strategies'))]))\n"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(found.stdout) == [["numba"], []]


@pytest.mark.parametrize("check", ["compiled", "numpy"])
def test_a_block_is_written_at_once_only_when_every_answer_checks(check: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The caller's check of a whole block (sudokit's compiled one where numba is loaded, numpy's else) passes the
    engine's answers, written as one text ("0" blanks written "."), and no block with one wrong solution: two
    cells of a row swapped, the digits relabelled (a grid, but not the puzzle's), a 0, a 17, a given's symbol
    changed to one of no puzzle. Those blocks are made record by record, the wrong answer an error."""
    from sudokit.engines import verify
    from sudokit.runtime import fastpath

    if check == "numpy":
        monkeypatch.setattr(verify, "_COMPILED_LINES", False)
    else:
        assert verify._compiled_lines() is not None
    lines = [*CLUES[:30], CLUES[30].replace(".", "0")]
    block = Block("x.txt", 1, "\n".join(lines) + "\n", len(lines))
    task = SolveJob("numba", {}, RecordFormat("line", limit=2, unique=True), time_limit=None).task()
    answer = task.start(lambda part: None)((0, block))
    many = fastpath._every_checked(0, block, answer, task)
    assert many is not None and many.answers == {"unique": 31}
    assert many.parts == ["".join(f"{Grid.parse(line).to_line()}:unique\n" for line in lines).encode()]

    ((kind, ((at, n, packed),), alone),) = answer  # one solve_many call: no time limit
    raw = packed[4]

    def spoiled(j: int, grid: list[int]) -> tuple[object, ...]:
        solutions = raw[: j * 81] + bytes(grid) + raw[(j + 1) * 81 :]
        return ((kind, ((at, n, (*packed[:4], solutions, *packed[5:])),), alone),)

    good = list(raw[7 * 81 : 8 * 81])
    blanks = [i for i in range(81) if lines[7][i] in ".0"]
    row = [i for i in blanks if i // 9 == blanks[0] // 9]
    swapped = list(good)
    swapped[row[0]], swapped[row[1]] = swapped[row[1]], swapped[row[0]]
    relabelled = [v % 9 + 1 for v in good]
    zero, far = list(good), list(good)
    zero[blanks[0]], far[blanks[-1]] = 0, 17
    for grid in (swapped, relabelled, zero, far):
        wrong = spoiled(7, grid)
        assert fastpath._every_checked(0, block, wrong, task) is None
        made = fastpath.finish_block(0, block, wrong, task, task.finish_one)
        errors = [p for p in made.parts if type(p) is not str and type(p) is not bytes]
        assert [(p.status, p.index) for p in errors] == [("error", 7)]
    odd = Block("x.txt", 1, block.text.replace(lines[7], lines[7].replace("1", "x", 1)), len(lines))
    assert fastpath._every_checked(0, odd, answer, task) is None  # a symbol of no puzzle: read line by line


def test_the_stats_travel_back_only_for_records_that_show_them() -> None:
    """A block's answer carries the search's counters for json records and ``--stats``, not for plain line records
    (some 40% of its bytes); the records are the same either way (tests above)."""
    block = Block("x.txt", 1, "".join(f"{line}\n" for line in CLUES[:20]), 20)

    def stats_sent(fmt: str, stats: bool) -> tuple[str, ...]:
        render = RecordFormat(fmt, limit=2, unique=True, stats=stats)
        task = SolveJob("numba", {}, render, time_limit=None).task()
        ((_, ((_, _, packed),), _),) = task.start(lambda part: None)((0, block))
        return tuple(key for key, _ in packed[6])

    assert stats_sent("line", False) == ()
    assert "nodes" in stats_sent("line", True) and stats_sent("line", True) == stats_sent("json", False)
