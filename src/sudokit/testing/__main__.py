"""``python -m sudokit.testing``: list the kit's checks, or run them on installed engines without pytest.

``python -m sudokit.testing`` prints every check (group, name, what it asks) as a Markdown table;
``python -m sudokit.testing NAME [NAME ...]`` runs every check on each named engine and prints the
report; ``-k TEXT`` keeps the checks whose name contains TEXT. Exit status: 0 when every engine
passed, 1 when a check failed, 2 for a usage error (an unknown engine or check).
"""

from __future__ import annotations

import argparse
import sys

from sudokit.errors import StrategyError


def checks_table() -> str:
    """Every check as a row of a Markdown table: group, name, what it asks of an engine."""
    from sudokit.testing import all_checks

    rows = ["| group | check | what it asks of an engine |", "|---|---|---|"]
    rows += [f"| {c.group} | `{c.name}` | {_cell(c.doc)} |" for c in all_checks()]
    return "\n".join(rows)


def _cell(text: str) -> str:
    """``text`` safe in a Markdown table cell."""
    return text.replace("|", "\\|")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m sudokit.testing",
        description="List sudokit's conformance checks, or run them on installed engines.",
    )
    parser.add_argument("engines", nargs="*", metavar="NAME", help="installed engines to check (none: list the checks)")
    parser.add_argument("-k", dest="keyword", default=None, help="only the checks whose name contains this text")
    args = parser.parse_args(argv)
    from sudokit.testing import all_checks, check_strategy

    names = [c.name for c in all_checks() if args.keyword is None or args.keyword in c.name]
    if not names:
        parser.error(f"no check name contains {args.keyword!r}")
    if not args.engines:
        print(checks_table())
        return 0
    failed = False
    for engine in args.engines:
        try:
            report = check_strategy(engine, checks=names, on_fail=None)
        except StrategyError as err:
            parser.error(str(err))
        print(report)
        failed = failed or not report.ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
