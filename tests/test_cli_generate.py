"""``sudoku generate``: unique (and minimal) puzzles, proved by a second engine, reproducible, in every format."""

from __future__ import annotations

import csv
import io
import json
import re
import signal
import subprocess
import sys
import time
from functools import cache
from pathlib import Path

import pytest

from sudokit import Grid, get_strategy
from sudokit.model.shape import Shape
from tests.conftest import PUZZLES, assert_complete_records, refused, sudoku, wait_for_records


@cache
def cpsat():  # the second engine: generate counts with backtrack (or sat), never with cp-sat
    return get_strategy("cp-sat", workers=1)


def count(puzzle: Grid) -> int:
    result = cpsat().solve(puzzle, limit=2)
    assert result.status.value in ("solved", "unsolvable"), result
    return result.count


def records(*args: str) -> list[dict]:
    done = sudoku("generate", "-f", "json", "-q", *args)
    assert done.exit_code == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def images(n: int, symmetry: str, i: int) -> list[int]:
    """Cell ``i``'s images under ``symmetry``, written out here independently of sudokit."""
    y, x = divmod(i, n)
    maps = {
        "rot180": [(n - 1 - y, n - 1 - x)],
        "rot90": [(x, n - 1 - y), (n - 1 - y, n - 1 - x), (n - 1 - x, y)],
        "mirror": [(y, n - 1 - x)],
    }[symmetry]
    return [a * n + b for a, b in maps]


def test_the_same_seed_gives_the_same_output_byte_for_byte_whatever_the_jobs() -> None:
    args = ("generate", "--box", "3x3", "--number", "4", "--seed", "7", "--minimal", "-f", "json", "-q")
    one = sudoku(*args, "--jobs", "1")
    two = sudoku(*args, "--jobs", "2")
    again = sudoku(*args, "--jobs", "1")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout == again.stdout
    assert len({json.loads(line)["puzzle"] for line in one.stdout.splitlines()}) == 4
    other = sudoku("generate", "--box", "3x3", "--number", "4", "--seed", "8", "--minimal", "-f", "json", "-q")
    assert not set(one.stdout.splitlines()) & set(other.stdout.splitlines())


def test_without_a_seed_one_is_drawn_and_shown_so_that_the_run_can_be_replayed() -> None:
    first = sudoku("generate", "--box", "2x3", "--number", "2")
    assert first.exit_code == 0
    seed = next(line.split()[2] for line in first.stderr.splitlines() if line.startswith("sudoku: seed "))
    replay = sudoku("generate", "--box", "2x3", "--number", "2", "--seed", seed)
    assert replay.stdout == first.stdout and len(first.stdout.splitlines()) == 2
    assert f"seed {seed}" in replay.stderr.splitlines()[-1]  # the summary names it too


@pytest.mark.parametrize("box", ["2x3", "3x3"])
def test_every_puzzle_is_unique_and_minimal_by_a_second_engine(box: str) -> None:
    shape = Shape.parse(box)
    made = records("--box", box, "--number", "2", "--seed", "11", "--minimal")
    assert [r["index"] for r in made] == [1, 2]
    for record in made:
        puzzle = Grid.parse(record["puzzle"], box)
        assert puzzle.shape == shape and record["givens"] == puzzle.count_givens() > 0
        assert count(puzzle) == 1, record["puzzle"]
        solution = Grid.parse(record["solution"], box)
        assert cpsat().solve(puzzle).solution == solution
        for i, v in enumerate(puzzle.cells):  # removal: every given is needed
            if v:
                fewer = list(puzzle.cells)
                fewer[i] = 0
                assert count(Grid(fewer, shape)) == 2, f"{record['puzzle']}: cell {i} can go"


def test_without_minimal_the_puzzles_are_unique() -> None:
    for record in records("--box", "3x3", "--number", "3", "--seed", "4"):
        assert count(Grid.parse(record["puzzle"])) == 1


@pytest.mark.parametrize("symmetry", ["rot180", "rot90", "mirror"])
def test_the_givens_have_the_symmetry_asked_for(symmetry: str) -> None:
    for record in records("--box", "3x3", "--number", "2", "--seed", "21", "--symmetry", symmetry, "--minimal"):
        puzzle = Grid.parse(record["puzzle"])
        given = {i for i, v in enumerate(puzzle.cells) if v}
        assert all(set(images(9, symmetry, i)) <= given for i in given), record["puzzle"]
        assert count(puzzle) == 1


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_level_is_honoured_and_reported(level: str) -> None:
    from sudokit.features.rating import rate

    for record in records("--number", "2", "--seed", "3", "--level", level):
        rating = rate(Grid.parse(record["puzzle"]))
        assert record["level"] == str(rating.level) and str(rating.level).lower() == level
        assert record["score"] == rating.score


def test_every_format_parses_back_to_the_same_puzzles() -> None:
    common = ("generate", "--box", "2x3", "--number", "3", "--seed", "5", "-q")
    made = records(*common[1:])
    puzzles = [Grid.parse(r["puzzle"], "2x3") for r in made]
    assert all(r["seed"] == 5 and r["box"] == "2x3" and r["level"] is None for r in made)
    lines = sudoku(*common).stdout.splitlines()
    assert [Grid.parse(line, "2x3") for line in lines] == puzzles
    rows = list(csv.DictReader(io.StringIO(sudoku(*common, "-f", "csv").stdout)))
    assert [Grid.parse(row["puzzle"], "2x3") for row in rows] == puzzles
    assert [row["solution"] for row in rows] == [r["solution"] for r in made]
    assert [int(row["index"]) for row in rows] == [1, 2, 3]
    blocks = sudoku(*common, "-f", "pretty").stdout.strip().split("\n\n")
    assert len(blocks) == 3
    for block, puzzle in zip(blocks, puzzles, strict=True):
        title, *grid = block.splitlines()
        assert title.startswith("puzzle ") and f"{puzzle.count_givens()} givens" in title
        cells = "".join(ch for line in grid for ch in line if ch.isdigit() or ch == ".")
        assert Grid.parse(cells, "2x3") == puzzle


def test_output_file_is_written_and_not_replaced_without_force(tmp_path: Path) -> None:
    out = tmp_path / "made.txt"
    first = sudoku("generate", "--seed", "2", "--number", "2", "-O", str(out), "-q")
    assert first.exit_code == 0 and first.stdout == ""
    text = out.read_text()
    assert [Grid.parse(line) for line in text.splitlines()]
    refused = sudoku("generate", "--seed", "3", "-O", str(out))
    assert refused.exit_code == 2 and out.read_text() == text
    assert len(refused.stderr.splitlines()) == 1 and "--force" in refused.stderr
    replaced = sudoku("generate", "--seed", "3", "-O", str(out), "--force", "-q")
    assert replaced.exit_code == 0 and out.read_text() != text and len(out.read_text().splitlines()) == 1


def test_a_puzzle_not_made_in_time_is_reported() -> None:
    # a 25x25 puzzle takes seconds to make: none is made in 0.2 s
    done = sudoku("generate", "--box", "5x5", "-t", "0.2", "--seed", "1")
    assert done.exit_code == 1 and done.stdout == ""
    assert "puzzle 1 (seed " in done.stderr and "not made within 0.2 s" in done.stderr


def test_a_level_not_reached_in_time_says_what_the_attempts_were_rated() -> None:
    # seed 1's first 225 attempts on 6x6 are 216 easy and 8 hard: none extreme in 0.3 s
    done = sudoku("generate", "--box", "2x3", "--level", "extreme", "-t", "0.3", "--seed", "1")
    assert done.exit_code == 1 and done.stdout == ""
    [line, _summary] = done.stderr.splitlines()
    rated = r"(, \d+ (easy|medium|hard|unfair))*"
    said = rf"sudoku: puzzle 1 \(seed \d+\) not made within 0\.3 s \(\d+ attempts{rated}, none extreme\)"
    assert re.fullmatch(said, line), line


@pytest.mark.parametrize("box", ["2x2", "1x4"])
def test_a_level_no_puzzle_of_the_board_reaches_is_refused_at_once(box: str) -> None:
    # every 4x4 puzzle is solved by singles (tests/test_generate.py): before, each puzzle spun through its time limit
    done = sudoku("generate", "--box", box, "--level", "hard", "--number", "3", "--seed", "1")
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr == "sudoku: error: level hard: no puzzle on a 4x4 board reaches it (levels reached: easy)\n"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--level", "unknown"], "--level"),
        (["--box", "bad"], "'bad'"),
        (["--box", "3x"], "'3x'"),
        (["--number", "0"], "--number"),
        (["--symmetry", "spiral"], "--symmetry"),
        (["--seed", "x"], "--seed"),
        (["-t", "-1"], "--time-limit"),
        (["--strategy", "nope"], "'nope'"),
        (["--resume", "-O", "x.txt"], "--resume"),
        (["--force"], "--force"),
        (["-f", "xml"], "--format"),
    ],
)
def test_bad_options_are_one_line_usage_errors(args: list[str], says: str) -> None:
    done = sudoku("generate", *args)
    assert done.exit_code == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("sudoku: error: ")
    assert says in done.stderr and "no such command" not in done.stderr.lower()


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_resume_continues_a_file_to_what_one_run_writes_byte_for_byte(tmp_path: Path, fmt: str) -> None:
    common = ("generate", "--box", "2x3", "--seed", "13", "-f", fmt, "-q")
    fresh = tmp_path / f"fresh.{fmt}"
    assert sudoku(*common, "--number", "5", "-O", str(fresh)).exit_code == 0
    whole = fresh.read_bytes()
    assert len(whole.splitlines()) == 5 + (fmt == "csv")

    part = tmp_path / f"part.{fmt}"
    assert sudoku(*common, "--number", "3", "-O", str(part)).exit_code == 0
    resumed = sudoku(*common[:-1], "--number", "5", "-O", str(part), "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert part.read_bytes() == whole and "2 puzzles made" in resumed.stderr

    cut = len(b"".join(whole.splitlines(keepends=True)[:3])) + 7  # a torn 4th line, as a kill leaves it
    for size in (cut, 5):  # 5 bytes: not even a whole first line
        torn = tmp_path / f"torn{size}.{fmt}"
        torn.write_bytes(whole[:size])
        again = sudoku(*common, "--number", "5", "-O", str(torn), "--resume")
        assert again.exit_code == 0, again.stderr
        assert torn.read_bytes() == whole


def test_resume_refuses_a_file_of_another_run_and_leaves_it_untouched(tmp_path: Path) -> None:
    out = tmp_path / "made.json"
    assert (
        sudoku("generate", "--box", "2x3", "--seed", "13", "--number", "2", "-f", "json", "-O", str(out)).exit_code == 0
    )
    text = out.read_text()
    for args, says in [
        (["--seed", "14", "--number", "3"], "--seed 13, not 14"),
        (["--seed", "13", "--number", "1"], "beyond --number 1"),
        (["--seed", "13", "--number", "3", "--level", "easy"], "--level"),
        (["--seed", "13", "--number", "3", "--symmetry", "rot180"], "made with --symmetry none, not rot180"),
        (["--seed", "13", "--number", "3", "--minimal"], "made with no --minimal, not --minimal"),
        (["--seed", "13", "--number", "3", "-f", "csv"], "not the csv header"),
        (["--number", "3"], "--seed"),
        (["--seed", "13", "--number", "3", "-f", "line"], "json or csv"),
    ]:
        fmt = [] if "-f" in args else ["-f", "json"]
        done = sudoku("generate", "--box", "2x3", *fmt, *args, "-O", str(out), "--resume")
        assert done.exit_code == 2 and done.stdout == "", (args, done.stderr)
        assert len(done.stderr.splitlines()) == 1 and says in done.stderr, (args, done.stderr)
        assert out.read_text() == text


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_resume_refuses_records_that_do_not_say_their_symmetry_and_minimality(tmp_path: Path, fmt: str) -> None:
    """Records of an older sudokit carry no symmetry and minimal: whether they are this run's cannot be told."""
    out = tmp_path / f"made.{fmt}"
    args = ("generate", "--box", "2x3", "--seed", "13", "-f", fmt, "-O", str(out))
    assert sudoku(*args, "--number", "2", "--minimal").exit_code == 0
    if fmt == "json":
        made = [json.loads(line) for line in out.read_text().splitlines()]
        assert [(r["symmetry"], r["minimal"]) for r in made] == [("none", True)] * 2
        old = "".join(json.dumps({k: v for k, v in r.items() if k not in ("symmetry", "minimal")}) + "\n" for r in made)
    else:
        rows = list(csv.reader(io.StringIO(out.read_text())))
        assert rows[0][-2:] == ["symmetry", "minimal"] and [r[-2:] for r in rows[1:]] == [["none", "true"]] * 2
        old = "".join(",".join(r[:-2]) + "\n" for r in rows)
    out.write_text(old)
    done = sudoku(*args, "--number", "3", "--minimal", "--resume")
    assert done.exit_code == 2 and out.read_text() == old
    says = "line 1 does not say the --symmetry and --minimal it was made with" if fmt == "json" else "csv header"
    [line] = done.stderr.splitlines()
    assert line.startswith(f"sudoku: error: cannot resume {out}: ") and says in line, line


def test_an_interrupted_resumed_run_counts_the_puzzles_of_the_whole_file(tmp_path: Path) -> None:
    """After Ctrl-C a resumed run says how many puzzles the file holds, not how many it made itself."""
    out = tmp_path / "made.json"
    args = [sys.executable, "-m", "sudokit", "generate", "--box", "2x2", "--seed", "5", "-f", "json", "-O", str(out)]
    assert subprocess.run([*args, "-n", "30", "-q"], capture_output=True, timeout=60).returncode == 0
    process = subprocess.Popen([*args, "-n", "10000000", "--resume", "-j", "1"], stderr=subprocess.PIPE, text=True)
    try:
        wait_for_records(out, process, least=60)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, stderr
    held = len(assert_complete_records(out))
    assert held >= 60
    assert stderr.splitlines()[-1] == (
        f"sudoku: interrupted after {held:,} puzzles; every record written is complete "
        f"(continue with --resume --seed 5 --output {out})"
    )


@pytest.mark.parametrize("fmt", ["line", "json"])
def test_parquet_output_takes_csv_records_only(tmp_path: Path, fmt: str) -> None:
    # line or json text was written into the .parquet file with its first record taken for a header
    out = tmp_path / "made.parquet"
    done = sudoku("generate", "-n", "2", "--seed", "1", "-f", fmt, "-O", str(out), "-q")
    assert done.exit_code == 2
    assert done.stderr.strip() == (
        f"sudoku: error: --output {out}: Parquet files are written from csv records (-f csv), without --resume"
    )
    assert not out.exists()


def test_parquet_output_of_csv_records_holds_every_puzzle(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "made.parquet"
    assert sudoku("generate", "-n", "3", "--seed", "1", "-f", "csv", "-O", str(out), "-q").exit_code == 0
    rows = pq.read_table(out).to_pylist()
    expected = list(csv.DictReader(io.StringIO(sudoku("generate", "-n", "3", "--seed", "1", "-f", "csv").stdout)))
    assert [r["puzzle"] for r in rows] == [r["puzzle"] for r in expected]
    assert [r["solution"] for r in rows] == [r["solution"] for r in expected]


def test_a_killed_forced_run_keeps_its_records_in_place_of_the_old_file(tmp_path: Path) -> None:
    """SIGTERM stops generate as Ctrl-C does (exit 143, the line saying how far it got): with --force the
    records made so far replace the old file (written beside it until then), and nothing is left beside."""
    out = tmp_path / "made.json"
    out.write_text("an old record\n")
    args = [sys.executable, "-m", "sudokit", "generate", "--box", "2x2", "--seed", "3", "-f", "json", "-j", "1"]
    process = subprocess.Popen([*args, "-n", "10000000", "-O", str(out), "--force"], stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(6000):  # until the new file beside OUT holds records, or 60 s
            parts = [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
            if (parts and parts[0].read_bytes().count(b"\n") >= 20) or process.poll() is not None:
                break
            time.sleep(0.01)
        assert out.read_text() == "an old record\n", "the old file was cut before the run ended"
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 143, stderr
    made = assert_complete_records(out)
    assert len(made) >= 20 and [r["index"] for r in made] == list(range(1, len(made) + 1))
    assert stderr.splitlines()[-1] == (
        f"sudoku: interrupted after {len(made):,} puzzles; every record written is complete "
        f"(continue with --resume --seed 3 --output {out})"
    )
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


# --- generate runs on the batch session: its output-file guarantees are solve's -------------------------


def test_resume_of_an_output_that_is_not_a_regular_file_is_refused_as_solve_refuses_it() -> None:
    """A device holds no records to continue: before generate ran on Session, it read the write-only
    /dev/null and failed with "Bad file descriptor" (outside the CLI, an OSError), while solve said why."""
    puzzle = (PUZZLES / "easy50.txt").read_text().split()[0]
    said = "cannot resume /dev/null: not a regular file"
    refused(sudoku("generate", "--box", "2x2", "--seed", "1", "-f", "json", "--resume", "-O", "/dev/null"), said)
    refused(sudoku("solve", puzzle, "-f", "json", "--resume", "-O", "/dev/null"), said)


def test_resume_refuses_an_overlong_line_and_leaves_the_file_whole(tmp_path: Path) -> None:
    """A file whose only line is 17 MiB without a newline is no generate output: before, generate read the
    whole line (memory without bound), took it for a torn record and cut the file to nothing. Like solve,
    it now reads at most MAX_RECORD bytes of a line and refuses the file, leaving every byte of it."""
    from sudokit.runtime.output import MAX_RECORD

    out = tmp_path / "data.json"
    text = b"x" * (MAX_RECORD + (1 << 20))
    out.write_bytes(text)
    said = f"cannot resume {out}: line 1 is longer than {MAX_RECORD:,} bytes: not a record"
    refused(sudoku("generate", "--box", "2x2", "--seed", "1", "-f", "json", "--resume", "-O", str(out)), said)
    assert out.read_bytes() == text
    puzzle = (PUZZLES / "easy50.txt").read_text().split()[0]
    refused(sudoku("solve", puzzle, "-f", "json", "--resume", "-O", str(out)), said)
    assert out.read_bytes() == text
