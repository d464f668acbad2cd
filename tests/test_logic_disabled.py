"""Techniques left out of the logical steps: f-puzzles' ``disabledlogic`` (its solver's families), the HTTP API's
``"disabled"`` and ``sudoku hint``/``explain --without``. A family left out is never used, and the path stays sound."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator

import pytest

from sudokit import parse_puzzle, solve
from sudokit.features.logic import LOGIC_FAMILIES, disabled_techniques, steps
from sudokit.model.grid import Grid

from .conftest import PUZZLES

HARDEST = [line.strip() for line in (PUZZLES / "hardest.txt").read_text().splitlines() if len(line.strip()) == 81]
FISHY = HARDEST[8]  # its path takes X-Wings or Swordfish, pairs and locked candidates
WINGED = HARDEST[6]  # XY-Wings
CHAINED = HARDEST[10]  # skyscrapers and other chains


def variant(name: str) -> str:
    """The puzzle of corpus.txt named ``name`` (its JSON line)."""
    lines = (PUZZLES / "variants" / "corpus.txt").read_text().splitlines()
    return next(lines[k + 1] for k, line in enumerate(lines) if line.startswith(f"# {name}:"))


def solution_of(puzzle: str | Grid) -> tuple[int, ...]:
    found = solve(puzzle, "backtrack", limit=2, time_limit=60)
    assert found.count == 1 and found.solution is not None
    return found.solution.cells


def sound_path(puzzle: str | Grid, disabled: tuple[str, ...] = ()) -> list[str]:
    """The techniques of the whole path of ``puzzle``, every step checked against its one solution."""
    grid = parse_puzzle(puzzle) if isinstance(puzzle, str) else puzzle
    solution = solution_of(grid)
    used = []
    for step in steps(grid, disabled):
        for cell, digit in step.placements:
            assert solution[cell] == digit, step
        for cell, digit in step.eliminations:
            assert solution[cell] != digit, step
        used.append(step.technique)
    return used


@pytest.mark.parametrize(
    ("puzzle", "family"),
    [
        (FISHY, "fishes"),
        (FISHY, "tuples"),
        (FISHY, "pointing"),
        (WINGED, "wings"),
        (CHAINED, "aic"),
        (variant("pencil-marks"), "contradictions"),
        (variant("pencil-marks"), "wings"),
    ],
    ids=["fishes", "tuples", "pointing", "wings", "aic", "variant-contradictions", "variant-wings"],
)
def test_a_family_left_out_is_never_used_and_every_step_stays_sound(puzzle: str, family: str) -> None:
    techniques = LOGIC_FAMILIES[family]
    assert set(sound_path(puzzle)) & techniques  # the path takes the family when it may
    without = sound_path(puzzle, (family.upper(),))  # f-puzzles' names, in any case
    assert not set(without) & techniques
    assert without  # the path goes on with the techniques left


def test_every_family_left_out_leaves_singles_and_rules() -> None:
    used = sound_path(variant("pencil-marks"), tuple(LOGIC_FAMILIES))
    left = {t for family in LOGIC_FAMILIES.values() for t in family}
    assert not set(used) & left
    assert {"naked single", "hidden single"} & set(used) and used[-1] == "needs search"


def test_technique_names_leave_out_that_technique_alone() -> None:
    assert disabled_techniques(["x-wing", " Skyscraper "]) == {"X-Wing", "skyscraper"}
    assert disabled_techniques(["locked candidates"]) >= {
        "locked candidates (pointing)",
        "locked candidates (claiming)",
    }
    assert disabled_techniques(["forcing"]) == LOGIC_FAMILIES["contradictions"]
    used = sound_path(FISHY, ("X-Wing",))
    assert "X-Wing" not in used and "naked pair" in used


@pytest.mark.parametrize("name", ["fish", "singles", "killer cage", "", 3])
def test_an_unknown_name_is_refused_naming_it_and_the_families(name: object) -> None:
    with pytest.raises(ValueError, match=r"no technique or f-puzzles logic family .* tuples, pointing, fishes"):
        disabled_techniques([name])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="fish"):
        next(steps(FISHY, ["fish"]))


# --- the command line ---------------------------------------------------------------------------------


def test_explain_without_leaves_the_families_out_and_refuses_an_unknown_one(sudoku: str) -> None:
    def explain(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sudoku, "explain", FISHY, "-f", "json", *args], capture_output=True, text=True)

    fishes = LOGIC_FAMILIES["fishes"]
    assert {json.loads(line).get("technique") for line in explain().stdout.splitlines()} & fishes
    proc = explain("--without", "fishes,Tuples")
    assert proc.returncode == 0, proc.stderr
    used = [json.loads(line).get("technique") for line in proc.stdout.splitlines()]
    assert not set(used) & (fishes | LOGIC_FAMILIES["tuples"]) and len(used) > 10
    bad = explain("--without", "fishes,fish")
    assert bad.returncode == 2 and not bad.stdout
    assert bad.stderr.startswith("sudoku: error: --without: no technique or f-puzzles logic family 'fish'")
    assert len(bad.stderr.splitlines()) == 1


@pytest.fixture(scope="module")
def sudoku() -> str:
    from .test_serve import SUDOKU

    return SUDOKU


# --- the server: f-puzzles' WebSocket and the HTTP API ----------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    pytest.importorskip("starlette")
    from .test_serve import serving

    yield from serving("backtrack")


def test_solvepath_and_step_honour_disabledlogic(server: str) -> None:
    from .test_serve import ask, fpuzzles_data, socket

    solution = solution_of(FISHY)
    fishes = tuple(sorted(LOGIC_FAMILIES["fishes"]))
    with socket(server) as ws:
        plain = ask(ws, 1, "solvepath", fpuzzles_data(FISHY))
        left = ask(ws, 2, "solvepath", fpuzzles_data(FISHY, disabledlogic=["fishes", "wings"]))
        first = ask(ws, 3, "step", fpuzzles_data(FISHY, disabledlogic=["contradictions"]))
        unknown = ask(ws, 4, "solvepath", fpuzzles_data(FISHY, disabledlogic=["fishes", "fish"]))
        not_a_list = ask(ws, 5, "step", fpuzzles_data(FISHY, disabledlogic="fishes"))
    assert any(line.startswith(fishes) for line in plain["message"].splitlines())
    assert left["type"] == "logical" and left["isValid"]
    lines = left["message"].splitlines()
    assert len(lines) > 5 and not any(line.startswith(fishes) for line in lines)
    for cell, digit in zip(left["cells"], solution, strict=True):  # sound: the solution kept in every cell
        assert cell["value"] == digit if cell["value"] else digit in cell["candidates"]
    assert first["type"] == "logical" and first["message"] == "Initial candidates.\n"  # the family is known
    assert unknown["type"] == "invalid" and unknown["nonce"] == 4
    assert unknown["message"].startswith("no technique or f-puzzles logic family 'fish' to leave out")
    assert not_a_list == {
        "nonce": 5,
        "type": "invalid",
        "message": "disabledlogic must be a list of logic family names, not 'fishes'",
    }


def test_hint_and_explain_take_disabled(server: str) -> None:
    from .test_serve import EASY, post

    fishes = LOGIC_FAMILIES["fishes"]
    explained = post(server, "/explain", {"puzzle": FISHY, "disabled": ["fishes"]})
    assert explained.status_code == 200
    used = [step["technique"] for step in explained.json()["steps"]]
    assert not set(used) & fishes and len(used) > 10
    assert {step["technique"] for step in post(server, "/explain", {"puzzle": FISHY}).json()["steps"]} & fishes
    assert post(server, "/hint", {"puzzle": EASY}).json()["technique"] == "naked single"
    hint = post(server, "/hint", {"puzzle": EASY, "disabled": ["Naked Single"]})
    assert hint.status_code == 200 and hint.json()["technique"] == "hidden single"
    unknown = post(server, "/hint", {"puzzle": FISHY, "disabled": ["fish"]})
    assert unknown.status_code == 400
    assert unknown.json()["error"].startswith("disabled: no technique or f-puzzles logic family 'fish'")
    wrong = post(server, "/explain", {"puzzle": FISHY, "disabled": "fishes"})
    assert wrong.status_code == 400 and "'disabled' must be a list" in wrong.json()["error"]
