"""``POST /generate`` of ``sudoku serve`` for variant puzzles (``rules``, ``givens``, ``template``), on a real server.

The server is a real ``sudoku serve --port 0`` process (tests/test_serve.py's helpers); every puzzle it
makes is read back from its JSON and from its f-puzzles link, and counted again here with another engine
than the server's (cp-sat counts them there, as ``sudoku generate`` does unless told).
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")

from sudokit import count_solutions, parse_puzzle  # noqa: E402
from sudokit.model.variants import to_dict  # noqa: E402
from tests.conftest import ROOT  # noqa: E402
from tests.test_serve import (  # noqa: E402
    EASY,
    SUDOKU,
    cli_json,
    installing,
    post,
    serving,
    start_server,
    stop_server,
)

#: The first real f-puzzles link of the variant links (anti-king, arrows, thermometers).
LINK = next(
    line for line in (ROOT / "puzzles" / "variants" / "links.txt").read_text().splitlines() if line[:4] == "http"
)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from serving("backtrack,cp-sat,sat")


def unique(record: dict[str, Any], engine: str) -> Any:
    """The puzzle of a generated record, read from its JSON and from its link (the same), counted by ``engine``."""
    grid = parse_puzzle(json.dumps(record["puzzle"]))
    opened = parse_puzzle(record["link"])  # what a browser opens: the same givens and rules (in f-puzzles' order)
    assert opened.cells == grid.cells and sorted(map(repr, opened.constraints)) == sorted(map(repr, grid.constraints))
    counted = count_solutions(grid, engine, limit=2)
    assert (counted.count, counted.exact) == (1, True)
    assert counted.solution is not None and counted.solution.to_line() == record["solution"]
    return grid


def test_a_killer_without_givens_comes_back_unique_and_the_same_seed_makes_it_again(server: str) -> None:
    body = {"rules": ["killer"], "givens": False, "seed": 11}
    made = post(server, "/generate", body)
    assert made.status_code == 200
    answer = made.json()
    assert (answer["status"], answer["seed"], len(answer["puzzles"])) == ("made", 11, 1)
    [record] = answer["puzzles"]
    assert (record["givens"], record["rules"], record["no_givens"], record["box"]) == (0, ["killer"], True, "3x3")
    grid = unique(record, "sat")
    assert grid.kinds == {"killer"} and not any(grid.cells)
    cages = [set(rule.cells) for rule in grid.constraints]
    assert sum(len(c) for c in cages) == 81 and len(set().union(*cages)) == 81  # the cages cover the board
    assert post(server, "/generate", body).json() == answer
    other = post(server, "/generate", {**body, "seed": 12}).json()
    assert other["status"] == "made" and other["puzzles"][0]["puzzle"] != record["puzzle"]


def test_variant_puzzles_are_those_sudoku_generate_makes_with_the_same_seed(server: str) -> None:
    made = post(server, "/generate", {"box": "2x3", "rules": ["killer", "thermometer"], "seed": 5, "count": 2})
    answer = made.json()
    assert answer["status"] == "made"
    args = ("--box", "2x3", "--rules", "killer,thermometer", "--seed", "5", "-n", "2", "-f", "json", "-q")
    cli = cli_json("generate", *args)
    assert [{k: v for k, v in r.items() if k != "link"} for r in answer["puzzles"]] == cli
    for record in answer["puzzles"]:
        grid = unique(record, "backtrack")
        assert grid.kinds == {"killer", "thermometer"} and record["rules"] == ["killer", "thermometer"]


def test_a_template_link_keeps_its_rules_and_gets_new_minimal_givens(server: str) -> None:
    template = parse_puzzle(LINK)
    answer = post(server, "/generate", {"template": LINK, "seed": 3, "minimal": True}).json()
    assert answer["status"] == "made"
    [record] = answer["puzzles"]
    assert record["rules"] == sorted(template.kinds) and record["minimal"] is True
    assert record["puzzle"]["constraints"] == to_dict(template)["constraints"]
    grid = unique(record, "backtrack")
    givens = record["puzzle"]["givens"]
    assert grid.count_givens() == record["givens"] == sum(1 for c in givens if c != ".")
    for cell in (k for k, c in enumerate(givens) if c != "."):  # minimal: without any one given, several solutions
        fewer = {**record["puzzle"], "givens": givens[:cell] + "." + givens[cell + 1 :]}
        assert count_solutions(json.dumps(fewer), "backtrack", limit=2).count == 2


def test_an_unknown_rule_is_a_400_with_the_line_sudoku_generate_says(server: str) -> None:
    said = subprocess.run(
        [SUDOKU, "generate", "--rules", "killer,fog"], capture_output=True, text=True, timeout=120, check=False
    )
    assert said.returncode == 2
    line = said.stderr.strip().split("--rules: ", 1)[1]
    answer = post(server, "/generate", {"rules": ["killer", "fog"]})
    assert (answer.status_code, answer.json()) == (400, {"error": f"rules: {line}"})
    assert "'fog'" in line and "(it draws: killer, little-killer, sandwich, thermometer," in line


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"rules": "killer"}, "'rules' must be a list of rule names"),
        ({"rules": []}, "rules: no rule given"),
        ({"template": "puzzles/variants/links.txt"}, "template: character 8: '/' is not a digit or a blank"),
        ({"template": str(ROOT / "puzzles" / "variants" / "corpus.txt")}, "a request reads no file"),
        ({"template": EASY}, "template: the puzzle has no variant rule"),
        ({"rules": ["killer"], "template": LINK}, "give one of them"),
        ({"givens": False}, "'givens': false needs 'rules' with killer"),
        ({"rules": ["thermometer"], "givens": False}, "'givens': false needs 'rules' with killer"),
        ({"template": LINK, "givens": False}, "'givens': false needs 'rules' with killer"),
        ({"rules": ["killer"], "givens": "no"}, "'givens' must be true or false"),
        ({"rules": ["killer"], "strategy": "nope"}, "unknown strategy 'nope'"),
        ({"box": "2x2", "rules": ["killer"], "level": "extreme"}, "level extreme: no puzzle on a 4x4 board reaches it"),
    ],
)
def test_a_bad_variant_request_is_a_400_naming_what_is_wrong(server: str, body: Any, words: str) -> None:
    answer = post(server, "/generate", body)
    assert answer.status_code == 400
    assert list(answer.json()) == ["error"] and words in answer.json()["error"]


def test_a_generation_past_its_time_limit_gets_the_timeout_answer_and_the_server_serves_on(server: str) -> None:
    start = time.monotonic()
    late = post(server, "/generate", {"rules": ["killer"], "givens": False, "count": 100, "time_limit": 0.5})
    waited = time.monotonic() - start
    assert late.status_code == 200
    answer = late.json()
    assert answer["status"] == "timeout" and len(answer["puzzles"]) < 100
    assert answer["error"].endswith("of 100 puzzles made within the time limit of 0.5 s")
    assert waited < 30  # its budget is 0.5 s: a guard against a hang, not a measure
    again = post(server, "/generate", {"box": "2x2", "rules": ["killer"], "seed": 1}).json()
    assert again["status"] == "made"


def test_an_engine_that_overruns_a_generation_has_its_worker_killed_and_replaced(tmp_path: Path) -> None:
    """A test double that takes killer cages and, counting a puzzle whose first cell is blank, sits in C for ever."""
    env = installing(tmp_path, **{"long-c-call-cages": "tests.plugins.killers:LongCCallOnCages"})
    proc, url, _ = start_server("--engines", "long-c-call-cages,backtrack", env=env)
    try:
        body = {"rules": ["killer"], "givens": False, "strategy": "long-c-call-cages", "time_limit": 0.5}
        hung = post(url, "/generate", body)
        made = post(url, "/generate", {"box": "2x2", "rules": ["killer"], "givens": False, "seed": 2}).json()
        health = httpx.get(url + "/health", timeout=30).json()
    finally:
        stop_server(proc)
    assert hung.status_code == 200
    assert (hung.json()["status"], hung.json()["puzzles"]) == ("timeout", [])
    assert "killed" in hung.json()["error"]
    assert made["status"] == "made" and made["puzzles"][0]["givens"] == 0
    assert health["served"] == 2 and health["engines"] == ["long-c-call-cages", "backtrack"]


def test_the_openapi_document_describes_every_field_each_endpoint_takes(server: str) -> None:
    spec = httpx.get(server + "/openapi.json", timeout=30).json()
    posts = {path: item["post"] for path, item in spec["paths"].items() if "post" in item}
    assert "/generate" in posts
    for path, operation in posts.items():
        described = operation["requestBody"]["content"]["application/json"]["schema"]["properties"]
        refused = post(server, path, {"nothing": 1}).json()["error"]  # "unknown field ... (this endpoint takes a, b)"
        taken = refused.split("(this endpoint takes ", 1)[1].removesuffix(")").split(", ")
        assert sorted(described) == sorted(taken), path
    rules = posts["/generate"]["requestBody"]["content"]["application/json"]["schema"]["properties"]["rules"]
    assert "killer" in rules["items"]["enum"] and "thermometer" in rules["items"]["enum"]
